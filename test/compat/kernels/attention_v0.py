# Flash attention forward (tile-lang's example_mha_fwd_bhsd, non-causal) in
# the v0 subset: module constants instead of a factory with meta-level Python.
import tilelang.language as T

batch, heads, seq_len, dim = 1, 2, 200, 64
block_M, block_N, threads = 64, 64, 128
scale = (1.0 / dim) ** 0.5 * 1.44269504
shape = [batch, heads, seq_len, dim]
dtype, accum_dtype = T.float16, T.float32
n_blocks = (seq_len + block_N - 1) // block_N


@T.prim_func
def attention(Q: T.Tensor(shape, dtype), K: T.Tensor(shape, dtype), V: T.Tensor(shape, dtype),
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

