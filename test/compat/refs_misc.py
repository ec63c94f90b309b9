"""References of the miscellaneous example families (quickstart, visual layout inference, DeepGEMM,
grouped GEMM, fused MoE, GDN, KDA, DeepSeek v3.2/v4/mHC, DSA, dequantize GEMM), written from what each
kernel computes (see refs.py for the signature)."""
import numpy as np

from refs import ref, f32


def _bf16(x):
    import cabi
    return cabi.quantize(np.asarray(x, np.float64), "bfloat16")


def _f16(x):
    return np.asarray(x, np.float16).astype(np.float64)


def _cdiv(a, b):
    return -(-a // b)


# ---- GEMM examples -------------------------------------------------------------


@ref
def gemm_nn_relu(ins, p):
    """C = max(A @ B, 0) (quickstart)."""
    return {"C": np.maximum(ins["A"] @ ins["B"], 0)}


@ref
def deepgemm_fp8_2xacc(ins, p):
    """C = sum over 128-wide K groups g of (A[:, g] @ B[:, g].T) * scales_a[m, g] * scales_b[n // 128, g]."""
    a, b, sa, sb = ins["A"], ins["B"], ins["scales_a"], ins["scales_b"]
    m, k = a.shape
    n = b.shape[0]
    c = np.zeros((m, n))
    for g in range(_cdiv(k, 128)):
        part = f32(a[:, g * 128:(g + 1) * 128] @ b[:, g * 128:(g + 1) * 128].T)
        c += part * (sa[:, g][:, None] * np.repeat(sb[:, g], 128)[None, :n])
    return {"C": c}


deepgemm_fp8_2xacc.gen = {"scales_a": lambda s, rng, p: rng.uniform(0.5, 2.0, s),
                          "scales_b": lambda s, rng, p: rng.uniform(0.5, 2.0, s)}


# ---- grouped GEMM --------------------------------------------------------------


def _group_sizes(p, total, count):
    """Ragged group sizes summing to `total` (the first groups smaller, the last takes the rest)."""
    base = [max(1, total // count - 7 * (count - 1 - i)) for i in range(count)]
    base[-1] = total - sum(base[:-1])
    assert base[-1] > 0
    return base


def _gg_offsets(p):
    sizes = _group_sizes(p, p["batch_sum"], p["batch_count"])
    off = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    bm = p["block_M"]
    padded = [0]
    for s in sizes[:-1]:
        padded.append(padded[-1] + _cdiv(s + 1, bm) * bm)
    return np.array(sizes), off, np.array(padded)


@ref
def grouped_gemm_fwd(ins, p):
    """C[rows of group g] = A[rows of g] @ B[g] (the groups' rows are consecutive in A)."""
    a, b = ins["A"], ins["B"]
    sizes, off = ins["batch_sizes"].astype(int), ins["batch_offsets"].astype(int)
    c = np.zeros((a.shape[0], b.shape[2]))
    for g in range(len(sizes)):
        c[off[g]:off[g] + sizes[g]] = a[off[g]:off[g] + sizes[g]] @ b[g]
    return {"C": c}


grouped_gemm_fwd.gen = {"batch_sizes": lambda s, rng, p: _gg_offsets(p)[0],
                        "batch_offsets": lambda s, rng, p: _gg_offsets(p)[1],
                        "batch_padded_offsets": lambda s, rng, p: _gg_offsets(p)[2]}


@ref
def grouped_gemm_bwd(ins, p):
    """C[g] = A[rows].T @ B[rows]. The kernel masks a K tile's row i with `i < batch_sizes[g]`
    (not the row's position in the group), so a group of at least block_K rows reads whole
    block_K tiles: its rows offset .. offset + ceil(size / block_K) * block_K (into the next group)."""
    a, b = ins["A"], ins["B"]
    sizes, off = ins["batch_sizes"].astype(int), ins["batch_offsets"].astype(int)
    bk = p["block_K"]
    c = np.zeros((len(sizes), a.shape[1], b.shape[1]))
    for g in range(len(sizes)):
        rows = [off[g] + t * bk + i for t in range(_cdiv(sizes[g], bk)) for i in range(bk) if i < sizes[g]]
        c[g] = a[rows].T @ b[rows]
    return {"C": c}


def _gg_bwd_sizes(p):
    """Ragged sizes except the last group, a multiple of block_K (its whole tiles stay inside A)."""
    bk, total, count = p["block_K"], p["batch_sum"], p["batch_count"]
    sizes = _group_sizes(p, total, count)
    sizes[0] += sizes[-1] % bk
    sizes[-1] -= sizes[-1] % bk
    assert sizes[-1] > 0
    return np.array(sizes), np.concatenate([[0], np.cumsum(sizes)[:-1]])


grouped_gemm_bwd.gen = {"batch_sizes": lambda s, rng, p: _gg_bwd_sizes(p)[0],
                        "batch_offsets": lambda s, rng, p: _gg_bwd_sizes(p)[1]}


# ---- fused MoE -----------------------------------------------------------------


def _silu_glu(x, wg, wu):
    """silu(x @ wg.T) * (x @ wu.T) in float32, stored in float16."""
    g = f32(x @ wg.T)
    return _f16(g / (1 + np.exp(-g)) * f32(x @ wu.T))


@ref
def moe_shared(ins, p):
    """The shared expert: up_logits = silu(x Wg^T) * (x Wu^T) (float16), output = up_logits @ Wd^T."""
    up = _silu_glu(ins["input"], ins["shared_W_gate"], ins["shared_W_up"])
    return {"up_logits": up, "output": up @ ins["shared_W_down"].T}


_MOE_SIZES = (50, 0, 17, 64, 33, 70, 1, 85)


def _moe_groups(p):
    """Group sizes (one empty group), offsets, offsets padded to block_token + 1 rows, and each
    block's group (as the example's MoE.forward builds them)."""
    count, bt = p["group_count"], p["block_token"]
    sizes = list(_MOE_SIZES[:count])
    sizes[-1] += p["group_sum"] - sum(sizes)
    assert len(sizes) == count and sizes[-1] >= 0
    off = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    padded = [0]
    for s in sizes[:-1]:
        padded.append(padded[-1] + _cdiv(s + 1, bt) * bt)
    m = _cdiv(p["group_sum"], bt) + count
    idx = [max(i for i in range(count) if bx * bt >= padded[i]) for bx in range(m)]
    return {"group_sizes": np.array(sizes), "group_offsets": off, "group_padded_offsets": np.array(padded),
            "group_idx_for_bx": np.array(idx)}


@ref
def moe_routed(ins, p):
    """Each group g of consecutive rows goes through expert g: up = silu(x Wg[g]^T) * (x Wu[g]^T)
    (float16), output = (up @ Wd[g]^T) * routed_expert_weights[row]."""
    x, w = ins["input"], ins["routed_expert_weights"]
    sizes, off = ins["group_sizes"].astype(int), ins["group_offsets"].astype(int)
    up = np.zeros((x.shape[0], ins["routed_expert_gate"].shape[1]))
    out = np.zeros(x.shape)
    for g in range(len(sizes)):
        r = slice(off[g], off[g] + sizes[g])
        up[r] = _silu_glu(x[r], ins["routed_expert_gate"][g], ins["routed_expert_up"][g])
        out[r] = (up[r] @ ins["routed_expert_down"][g].T) * w[r][:, None]
    return {"up_logits": up, "output": out}


moe_routed.gen = {name: (lambda name: lambda s, rng, p: _moe_groups(p)[name])(name)
                  for name in ("group_sizes", "group_offsets", "group_padded_offsets", "group_idx_for_bx")}
moe_routed.gen["routed_expert_weights"] = lambda s, rng, p: rng.uniform(0.0, 1.0, s)


# ---- DeepSeek v3.2 ---------------------------------------------------------------


@ref
def ds_act_quant(ins, p):
    """Per (row, 128-column group): S = max(amax, 1e-4) / 448, Y = fp8(clamp(X / S, -448, 448))."""
    from refs import _per_token_cast
    q, s = _per_token_cast(ins["X"])
    return {"Y": q, "S": s}


@ref
def ds_fp8_gemm(ins, p):
    """C = sum over 128-wide K groups g of (A[:, g] @ B[:, g].T) * scales_a[m, g] * scales_b[n // 128, g]."""
    return {"C": deepgemm_fp8_2xacc(ins, p)["C"]}


ds_fp8_gemm.gen = deepgemm_fp8_2xacc.gen


@ref
def ds_fp8_index(ins, p):
    """o[b, m, n] = k_s[b, n] * sum_h relu(q[b, m, h] . k[b, n]) * q_s[b, m, h]."""
    q, qs, k, ks = ins["q"], ins["q_s"], ins["k"], ins["k_s"]
    logits = f32(np.maximum(np.einsum("bmhd,bnd->bmnh", q, k), 0))
    return {"o": np.einsum("bmnh,bmh->bmn", logits, qs) * ks[:, None, :]}


def _kv_ranges(s, rng, p):
    n = p["seq_len_kv"]
    return rng.integers(0, n // 2, s)


@ref
def ds_clean_logits(ins, p):
    """Logits[i, j] = -inf outside CuSeqLenKS[i] <= j < CuSeqLenKE[i], unchanged inside."""
    x, ks, ke = ins["Logits"].copy(), ins["CuSeqLenKS"].astype(int), ins["CuSeqLenKE"].astype(int)
    j = np.arange(x.shape[1])[None, :]
    x[(j < ks[:, None]) | (j >= ke[:, None])] = -np.inf
    return {"Logits": x}


ds_clean_logits.inout = ("Logits",)
ds_clean_logits.gen = {"CuSeqLenKS": _kv_ranges,
                       "CuSeqLenKE": lambda s, rng, p: rng.integers(p["seq_len_kv"] // 2, p["seq_len_kv"] + 1, s)}


@ref
def sparse_mla_bwd_preprocess(ins, p):
    """Delta[..., h] = sum_d O[..., h, d] * dO[..., h, d] (float32 products of the bfloat16 inputs)."""
    return {"Delta": (ins["O"] * ins["dO"]).sum(axis=-1)}


@ref
def sparse_mla_bwd_postprocess(ins, p):
    """dKV_out = dKV in bfloat16."""
    return {"dKV_out": ins["dKV"]}


# ---- DSA sparse fine-tuning (varlen sparse MLA) ------------------------------------

_DSA_LENS = (13, 30, 7)


def _dsa_offsets(s, rng, p):
    lens = list(_DSA_LENS)
    lens[-1] += p["seq_len"] - sum(lens)
    return np.concatenate([[0], np.cumsum(lens)])


def _dsa_token_indices(s, rng, p):
    off = _dsa_offsets(None, rng, p)
    return np.array([(b, t) for b in range(len(off) - 1) for t in range(off[b + 1] - off[b])])


def _dsa_indices(s, rng, p):
    """Top-k key positions of each token inside its sequence (with repeats), the first its own
    position (so every token keeps a key); positions after the token are masked by the kernel."""
    off = _dsa_offsets(None, rng, p)
    seq, g, k = s
    out = np.zeros(s, int)
    for b in range(len(off) - 1):
        n = off[b + 1] - off[b]
        for t in range(n):
            out[off[b] + t] = rng.integers(0, n, (g, k))
            out[off[b] + t, :, 0] = t
    return out


_DSA_GEN = {"Offsets": _dsa_offsets, "TokenIndices": _dsa_token_indices, "Indices": _dsa_indices}


def _dsa_scores(ins, p):
    """(scores, valid, kv rows) per token and group: scores[t, g, h, j] = Q[t, h] . KV[bos + idx_j, g]
    (heads of group g), valid = idx_j <= the token's position and != -1."""
    q, kv, idx = ins["Q"], ins["KV"], ins["Indices"].astype(int)
    off, ti = ins["Offsets"].astype(int), ins["TokenIndices"].astype(int)
    seq, heads, _ = q.shape
    groups = kv.shape[1]
    hg = heads // groups
    bos = off[ti[:, 0]]
    rows = kv[bos[:, None, None] + idx, np.arange(groups)[None, :, None]]  # t g k d
    qg = q.reshape(seq, groups, hg, -1)
    s = np.einsum("tghd,tgkd->tghk", qg, rows)
    valid = (idx <= ti[:, 1][:, None, None]) & (idx != -1)
    return s, valid[:, :, None, :], rows


def _dsa_scale(p):
    sc = p.get("sm_scale")
    return sc if isinstance(sc, float) else (p["dim"] + p["tail_dim"]) ** -0.5


@ref
def dsa_sparse_mla_fwd(ins, p):
    """Output[t, h] = softmax_j(scale * s[t, h, j] over the valid top-k keys) @ KV[key j, :dim];
    Lse = log sum exp(scale * s) (natural log); P is rounded to bfloat16 before the P @ V product."""
    s, valid, rows = _dsa_scores(ins, p)
    s = np.where(valid, s * _dsa_scale(p), -np.inf)
    m = s.max(axis=-1, keepdims=True)
    e = np.exp(s - m)
    l = e.sum(axis=-1, keepdims=True)
    o = np.einsum("tghk,tgkd->tghd", _bf16(e), rows[..., :p["dim"]]) / l
    seq = s.shape[0]
    return {"Output": o.reshape(seq, -1, p["dim"]), "Lse": (np.log(l) + m).reshape(seq, -1)}


dsa_sparse_mla_fwd.gen = _DSA_GEN


@ref
def dsa_sparse_mla_topk_reducesum(ins, p):
    """ReduceSum[t, g, 0, j] = sum over the group's heads of exp(scale * s[t, h, j] - Lse[t, h]) (0 where masked)."""
    s, valid, _ = _dsa_scores(ins, p)
    seq, groups, hg, k = s.shape
    lse = ins["Lse"].reshape(seq, groups, hg, 1)
    e = np.where(valid, np.exp(s * _dsa_scale(p) - lse), 0)
    return {"ReduceSum": e.sum(axis=2)[:, :, None, :]}


dsa_sparse_mla_topk_reducesum.gen = _DSA_GEN


# ---- DeepSeek v4 -----------------------------------------------------------------


@ref
def ds4_fp8_quant(ins, p):
    """Per (row, block_size-column group): s = max(amax, 1e-4) / 448, rounded up to a power of two
    when round_scale; quant = fp8(clamp(x / s, -448, 448))."""
    from refs import fp8_e4m3
    x, g = ins["x"], p.get("block_size", 128)
    m, n = x.shape
    ng = _cdiv(n, g)
    pad = np.zeros((m, ng * g))
    pad[:, :n] = x
    blocks = pad.reshape(m, ng, g)
    s = f32(np.maximum(np.abs(blocks).max(axis=2), 1e-4) * f32(1 / 448.0))
    if p.get("round_scale", True):
        s = 2.0 ** np.ceil(np.log2(s))
    q = fp8_e4m3(np.clip(f32(blocks / s[:, :, None]), -448.0, 448.0))
    return {"quant": q.reshape(m, ng * g)[:, :n], "scale": s}


def _ds4_topk(s, rng, p):
    """Key positions in [0, seq_len_kv) with repeats; batches after the first end with -1 padding
    (the kernel still gathers row -1 of its batch, which lies inside the tensor there)."""
    idx = rng.integers(0, p["seq_len_kv"], s)
    idx[1:, :, -p["topk"] // 5:] = -1
    return idx


@ref
def ds4_sparse_attn_fwd(ins, p):
    """Output[b, s, h] = softmax over [scale * Q . KV[idx_j] for idx_j >= 0] + [Sinks[h]] (the sink's
    weight dropped) @ KV[idx_j]."""
    q, kv, idx, sink = ins["Q"], ins["KV"], ins["TopkIndices"].astype(int), ins["Sinks"]
    b, s, h, d = q.shape
    scale = p.get("sm_scale") if isinstance(p.get("sm_scale"), float) else d ** -0.5
    rows = kv[np.arange(b)[:, None, None], idx]  # b s k d
    sc = np.einsum("bshd,bskd->bshk", q, rows) * scale
    sc = np.where((idx >= 0)[:, :, None, :], sc, -np.inf)
    m = np.maximum(sc.max(axis=-1, keepdims=True), sink[None, None, :, None])
    e = np.exp(sc - m)
    l = e.sum(axis=-1, keepdims=True) + np.exp(sink[None, None, :, None] - m)
    return {"Output": np.einsum("bshk,bskd->bshd", _bf16(e), rows) / l}


ds4_sparse_attn_fwd.gen = {"TopkIndices": _ds4_topk}


# ---- DeepSeek mHC ----------------------------------------------------------------


@ref
def mhc_post(ins, p):
    """x[n, o, :] = c[n, o] * d[n, :] + sum_i a[n, i, o] * b[n, i, :]."""
    a, b, c, d = ins["a"], ins["b"], ins["c"], ins["d"]
    return {"x": c[:, :, None] * d[:, None, :] + np.einsum("nio,nih->noh", a, b)}


def _sinkhorn_out(s, rng, p):
    """A Sinkhorn forward's result: exp(M), M uniform in [0, 4), normalised over columns then rows 20 times."""
    r = np.exp(rng.uniform(0.0, 4.0, s))
    for _ in range(20):
        r = r / r.sum(-2, keepdims=True)
        r = r / r.sum(-1, keepdims=True)
    return r


@ref
def mhc_sinkhorn_bwd(ins, p):
    """The Sinkhorn backward res = (dR - x1[:, None] - x2[None, :]) * R, where (x1, x2) solves
    [[I, R], [R^T, I]] (x1, x2) = (rowsum(R dR), colsum(R dR)) (the kernel by conjugate gradients;
    res does not depend on which solution of the singular system)."""
    r_all, dr_all = ins["out"], ins["dout"]
    n = r_all.shape[-1]
    res = np.zeros(r_all.shape)
    for t in range(r_all.shape[0]):
        r, dr = r_all[t], dr_all[t]
        a = np.block([[np.eye(n), r], [r.T, np.eye(n)]])
        b = np.concatenate([(r * dr).sum(1), (r * dr).sum(0)])
        x = np.linalg.lstsq(a, b, rcond=None)[0]
        res[t] = (dr - x[:n, None] - x[None, n:]) * r
    return {"res": res}


mhc_sinkhorn_bwd.gen = {"out": _sinkhorn_out}


# ---- DSA HISA --------------------------------------------------------------------


@ref
def hisa_clean_and_maintain_logits(ins, p):
    """As clean_logits (-inf outside [KS, KE)), and +inf at the first and last kept column."""
    out = ds_clean_logits(ins, p)["Logits"]
    rows = np.arange(out.shape[0])
    out[rows, ins["CuSeqLenKS"].astype(int)] = np.inf
    out[rows, ins["CuSeqLenKE"].astype(int) - 1] = np.inf
    return {"Logits": out}


hisa_clean_and_maintain_logits.inout = ("Logits",)
hisa_clean_and_maintain_logits.gen = ds_clean_logits.gen


# ---- dequantize GEMM ---------------------------------------------------------------


def _i4_of_u8(b):
    """Each byte as two signed 4-bit values, the low nibble first."""
    b = b.astype(np.int64)
    lo, hi = b & 0xF, (b >> 4) & 0xF
    out = np.stack([lo, hi], axis=-1).reshape(b.shape[0], -1)
    return np.where(out >= 8, out - 16, out)


@ref
def dequant_w4a8(ins, p):
    """Ct = (A @ int4(B).T).T, B holding two int4 weights a byte (the low nibble first)."""
    return {"Ct": (ins["A"] @ _i4_of_u8(ins["B"]).T).T}


dequant_w4a8.gen = {"B": lambda s, rng, p: rng.integers(0, 256, s),
                    "A": lambda s, rng, p: rng.integers(-128, 128, s)}


# ---- GDN (gated delta net, chunked) -------------------------------------------------


def _chunks(s, c):
    return [slice(i, min(i + c, s)) for i in range(0, s, c)]


@ref
def gdn_chunk_local_cumsum(ins, p):
    """G_new = cumsum of G inside each chunk_size chunk along S (from the chunk's end when reverse)."""
    g = ins["G"]
    axis = 2 if p.get("head_first") else 1
    out = np.zeros(g.shape)
    for c in _chunks(g.shape[axis], p["chunk_size"]):
        idx = [slice(None)] * 3
        idx[axis] = c
        part = g[tuple(idx)]
        if p.get("reverse"):
            out[tuple(idx)] = np.flip(np.cumsum(np.flip(part, axis), axis), axis)
        else:
            out[tuple(idx)] = np.cumsum(part, axis)
    return {"G_new": out}


def _in(x, p, key="input_dtype"):
    """Rounds to the entry's dtype named by `key` (bfloat16, float16 or float32)."""
    d = str(p.get(key, "T.bfloat16"))
    if "bfloat16" in d:
        return _bf16(x)
    if "float16" in d:
        return _f16(x)
    return f32(x)


@ref
def gdn_chunk_scaled_dot_kkt(ins, p):
    """A[b, t, h, j] for key s = (t's chunk start) + j: beta_t (k_t . k_s) exp(g_t - g_s) where s < t and
    g_t - g_s <= 0, else 0 (beta_t k_t rounded to the input dtype)."""
    k, beta, g = ins["K"], ins["Beta"], ins["G"]
    b, s, h, _ = k.shape
    c = p["chunk_size"]
    a = np.zeros((b, s, h, c))
    for ch in _chunks(s, c):
        kc, gc = k[:, ch], g[:, ch]
        bk = _in(kc * beta[:, ch][..., None], p)
        dot = np.einsum("bthd,bshd->bhts", bk, kc)
        n = kc.shape[1]
        lower = np.arange(n)[:, None] > np.arange(n)[None, :]
        if p.get("use_g", True):
            diff = gc.transpose(0, 2, 1)[:, :, :, None] - gc.transpose(0, 2, 1)[:, :, None, :]
            dot = np.where(lower & (diff <= 0), dot * np.exp(diff), 0)
        else:
            dot = np.where(lower, dot, 0)
        a[:, ch, :, :n] = dot.transpose(0, 2, 1, 3)
    return {"A": a}


@ref
def gdn_chunk_fwd_o(ins, p):
    """O_t = scale (exp(g_t) q_t H_c + sum_{s <= t in the chunk, g_t - g_s <= 0} exp(g_t - g_s) (q_t . k_s) v_s),
    the intra-chunk weights rounded to the input dtype."""
    q, k, v, hid, g = ins["Q"], ins["K"], ins["V"], ins["HIDDEN"], ins["G"]
    b, s, h, _ = q.shape
    use_g = p.get("use_g", True)
    o = np.zeros(v.shape)
    for ci, ch in enumerate(_chunks(s, p["chunk_size"])):
        qc, kc, vc, gc = q[:, ch], k[:, ch], v[:, ch], g[:, ch].transpose(0, 2, 1)
        inter = np.einsum("bthd,bhdv->bhtv", qc, hid[:, ci])
        a = np.einsum("bthd,bshd->bhts", qc, kc)
        n = qc.shape[1]
        if use_g:
            inter = inter * np.exp(gc)[..., None]
            diff = gc[:, :, :, None] - gc[:, :, None, :]
            a = np.where(diff <= 0, a * np.exp(diff), 0)
        a = np.where(np.arange(n)[:, None] >= np.arange(n)[None, :], a, 0)
        o[:, ch] = (p["scale"] * (inter + np.einsum("bhts,bshv->bhtv", _in(a, p), vc))).transpose(0, 2, 1, 3)
    return {"O": o}


@ref
def gdn_chunk_delta_h_fwd(ins, p):
    """The chunked delta-rule state: per chunk c, h[c] = the state before it (input dtype),
    V_new = U - W h[c]; with gates V_new_t *= exp(g_last - g_t) where that is <= 0 (else 0) and
    the state *= exp(g_last); state += K_c^T V_new (rounded); final_state = the last state."""
    k, w, u, g = ins["K"], ins["W"], ins["U"], ins["G"]
    b, s, h, dk = k.shape
    state = ins["initial_state"].copy() if p.get("use_initial_state", True) else np.zeros((b, h, dk, u.shape[-1]))
    c = p["chunk_size"]
    hs_out = np.zeros((b, s // c, h, dk, u.shape[-1]))
    vnew = np.zeros(u.shape)
    for ci, ch in enumerate(_chunks(s, c)):
        hs = _in(state, p)
        hs_out[:, ci] = hs
        vn = f32(u[:, ch].transpose(0, 2, 1, 3) - np.einsum("bhtk,bhkv->bhtv", w[:, ch].transpose(0, 2, 1, 3), hs))
        vnew[:, ch] = vn.transpose(0, 2, 1, 3)
        if p.get("use_g", True):
            gl = g[:, ch.stop - 1][:, :, None, None]
            d = gl - g[:, ch].transpose(0, 2, 1)[..., None]
            vn = np.where(d <= 0, vn * np.exp(d), 0)
            state = state * np.exp(gl)
        state = f32(state + np.einsum("bhtk,bhtv->bhkv", k[:, ch].transpose(0, 2, 1, 3), _in(vn, p)))
    out = {"h": hs_out, "final_state": state}
    if p.get("save_new_value", True):
        out["V_new"] = vnew
    return out


def _bsh(x, ch):
    """x[b, chunk, h, ...] as (b, h, t, ...)."""
    return np.moveaxis(x[:, ch], 2, 1)


def _unbsh(x):
    return np.moveaxis(x, 1, 2)


@ref
def gdn_recompute_w_u_fwd(ins, p):
    """Per chunk: U = A_c @ (beta V), W = A_c @ (beta exp(g) K) (the right operands rounded to the input dtype)."""
    k, v, beta, g, a = ins["K"], ins["V"], ins["Beta"], ins["G"], ins["A"]
    w, u = np.zeros(k.shape), np.zeros(v.shape)
    for ch in _chunks(k.shape[1], p["chunk_size"]):
        n = ch.stop - ch.start
        ac = _bsh(a, ch)[..., :n]
        bt, eg = _bsh(beta, ch)[..., None], np.exp(_bsh(g, ch))[..., None]
        u[:, ch] = _unbsh(ac @ _in(_bsh(v, ch) * bt, p))
        w[:, ch] = _unbsh(ac @ _in(_in(_bsh(k, ch) * bt, p) * eg, p))
    return {"W": w, "U": u}


@ref
def gdn_wy_fast_bwd(ins, p):
    """Backward of W = A (beta exp(g) K), U = A (beta V): dA = dw (beta e^g K)^T + du (beta V)^T,
    dk = beta e^g A^T dw, dv = beta A^T du, dbeta = sum (A^T dw) K e^g + sum (A^T du) V, dg = sum (A^T dw) K e^g beta."""
    k, v, beta, g, a, dw, du = (ins[n] for n in ("K", "V", "Beta", "G", "A", "dw", "du"))
    c = p["chunk_size"]
    out = {n: np.zeros(ins[n].shape) for n in ("dA", "dk", "dv", "dbeta", "dg")}
    for ch in _chunks(k.shape[1], c):
        n = ch.stop - ch.start
        ac = _bsh(a, ch)[..., :n]
        bt, eg = _bsh(beta, ch)[..., None], np.exp(_bsh(g, ch))[..., None]
        kc, vc, dwc, duc = _bsh(k, ch), _bsh(v, ch), _bsh(dw, ch), _bsh(du, ch)
        kbg = _in(_in(kc * bt, p) * eg, p)
        vb = _in(vc * bt, p)
        da = np.zeros(ac.shape[:-1] + (c,))
        da[..., :n] = dwc @ np.swapaxes(kbg, -1, -2) + duc @ np.swapaxes(vb, -1, -2)
        dkbg = np.swapaxes(ac, -1, -2) @ dwc
        dvb = np.swapaxes(ac, -1, -2) @ duc
        out["dA"][:, ch] = _unbsh(da)
        out["dk"][:, ch] = _unbsh(dkbg * bt * eg)
        out["dv"][:, ch] = _unbsh(dvb * bt)
        out["dbeta"][:, ch] = _unbsh(((dkbg * kc * eg).sum(-1) + (dvb * vc).sum(-1)))
        out["dg"][:, ch] = _unbsh((dkbg * kc * eg * bt).sum(-1))
    return out


@ref
def gdn_wy_fast_bwd_split(ins, p):
    """The split backward through A = (I + strictly lower gated beta K K^T)^-1: with dA masked to its strictly
    lower part, dA2 = -(A^T (dA A^T)) (strictly lower, times exp(g_i - g_j) where g_i - g_j <= 0, else 0);
    dk += dA2 K beta + dA2^T (beta K), dbeta_k = sum (dA2 K) K; dg_A_positive[i, j] = dA2[i, j] (beta_i k_i . k_j)
    and dg_A_negative[j, i] the same (intermediates rounded to the input dtype where the kernel stores them)."""
    k, beta, g, a, da_in, dk_in = (ins[n] for n in ("K", "Beta", "G", "A", "dA", "dk"))
    c = p["chunk_size"]
    dk = dk_in.copy()
    dbeta = np.zeros(beta.shape)
    pos, neg = np.zeros(a.shape), np.zeros(a.shape)
    lower = np.arange(c)[:, None] > np.arange(c)[None, :]
    for ch in _chunks(k.shape[1], c):
        assert ch.stop - ch.start == c, "S must be a multiple of chunk_size"
        ac, dac, gc = _bsh(a, ch), _bsh(da_in, ch), _bsh(g, ch)
        kc, bt = _bsh(k, ch), _bsh(beta, ch)[..., None]
        x = _in(np.where(lower, dac, 0) @ np.swapaxes(ac, -1, -2), p)
        y = np.swapaxes(ac, -1, -2) @ x
        diff = gc[..., :, None] - gc[..., None, :]
        d2 = np.where(lower, -y, 0)
        d2 = np.where(diff <= 0, d2 * np.exp(diff), 0)
        d3 = _in(d2, p)
        kb = _in(kc * bt, p)
        arec = kb @ np.swapaxes(kc, -1, -2)
        dkb = d3 @ kc
        dbeta[:, ch] = _unbsh((dkb * kc).sum(-1))
        dk[:, ch] = _unbsh(_bsh(dk_in, ch) + np.swapaxes(d3, -1, -2) @ kb + _in(dkb * bt, p))
        daa = d2 * arec
        pos[:, ch] = _unbsh(daa)
        neg[:, ch] = _unbsh(np.swapaxes(daa, -1, -2))
    return {"dk": dk, "dbeta_k": dbeta, "dg_A_positive": pos, "dg_A_negative": neg}


gdn_wy_fast_bwd_split.inout = ("dk",)


# ---- KDA (Kimi delta attention: per-channel gates, exp2) ------------------------------


@ref
def kda_chunk_fwd_o(ins, p):
    """O = (2^GK * (scale Q)) @ H_c + tril(A_c) @ V per chunk (scale Q and the gated Q rounded to the input dtype)."""
    q, v, gk, a, hid = ins["Q"], ins["V"], ins["GK"], ins["A"], ins["HIDDEN"]
    c = p["chunk_size"]
    o = np.zeros(v.shape)
    for ci, ch in enumerate(_chunks(q.shape[1], c)):
        n = ch.stop - ch.start
        gq = _in(_in(_bsh(q, ch) * p["scale"], p) * np.exp2(_bsh(gk, ch)), p)
        ac = np.tril(_bsh(a, ch)[..., :n])
        o[:, ch] = _unbsh(gq @ hid[:, ci] + ac @ _bsh(v, ch))
    return {"O": o}


@ref
def kda_recompute_w_u_fwd(ins, p):
    """Per chunk: U = A_c (beta V), W = A_c (beta 2^G K), KG = K 2^(G_last - G) (G_last: the chunk's last row)."""
    k, v, beta, g, a = ins["K"], ins["V"], ins["Beta"], ins["G"], ins["A"]
    out = {"W": np.zeros(k.shape), "U": np.zeros(v.shape)}
    if p.get("use_kg"):
        out["KG"] = np.zeros(k.shape)
    for ch in _chunks(k.shape[1], p["chunk_size"]):
        n = ch.stop - ch.start
        ac = _bsh(a, ch)[..., :n]
        bt, kc, gc = _bsh(beta, ch)[..., None], _bsh(k, ch), _bsh(g, ch)
        out["U"][:, ch] = _unbsh(ac @ _in(_bsh(v, ch) * bt, p))
        out["W"][:, ch] = _unbsh(ac @ _in(_in(kc * bt, p) * np.exp2(gc), p))
        if p.get("use_kg"):
            out["KG"][:, ch] = _unbsh(kc * np.exp2(gc[..., -1:, :] - gc))
    return out


@ref
def kda_chunk_delta_h_fwd(ins, p):
    """The chunked delta-rule state with per-channel gates: per chunk, h[c] = the state (input dtype),
    V_new = U - W h[c]; state *= 2^GK_last[k] per key channel; state += K_c^T V_new (rounded)."""
    k, w, u, gk = ins["K"], ins["W"], ins["U"], ins["GK"]
    b, s, h, dk = k.shape
    dv = u.shape[-1]
    state = ins["initial_state"].copy() if p.get("use_initial_state", True) else np.zeros((b, h, dk, dv))
    chunks = _chunks(s, p["chunk_size"])
    hs_out, vnew = np.zeros((b, len(chunks), h, dk, dv)), np.zeros(u.shape)
    for ci, ch in enumerate(chunks):
        hs = _in(state, p)
        hs_out[:, ci] = hs
        vn = f32(_bsh(u, ch) - _bsh(w, ch) @ hs)
        vnew[:, ch] = _unbsh(vn)
        if p.get("use_gk", True):
            state = state * np.exp2(gk[:, ch.stop - 1])[..., None]
        state = f32(state + np.swapaxes(_bsh(k, ch), -1, -2) @ _in(vn, p, "output_dtype"))
    out = {"h": hs_out, "final_state": state}
    if p.get("save_new_value", True):
        out["V_new"] = vnew
    return out


@ref
def kda_chunk_bwd_dv_local(ins, p):
    """dv = tril(A_c)^T @ dO per chunk."""
    do, a = ins["DO"], ins["A"]
    dv = np.zeros(do.shape)
    for ch in _chunks(do.shape[1], p["chunk_size"]):
        n = ch.stop - ch.start
        dv[:, ch] = _unbsh(np.swapaxes(np.tril(_bsh(a, ch)[..., :n]), -1, -2) @ _bsh(do, ch))
    return {"dv": dv}


def _neg_gates(s, rng, p):
    """Log-space decay gates (<= 0, as the model's cumulative log gates): the state does not grow."""
    return rng.uniform(-1.0, 0.0, s)


kda_chunk_delta_h_fwd.gen = {"GK": _neg_gates}


@ref
def kda_chunk_bwd_gla_dA(ins, p):
    """dA = scale * tril(dO_c @ V_c^T) per chunk (columns past a short last chunk are 0)."""
    do, v = ins["DO"], ins["V"]
    c = p["chunk_size"]
    da = np.zeros(do.shape[:3] + (c,))
    for ch in _chunks(do.shape[1], c):
        n = ch.stop - ch.start
        da[:, ch, :, :n] = _unbsh(np.tril(_bsh(do, ch) @ np.swapaxes(_bsh(v, ch), -1, -2)) * p["scale"])
    return {"dA": da}


@ref
def kda_chunk_delta_bwd_dhu(ins, p):
    """The delta-rule state gradient, chunks in reverse: dh[c] = the gradient (output dtype),
    dv2 = K_c dh[c] + dv; gradient *= 2^GK_last per key channel; += scale Q_c^T dO_c - W_c^T dv2; dh0 = the last."""
    q, k, w, gk, do, dv = (ins[n] for n in ("Q", "K", "W", "GK", "dO", "dv"))
    b, s, h, dk = q.shape
    chunks = _chunks(s, p["chunk_size"])
    state = ins["dht"].copy() if p.get("use_final_state_gradient", True) else np.zeros((b, h, dk, dv.shape[-1]))
    dh, dv2 = np.zeros((b, len(chunks), h, dk, dv.shape[-1])), np.zeros(dv.shape)
    for ci in reversed(range(len(chunks))):
        ch = chunks[ci]
        hs = _in(state, p, "output_dtype")
        dh[:, ci] = hs
        d2 = _in(_bsh(k, ch) @ hs + _bsh(dv, ch), p)
        dv2[:, ch] = _unbsh(d2)
        if p.get("use_gk", True):
            state = state * np.exp2(gk[:, ch.stop - 1])[..., None]
        state = f32(state + p["scale"] * np.swapaxes(_bsh(q, ch), -1, -2) @ _bsh(do, ch)
                    - np.swapaxes(_bsh(w, ch), -1, -2) @ d2)
    out = {"dh": dh, "dv2": dv2}
    if p.get("use_initial_state", True):
        out["dh0"] = state
    return out


kda_chunk_delta_bwd_dhu.gen = {"GK": _neg_gates}


@ref
def kda_chunk_bwd_dqkwg(ins, p):
    """Per chunk (G_n: the gate of its last row): dq = scale 2^G (dO h^T), dk = 2^(G_n - G) (V dh^T),
    dw = -(dv h^T), dg = Q dq - K dk, plus on the chunk's last row sum_s dk K + 2^G_n sum_v h dh."""
    q, k, v, g, h, dv, do, dh = (ins[n] for n in ("Q", "K", "V", "G", "h", "dv", "DO", "Dh"))
    out = {n: np.zeros(q.shape) for n in ("dq", "dk", "dw", "dg")}
    for ci, ch in enumerate(_chunks(q.shape[1], p["chunk_size"])):
        gc, gn = _bsh(g, ch), g[:, ch.stop - 1][:, :, None, :]
        hc, dhc = h[:, ci], dh[:, ci]
        dq = (_bsh(do, ch) @ np.swapaxes(hc, -1, -2)) * p["scale"] * np.exp2(gc)
        dk = (_bsh(v, ch) @ np.swapaxes(dhc, -1, -2)) * np.exp2(gn - gc)
        dw = -(_bsh(dv, ch) @ np.swapaxes(hc, -1, -2))
        dgkn = (hc * dhc).sum(-1) * np.exp2(g[:, ch.stop - 1])
        kc = _bsh(k, ch)
        dg = _bsh(q, ch) * dq - kc * dk
        dg[:, :, -1] += (dk * kc).sum(-2) + dgkn
        for n, x in (("dq", dq), ("dk", dk), ("dw", dw), ("dg", dg)):
            out[n][:, ch] = _unbsh(x)
    return out


@ref
def kda_wy_fast_bwd(ins, p):
    """Backward of W = A (beta 2^GK K), U = A (beta V) with per-channel gates, adding into dk and dg:
    dk2 = dk + beta 2^GK (A^T dw), dv = beta A^T du, dbeta = sum (A^T dw) K 2^GK + sum (A^T du) V,
    dg2 = dg + (A^T dw) (beta 2^GK K), dA = -strict_lower(A^T (L A^T)) with L = strict_lower(dw (beta 2^GK K)^T + du (beta V)^T)."""
    k, v, beta, gk, a, dw, du, dk, dg = (ins[n] for n in ("K", "V", "Beta", "GK", "A", "dw", "du", "dk", "dg"))
    c = p["chunk_size"]
    out = {"dA": np.zeros(a.shape), "dk2": np.zeros(k.shape), "dv": np.zeros(v.shape),
           "dbeta": np.zeros(beta.shape), "dg2": np.zeros(k.shape)}
    for ch in _chunks(k.shape[1], c):
        n = ch.stop - ch.start
        ac = _bsh(a, ch)[..., :n]
        bt, ge = _bsh(beta, ch)[..., None], np.exp2(_bsh(gk, ch))
        kc, vc, dwc, duc = _bsh(k, ch), _bsh(v, ch), _bsh(dw, ch), _bsh(du, ch)
        kbg = _in(kc * bt * ge, p)
        vb = _in(vc * bt, p)
        dacc = dwc @ np.swapaxes(kbg, -1, -2) + duc @ np.swapaxes(vb, -1, -2)
        dkbg = np.swapaxes(ac, -1, -2) @ dwc
        dvb = np.swapaxes(ac, -1, -2) @ duc
        out["dk2"][:, ch] = _unbsh(dkbg * ge * bt + _bsh(dk, ch))
        out["dv"][:, ch] = _unbsh(dvb * bt)
        out["dbeta"][:, ch] = _unbsh((dkbg * kc * ge).sum(-1) + (dvb * vc).sum(-1))
        out["dg2"][:, ch] = _unbsh(dkbg * kbg + _bsh(dg, ch))
        low = np.tril(np.ones((n, n)), -1)
        t1 = _in(_in(dacc * low, p) @ np.swapaxes(ac, -1, -2), p)
        da = np.zeros(ac.shape[:-1] + (c,))
        da[..., :n] = -(np.swapaxes(ac, -1, -2) @ t1) * low
        out["dA"][:, ch] = _unbsh(da)
    return out


@ref
def kda_fwd_intra_token_parallel(ins, p):
    """For token t and the keys j of its sub-chunk up to t: Aqk[t, j % chunk] = sum_k q_t k_j 2^(g_t - g_j),
    Akk[t, j - subchunk start] = sum_k (beta_t k_t) k_j 2^(g_t - g_j) for j < t (beta_t k_t rounded); 0 elsewhere."""
    q, k, gk, beta = ins["Q"], ins["K"], ins["GK"], ins["Beta"]
    b, s, h, _ = q.shape
    cs, scs = p["chunk_size"], p["sub_chunk_size"]
    aqk, akk = np.zeros((b, s, h, cs)), np.zeros((b, s, h, scs))
    kb = _in(k * beta[..., None], p)
    for t in range(s):
        ts = (t // cs) * cs + ((t % cs) // scs) * scs
        for j in range(ts, t + 1):
            kj = k[:, j] * np.exp2(gk[:, t] - gk[:, j])
            aqk[:, t, :, j % cs] = (q[:, t] * kj).sum(-1)
            if j < t:
                akk[:, t, :, j - ts] = (kb[:, t] * kj).sum(-1)
    return {"Aqk": aqk, "Akk": akk}


@ref
def kda_fwd_inter_solve_fused(ins, p):
    """Per chunk, with sub-chunks of sub_chunk_size: the off-diagonal sub-chunk blocks (row sub-chunk after
    the column one) Aqk[i, j] = scale sum_k q_i k_j 2^(g_i - g_j) and L[i, j] = beta_i sum_k k_i k_j 2^(g_i - g_j);
    L's diagonal blocks are the strictly lower part of Akk_diag; Akk = (I + L)^-1 (lower triangular).
    The kernel writes neither Aqk's diagonal blocks (the token-parallel kernel's) nor the upper blocks: zeroed."""
    q, k, gk, beta, diag = ins["Q"], ins["K"], ins["GK"], ins["Beta"], ins["Akk_diag"]
    b, s, h, _ = q.shape
    cs, bc = p["chunk_size"], p["sub_chunk_size"]
    aqk, akk = np.zeros((b, s, h, cs)), np.zeros((b, s, h, cs))
    for ch in _chunks(s, cs):
        n = ch.stop - ch.start
        qc, kc, gc, bt = _bsh(q, ch), _bsh(k, ch), _bsh(gk, ch), _bsh(beta, ch)
        dq = np.einsum("bhik,bhjk->bhij", qc * np.exp2(gc), kc * np.exp2(-gc))
        dk = np.einsum("bhik,bhjk->bhij", kc * np.exp2(gc), kc * np.exp2(-gc)) * bt[..., None]
        sub = np.arange(n) // bc
        off = sub[:, None] > sub[None, :]
        same = (sub[:, None] == sub[None, :]) & (np.arange(n)[:, None] > np.arange(n)[None, :])
        dg = np.zeros((b, h, n, n))
        dc = _bsh(diag, ch)
        for i in range(n):
            for j in range(n):
                if same[i, j]:
                    dg[:, :, i, j] = dc[:, :, i, j - sub[i] * bc]
        lmat = np.where(off, dk, 0) + dg
        aqk[:, ch, :, :n] = _unbsh(np.where(off, dq * p["scale"], 0))
        akk[:, ch, :, :n] = _unbsh(np.linalg.inv(np.eye(n) + lmat))
    return {"Aqk": aqk, "Akk": akk}


kda_fwd_inter_solve_fused.zero = ("Aqk", "Akk")
kda_fwd_inter_solve_fused.gen = {
    "K": lambda s, rng, p: rng.uniform(-0.2, 0.2, s),
    "GK": lambda s, rng, p: rng.uniform(-0.5, 0.0, s),
    "Beta": lambda s, rng, p: rng.uniform(0.0, 1.0, s),
    "Akk_diag": lambda s, rng, p: rng.uniform(-0.2, 0.2, s)}


@ref
def kda_chunk_bwd_intra(ins, p):
    """The intra-chunk backward of Aqk[i, j] = q_i . (k_j 2^(g_i - g_j)), Akk[i, j] = beta_i k_i . (k_j 2^(g_i - g_j)),
    j <= i in the chunk: dq2 = dq + sum_j dAqk[i, j] k_j E, dk2_i = dk + beta_i sum_j dAkk[i, j] k_j E + dkt,
    dkt_j = sum_i (dAqk[i, j] q_i + dAkk[i, j] beta_i k_i) E, db2[block] = sum over the DK block of
    (sum_j dAkk k_j E) k_i, dg2 = q dq_intra + (dk_intra - dkt) k + dg (E = 2^(g_i - g_j) per channel)."""
    q, k, g, beta, daq, dak, dq, dk, dg = (ins[n] for n in ("q", "k", "g", "beta", "dAqk", "dAkk", "dq", "dk", "dg"))
    b, s, h, d = q.shape
    bk = p["block_DK"]
    out = {"dq2": dq.copy(), "dk2": dk.copy(), "db2": np.zeros((_cdiv(d, bk), b, s, h)), "dg2": dg.copy()}
    for ch in _chunks(s, p["chunk_size"]):
        n = ch.stop - ch.start
        m = np.tril(np.ones((n, n)))
        qc, kc, gc, bt = _bsh(q, ch), _bsh(k, ch), _bsh(g, ch), _bsh(beta, ch)
        wq, wk = _bsh(daq, ch)[..., :n] * m, _bsh(dak, ch)[..., :n] * m
        e = np.exp2(gc[:, :, :, None, :] - gc[:, :, None, :, :])  # b h i j k
        dq_in = np.einsum("bhij,bhjk,bhijk->bhik", wq, kc, e)
        dk_in = np.einsum("bhij,bhjk,bhijk->bhik", wk, kc, e)
        dkt = np.einsum("bhij,bhik,bhijk->bhjk", wq, qc, e) + np.einsum("bhij,bhik,bhijk->bhjk", wk, kc * bt[..., None], e)
        dka = dk_in * bt[..., None]
        out["dq2"][:, ch] += _unbsh(dq_in)
        out["dk2"][:, ch] += _unbsh(dka + dkt)
        out["dg2"][:, ch] += _unbsh(qc * dq_in + (dka - dkt) * kc)
        for blk in range(_cdiv(d, bk)):
            sl = slice(blk * bk, (blk + 1) * bk)
            out["db2"][blk, :, ch] = np.moveaxis((dk_in[..., sl] * kc[..., sl]).sum(-1), 1, 2)
    return out


kda_chunk_bwd_intra.gen = {"g": _neg_gates}


@ref
def ds32_sparse_mla_fwd(ins, p):
    """Batched sparse MLA: Output[b, s, h] = softmax over the top-k keys idx <= s of scale * Q . KV[b, idx]
    (scale = (dim + tail_dim)^-0.5 unless sm_scale) @ KV[b, idx, :dim]; Lse in base 2."""
    q, kv, idx = ins["Q"], ins["KV"], ins["Indices"].astype(int)
    b, s, heads, _ = q.shape
    groups, d = kv.shape[2], p["dim"]
    hg = heads // groups
    rows = kv[np.arange(b)[:, None, None, None], idx, np.arange(groups)[None, None, :, None]]  # b s g k d
    sc = np.einsum("bsghd,bsgkd->bsghk", q.reshape(b, s, groups, hg, -1), rows) * _dsa_scale(p)
    valid = idx <= np.arange(s)[None, :, None, None]
    sc = np.where(valid[:, :, :, None, :], sc, -np.inf)
    m = sc.max(-1, keepdims=True)
    e = np.exp(sc - m)
    l = e.sum(-1, keepdims=True)
    o = np.einsum("bsghk,bsgkd->bsghd", _bf16(e), rows[..., :d]) / l
    return {"Output": o.reshape(b, s, heads, d), "Lse": ((np.log(l) + m)[..., 0] / np.log(2)).reshape(b, s, heads)}


def _ds32_indices(s, rng, p):
    """Top-k key positions in [0, seq_len_kv) with repeats, the first the query's own position."""
    idx = rng.integers(0, p["seq_len_kv"], s)
    idx[:, :, :, 0] = np.arange(s[1])[None, :, None]
    return idx


ds32_sparse_mla_fwd.gen = {"Indices": _ds32_indices}


@ref
def dequant_w4a8_convert(ins, p):
    """C = the int4 values of B (two a byte, the low nibble first) in C's dtype."""
    return {"C": _i4_of_u8(ins["B"])}


dequant_w4a8_convert.gen = {"B": lambda s, rng, p: rng.integers(0, 256, s)}
