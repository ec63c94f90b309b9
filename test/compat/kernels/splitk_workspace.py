# Split-K GEMM through a global workspace (spec §5, §6, §8): the first
# T.Kernel writes each K slice's partial product into a T.alloc_global
# buffer, the second sums the slices into C (tile-lang's split-KV decoding
# and dequantize-gemm examples combine this way); and a GEMV whose row sums
# are a T.alloc_reducer finalized after a pipelined loop.
import tilelang.language as T


def matmul_split_combine(M, N, K, block_M, block_N, block_K, split_k, dtype=T.float16, accum_dtype=T.float32):
    splitK = K // split_k

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), accum_dtype)):
        partial = T.alloc_global((split_k, M, N), accum_dtype)
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), split_k, threads=128) as (bx, by, bz):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for ko in T.Pipelined(T.ceildiv(splitK, block_K), num_stages=2):
                T.copy(A[by * block_M, bz * splitK + ko * block_K], A_shared)
                T.copy(B[bz * splitK + ko * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, partial[bz, by * block_M : (by + 1) * block_M, bx * block_N : (bx + 1) * block_N])
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            acc = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(acc)
            for k in range(split_k):
                for i, j in T.Parallel(block_M, block_N):
                    acc[i, j] += partial[k, by * block_M + i, bx * block_N + j]
            T.copy(acc, C[by * block_M, bx * block_N])

    return main


def gemv_reducer(M, N, block_M=64, block_N=64, dtype=T.float16, accum_dtype=T.float32):
    @T.prim_func
    def main(a: T.Tensor((M, N), dtype), x: T.Tensor((N,), dtype), o: T.Tensor((M,), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as i0_m:
            o_reducer = T.alloc_reducer(block_M, accum_dtype, replication="all")
            T.clear(o_reducer)
            for i0_n in T.Pipelined(T.ceildiv(N, block_N), num_stages=2):
                a_smem = T.alloc_shared((block_M, block_N), dtype)
                T.copy(a[i0_m * block_M, i0_n * block_N], a_smem)
                a_frag = T.alloc_fragment((block_M, block_N), dtype)
                T.copy(a_smem, a_frag)
                x_frag = T.alloc_fragment(block_N, dtype)
                T.copy(x[i0_n * block_N], x_frag)
                for i1_m, i1_n in T.Parallel(block_M, block_N):
                    o_reducer[i1_m] += a_frag[i1_m, i1_n] * x_frag[i1_n]
            T.finalize_reducer(o_reducer)
            T.copy(o_reducer, o[i0_m * block_M])

    return main
