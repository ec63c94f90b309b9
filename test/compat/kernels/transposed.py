# A fragment written transposed in a T.Parallel (xt[j, i] = x[i, j], as
# tile-lang's mamba chunk_state and gdn chunk_o_bwd do) and read back
# transposed: the layouts must give every thread the elements it reads.
# Y = X.
import tilelang.language as T

M = T.dynamic("M")
N = 64
block_M = 32
dtype = T.float32


@T.prim_func
def transpose_twice(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype)):
    with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
        x = T.alloc_fragment((block_M, N), dtype)
        xt = T.alloc_fragment((N, block_M), dtype)
        T.copy(X[bx * block_M, 0], x)
        for i, j in T.Parallel(block_M, N):
            xt[j, i] = x[i, j]
        for j, i in T.Parallel(N, block_M):
            xt[j, i] = xt[j, i] * 2.0
        for i, j in T.Parallel(block_M, N):
            x[i, j] = xt[j, i] * 0.5
        T.copy(x, Y[bx * block_M, 0])
