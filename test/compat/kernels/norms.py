# Row norms in tile-lang's prim_func style (tile-lang's examples/norm kernels
# with the eager-style sizes written as module constants).
import tilelang.language as T

M = T.dynamic("M")
N = 136
blk_m = 1
eps = 1e-05
dtype = T.float32
accum_dtype = T.float32


@T.prim_func
def rms_norm(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
    with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
        A_local = T.alloc_fragment((blk_m, N), dtype)
        A_pow_local = T.alloc_fragment((blk_m, N), dtype)
        A_powsum = T.alloc_fragment((blk_m,), dtype)
        T.copy(A[bx * blk_m:(bx + 1) * blk_m, :], A_local)
        for i, j in T.Parallel(blk_m, N):
            A_pow_local[i, j] = A_local[i, j] * A_local[i, j]
        T.reduce_sum(A_pow_local, A_powsum, dim=1)
        for i in T.Parallel(blk_m):
            A_powsum[i] = T.rsqrt(A_powsum[i] / N + 1e-12)
        for i, j in T.Parallel(blk_m, N):
            A_local[i, j] *= A_powsum[i]
        T.copy(A_local, B[bx * blk_m:(bx + 1) * blk_m, :])


@T.prim_func
def layernorm(X: T.Tensor((M, N), T.bfloat16), gamma: T.Tensor((N,), T.bfloat16), beta: T.Tensor((N,), T.bfloat16),
              Y: T.Tensor((M, N), T.bfloat16), Mean: T.Tensor((M,), accum_dtype), Rstd: T.Tensor((M,), accum_dtype)):
    with T.Kernel(T.ceildiv(M, blk_m), threads=256) as bx:
        X_smem = T.alloc_shared((blk_m, N), T.bfloat16)
        G_smem = T.alloc_shared((N,), T.bfloat16)
        B_smem = T.alloc_shared((N,), T.bfloat16)
        X_local = T.alloc_fragment((blk_m, N), accum_dtype)
        X_sq_local = T.alloc_fragment((blk_m, N), accum_dtype)
        sum_row = T.alloc_fragment((blk_m,), accum_dtype)
        sumsq_row = T.alloc_fragment((blk_m,), accum_dtype)
        mean_row = T.alloc_fragment((blk_m,), accum_dtype)
        rstd_row = T.alloc_fragment((blk_m,), accum_dtype)
        T.copy(X[bx * blk_m, 0], X_smem)
        T.copy(gamma, G_smem)
        T.copy(beta, B_smem)
        for i, j in T.Parallel(blk_m, N):
            X_local[i, j] = T.cast(X_smem[i, j], accum_dtype)
        for i, j in T.Parallel(blk_m, N):
            X_sq_local[i, j] = X_local[i, j] * X_local[i, j]
        T.reduce_sum(X_local, sum_row, dim=1)
        T.reduce_sum(X_sq_local, sumsq_row, dim=1)
        for i in T.Parallel(blk_m):
            mean_row[i] = sum_row[i] * (1.0 / N)
            rstd_row[i] = T.rsqrt(sumsq_row[i] * (1.0 / N) - mean_row[i] * mean_row[i] + eps)
            Mean[bx * blk_m + i] = mean_row[i]
            Rstd[bx * blk_m + i] = rstd_row[i]
        for i, j in T.Parallel(blk_m, N):
            X_smem[i, j] = T.cast((X_local[i, j] - mean_row[i]) * rstd_row[i] * T.cast(G_smem[j], accum_dtype)
                                  + T.cast(B_smem[j], accum_dtype), T.bfloat16)
        T.copy(X_smem, Y[bx * blk_m, 0])
