"""NumPy references of tile-lang's attention examples (flash_attention, attention_sink,
block_causal_attention, blocksparse_attention, deepseek_nsa, deepseek_mla, linear_attention).

Written from what each kernel computes. Conventions the kernels share:
- scores are scaled in base 2: `scale = dim**-0.5 * 1.44269504`, p = exp2(s * scale - m);
  the log-sum-exp they store (`lse`) is in base 2: log2(sum exp2(s * scale)).
- backward kernels take lse and Delta = rowsum(O * dO) from the forward; the `gen`
  functions below draw Q, K, V, dO and compute lse, O and Delta from them, so the inputs
  are those of a real backward pass (P = exp2(s * scale - lse) in [0, 1]). Each gen draws
  its tensor from the case's generator and keeps it in p["_gen"] for the later ones.
- P and dS enter their GEMMs as float16 (the kernels cast the fragments), dQ/dK/dV
  accumulate in float32; the references round at the same points.
- dQ is accumulated through a `T.Layout` on the global tensor (make_dq_layout): the
  accumulator tensor holds its elements at the layout's physical positions, which the
  postprocess kernel reads back (tilec honours a global T.Layout exactly).
"""
import numpy as np

from refs import f32, ref

LOG2E = 1.44269504  # the kernels' constant


def f16(x):
    return np.asarray(x, np.float16).astype(np.float64)


def _stash(p):
    return p.setdefault("_gen", {})


def _draw(name, lo=-1.0, hi=1.0, rnd=f16):
    """A gen drawing `name` uniformly (rounded to its dtype) and keeping it for later gens."""
    def gen(shape, rng, p):
        x = rnd(rng.uniform(lo, hi, shape))
        _stash(p)[name] = x
        return x
    return gen


# ---- layouts -------------------------------------------------------------------------


def _layout_coords(shape, fn):
    idx = np.indices(shape)
    coords = fn(*idx)
    return tuple(np.asarray(c) for c in coords)


def _layout_store(x, fn):
    """The raw contents of a tensor whose elements x sit at fn(index) (a global T.Layout)."""
    coords = _layout_coords(x.shape, fn)
    phys = np.zeros(tuple(int(c.max()) + 1 for c in coords))
    phys[coords] = x
    return phys.reshape(x.shape)


def _layout_load(raw, fn):
    """The logical tensor of raw contents laid out by fn."""
    coords = _layout_coords(raw.shape, fn)
    phys = raw.reshape(tuple(int(c.max()) + 1 for c in coords))
    return phys[coords]


def _dq8_bshd(b, l, h, d):
    return b, l // 8, h, d // 8, d % 2, 4 * (l % 8) + (d % 8) // 2


def _dq8_bhsd(b, h, l, d):
    return b, h, l // 8, d // 8, d % 2, 4 * (l % 8) + (d % 8) // 2


def _bhld(b, l, h, d):
    return b, h, l, d


def _hld(l, h, d):
    return h, l, d


# ---- the attention cores (one head, rows of queries against keys) ------------------------


def attn_fwd_rows(q, k, v, scale, keep=None):
    """Output and base-2 lse of softmax(q k^T) v with base-2 scores s * scale; `keep` masks keys.
    Rows without any key get output 0."""
    t = (q @ k.T) * scale
    if keep is not None:
        t = np.where(keep, t, -np.inf)
    m = t.max(axis=1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    e = np.exp2(t - m)
    l = e.sum(axis=1, keepdims=True)
    o = (e @ v) / np.where(l > 0, l, 1.0)
    with np.errstate(divide="ignore"):
        lse = np.log2(l[:, 0]) + m[:, 0]
    return o, lse


def attn_bwd_rows(q, k, v, do, lse, delta, scale, sm_scale, keep=None, rnd=f16):
    """dq, dk, dv of one head the way the kernels compute them: P = exp2(s * scale - lse),
    dV = rnd(P)^T dO, dS = rnd(P * (dO V^T - Delta) * sm_scale), dK = dS^T Q, dQ = dS K
    (rnd: rounding to the kernel's input dtype, float16 unless given)."""
    s = f32(q @ k.T)
    pm = f32(np.exp2(s * scale - lse[:, None]))
    if keep is not None:
        pm = np.where(keep, pm, 0.0)
    dp = f32(do @ v.T)
    dv = rnd(pm).T @ do
    ds = rnd(pm * (dp - delta[:, None]) * sm_scale)
    return ds @ k, ds.T @ q, dv


def _to_bhsd(x, layout):
    return np.swapaxes(x, 1, 2) if layout == "bshd" else x


def _from_bhsd(x, layout):
    return np.swapaxes(x, 1, 2) if layout == "bshd" else x


# ---- fixed-length forward + backward (example_mha_bwd_*, example_gqa_bwd*) -----------------


def _dims(p):
    dqk = p.get("dim_qk", p.get("dim"))
    return dqk, p.get("dim_v", dqk)


def _fwd_all(q, k, v, dqk, causal):
    """q (B, H, L, D), k/v (B, Hkv, L, D): O (B, H, L, Dv) and base-2 lse (B, H, L)."""
    b, h, l, _ = q.shape
    g = h // k.shape[1]
    o = np.zeros((b, h, l, v.shape[-1]))
    lse = np.zeros((b, h, l))
    keep = np.tril(np.ones((l, l), bool)) if causal else None
    for bi in range(b):
        for hi in range(h):
            o[bi, hi], lse[bi, hi] = attn_fwd_rows(q[bi, hi], k[bi, hi // g], v[bi, hi // g], dqk ** -0.5 * LOG2E, keep)
    return o, lse


def _bwd_gens(layout):
    """Q, K, V, dO drawn; lse and Delta from the forward pass over them (layout of Q..dO)."""
    def lse(shape, rng, p):
        st = _stash(p)
        q, k, v = (_to_bhsd(st[n], layout) for n in ("Q", "K", "V"))
        o, lse = _fwd_all(q, k, v, _dims(p)[0], p.get("is_causal", False))
        st["O"] = f16(_from_bhsd(o, layout))
        return f32(lse)

    def delta(shape, rng, p):
        st = _stash(p)
        return f32(_to_bhsd(f16(st["O"] * st["dO"]), layout).sum(axis=-1))

    return {"Q": _draw("Q"), "K": _draw("K"), "V": _draw("V"), "dO": _draw("dO"), "lse": lse, "Delta": delta}


def _bwd_all(ins, p, layout):
    """dQ (B, H, L, Dqk), dK and dV per query head (B, H, L, D) in bhsd."""
    q, k, v, do = (_to_bhsd(ins[n], layout) for n in ("Q", "K", "V", "dO"))
    lse, delta = ins["lse"], ins["Delta"]
    dqk, _ = _dims(p)
    b, h, l, _ = q.shape
    g = h // k.shape[1]
    keep = np.tril(np.ones((l, l), bool)) if p.get("is_causal", False) else None
    dq = np.zeros(q.shape)
    dk = np.zeros((b, h, l, k.shape[-1]))
    dv = np.zeros((b, h, l, v.shape[-1]))
    for bi in range(b):
        for hi in range(h):
            dq[bi, hi], dk[bi, hi], dv[bi, hi] = attn_bwd_rows(
                q[bi, hi], k[bi, hi // g], v[bi, hi // g], do[bi, hi], lse[bi, hi], delta[bi, hi],
                dqk ** -0.5 * LOG2E, dqk ** -0.5, keep)
    return dq, dk, dv


@ref
def mha_bwd_bhsd(ins, p):
    """example_mha_bwd_bhsd flashattn_bwd: dQ (float32, through make_dq_layout), dK, dV."""
    dq, dk, dv = _bwd_all(ins, p, "bhsd")
    return {"dQ": _layout_store(f32(dq), _dq8_bhsd), "dK": dk, "dV": dv}


mha_bwd_bhsd.gen = _bwd_gens("bhsd")
mha_bwd_bhsd.zero = ("dQ",)


@ref
def mha_bwd_bshd(ins, p):
    dq, dk, dv = _bwd_all(ins, p, "bshd")
    return {"dQ": _layout_store(f32(np.swapaxes(dq, 1, 2)), _dq8_bshd), "dK": _bshd(dk), "dV": _bshd(dv)}


mha_bwd_bshd.gen = _bwd_gens("bshd")
mha_bwd_bshd.zero = ("dQ",)


def _bshd(x):
    return np.swapaxes(x, 1, 2)


def _split_groups(d, groups):
    """Per query head gradients (B, H, L, D) -> (groups, B, L, Hkv, D): head h at [h % groups, :, :, h // groups]."""
    b, h, l, dd = d.shape
    out = np.zeros((groups, b, l, h // groups, dd))
    for hi in range(h):
        out[hi % groups, :, :, hi // groups] = d[:, hi]
    return out


@ref
def gqa_bwd_split(ins, p):
    """example_gqa_bwd flashattn_bwd_split: dQ through make_dq_layout, dK/dV per group (summed after)."""
    dq, dk, dv = _bwd_all(ins, p, "bshd")
    g = p.get("groups", 1)
    return {"dQ": _layout_store(f32(_bshd(dq)), _dq8_bshd), "dK": _split_groups(dk, g), "dV": _split_groups(dv, g)}


gqa_bwd_split.gen = _bwd_gens("bshd")
gqa_bwd_split.zero = ("dQ",)


@ref
def gqa_bwd_split_bhld(ins, p):
    """example_gqa_bwd_tma_reduce flashattn_bwd_split_novarlen: dQ held as (b, h, l, d)."""
    dq, dk, dv = _bwd_all(ins, p, "bshd")
    g = p.get("groups", 1)
    return {"dQ": _layout_store(f32(_bshd(dq)), _bhld), "dK": _split_groups(dk, g), "dV": _split_groups(dv, g)}


gqa_bwd_split_bhld.gen = _bwd_gens("bshd")
gqa_bwd_split_bhld.zero = ("dQ",)


# ---- postprocess: the accumulator's layout back to plain float16 ------------------------------


@ref
def dq_post_bhsd(ins, p):
    return {"dQ_out": _layout_load(ins["dQ"], _dq8_bhsd)}


@ref
def dq_post_bshd(ins, p):
    return {"dQ_out": _layout_load(ins["dQ"], _dq8_bshd)}


@ref
def dqkv_post_bhld(ins, p):
    """example_gqa_bwd_tma_reduce postprocess: dQ, dK, dV held as (b, h, l, d)."""
    return {n + "_out": _layout_load(ins[n], _bhld) for n in ("dQ", "dK", "dV")}


@ref
def dqkv_post_hld(ins, p):
    """example_gqa_bwd_tma_reduce_varlen postprocess: dQ, dK, dV held as (h, l, d)."""
    return {n + "_out": _layout_load(ins[n], _hld) for n in ("dQ", "dK", "dV")}


# ---- variable-length batches (cu_seqlens) ------------------------------------------------


def seq_lens(total, n, multiple=1):
    """n ragged lengths summing to total (deterministic): a third of the mean moved between
    neighbours, so sequences end inside blocks and differ in their number of blocks."""
    base = total // n
    lens = [base] * n
    for i in range(0, n - 1, 2):
        d = base // 3
        lens[i] += d
        lens[i + 1] -= d
    lens[-1] += total - sum(lens)
    if multiple > 1:
        lens = [l // multiple * multiple for l in lens]
        lens[-1] += total - sum(lens)
    return lens


def _cu(p, total_key, batch_key, multiple=1):
    m = p[multiple] if isinstance(multiple, str) else multiple
    return np.concatenate([[0], np.cumsum(seq_lens(p[total_key], p[batch_key], m))]).astype(np.int64)


def _cu_full(p, total_key, batch_key, full_key):
    """cu_seqlens of p[batch_key] sequences, each p[full_key] long but the last (the rest of
    p[total_key]): a kernel that stores whole blocks up to p[full_key] from each start without
    a bound (flashattn_bwd_split's dK/dV) stores its zero rows past the last sequence, outside
    the tensor (dropped), never into a neighbour (a write race on a GPU)."""
    n, full = p[batch_key], p[full_key]
    lens = [full] * (n - 1) + [p[total_key] - full * (n - 1)]
    return np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)


def _cu_gen(total_key, batch_key, multiple=1):
    """cu_seqlens of seq_lens(p[total_key], p[batch_key]); `multiple` (a number or a define's
    name) makes every length a multiple of it."""
    return lambda shape, rng, p: _cu(p, total_key, batch_key, multiple)


def _segments(cu):
    cu = np.asarray(cu).astype(int)
    return [(int(cu[i]), int(cu[i + 1])) for i in range(len(cu) - 1)]


def varlen_fwd(q, k, v, cuq, cuk, scale, causal, right_aligned=True):
    """Output (Tq, H, Dv) and lse per (batch, head, row) of packed sequences; query head h reads
    kv head h // (H // Hkv). Causal: key j visible from query i if j <= i + (lk - lq) when
    right_aligned, else j <= i."""
    h, hkv = q.shape[1], k.shape[1]
    o = np.zeros((q.shape[0], h, v.shape[-1]))
    lses = []
    for (qs, qe), (ks, ke) in zip(_segments(cuq), _segments(cuk)):
        lq, lk = qe - qs, ke - ks
        off = lk - lq if right_aligned else 0
        keep = (np.arange(lk)[None, :] <= np.arange(lq)[:, None] + off) if causal else None
        lse_b = np.zeros((h, lq))
        for hi in range(h):
            kh = hi // (h // hkv)
            o[qs:qe, hi], lse_b[hi] = attn_fwd_rows(q[qs:qe, hi], k[ks:ke, kh], v[ks:ke, kh], scale, keep)
        lses.append(lse_b)
    return o, lses


@ref
def varlen_fwd_unpad(ins, p):
    """example_{mha,gqa}_fwd_varlen: Output_unpad over packed sequences (causal aligned on the right)."""
    q, k, v = ins["Q_unpad"], ins["K_unpad"], ins["V_unpad"]
    o, _ = varlen_fwd(q, k, v, ins["cu_seqlens_q"], ins["cu_seqlens_k"], p["dim"] ** -0.5 * LOG2E,
                      p.get("is_causal", False))
    return {"Output_unpad": o}


varlen_fwd_unpad.gen = {"cu_seqlens_q": _cu_gen("UQ", "batch_size"), "cu_seqlens_k": _cu_gen("UKV", "batch_size")}


def _lse_padded(lses, p):
    """lse (batch, heads, N_CTX): rows of each sequence, 0 past its end (the kernel writes 0 there)."""
    out = np.zeros((p["batch"], p["heads"], p["N_CTX"]))
    for b, l in enumerate(lses):
        out[b, :, :l.shape[1]] = l
    return out


@ref
def varlen_fwd_lse(ins, p):
    """example_gqa_bwd_tma_reduce_varlen flashattn_fwd: Output and base-2 lse (0 past each sequence);
    causal keeps key j <= query i (aligned on the left)."""
    q, k, v = ins["Q"], ins["K"], ins["V"]
    o, lses = varlen_fwd(q, k, v, ins["cu_seqlens_q"], ins["cu_seqlens_k"], p["dim_qk"] ** -0.5 * LOG2E,
                         p.get("is_causal", False), right_aligned=False)
    return {"Output": o, "lse": _lse_padded(lses, p)}


varlen_fwd_lse.gen = {"cu_seqlens_q": _cu_gen("total_q", "batch"), "cu_seqlens_k": _cu_gen("total_kv", "batch")}


@ref
def varlen_bwd_preprocess(ins, p):
    """Delta (batch, heads, N_CTX) = rowsum(f16(O * dO)) of each sequence's rows, 0 past its end."""
    prod = f16(ins["O"] * ins["dO"]).sum(axis=-1)  # (T, H)
    out = np.zeros((p["batch"], p["heads"], p["N_CTX"]))
    for b, (s, e) in enumerate(_segments(ins["cu_seqlens_q"])):
        out[b, :, :e - s] = prod[s:e].T
    return {"Delta": out}


varlen_bwd_preprocess.gen = {"cu_seqlens_q": _cu_gen("total_q", "batch")}


def _varlen_bwd_gens(kv_multiple, kv_full=None):
    """Q, K, V, dO drawn; lse and Delta (batch, heads, N_CTX) of the forward over them, 0 past
    each sequence (what flashattn_fwd and flashattn_bwd_preprocess write). kv lengths: ragged,
    multiples of kv_multiple, or with kv_full (a define's name) as _cu_full makes them."""
    def cuk_of(p):
        return _cu_full(p, "total_kv", "batch", kv_full) if kv_full else _cu(p, "total_kv", "batch", kv_multiple)

    def lse(shape, rng, p):
        st = _stash(p)
        cuq, cuk = _cu(p, "total_q", "batch"), cuk_of(p)
        o, lses = varlen_fwd(st["Q"], st["K"], st["V"], cuq, cuk, p["dim_qk"] ** -0.5 * LOG2E,
                             p.get("is_causal", False), right_aligned=False)
        st["O"] = f16(o)
        return f32(_lse_padded(lses, p))

    def delta(shape, rng, p):
        st = _stash(p)
        cuq = _cu(p, "total_q", "batch")
        return varlen_bwd_preprocess({"O": st["O"], "dO": st["dO"], "cu_seqlens_q": cuq}, p)["Delta"]

    return {"Q": _draw("Q"), "K": _draw("K"), "V": _draw("V"), "dO": _draw("dO"), "lse": lse, "Delta": delta,
            "cu_seqlens_q": _cu_gen("total_q", "batch"), "cu_seqlens_k": lambda shape, rng, p: cuk_of(p)}


@ref
def varlen_bwd_split(ins, p):
    """example_gqa_bwd_tma_reduce_varlen flashattn_bwd_split: dQ (held as (h, l, d)) and dK/dV per
    group (groups, total_kv, head_kv, d); causal keeps key j <= query i of each sequence."""
    q, k, v, do = (ins[n] for n in ("Q", "K", "V", "dO"))
    dqk, h, g = p["dim_qk"], q.shape[1], p.get("groups", 1)
    dq = np.zeros(q.shape)
    dk = np.zeros((g,) + k.shape)
    dv = np.zeros((g,) + v.shape)
    for b, ((qs, qe), (ks, ke)) in enumerate(zip(_segments(ins["cu_seqlens_q"]), _segments(ins["cu_seqlens_k"]))):
        lq, lk = qe - qs, ke - ks
        keep = (np.arange(lk)[None, :] <= np.arange(lq)[:, None]) if p.get("is_causal", False) else None
        for hi in range(h):
            dq[qs:qe, hi], dk[hi % g, ks:ke, hi // g], dv[hi % g, ks:ke, hi // g] = attn_bwd_rows(
                q[qs:qe, hi], k[ks:ke, hi // g], v[ks:ke, hi // g], do[qs:qe, hi],
                ins["lse"][b, hi, :lq], ins["Delta"][b, hi, :lq], dqk ** -0.5 * LOG2E, dqk ** -0.5, keep)
    return {"dQ": _layout_store(f32(dq), _hld), "dK": dk, "dV": dv}


varlen_bwd_split.gen = _varlen_bwd_gens(1, kv_full="max_seq_len")
varlen_bwd_split.zero = ("dQ",)


# ---- attention sinks (attention_sink/) ------------------------------------------------------
# A learned per-head logit `sink` joins every row's softmax denominator (not its numerator):
# O = sum_j exp2(t_j - m) v_j / (sum_j exp2(t_j - m) + exp2(sink * log2e - m)), t = s * scale.
# The kernels compute `sink * 1.44269504` in the sink's dtype (a float16 element times a Python
# float stays float16 in tile-lang), which the references repeat.


def _in(x, p):
    if "bfloat16" in str(p.get("dtype", "")):
        import cabi
        return cabi.quantize(x, "bfloat16")
    return f16(x)


def sink_log2(sink, p):
    return _in(sink * _in(LOG2E, p), p)


def sink_rows(q, k, v, scale, sink2, keep):
    """Output and base-2 lse of one head with a sink (sink2 in base 2); `keep` masks keys."""
    t = np.where(keep, (q @ k.T) * scale, -np.inf)
    m = np.maximum(t.max(axis=1, keepdims=True), sink2)
    e = np.exp2(t - m)
    den = e.sum(axis=1, keepdims=True) + np.exp2(sink2 - m)
    return (e @ v) / den, np.log2(den[:, 0]) + m[:, 0]


def _sink_keep(lq, lk, past, causal, window):
    qi = np.arange(lq)[:, None] + past
    kj = np.arange(lk)[None, :]
    keep = qi >= kj if causal else np.ones((lq, lk), bool)
    if window is not None:
        keep &= qi < kj + window
    return keep


@ref
def sink_fwd_bhsd(ins, p):
    """example_mha_sink_fwd_bhsd flashattn: causal with the queries at the end of the keys
    (past_len = seq_kv - seq_q), optional sliding window, per-head sink."""
    q, k, v, sinks = ins["Q"], ins["K"], ins["V"], ins["Sinks"]
    b, h, lq, d = q.shape
    lk = k.shape[2]
    scale = (p.get("sm_scale") or d ** -0.5) * LOG2E
    keep = _sink_keep(lq, lk, lk - lq, True, p.get("window_size"))
    o = np.zeros(q.shape)
    for bi in range(b):
        for hi in range(h):
            kh = hi // (h // k.shape[1])
            o[bi, hi], _ = sink_rows(q[bi, hi], k[bi, kh], v[bi, kh], scale, sink_log2(sinks[hi], p), keep)
    return {"Output": o}


def _sink_varlen(ins, p, total_lse):
    q, k, v, sinks = ins["Q_unpad"], ins["K_unpad"], ins["V_unpad"], ins["Sinks"]
    h, hkv, d = q.shape[1], k.shape[1], q.shape[2]
    scale = (p.get("sm_scale") or d ** -0.5) * LOG2E
    o = np.zeros(q.shape)
    lse = np.zeros((p["batch_size"], h, total_lse)) if total_lse else None
    for b, ((qs, qe), (ks, ke)) in enumerate(zip(_segments(ins["cu_seqlens_q"]), _segments(ins["cu_seqlens_k"]))):
        lq, lk = qe - qs, ke - ks
        keep = _sink_keep(lq, lk, lk - lq, p.get("is_causal", False), p.get("window_size"))
        for hi in range(h):
            kh = hi // (h // hkv)
            o[qs:qe, hi], l = sink_rows(q[qs:qe, hi], k[ks:ke, kh], v[ks:ke, kh], scale, sink_log2(sinks[hi], p), keep)
            if lse is not None:
                lse[b, hi, :lq] = l
    return o, lse


@ref
def sink_fwd_varlen(ins, p):
    """example_gqa_sink_fwd_varlen flashattn_sink: packed sequences, causal aligned on the right."""
    return {"Output_unpad": _sink_varlen(ins, p, 0)[0]}


sink_fwd_varlen.gen = {"cu_seqlens_q": _cu_gen("UQ", "batch_size"), "cu_seqlens_k": _cu_gen("UKV", "batch_size")}


@ref
def sink_fwd_varlen_lse(ins, p):
    """example_gqa_sink_bwd_varlen flashattn_fwd: Output_unpad and base-2 lse (batch, heads, N_CTX),
    written for each sequence's rows only (the entry zeroes lse, so the rest reads 0)."""
    o, lse = _sink_varlen(ins, p, p["N_CTX"])
    return {"Output_unpad": o, "lse": lse}


sink_fwd_varlen_lse.gen = sink_fwd_varlen.gen
sink_fwd_varlen_lse.zero = ("lse",)


@ref
def sink_dsink(ins, p):
    """flashattn_bwd_dsink: dsinks[b, h, i] = -exp2(sink * log2e - lse) * Delta."""
    sink2 = sink_log2(ins["Sinks"], p)[None, :, None]
    return {"dsinks": -np.exp2(sink2 - ins["lse"]) * ins["Delta"]}


@ref
def sink_dsink_varlen(ins, p):
    """The varlen dsink: 0 past each sequence's end."""
    out = sink_dsink(ins, p)["dsinks"]
    for b, (s, e) in enumerate(_segments(ins["cu_seqlens_q"])):
        out[b, :, e - s:] = 0
    return {"dsinks": out}


sink_dsink_varlen.gen = {"cu_seqlens_q": _cu_gen("UQ", "batch_size")}


@ref
def sink_bwd_preprocess_varlen(ins, p):
    """example_gqa_sink_bwd_varlen preprocess: Delta of each sequence's rows (the entry zeroes
    Delta: the kernel writes only those)."""
    prod = _in(ins["O"] * ins["dO"], p).sum(axis=-1)
    out = np.zeros((p["batch_size"], p["heads"], p["N_CTX"]))
    for b, (s, e) in enumerate(_segments(ins["cu_seqlens_q"])):
        out[b, :, :e - s] = prod[s:e].T
    return {"Delta": out}


sink_bwd_preprocess_varlen.gen = {"cu_seqlens_q": _cu_gen("UQ", "batch_size")}
sink_bwd_preprocess_varlen.zero = ("Delta",)


@ref
def dq_post_hld(ins, p):
    """The varlen postprocess: dQ held as (h, l, d)."""
    return {"dQ_out": _layout_load(ins["dQ"], _hld)}


# ---- block-causal (dLLM) attention (block_causal_attention/) -----------------------------------
# A sequence is a noisy half followed by a clean half, cut into dllm blocks of dllm_block
# tokens (positions local to their half). A noisy query sees the noisy keys of its own block
# and the clean keys of earlier blocks; a clean query sees the clean keys of its block and
# earlier ones. Inputs are bfloat16 (the factories' default dtype).


def bf16(x):
    import cabi
    return cabi.quantize(np.asarray(x, np.float64), "bfloat16")


LOG2E_EXACT = 1.4426950408889634  # block_causal_attention's LOG2_E


def dllm_mask(seq_len, dllm_block):
    half = seq_len // 2
    pos = np.arange(seq_len)
    clean = pos >= half
    blk = np.where(clean, pos - half, pos) // dllm_block
    qc, kc = clean[:, None], clean[None, :]
    qb, kb = blk[:, None], blk[None, :]
    return ((qb == kb) & ~qc & ~kc) | ((qb > kb) & ~qc & kc) | ((qb >= kb) & qc & kc)


def _bc_segments(ins, p):
    """(start, end) of each sequence: the whole (batch-major) tensor, or cu_seqlens."""
    if "cu_seqlens" in ins:
        return _segments(ins["cu_seqlens"])
    return None


def _bc_fwd(q, k, v, p):
    """q, k, v (L, H, D) of one sequence: O (L, H, D), lse (H, L)."""
    l, h, _ = q.shape
    keep = dllm_mask(l, p["dllm_block"])
    o, lse = np.zeros(q.shape), np.zeros((h, l))
    for hi in range(h):
        o[:, hi], lse[hi] = attn_fwd_rows(q[:, hi], k[:, hi], v[:, hi], p["softmax_scale"] * LOG2E_EXACT, keep)
    return o, lse


def _bc_bwd(q, k, v, do, lse, delta, p):
    l, h, _ = q.shape
    keep = dllm_mask(l, p["dllm_block"])
    dq, dk, dv = np.zeros(q.shape), np.zeros(k.shape), np.zeros(v.shape)
    for hi in range(h):
        dq[:, hi], dk[:, hi], dv[:, hi] = attn_bwd_rows(
            q[:, hi], k[:, hi], v[:, hi], do[:, hi], lse[hi], delta[hi],
            p["softmax_scale"] * LOG2E_EXACT, p["softmax_scale"], keep, rnd=bf16)
    return dq, dk, dv


def _bc_lse_gen(shape, rng, p):
    st = _stash(p)
    q, k, v = st["Q"], st["K"], st["V"]
    if "_cu" in st:
        lse, o = np.zeros(shape), np.zeros(q.shape)
        for s, e in _segments(st["_cu"]):
            o[s:e], lse[:, s:e] = _bc_fwd(q[s:e], k[s:e], v[s:e], p)
    else:
        lse, o = np.zeros(shape), np.zeros(q.shape)
        for b in range(q.shape[0]):
            o[b], lse[b] = _bc_fwd(q[b], k[b], v[b], p)
    st["O"] = bf16(o)
    return f32(lse)


def _bc_delta_gen(shape, rng, p):
    st = _stash(p)
    return f32(np.moveaxis(bf16(st["O"] * st["dO"]).sum(axis=-1), -1, -2 if "_cu" not in st else 0))


_BC_GEN = {"Q": _draw("Q", rnd=bf16), "K": _draw("K", rnd=bf16), "V": _draw("V", rnd=bf16),
           "dO": _draw("dO", rnd=bf16), "LSE": _bc_lse_gen, "Delta": _bc_delta_gen}


@ref
def block_causal_fwd(ins, p):
    """_fwd_template: Output (b, s, h, d) and base-2 LSE (b, h, s)."""
    q, k, v = ins["Q"], ins["K"], ins["V"]
    o, lse = np.zeros(q.shape), np.zeros(ins["LSE"].shape)
    for b in range(q.shape[0]):
        o[b], lse[b] = _bc_fwd(q[b], k[b], v[b], p)
    return {"Output": o, "LSE": lse}


@ref
def block_causal_bwd_dq(ins, p):
    dq = np.zeros(ins["Q"].shape)
    for b in range(dq.shape[0]):
        dq[b] = _bc_bwd(*(ins[n][b] for n in ("Q", "K", "V", "dO", "LSE", "Delta")), p)[0]
    return {"dQ": dq}


block_causal_bwd_dq.gen = _BC_GEN


@ref
def block_causal_bwd_dkv(ins, p):
    dk, dv = np.zeros(ins["K"].shape), np.zeros(ins["V"].shape)
    for b in range(dk.shape[0]):
        _, dk[b], dv[b] = _bc_bwd(*(ins[n][b] for n in ("Q", "K", "V", "dO", "LSE", "Delta")), p)
    return {"dK": dk, "dV": dv}


block_causal_bwd_dkv.gen = _BC_GEN


def _bc_cu_gen(shape, rng, p):
    """Sequences of p["seq_lens"] tokens (each two halves of whole block_size tiles)."""
    cu = np.concatenate([[0], np.cumsum(p["seq_lens"])]).astype(np.int64)
    assert cu[-1] == p["total_tokens"] and len(cu) == p["batch"] + 1
    _stash(p)["_cu"] = cu
    return cu


@ref
def block_causal_fwd_varlen(ins, p):
    """_fwd_varlen_template: packed sequences; Output (t, h, d), LSE (h, t)."""
    q, k, v = ins["Q"], ins["K"], ins["V"]
    o, lse = np.zeros(q.shape), np.zeros(ins["LSE"].shape)
    for s, e in _segments(ins["cu_seqlens"]):
        o[s:e], lse[:, s:e] = _bc_fwd(q[s:e], k[s:e], v[s:e], p)
    return {"Output": o, "LSE": lse}


block_causal_fwd_varlen.gen = {"cu_seqlens": _bc_cu_gen}


@ref
def block_causal_preprocess_varlen(ins, p):
    """Delta (h, t) = rowsum(bf16(Output * dO)) over all packed tokens."""
    return {"Delta": bf16(ins["Output"] * ins["dO"]).sum(axis=-1).T}


def _bc_bwd_varlen(ins, p):
    dq, dk, dv = (np.zeros(ins[n].shape) for n in ("Q", "K", "V"))
    for s, e in _segments(ins["cu_seqlens"]):
        dq[s:e], dk[s:e], dv[s:e] = _bc_bwd(*(ins[n][s:e] for n in ("Q", "K", "V", "dO")),
                                            ins["LSE"][:, s:e], ins["Delta"][:, s:e], p)
    return dq, dk, dv


@ref
def block_causal_bwd_dq_varlen(ins, p):
    return {"dQ": _bc_bwd_varlen(ins, p)[0]}


@ref
def block_causal_bwd_dkv_varlen(ins, p):
    _, dk, dv = _bc_bwd_varlen(ins, p)
    return {"dK": dk, "dV": dv}


block_causal_bwd_dq_varlen.gen = block_causal_bwd_dkv_varlen.gen = dict(_BC_GEN, cu_seqlens=_bc_cu_gen)


# ---- block-sparse GQA decoding (blocksparse_attention/) --------------------------------------
# One query token per (batch, head) against a KV cache of cache_seqlens[b] tokens, reading only
# the selected blocks of block_N keys of its KV head (head h reads h // (heads // heads_kv)).
# Split-KV: the first kernel writes per-split partial outputs and base-2 lse, the second merges
# the splits up to the last one holding a block. The merge counts every split before that one
# (an empty split adds exp2(0 - max)), so the inputs give every such split a block: block
# indices are a sorted-descending prefix padded with -1, and each mask row has a block in every
# split up to its sequence end. Only Output is compared (glse / Output_partial are scratch).


def _cache_lens(p, max_len):
    b = p["batch"]
    return np.array([max(1, max_len - 63 * i) for i in range(b)], np.int64)


def _decode_max_len(p):
    return p["max_cache_seqlen"] if "max_cache_seqlen" in p else p["max_num_blocks_per_seq"] * p["page_block_size"]


def _block_indices_gen(shape, rng, p):
    """Distinct blocks below each sequence's end, the last (partial) block first, sorted descending."""
    b, hkv, s = shape
    lens = _cache_lens(p, _decode_max_len(p))
    out = np.full(shape, -1, np.int64)
    for bi in range(b):
        nb = -(-int(lens[bi]) // p["block_N"])
        for h in range(hkv):
            n = min(s, nb) - (h % 2 if min(s, nb) > 1 else 0)  # some rows padded with -1
            rest = rng.permutation(nb - 1)[:n - 1]
            out[bi, h, :n] = np.sort(np.concatenate([[nb - 1], rest]))[::-1]
    return out


def _block_mask_gen(shape, rng, p):
    b, hkv, nbmax = shape
    lens = _cache_lens(p, p["max_cache_seqlen"])
    ns = p["num_split"]
    per, rem = nbmax // ns, nbmax % ns
    out = np.zeros(shape, bool)
    for bi in range(b):
        nb = -(-int(lens[bi]) // p["block_N"])
        for h in range(hkv):
            out[bi, h, :nb] = rng.random(nb) < 0.5
            for sid in range(ns):
                st = per * sid + min(sid, rem)
                en = min(st + per + (1 if sid < rem else 0), nb)
                if st < en and not out[bi, h, st:en].any():
                    out[bi, h, st + int(rng.integers(en - st))] = True
    return out


def _decode_out(q, keys_of, p):
    """Output (b, h, dv): keys_of(b, kv_head) -> (K rows, V rows) the query attends."""
    b, h, d = q.shape
    g = p["heads"] // p["heads_kv"]
    o = np.zeros((b, h, p["dim_v"]))
    for bi in range(b):
        for hi in range(h):
            k, v = keys_of(bi, hi // g)
            o[bi, hi] = attn_fwd_rows(q[bi, hi][None], k, v, d ** -0.5 * LOG2E)[0][0]
    return o


def _positions(blocks, block_n, length):
    pos = np.concatenate([np.arange(i * block_n, (i + 1) * block_n) for i in blocks]) if len(blocks) else np.zeros(0, int)
    return np.sort(pos[pos < length])


@ref
def sparse_decode_indice(ins, p):
    lens, idx = ins["cache_seqlens"].astype(int), ins["block_indices"].astype(int)

    def keys_of(b, h):
        pos = _positions([i for i in idx[b, h] if i >= 0], p["block_N"], lens[b])
        return ins["K"][b, pos, h], ins["V"][b, pos, h]
    return {"Output": _decode_out(ins["Q"], keys_of, p)}


sparse_decode_indice.gen = {"block_indices": _block_indices_gen,
                            "cache_seqlens": lambda s, r, p: _cache_lens(p, _decode_max_len(p))}


@ref
def sparse_decode_mask(ins, p):
    lens, mask = ins["cache_seqlens"].astype(int), ins["block_mask"].astype(bool)

    def keys_of(b, h):
        pos = _positions(np.flatnonzero(mask[b, h]), p["block_N"], lens[b])
        return ins["K"][b, pos, h], ins["V"][b, pos, h]
    return {"Output": _decode_out(ins["Q"], keys_of, p)}


sparse_decode_mask.gen = {"block_mask": _block_mask_gen,
                          "cache_seqlens": lambda s, r, p: _cache_lens(p, p["max_cache_seqlen"])}


def _block_table_gen(shape, rng, p):
    b, n = shape
    assert b * n <= p["num_pages"]
    return rng.permutation(p["num_pages"])[:b * n].reshape(shape)


@ref
def sparse_decode_paged(ins, p):
    """The paged cache: logical key t of batch b is page block_table[b, t // page_block_size], row t % page_block_size."""
    lens, idx, table = ins["cache_seqlens"].astype(int), ins["block_indices"].astype(int), ins["block_table"].astype(int)
    pbs = p["page_block_size"]

    def keys_of(b, h):
        pos = _positions([i for i in idx[b, h] if i >= 0], p["block_N"], lens[b])
        pages, rows = table[b, pos // pbs], pos % pbs
        return ins["K"][pages, rows, h], ins["V"][pages, rows, h]
    return {"Output": _decode_out(ins["Q"], keys_of, p)}


sparse_decode_paged.gen = dict(sparse_decode_indice.gen, block_table=_block_table_gen)
