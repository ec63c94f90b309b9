# Buffer regions as operands of tile operations, in tile-lang's style: a
# scalar index drops its dimension, a slice keeps it with its extent.
import tilelang.language as T

M = T.dynamic("M")
N = 64
K = 96
block_M = 32
block_N = 32
block_K = 32
dtype = T.float16
accum = T.float32


@T.prim_func
def gemm_stages(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), accum)):
    # Double-buffered shared tiles indexed by stage: A_s[k % 2, :, :].
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
        A_s = T.alloc_shared((2, block_M, block_K), dtype)
        B_s = T.alloc_shared((2, block_K, block_N), dtype)
        C_f = T.alloc_fragment((block_M, block_N), accum)
        T.clear(C_f)
        for k in T.serial(K // block_K):
            T.copy(A[by * block_M, k * block_K], A_s[k % 2, :, :])
            T.copy(B[k * block_K, bx * block_N], B_s[k % 2, :, :])
            T.gemm(A_s[k % 2, :, :], B_s[k % 2, :, :], C_f)
        T.copy(C_f, C[by * block_M, bx * block_N])


@T.prim_func
def gemm_halves(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), accum)):
    # Column slices of A's tile and row slices of B's (K split in halves),
    # and column slices of the accumulator (N split in halves).
    with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
        A_s = T.alloc_shared((block_M, K), dtype)
        B_s = T.alloc_shared((K, N), dtype)
        C_f = T.alloc_fragment((block_M, N), accum)
        T.copy(A[bx * block_M, 0], A_s)
        T.copy(B[0, 0], B_s)
        T.gemm(A_s[:, 0:48], B_s[0:48, 0:32], C_f[:, 0:32], clear_accum=True)
        T.gemm(A_s[:, 48:96], B_s[48:96, 0:32], C_f[:, 0:32])
        T.clear(C_f[:, 32:64])
        T.gemm(A_s, B_s[:, 32:64], C_f[:, 32:64])
        T.copy(C_f, C[bx * block_M, 0])


@T.prim_func
def row_regions(X: T.Tensor((M, N), accum), S: T.Tensor((M, 2), accum), Z: T.Tensor((M, N), accum)):
    # Reductions into and out of regions, T.fill/T.clear of a row and of a
    # column block, T.cumsum of a region.
    with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
        x = T.alloc_fragment((block_M, N), accum)
        s = T.alloc_fragment((block_M, 2), accum)
        z = T.alloc_shared((block_M, N), accum)
        T.copy(X[bx * block_M, 0], x)
        T.reduce_max(x, s[:, 0], dim=1)
        T.reduce_sum(x[:, 0:32], s[:, 1], dim=1)
        T.copy(s, S[bx * block_M, 0])
        T.copy(x, z)
        T.cumsum(z[:, 0:16], dim=1)
        T.fill(z[:, 48:64], 2.5)
        T.clear(z[0, :])
        T.copy(z, Z[bx * block_M, 0])


@T.prim_func
def atomic_rows(X: T.Tensor((M, 32), accum), O: T.Tensor((2, M, 3, 32), accum)):
    # A 2-D value added into a 4-D region with unit dimensions between its
    # non-unit ones (not the destination's trailing dimensions).
    with T.Kernel(T.ceildiv(M, block_M), 3, threads=128) as (bx, h):
        x = T.alloc_shared((block_M, 32), accum)
        T.copy(X[bx * block_M, 0], x)
        T.atomic_add(O[1, bx * block_M:(bx + 1) * block_M, h, :], x)
        T.atomic_add(O[1, bx * block_M:(bx + 1) * block_M, h, :], x)
