"""NumPy references of tile-lang's attention-sink examples whose forward also stores lse, and
their backward kernels (attention_sink/example_{gqa,mha}_sink_bwd_{bhsd,varlen}).

Written from what each kernel computes; the sink enters the softmax denominator as
exp2(sink * log2e - m) (refs_attention.sink_rows), scores are base 2.
"""
import numpy as np

from refs import ref
from refs_attention import LOG2E, _sink_keep, sink_log2, sink_rows


@ref
def sink_fwd_bhsd_lse(ins, p):
    """flashattn_fwd of the sink backward examples (bhsd): causal from position 0, optional
    sliding window, Output and base-2 lse (batch, heads, seq_len); query head h reads kv head
    h // groups (groups = query heads per kv head)."""
    q, k, v, sinks = ins["Q"], ins["K"], ins["V"], ins["Sinks"]
    b, h, L, d = q.shape
    scale = (p.get("sm_scale") or d ** -0.5) * LOG2E
    keep = _sink_keep(L, L, 0, True, p.get("window_size"))
    g = h // k.shape[1]
    o, lse = np.zeros(q.shape), np.zeros((b, h, L))
    for bi in range(b):
        for hi in range(h):
            o[bi, hi], lse[bi, hi] = sink_rows(q[bi, hi], k[bi, hi // g], v[bi, hi // g], scale,
                                               sink_log2(sinks[hi], p), keep)
    return {"Output": o, "lse": lse}


# ---- backward (bhsd) -------------------------------------------------------------------------


def _sink_bwd_gens():
    """Q, K, V, dO drawn; lse and Delta from a sink forward over them (random per-head sinks,
    which the backward kernel does not take), so P = exp2(s * scale - lse) lies in [0, 1]."""
    from refs_attention import _draw, _stash, f16

    def lse(shape, rng, p):
        st = _stash(p)
        q, k, v = st["Q"], st["K"], st["V"]
        b, h, L, d = q.shape
        g = h // k.shape[1]
        scale = (p.get("sm_scale") or d ** -0.5) * LOG2E
        keep = _sink_keep(L, L, 0, True, p.get("window_size"))
        sinks = f16(rng.uniform(-1, 1, h))
        o, out = np.zeros(q.shape), np.zeros((b, h, L))
        for bi in range(b):
            for hi in range(h):
                o[bi, hi], out[bi, hi] = sink_rows(q[bi, hi], k[bi, hi // g], v[bi, hi // g], scale,
                                                   sink_log2(sinks[hi], p), keep)
        st["O"] = f16(o)
        return np.asarray(out, np.float32).astype(np.float64)

    def delta(shape, rng, p):
        st = _stash(p)
        return f16(st["O"] * st["dO"]).sum(axis=-1)

    return {"Q": _draw("Q"), "K": _draw("K"), "V": _draw("V"), "dO": _draw("dO"), "lse": lse, "Delta": delta}


def _sink_bwd(ins, p):
    """dq (b, h, L, d) and dk, dv summed over each kv head's query heads: causal (optionally a
    sliding window: key > query - window), the kernels' float16 roundings of P and dS."""
    from refs_attention import attn_bwd_rows
    q, k, v, do, lse, delta = (ins[n] for n in ("Q", "K", "V", "dO", "lse", "Delta"))
    b, h, L, d = q.shape
    g = h // k.shape[1]
    sm = p.get("sm_scale") or d ** -0.5
    keep = _sink_keep(L, L, 0, True, p.get("window_size"))
    dq, dk, dv = np.zeros(q.shape), np.zeros(k.shape), np.zeros(v.shape)
    for bi in range(b):
        for hi in range(h):
            a, c, e = attn_bwd_rows(q[bi, hi], k[bi, hi // g], v[bi, hi // g], do[bi, hi], lse[bi, hi],
                                    delta[bi, hi], sm * LOG2E, sm, keep)
            dq[bi, hi] = a
            dk[bi, hi // g] += c
            dv[bi, hi // g] += e
    return dq, dk, dv


@ref
def sink_bwd_bhsd_gqa(ins, p):
    """example_gqa_sink_bwd_bhsd flashattn_bwd: dQ float32 through make_dq_layout (atomic, zeroed),
    dK and dV float32 atomic adds over the group's query heads (zeroed)."""
    from refs_attention import _dq8_bhsd, _layout_store
    dq, dk, dv = _sink_bwd(ins, p)
    return {"dQ": _layout_store(np.asarray(dq, np.float32).astype(np.float64), _dq8_bhsd), "dK": dk, "dV": dv}


sink_bwd_bhsd_gqa.gen = _sink_bwd_gens()
sink_bwd_bhsd_gqa.zero = ("dQ", "dK", "dV")


@ref
def sink_bwd_bhsd_mha(ins, p):
    """example_mha_sink_bwd_bhsd flashattn_bwd: dQ as for the gqa kernel; dK, dV float16 stores."""
    from refs_attention import _dq8_bhsd, _layout_store
    dq, dk, dv = _sink_bwd(ins, p)
    return {"dQ": _layout_store(np.asarray(dq, np.float32).astype(np.float64), _dq8_bhsd), "dK": dk, "dV": dv}


sink_bwd_bhsd_mha.gen = _sink_bwd_gens()
sink_bwd_bhsd_mha.zero = ("dQ",)


# ---- flash_attention/example_gqa_bwd*: flashattn_bwd_atomic_add -------------------------------
# (here beside the sink backward: the same kernel body, dK/dV added atomically per kv head)


def _group_sum(d, hkv):
    """Per query head gradients (B, H, L, D) -> per kv head (B, L, Hkv, D) (bshd), summed."""
    b, h, l, dd = d.shape
    out = np.zeros((b, l, hkv, dd))
    for hi in range(h):
        out[:, :, hi // (h // hkv)] += d[:, hi]
    return out


def _gqa_atomic(ins, p, layout_fn):
    from refs_attention import _bwd_all, _layout_store
    dq, dk, dv = _bwd_all(ins, p, "bshd")
    hkv = ins["K"].shape[2]
    dq = np.asarray(np.swapaxes(dq, 1, 2), np.float32).astype(np.float64)
    return {"dQ": _layout_store(dq, layout_fn) if layout_fn else dq,
            "dK": _group_sum(dk, hkv), "dV": _group_sum(dv, hkv)}


def _atomic_gens():
    from refs_attention import _bwd_gens
    return _bwd_gens("bshd")


@ref
def gqa_bwd_atomic(ins, p):
    """example_gqa_bwd flashattn_bwd_atomic_add: dQ float32 through make_dq_layout, dK/dV float32
    atomic adds over each kv head's query heads (all zeroed)."""
    from refs_attention import _dq8_bshd
    return _gqa_atomic(ins, p, _dq8_bshd)


gqa_bwd_atomic.gen = _atomic_gens()
gqa_bwd_atomic.zero = ("dQ", "dK", "dV")


@ref
def gqa_bwd_atomic_plain(ins, p):
    """example_gqa_bwd_tma_reduce flashattn_bwd_atomic_add: as gqa_bwd_atomic, dQ in plain bshd
    (this kernel puts no layout on dQ)."""
    return _gqa_atomic(ins, p, None)


gqa_bwd_atomic_plain.gen = _atomic_gens()
gqa_bwd_atomic_plain.zero = ("dQ", "dK", "dV")


@ref
def gqa_bwd_atomic_varlen(ins, p):
    """example_gqa_bwd_tma_reduce_varlen flashattn_bwd_atomic_add: packed sequences, causal keeps
    key j <= query i of each sequence (left aligned); dQ (total_q, H, D) plain, dK/dV summed per
    kv head. Tiles past a sequence's end add exact zeros into the next one (rows and columns
    past the ends are masked), so the sums are the per-sequence gradients."""
    from refs_attention import _segments, attn_bwd_rows
    q, k, v, do = (ins[n] for n in ("Q", "K", "V", "dO"))
    dqk, h = p["dim_qk"], q.shape[1]
    g = h // k.shape[1]
    dq, dk, dv = np.zeros(q.shape), np.zeros(k.shape), np.zeros(v.shape)
    for b, ((qs, qe), (ks, ke)) in enumerate(zip(_segments(ins["cu_seqlens_q"]), _segments(ins["cu_seqlens_k"]))):
        lq, lk = qe - qs, ke - ks
        keep = (np.arange(lk)[None, :] <= np.arange(lq)[:, None]) if p.get("is_causal", False) else None
        for hi in range(h):
            a, c, e = attn_bwd_rows(q[qs:qe, hi], k[ks:ke, hi // g], v[ks:ke, hi // g], do[qs:qe, hi],
                                    ins["lse"][b, hi, :lq], ins["Delta"][b, hi, :lq], dqk ** -0.5 * LOG2E,
                                    dqk ** -0.5, keep)
            dq[qs:qe, hi] = a
            dk[ks:ke, hi // g] += c
            dv[ks:ke, hi // g] += e
    return {"dQ": np.asarray(dq, np.float32).astype(np.float64), "dK": dk, "dV": dv}


def _varlen_atomic_gens():
    from refs_attention import _varlen_bwd_gens
    return _varlen_bwd_gens(1)


gqa_bwd_atomic_varlen.gen = _varlen_atomic_gens()
gqa_bwd_atomic_varlen.zero = ("dQ", "dK", "dV")


# ---- backward (varlen) -----------------------------------------------------------------------


def _sink_varlen_bwd_gens():
    """Q, K, V, dO drawn; lse and Delta (batch_size, heads, N_CTX) from a sink forward over the
    packed sequences (random per-head sinks), 0 past each sequence's end."""
    from refs_attention import _cu, _draw, _segments, _stash, f16

    def cus(p):
        return _cu(p, "UQ", "batch_size"), _cu(p, "UKV", "batch_size")

    def lse(shape, rng, p):
        st = _stash(p)
        q, k, v = st["Q"], st["K"], st["V"]
        h, hkv, d = q.shape[1], k.shape[1], q.shape[2]
        scale = (p.get("sm_scale") or d ** -0.5) * LOG2E
        sinks = f16(rng.uniform(-1, 1, h))
        o, out = np.zeros(q.shape), np.zeros(shape)
        cuq, cuk = cus(p)
        for b, ((qs, qe), (ks, ke)) in enumerate(zip(_segments(cuq), _segments(cuk))):
            keep = _sink_keep(qe - qs, ke - ks, (ke - ks) - (qe - qs), p.get("is_causal", False), p.get("window_size"))
            for hi in range(h):
                kh = hi // (h // hkv)
                o[qs:qe, hi], out[b, hi, :qe - qs] = sink_rows(q[qs:qe, hi], k[ks:ke, kh], v[ks:ke, kh], scale,
                                                               sink_log2(sinks[hi], p), keep)
        st["O"] = f16(o)
        return np.asarray(out, np.float32).astype(np.float64)

    def delta(shape, rng, p):
        st = _stash(p)
        prod = f16(st["O"] * st["dO"]).sum(axis=-1)
        out = np.zeros(shape)
        for b, (s, e) in enumerate(_segments(cus(p)[0])):
            out[b, :, :e - s] = prod[s:e].T
        return out

    return {"Q": _draw("Q"), "K": _draw("K"), "V": _draw("V"), "dO": _draw("dO"), "lse": lse, "Delta": delta,
            "cu_seqlens_q": lambda s, rng, p: cus(p)[0], "cu_seqlens_k": lambda s, rng, p: cus(p)[1]}


@ref
def sink_bwd_varlen(ins, p):
    """example_gqa_sink_bwd_varlen flashattn_bwd: per sequence, causal aligned on the right (key <=
    query + lk - lq), optional window; dQ float32 held as (h, l, d) (make_dq_layout), dK/dV
    float32 atomic adds per kv head (all zeroed). Tiles past a sequence's end add exact zeros."""
    from refs_attention import _hld, _layout_store, _segments, attn_bwd_rows
    q, k, v, do = (ins[n] for n in ("Q", "K", "V", "dO"))
    h, hkv, d = q.shape[1], k.shape[1], q.shape[2]
    g = h // hkv
    sm = p.get("sm_scale") or d ** -0.5
    dq, dk, dv = np.zeros(q.shape), np.zeros(k.shape), np.zeros(v.shape)
    for b, ((qs, qe), (ks, ke)) in enumerate(zip(_segments(ins["cu_seqlens_q"]), _segments(ins["cu_seqlens_k"]))):
        lq, lk = qe - qs, ke - ks
        keep = _sink_keep(lq, lk, lk - lq, p.get("is_causal", False), p.get("window_size"))
        for hi in range(h):
            a, c, e = attn_bwd_rows(q[qs:qe, hi], k[ks:ke, hi // g], v[ks:ke, hi // g], do[qs:qe, hi],
                                    ins["lse"][b, hi, :lq], ins["Delta"][b, hi, :lq], sm * LOG2E, sm, keep)
            dq[qs:qe, hi] = a
            dk[ks:ke, hi // g] += c
            dv[ks:ke, hi // g] += e
    return {"dQ": _layout_store(np.asarray(dq, np.float32).astype(np.float64), _hld), "dK": dk, "dV": dv}


sink_bwd_varlen.gen = _sink_varlen_bwd_gens()
sink_bwd_varlen.zero = ("dQ", "dK", "dV")
