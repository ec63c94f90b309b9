# Fragments indexed outside T.Parallel, in tile-lang's prim_func style: the
# per-block flags an `if` reads in a serial loop around tile operations (as
# block-sparse attention reads its block mask), and a one-element fragment
# accumulated by per-thread code (as an RMS factor). tile-lang replicates
# such fragments: every thread holds all of them. Y = X * alpha + 1.
import tilelang.language as T

M = T.dynamic("M")
N = 96
block_M = 16
block_N = 32
dtype = T.float32


@T.prim_func
def scale_rows_scalar(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype), alpha: T.float32):
    with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
        coef = T.alloc_fragment((2,), dtype)
        flags = T.alloc_fragment((N // block_N,), T.int32)
        s = T.alloc_fragment((1,), dtype)
        x = T.alloc_fragment((block_M, block_N), dtype)
        for i in T.Parallel(2):
            coef[i] = T.if_then_else(i == 0, alpha, 1.0)
        for k in T.Parallel(N // block_N):
            flags[k] = k + 1
        s[0] = 0.0
        for k in T.serial(4):
            s[0] += coef[0] * 0.25
        for k in T.serial(N // block_N):
            if flags[k] != 0:
                T.copy(X[bx * block_M, k * block_N], x)
                for i, j in T.Parallel(block_M, block_N):
                    x[i, j] = x[i, j] * s[0] + coef[1]
                T.copy(x, Y[bx * block_M, k * block_N])


@T.prim_func
def copy_rows_replicated(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype)):
    # The block's first row copied into a replicated fragment, read back by a
    # T.Parallel over a distributed one (each thread its own copy, at any
    # column) and by the `if` around the output copy. Y = X.
    with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
        head = T.alloc_fragment((N,), dtype)
        x = T.alloc_fragment((block_M, N), dtype)
        T.copy(X[bx * block_M, 0:N], head)
        T.copy(X[bx * block_M, 0], x)
        for i, j in T.Parallel(block_M, N):
            x[i, j] = T.if_then_else(i == 0, head[N - 1 - j] * 0.0 + head[j], x[i, j])
        if head[0] == head[0]:  # not NaN
            T.copy(x, Y[bx * block_M, 0])
