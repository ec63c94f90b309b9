# A flash-attention style factory using the meta-level Python of spec §3 that
# tile-lang's examples are written in: an autotune decorator with a config
# list built by a comprehension, a helper function, assert with an f-string,
# a lambda, a dict of pass configs, `from tilelang.autotuner import *`.
import itertools

import tilelang
import tilelang.language as T
from tilelang.autotuner import *


def get_configs():
    params = dict(block_M=[64], block_N=[64], threads=[128])
    return [dict(zip(params, v)) for v in itertools.product(*params.values())]


def log2e_scale(dim):
    return (1.0 / dim) ** 0.5 * 1.44269504


@autotune(configs=get_configs(), warmup=10, rep=10)
@tilelang.jit(out_idx=[3], pass_configs={tilelang.PassConfigKey.TL_ENABLE_FAST_MATH: True})
def attention(batch, heads, seq_len, dim, block_M=64, block_N=64, threads=128):
    assert dim % 16 == 0, f"dim={dim} must be a multiple of 16"
    scale = log2e_scale(dim)
    shape = [batch, heads, seq_len, dim]
    dtype, accum_dtype = T.float16, T.float32
    n_blocks = (lambda n: (n + block_N - 1) // block_N)(seq_len)

    @T.prim_func
    def main(Q: T.Tensor(shape, dtype), K: T.Tensor(shape, dtype), V: T.Tensor(shape, dtype),
             Output: T.Tensor(shape, dtype)):
        with T.Kernel(T.ceildiv(seq_len, block_M), heads, batch, threads=threads) as (bx, by, bz):
            Q_shared = T.alloc_shared([block_M, dim], dtype)
            K_shared = T.alloc_shared([block_N, dim], dtype)
            V_shared = T.alloc_shared([block_N, dim], dtype)
            acc_s = T.alloc_fragment([block_M, block_N], accum_dtype)
            acc_s_cast = T.alloc_fragment([block_M, block_N], dtype)
            acc_o = T.alloc_fragment([block_M, dim], accum_dtype)
            m = T.alloc_fragment([block_M], accum_dtype)
            m_prev = T.alloc_fragment([block_M], accum_dtype)
            r = T.alloc_fragment([block_M], accum_dtype)
            l = T.alloc_fragment([block_M], accum_dtype)
            l_blk = T.alloc_fragment([block_M], accum_dtype)
            T.copy(Q[bz, by, bx * block_M:(bx + 1) * block_M, :], Q_shared)
            T.fill(acc_o, 0)
            T.fill(l, 0)
            T.fill(m, -T.infinity(accum_dtype))
            for k in T.Pipelined(n_blocks, num_stages=1):
                T.copy(K[bz, by, k * block_N:(k + 1) * block_N, :], K_shared)
                for i, j in T.Parallel(block_M, block_N):
                    acc_s[i, j] = T.if_then_else(k * block_N + j >= seq_len, -T.infinity(accum_dtype), 0)
                T.gemm(Q_shared, K_shared, acc_s, transpose_B=True)
                T.copy(m, m_prev)
                T.reduce_max(acc_s, m, dim=1, clear=False)
                for i in T.Parallel(block_M):
                    r[i] = T.exp2(m_prev[i] * scale - m[i] * scale)
                for i, j in T.Parallel(block_M, dim):
                    acc_o[i, j] *= r[i]
                for i, j in T.Parallel(block_M, block_N):
                    acc_s[i, j] = T.exp2(acc_s[i, j] * scale - m[i] * scale)
                T.copy(V[bz, by, k * block_N:(k + 1) * block_N, :], V_shared)
                T.reduce_sum(acc_s, l_blk, dim=1)
                for i in T.Parallel(block_M):
                    l[i] = l[i] * r[i] + l_blk[i]
                T.copy(acc_s, acc_s_cast)
                T.gemm(acc_s_cast, V_shared, acc_o)
            for i, j in T.Parallel(block_M, dim):
                acc_o[i, j] /= l[i]
            T.copy(acc_o, Output[bz, by, bx * block_M:(bx + 1) * block_M, :])

    return main
