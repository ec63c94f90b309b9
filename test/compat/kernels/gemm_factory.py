# A tile-lang style GEMM factory with its Python harness: the compatibility
# suite's self-test compiles it as it is and with the harness stripped.
import torch
import tilelang
import tilelang.language as T


def matmul(M, N, K, block_M, block_N, block_K, dtype=T.float16, accum_dtype=T.float32):
    @T.prim_func
    def gemm(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return gemm


def ref_program(A, B):
    return A @ B


def main():
    kernel = tilelang.compile(matmul(1024, 1024, 1024, 128, 128, 32), out_idx=[2])
    a = torch.randn(1024, 1024).cuda().half()
    b = torch.randn(1024, 1024).cuda().half()
    torch.testing.assert_close(kernel(a, b), ref_program(a, b), rtol=1e-2, atol=1e-2)


if __name__ == "__main__":
    main()
