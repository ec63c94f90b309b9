# Row softmax and a per-row scale with a dynamic row count, in tile-lang's
# prim_func style, harness free: compiles as it is.
import tilelang.language as T

M = T.dynamic("M")
N = 96
block_M = 16
dtype = T.float32


@T.prim_func
def softmax(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype)):
    with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
        x = T.alloc_fragment((block_M, N), dtype)
        m = T.alloc_fragment((block_M,), dtype)
        s = T.alloc_fragment((block_M,), dtype)
        T.copy(X[bx * block_M, 0], x)
        T.reduce_max(x, m, dim=1)
        for i, j in T.Parallel(block_M, N):
            x[i, j] = T.exp(x[i, j] - m[i])
        T.reduce_sum(x, s, dim=1)
        for i, j in T.Parallel(block_M, N):
            x[i, j] = x[i, j] / s[i]
        T.copy(x, Y[bx * block_M, 0])


@T.prim_func
def scale_rows(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype), alpha: T.float32):
    with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
        x = T.alloc_fragment((block_M, N), dtype)
        T.copy(X[bx * block_M, 0], x)
        for i, j in T.Parallel(block_M, N):
            x[i, j] = x[i, j] * alpha + 1.0
        T.copy(x, Y[bx * block_M, 0])


@T.prim_func
def first_half(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype)):
    # Deliberately writes only the first half of each block's rows: the
    # self-test checks that the suite reports the elements never written.
    with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
        x = T.alloc_fragment((block_M // 2, N), dtype)
        T.copy(X[bx * block_M, 0], x)
        T.copy(x, Y[bx * block_M, 0])
