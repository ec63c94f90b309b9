"""NumPy references of tile-lang's DeepSeek MLA examples that are not plain decode
(deepseek_mla/example_mla_decode_paged, deepseek_v32 sparse MLA kernels).

Written from what each kernel computes; scores are scaled in base 2 (softmax_scale * log2e)
and P enters the PV GEMM as float16, as in the kernels.
"""
import numpy as np

from refs import f32, ref

LOG2E = 1.44269504


def f16(x):
    return np.asarray(x, np.float16).astype(np.float64)


# ---- paged MLA decode (example_mla_decode_paged) --------------------------------------------


def _paged_lens(p):
    """cache_seqlens: ragged, each at least num_split * block_N (every split gets a block)."""
    b, pad, bn, ns = p["batch"], p["max_seqlen_pad"], p["block_N"], p["num_split"]
    lo = ns * bn + 1
    return [lo + (pad - lo) * (i + 1) // (b + 1) + 7 * i for i in range(b)]


def _paged_table(shape, rng, p):
    """block_table (batch, max_seqlen_pad // block_size): a permutation of all the pages."""
    return rng.permutation(int(np.prod(shape))).reshape(shape)


def _rows(src, start, n):
    """Rows start..start+n-1 of src (zero past its end: a T.copy reads 0 outside the tensor)."""
    out = np.zeros((n,) + src.shape[1:])
    hi = min(start + n, src.shape[0])
    if hi > start:
        out[:hi - start] = src[start:hi]
    return out


def _paged_split(ins, p, b, h0, h1, start, nblocks):
    """One split of one batch: (output, base-2 lse) of heads h0..h1 over nblocks tiles of
    block_N logical keys from `start`. Tile k reads the physical rows
    block_table[b, (start + k*bN) // bs] * bs + (k*bN) % bs (the kernel's formula; the offset
    inside the page is taken from k*bN alone), keys at logical positions >= cache_seqlens
    masked."""
    q = np.concatenate([ins["Q"][b, h0:h1], ins["Q_pe"][b, h0:h1]], axis=1)
    bn, bs = p["block_N"], p["block_size"]
    table, length = ins["block_table"][b].astype(int), int(ins["cache_seqlens"][b])
    keys, vals, logical = [], [], []
    for k in range(nblocks):
        row = table[(start + k * bn) // bs] * bs + (k * bn) % bs
        kv = _rows(ins["KV"][:, 0], row, bn)
        keys.append(np.concatenate([kv, _rows(ins["K_pe"][:, 0], row, bn)], axis=1))
        vals.append(kv)
        logical.append(start + k * bn + np.arange(bn))
    kk, vv, pos = np.concatenate(keys), np.concatenate(vals), np.concatenate(logical)
    scale2 = p.get("softmax_scale", (q.shape[1]) ** -0.5) * LOG2E
    s = np.where(pos[None, :] < length, f32(q @ kk.T), -np.inf) * scale2
    m = s.max(axis=1, keepdims=True)
    e = np.exp2(s - m)
    l = e.sum(axis=1)
    return (f16(e) @ vv) / l[:, None], np.log2(l) + m[:, 0]


@ref
def mla_decode_paged(ins, p):
    """mla_decode_tilelang: decode over a paged KV cache (h_kv = 1; KV rows block_table[b, i] *
    block_size + r). num_split == 1: Output directly. num_split > 1: each split takes a
    contiguous share of the ceil(len / block_N) tiles (the first len % num_split splits one
    more), writes its Output_partial and base-2 glse (float16), and the combine kernel
    weights the float16 partials by exp2(glse - log2(sum exp2(glse)))."""
    b_n, h_q = ins["Q"].shape[:2]
    bn, ns = p["block_N"], p["num_split"]
    hb = min(p["block_H"], h_q)
    out = np.zeros(ins["Q"].shape)
    part = np.zeros((b_n, h_q, ns, ins["Q"].shape[2]))
    glse = np.zeros((b_n, h_q, ns))
    for b in range(b_n):
        total = -(-int(ins["cache_seqlens"][b]) // bn)
        per, rem = divmod(total, ns)
        for h0 in range(0, h_q, hb):
            for z in range(ns):
                n = per + (1 if z < rem else 0)
                start = (per * z + min(z, rem)) * bn
                o, l = _paged_split(ins, p, b, h0, h0 + hb, start, n)
                part[b, h0:h0 + hb, z], glse[b, h0:h0 + hb, z] = o, l
    if ns == 1:
        return {"Output": part[:, :, 0]}
    part, glse = f16(part), f16(glse)
    lse = np.log2(np.exp2(glse - glse.max(axis=2, keepdims=True)).sum(axis=2)) + glse.max(axis=2)
    out = (part * np.exp2(glse - lse[:, :, None])[..., None]).sum(axis=2)
    return {"glse": glse, "Output_partial": part, "Output": out}


mla_decode_paged.gen = {"block_table": _paged_table,
                        "cache_seqlens": lambda shape, rng, p: np.array(_paged_lens(p))}


# ---- DeepSeek v3.2 sparse MLA forward, pipelined (deepseek_v32/sparse_mla_fwd_pipelined) --------


def _bf16(x):
    import cabi
    return cabi.quantize(x, "bfloat16")


def _pipelined_q_start(shape, rng, p):
    """q_start_index_s [1]: the queries are the last seq_len positions of the keys."""
    return np.array([p["seq_len_kv"] - p["seq_len"]])


def _pipelined_indices(shape, rng, p):
    """Indices (batch, seq_len, kv_group, topk): random key positions in [0, seq_len_kv) with
    repeats (those past the query's causal limit are skipped by the kernel), the first the
    query's own position (so every query has a key)."""
    q0 = p["seq_len_kv"] - p["seq_len"]
    idx = rng.integers(0, p["seq_len_kv"], shape)
    idx[:, :, :, 0] = q0 + np.arange(shape[1])[None, :, None]
    return idx


@ref
def ds32_sparse_mla_fwd_pipelined(ins, p):
    """sparse_mla_fwd (pipelined, CP0): query s (position q_i = q_start + s) of group g attends to
    the keys KV[b, Indices[b, s, g, :]] with index <= (q_i + 1 - kv_stride) // kv_stride (a
    repeated index counts each time), scores [Q, Q_tail] . KV * (dim + tail_dim)^-0.5 unless
    sm_scale, P in bfloat16, Output = P @ KV[..., :dim]. Rows s < kv_stride - 1 are not
    computed (kv_stride 1 here); the kernel never stores Lse (computed, then dropped)."""
    q, kv, idx = ins["Q"], ins["KV"], ins["Indices"].astype(int)
    q0 = int(ins["q_start_index_s"][0])
    stride = p.get("kv_stride", 1)
    b, s, heads, _ = q.shape
    groups, d = kv.shape[2], p["dim"]
    hg = heads // groups
    sm = p.get("sm_scale")
    scale2 = (sm if sm is not None else (d + p["tail_dim"]) ** -0.5) * LOG2E
    out = np.zeros((b, s, heads, d))
    for bi in range(b):
        for si in range(stride - 1, s):
            lim = (q0 + si + 1 - stride) // stride
            for g in range(groups):
                keys = idx[bi, si, g]
                keys = keys[keys <= lim]
                rows = kv[bi, keys, g]
                qq = q[bi, si, g * hg:(g + 1) * hg]
                t = f32(qq @ rows.T) * scale2
                m = t.max(axis=1, keepdims=True)
                e = np.exp2(t - m)
                out[bi, si, g * hg:(g + 1) * hg] = (_bf16(e) @ rows[:, :d]) / e.sum(axis=1, keepdims=True)
    return {"Output": out}


ds32_sparse_mla_fwd_pipelined.gen = {"Indices": _pipelined_indices, "q_start_index_s": _pipelined_q_start}


# ---- DeepSeek v3.2 sparse MLA backward (deepseek_v32/sparse_mla_bwd: bwd) ---------------------


def _smb_scale(p):
    sm = p.get("sm_scale")
    return sm if sm is not None else (p["D"] + p["D_tail"]) ** -0.5


def _smb_draw(name):
    def gen(shape, rng, p):
        x = _bf16(rng.uniform(-1, 1, shape))
        p.setdefault("_gen", {})[name] = x
        return x
    return gen


def _smb_indices(shape, rng, p):
    """Indices (B, S, kv_group, topk): random key positions in [0, S_kv) with repeats, the first
    the query's own position (valid: index <= s)."""
    idx = rng.integers(0, p["S_kv"], shape)
    idx[:, :, :, 0] = np.arange(shape[1])[None, :, None]
    p["_gen"]["Indices"] = idx
    return idx


def _smb_forward(p):
    """Base-2 lse (scaled scores) and O of the sparse forward over the drawn Q, KV, Indices."""
    st = p["_gen"]
    if "lse" in st:
        return st["lse"], st["O"]
    q, kv, idx = st["Q"], st["KV"], st["Indices"]
    b, s, h, _ = q.shape
    g = kv.shape[2]
    hg = h // g
    scale2 = _smb_scale(p) * LOG2E
    lse, o = np.zeros((b, s, h)), np.zeros((b, s, h, p["D"]))
    for bi in range(b):
        for si in range(s):
            for gi in range(g):
                keys = idx[bi, si, gi][idx[bi, si, gi] <= si]
                rows = kv[bi, keys, gi]
                t = f32(q[bi, si, gi * hg:(gi + 1) * hg] @ rows.T) * scale2
                m = t.max(axis=1)
                e = np.exp2(t - m[:, None])
                lse[bi, si, gi * hg:(gi + 1) * hg] = np.log2(e.sum(axis=1)) + m
                o[bi, si, gi * hg:(gi + 1) * hg] = _bf16((e @ rows[:, :p["D"]]) / e.sum(axis=1)[:, None])
    st["lse"], st["O"] = f32(lse), o
    return st["lse"], o


@ref
def ds32_sparse_mla_bwd(ins, p):
    """sparse_mla_bwd bwd: per query s and head, over its topk keys j = Indices[b, s, g, :]
    (masked unless j <= s; repeats count each time): P = exp2(scale * log2e * [Q, Q_tail] . KV_j
    - Lse), dP = P (dO . KV_j[:D] - Delta) * scale (both bfloat16), dQ = dP @ KV_j (bfloat16),
    dKV[j] += dP^T [Q, Q_tail] + P^T dO on the first D columns (float32 atomic adds, zeroed)."""
    q, kv, do, idx, lse, delta = (ins[n] for n in ("Q", "KV", "dO", "Indices", "Lse", "Delta"))
    idx = idx.astype(int)
    b, s, h, _ = q.shape
    g, d = kv.shape[2], p["D"]
    hg = h // g
    sm = _smb_scale(p)
    dq, dkv = np.zeros(q.shape), np.zeros(kv.shape)
    for bi in range(b):
        for si in range(s):
            for gi in range(g):
                hs = slice(gi * hg, (gi + 1) * hg)
                keys = idx[bi, si, gi]
                rows = kv[bi, keys, gi]
                valid = keys <= si
                t = f32(q[bi, si, hs] @ rows.T) * (sm * LOG2E)
                pm = np.where(valid[None, :], np.exp2(t - lse[bi, si, hs][:, None]), 0.0)
                dp = f32(do[bi, si, hs] @ rows[:, :d].T)
                ds = _bf16(pm * (dp - delta[bi, si, hs][:, None]) * sm)
                pm = _bf16(pm)
                dq[bi, si, hs] = ds @ rows
                contrib = ds.T @ q[bi, si, hs]
                contrib[:, :d] += pm.T @ do[bi, si, hs]
                np.add.at(dkv[bi, :, gi], keys, contrib)
    return {"dQ": dq, "dKV": dkv}


ds32_sparse_mla_bwd.gen = {"Q": _smb_draw("Q"), "KV": _smb_draw("KV"), "dO": _smb_draw("dO"),
                           "Indices": _smb_indices,
                           "Lse": lambda shape, rng, p: _smb_forward(p)[0],
                           "Delta": lambda shape, rng, p: f32((_smb_forward(p)[1] * p["_gen"]["dO"]).sum(axis=-1))}
ds32_sparse_mla_bwd.zero = ("dKV",)


# ---- DeepSeek v3.2 FP8 lightning indexer (deepseek_v32/fp8_lighting_indexer) ----------------------


@ref
def ds32_lightning_indexer_logits(ins, p):
    """mqa_attn_return_logits: per block of block_Q = 128 // heads queries, keys from
    ks = min over the block of min(CuSeqLenKS[q], seq_len_kv) in tiles of block_N up to
    ke = max of min(CuSeqLenKE[q], seq_len_kv) (the last tile runs on to its end); for each
    query q of the block and key j there, Logits[q, j] = sum_h relu(K[j] . Q[q, h]) W[q, h]
    Kscale[j]. A block's rows past seq_len read CuSeqLenKS/KE as 0 (outside the tensor), so a
    partial last block starts at key 0. Other Logits elements are not written (zeroed)."""
    q, k, ks_, w, cs, ce = (ins[n] for n in ("IndexQ", "IndexK", "IndexKScale", "Weights", "CuSeqLenKS", "CuSeqLenKE"))
    heads = p["heads"]
    bq = p.get("block_Q") or 128 // heads
    bn = p.get("block_N", 256)
    L, Lk = w.shape[0], k.shape[0]
    qh = q.reshape(L, heads, -1)
    out = np.zeros((L, Lk))
    cs, ce = cs.astype(int), ce.astype(int)
    for b0 in range(0, L, bq):
        rows = range(b0, b0 + bq)
        s = min(min(int(cs[r]) if r < L else 0, Lk) for r in rows)
        e = max(min(int(ce[r]) if r < L else 0, Lk) for r in rows)
        n = -(-(e - s) // bn) * bn if e > s else 0
        cols = np.arange(s, min(s + n, Lk))
        for r in rows:
            if r < L and cols.size:
                sc = np.maximum(k[cols] @ qh[r].T, 0.0)  # cols x heads
                out[r, cols] = (sc * w[r][None, :]).sum(axis=1) * ks_[cols]
    return {"Logits": out}


ds32_lightning_indexer_logits.gen = {
    "CuSeqLenKS": lambda s, rng, p: rng.integers(0, p["seq_len_kv"] // 2, s),
    "CuSeqLenKE": lambda s, rng, p: rng.integers(p["seq_len_kv"] // 2, p["seq_len_kv"] + 1, s),
    "IndexKScale": lambda s, rng, p: rng.uniform(0.5, 2.0, s)}
ds32_lightning_indexer_logits.zero = ("Logits",)
