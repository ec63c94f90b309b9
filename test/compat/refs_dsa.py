"""NumPy references of tile-lang's DeepSeek sparse-attention indexer examples (dsa_hisa/,
dsa_sparse_finetune/indexer_bwd) and the DeepSeek v4 FP4 activation quantizer.

Written from what each kernel computes: fp8 x fp8 and bf16 x bf16 GEMMs accumulate in float32
(the reference sums in float64, then rounds where the kernel stores a narrower type).
"""
import numpy as np

from refs import f32, ref

FP4_VALUES = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0])


def fp4_e2m1(x):
    """Round to float4_e2m1 (values +-{0, .5, 1, 1.5, 2, 3, 4, 6}), nearest with ties to the even
    code, saturating at 6: the same as CUDA's __nv_cvt_float_to_fp4(x, __NV_E2M1,
    cudaRoundNearest) (cuda_fp4.h, CUDA 13.0) on every multiple of 1/8 in [-7, 7] and 400
    random values, compared once on this machine."""
    x = np.asarray(x, np.float64)
    mag = np.minimum(np.abs(x), 6.0)
    idx = np.clip(np.searchsorted(FP4_VALUES, mag), 1, 7)
    lo, hi = FP4_VALUES[idx - 1], FP4_VALUES[idx]
    dl, dh = mag - lo, hi - mag
    pick = np.where(dl < dh, idx - 1, np.where(dh < dl, idx, np.where((idx - 1) % 2 == 0, idx - 1, idx)))
    return np.sign(x) * FP4_VALUES[pick]


def fp4_e2m1_loop(x):
    """The same rounding, one element at a time by distance to each code (an independent check)."""
    out = np.zeros(np.shape(x))
    for i, v in np.ndenumerate(np.asarray(x, np.float64)):
        a = min(abs(v), 6.0)
        best = min(range(8), key=lambda c: (abs(a - FP4_VALUES[c]), c % 2))
        out[i] = np.copysign(FP4_VALUES[best], v) if v != 0 else 0.0
    return out


def _f32_bits(x):
    return np.asarray(x, np.float32).view(np.uint32).astype(np.int64)


def pow2_ceil_scale(amax, inv_max):
    """fast_round_scale: 2^(ceil(log2(amax * inv_max))) from the float32 bits (exponent - 127,
    plus one when any mantissa bit is set)."""
    v = _f32_bits(f32(amax) * np.float32(inv_max))
    e = ((v >> 23) & 0xFF) - 127 + ((v & ((1 << 23) - 1)) != 0)
    return np.exp2(e.astype(np.float64))


@ref
def ds4_fp4_quant(ins, p):
    """act_quant fp4_quant_kernel, per (row, block_size-column group): amax = max(|x|, 6 * 2^-126),
    s = fast_round_scale(amax, 1/6), quant = fp4(clamp(x / s, -6, 6)); scale = s."""
    x, g = ins["x"], p.get("block_size", 32)
    m, n = x.shape
    ng = -(-n // g)
    pad = np.zeros((m, ng * g))
    pad[:, :n] = x
    blocks = pad.reshape(m, ng, g)
    amax = np.maximum(np.abs(blocks).max(axis=2), 6 * 2.0 ** -126)
    s = pow2_ceil_scale(amax, 1.0 / 6.0)
    q = fp4_e2m1(np.clip(f32(blocks / s[:, :, None]), -6, 6))
    return {"quant": q.reshape(m, ng * g)[:, :n], "scale": s}


# ---- dsa_hisa ------------------------------------------------------------------------------


def fp8(x):
    import cabi
    return cabi.quantize(x, "float8_e4m3fn")


@ref
def hisa_block_mean_pool(ins, p):
    """fp8_native_block_mean_pooling: per pooling block of keys, each key row times its KScale is
    stored back into the fp8 tile (rounded to fp8), the rows are summed in float32 and divided by
    the block's key count; the mean is re-quantized: scale = max(amax / 448, 1e-10),
    BlockedK = fp8(mean / scale)."""
    k, ks = ins["K"], ins["KScale"]
    pb = p.get("pooling_block_size", 128)
    n = k.shape[0]
    nb = -(-n // pb)
    scaled = fp8(f32(k * ks[:, None]))
    bk, bs = np.zeros((nb, k.shape[1])), np.zeros(nb)
    for b in range(nb):
        rows = scaled[b * pb:min((b + 1) * pb, n)]
        mean = f32(f32(rows.sum(axis=0)) * f32(1.0 / rows.shape[0]))
        s = f32(max(np.abs(mean).max() * f32(1 / 448.0), 1e-10))
        bk[b], bs[b] = fp8(f32(mean * f32(1.0 / s))), s
    return {"BlockedK": bk, "BlockedKScale": bs}


hisa_block_mean_pool.gen = {"KScale": lambda s, rng, p: 0.1 + 0.01 * rng.random(s)}


def _key_ranges(shape, rng, p, total):
    """Per query [start, end) of visible keys: ragged, some queries with an empty tail."""
    start = rng.integers(0, total // 3, shape)
    end = np.minimum(start + rng.integers(total // 4, total, shape), total)
    return start, end


def _ks(total_key):
    return lambda s, rng, p: _key_ranges(s, np.random.default_rng(7), p, p[total_key])[0]


def _ke(total_key):
    return lambda s, rng, p: _key_ranges(s, np.random.default_rng(7), p, p[total_key])[1]


@ref
def hisa_block_sparse_mqa(ins, p):
    """fp8_native_block_sparse_mqa_attn_return_logits: for query t and its n-th top-k key block
    (TopKBlockIndex[t, n]), key j of that block (key = block * kv_block_size + j):
    Logits[t, n * kv_block_size + j] = sum_h relu((q[t, h] . K[key]) * KScale[key]) * Weights[t, h],
    or -inf when key lies outside [CuSeqLenKS[t], CuSeqLenKE[t])."""
    q, k, kscale, w = ins["IndexQ"], ins["IndexK"], ins["IndexKScale"], ins["Weights"]
    blocks, ks, ke = ins["TopKBlockIndex"].astype(int), ins["CuSeqLenKS"], ins["CuSeqLenKE"]
    heads, kvb = p.get("heads", 64), p["kv_block_size"]
    seq = w.shape[0]
    q = q.reshape(seq, heads, -1)
    keys = (blocks[:, :, None] * kvb + np.arange(kvb)[None, None, :]).reshape(seq, -1)
    s = np.einsum("thd,tkd->tkh", q, k[keys]) * kscale[keys][:, :, None]
    logits = (np.maximum(s, 0) * w[:, None, :]).sum(axis=2)
    outside = (keys < ks[:, None]) | (keys >= ke[:, None])
    return {"Logits": np.where(outside, -np.inf, logits)}


hisa_block_sparse_mqa.gen = {
    "TopKBlockIndex": lambda s, rng, p: rng.integers(0, p["seq_len_kv"] // p["kv_block_size"], s),
    "IndexKScale": lambda s, rng, p: rng.uniform(0.5, 1.5, s),
    "CuSeqLenKS": _ks("seq_len_kv"),
    "CuSeqLenKE": _ke("seq_len_kv"),
}


def _pool_starts(s, rng, p):
    """CuSeqLenBlockedKS: 0 or block_N (so that no query tile's key range runs past the end)."""
    return np.random.default_rng(11).integers(0, 2, s) * p.get("block_N", 256)


def _pool_ends(s, rng, p):
    start = _pool_starts(s, rng, p)
    kv = p["seq_len_blocked_kv"]
    return np.minimum(start + np.random.default_rng(12).integers(1, kv, s), kv)


@ref
def hisa_pool_mqa(ins, p):
    """pool_mqa_attn_return_logits_fp8: queries in tiles of block_Q = 128 // heads; a tile visits
    keys lo .. lo + ceil((hi - lo) / block_N) * block_N with lo = min KS, hi = max KE over its
    queries (clamped to seq_len_blocked_kv); every visited key of every query of the tile gets
    Logits[t, key] = sum_h relu((q[t, h] . K[key]) * KScale[key]) * Weights[t, h] (no per-query
    mask); the other entries keep their zero."""
    q, k, kscale, w = ins["IndexQ"], ins["IndexBlockedK"], ins["IndexBlockedKScale"], ins["Weights"]
    ks, ke = ins["CuSeqLenBlockedKS"].astype(int), ins["CuSeqLenBlockedKE"].astype(int)
    heads, bn = p.get("heads", 64), p.get("block_N", 256)
    bq = p.get("block_Q", 0) or 128 // heads
    seq, kv = w.shape[0], k.shape[0]
    q = q.reshape(seq, heads, -1)
    out = np.array(ins["Logits"])
    for t0 in range(0, seq, bq):
        rows = np.arange(t0, min(t0 + bq, seq))
        lo = min(ks[rows].min(), kv)
        hi = max(min(ke[rows].max(), kv), lo)
        keys = np.arange(lo, lo + -(-(hi - lo) // bn) * bn)
        assert keys.size == 0 or keys[-1] < kv, "sizes must keep each tile's keys inside the tensor"
        s = np.einsum("thd,kd->tkh", q[rows], k[keys]) * kscale[keys][None, :, None]
        out[rows[:, None], keys[None, :]] = (np.maximum(s, 0) * w[rows][:, None, :]).sum(axis=2)
    return {"Logits": out}


hisa_pool_mqa.zero = ("Logits",)
hisa_pool_mqa.gen = {
    "IndexBlockedKScale": lambda s, rng, p: rng.uniform(0.5, 1.5, s),
    "CuSeqLenBlockedKS": _pool_starts,
    "CuSeqLenBlockedKE": _pool_ends,
}


# ---- dsa_sparse_finetune indexer backward -----------------------------------------------------


def bf16(x):
    import cabi
    return cabi.quantize(x, "bfloat16")


def varlen_tables(p):
    """Offsets (batch + 1) and TokenIndices (seq_len, 2) = (sequence, position in it) for
    batch_plus_one - 1 ragged sequences covering seq_len tokens."""
    b, n = p["batch_plus_one"] - 1, p["seq_len"]
    lens = [n // b + 3 * (i - b // 2) for i in range(b)]
    lens[-1] = n - sum(lens[:-1])
    assert min(lens) > 0
    off = np.concatenate([[0], np.cumsum(lens)])
    tok = np.array([(i, t) for i in range(b) for t in range(lens[i])])
    return off, tok


def _topk_positions(s, rng, p):
    """TopkIndices (seq_len, topk): positions in the token's sequence, some -1 and some past
    the token itself (both masked by the kernel)."""
    off, tok = varlen_tables(p)
    out = np.full(s, -1)
    for r in range(s[0]):
        length = off[tok[r, 0] + 1] - off[tok[r, 0]]
        out[r] = rng.integers(-1, length, s[1])
    return out


_VARLEN_GEN = {"Offsets": lambda s, rng, p: varlen_tables(p)[0],
               "TokenIndices": lambda s, rng, p: varlen_tables(p)[1],
               "TopkIndices": _topk_positions}


@ref
def dsa_indexer_bwd(ins, p):
    """tl_indexer_bwd_impl, per token (bos + t): q' = bf16(q * sm_scale); for each top-k slot i
    with 0 <= pos_i <= t, k_i = K[bos + pos_i] (else a zero row); logit[i, h] = relu(k_i . q'_h);
    g_i = IndexScore - AttnScore; dWeights[h] = sum_i g_i logit[i, h];
    d[i, h] = bf16(g_i [logit > 0] w_h); dIndexQ = sum_i d[i, h] k_i * sm_scale;
    dIndexK[bos + pos_i] += sum_h d[i, h] q'_h (atomic adds into the bf16 output)."""
    q, w, k = ins["IndexQ"], ins["Weights"], ins["IndexK"]
    a, s_idx, idx = ins["AttnScore"], ins["IndexScore"], ins["TopkIndices"].astype(int)
    off, tok = ins["Offsets"].astype(int), ins["TokenIndices"].astype(int)
    dim = q.shape[2]
    scale = p.get("sm_scale") or dim ** -0.5
    dq, dw, dk = np.zeros(q.shape), np.zeros(w.shape), np.zeros(k.shape)
    for r in range(q.shape[0]):
        bos, t = off[tok[r, 0]], tok[r, 1]
        row = bos + t
        qs = bf16(q[row] * scale)
        pos = idx[row]
        ok = (pos > -1) & (pos <= t)
        kk = np.where(ok[:, None], k[bos + np.where(ok, pos, 0)], 0.0)
        logit = np.maximum(kk @ qs.T, 0)
        g = (s_idx[row] - a[row])[:, None]
        dw[row] = (g * logit).sum(axis=0)
        d = bf16(g * (logit > 0) * w[row][None, :])
        dq[row] = d.T @ kk * scale
        np.add.at(dk, bos + pos[ok], (d @ qs)[ok])
    return {"dIndexQ": dq, "dWeights": dw, "dIndexK": dk}


dsa_indexer_bwd.zero = ("dIndexK",)
dsa_indexer_bwd.gen = dict(_VARLEN_GEN)


@ref
def dsa_indexer_topk_reducesum(ins, p):
    """tl_indexer_topk_reducesum_impl, per token (bos + t): q' = q * sm_scale in the kernel's
    dtype; score[j] = sum_h relu(K[bos + j] . q'_h) w_h for keys j <= t; the kernel keeps the topk
    largest by bitonic sorts (descending), so TopkIndices = their positions by score descending,
    -1 where fewer than topk keys exist; ReduceSum = softmax of the kept scores (0 at -1)."""
    q, w, k = ins["IndexQ"], ins["Weights"], ins["IndexK"]
    off, tok = ins["Offsets"].astype(int), ins["TokenIndices"].astype(int)
    topk, dim = p["topk"], q.shape[2]
    scale = p.get("sm_scale") or dim ** -0.5
    rnd = bf16 if "bfloat16" in str(p.get("dtype", "")) else f32
    idx = np.full((q.shape[0], topk), -1)
    red = np.zeros((q.shape[0], topk))
    for r in range(q.shape[0]):
        bos, t = off[tok[r, 0]], tok[r, 1]
        qs = rnd(q[bos + t] * scale)
        s = (np.maximum(k[bos:bos + t + 1] @ qs.T, 0) * w[bos + t][None, :]).sum(axis=1)
        order = np.argsort(-s, kind="stable")[:topk]
        n = order.size
        idx[bos + t, :n] = order
        e = np.exp(s[order] - s[order].max())
        red[bos + t, :n] = e / e.sum()
    return {"TopkIndices": idx, "ReduceSum": red}


def _q_head0_positive(shape, rng, p):
    """IndexQ with head 0 positive and IndexK positive: head 0's relu never clips, so no key scores
    exactly 0 (equal scores would leave the sort order open)."""
    q = rng.uniform(-1, 1, shape)
    q[:, 0] = rng.uniform(0.05, 1, shape[2:])
    return q


dsa_indexer_topk_reducesum.gen = {"Offsets": _VARLEN_GEN["Offsets"], "TokenIndices": _VARLEN_GEN["TokenIndices"],
                                  "IndexQ": _q_head0_positive,
                                  "IndexK": lambda s, rng, p: rng.uniform(0.05, 1, s),
                                  "Weights": lambda s, rng, p: rng.uniform(0.1, 1, s)}


if __name__ == "__main__":
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.uniform(-7, 7, 500), FP4_VALUES[:-1] + np.diff(FP4_VALUES) / 2,
                        -(FP4_VALUES[:-1] + np.diff(FP4_VALUES) / 2)])
    assert np.array_equal(fp4_e2m1(x), fp4_e2m1_loop(x))
    a = rng.uniform(1e-3, 100, 200)
    want = np.array([2.0 ** np.ceil(np.log2(np.float32(v) * np.float32(1 / 6.0))) for v in a])
    assert np.array_equal(pow2_ceil_scale(a, 1 / 6.0), want)
    off, tok = varlen_tables({"batch_plus_one": 4, "seq_len": 100})
    assert off[-1] == 100 and len(tok) == 100 and all(off[i] + tok[j, 1] < off[i + 1] for j, i in enumerate(tok[:, 0]))
    # the kernel's streaming top-k (2 topk buffer, blocks of block_K, bitonic sorts) keeps the
    # topk largest in descending order, -1 / -inf after the keys run out
    def kernel_topk(s, t, topk=64, bk=32):
        n2 = 2 * topk
        iv, vv = np.full(n2, -1), np.full(n2, -np.inf)

        def bitonic():
            it = int(np.log2(n2))
            for i1 in range(it):
                for i2 in range(i1 + 1):
                    for i in range(n2):
                        j = i ^ (1 << (i1 - i2))
                        asc = (i & (1 << (i1 + 1))) != 0
                        if i < j and ((asc and vv[i] > vv[j]) or (not asc and vv[i] < vv[j])):
                            vv[i], vv[j] = vv[j], vv[i]
                            iv[i], iv[j] = iv[j], iv[i]
        for b in range(-(-(t + 1) // bk)):
            ks, ke = b * bk, min((b + 1) * bk, s.size)
            o = ks if ks < topk else topk + ks % topk
            for i in range(bk):
                iv[o + i], vv[o + i] = ks + i, (s[ks + i] if ks + i <= t else -np.inf)
            if ke > topk and ke % topk == 0:
                bitonic()
        bitonic()
        return np.where(iv[:topk] > t, -1, iv[:topk])

    for t in (5, 70, 130):
        s = rng.uniform(0, 1, 133)
        want = np.full(64, -1)
        o = np.argsort(-s[:t + 1])[:64]
        want[:o.size] = o
        assert np.array_equal(kernel_topk(s, t), want), t
    # block-sparse and pooled MQA logits against plain loops
    p = {"heads": 2, "kv_block_size": 4, "seq_len_kv": 12, "block_N": 4, "seq_len_blocked_kv": 8}
    q, k = rng.uniform(-1, 1, (6, 3)), rng.uniform(-1, 1, (12, 3))
    ksc, w = rng.uniform(0.5, 1.5, 12), rng.uniform(-1, 1, (3, 2))
    blocks = rng.integers(0, 3, (3, 2))
    ks, ke = np.array([0, 2, 5]), np.array([12, 9, 7])
    got = hisa_block_sparse_mqa({"IndexQ": q, "IndexK": k, "IndexKScale": ksc, "Weights": w, "TopKBlockIndex": blocks,
                                 "CuSeqLenKS": ks, "CuSeqLenKE": ke}, p)["Logits"]
    for t in range(3):
        for n in range(2):
            for j in range(4):
                key = blocks[t, n] * 4 + j
                v = sum(max(q[2 * t + h] @ k[key] * ksc[key], 0) * w[t, h] for h in range(2))
                want = -np.inf if not ks[t] <= key < ke[t] else v
                assert got[t, n * 4 + j] == want or abs(got[t, n * 4 + j] - want) < 1e-12
    p["heads"] = 64  # block_Q = 2
    q = rng.uniform(-1, 1, (4 * 64, 3))
    w = rng.uniform(-1, 1, (4, 64))
    ks, ke = np.array([0, 4, 4, 4]), np.array([3, 8, 6, 5])
    got = hisa_pool_mqa({"IndexQ": q, "IndexBlockedK": k[:8], "IndexBlockedKScale": ksc[:8], "Weights": w,
                         "Logits": np.zeros((4, 8)), "CuSeqLenBlockedKS": ks, "CuSeqLenBlockedKE": ke}, p)["Logits"]
    for t in range(4):
        lo = min(ks[2 * (t // 2):2 * (t // 2) + 2])
        hi = max(ke[2 * (t // 2):2 * (t // 2) + 2])
        for key in range(8):
            v = sum(max(q[64 * t + h] @ k[key] * ksc[key], 0) * w[t, h] for h in range(64))
            want = v if lo <= key < lo + -(-(hi - lo) // 4) * 4 else 0.0
            assert abs(got[t, key] - want) < 1e-9, (t, key)
    print("refs_dsa: self-checks pass")
