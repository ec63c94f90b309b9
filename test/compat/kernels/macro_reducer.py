# Kernel-level constructs of spec §5 beyond v0: a @T.macro, T.alloc_reducer /
# T.finalize_reducer and T.vectorized (tile-lang's gemv_alloc_reducer).
import tilelang.language as T


def gemv_reducer(M, N, block_M=64, block_N=64, dtype=T.float16, accum_dtype=T.float32):
    @T.macro
    def load_tile(a, a_frag, i0_m, i0_n):
        a_smem = T.alloc_shared((block_M, block_N), dtype)
        T.copy(a[i0_m * block_M, i0_n * block_N], a_smem)
        T.copy(a_smem, a_frag)

    @T.prim_func
    def main(a: T.Tensor((M, N), dtype), x: T.Tensor((N,), dtype), o: T.Tensor((M,), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as i0_m:
            o_reducer = T.alloc_reducer(block_M, accum_dtype, replication="all")
            T.clear(o_reducer)
            for i0_n in T.Pipelined(T.ceildiv(N, block_N), num_stages=2):
                a_frag = T.alloc_fragment((block_M, block_N), dtype)
                load_tile(a, a_frag, i0_m, i0_n)
                x_frag = T.alloc_fragment(block_N, dtype)
                T.copy(x[i0_n * block_N], x_frag)
                for i1_m, i1_n in T.Parallel(block_M, block_N):
                    o_reducer[i1_m] += a_frag[i1_m, i1_n] * x_frag[i1_n]
            T.finalize_reducer(o_reducer)
            T.copy(o_reducer, o[i0_m * block_M])

    return main
