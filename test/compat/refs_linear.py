"""NumPy references of tile-lang's linear-attention examples (linear_attention/: retention,
linear attention backward, Mamba-2 chunk scan and chunk state).

Written from what each kernel computes, as the closed-form sums the chunked kernels evaluate
(the reference does not chunk); float16 roundings only where the kernel stores an input-sized
operand that the result depends on directly (a scaled Q in shared memory).
"""
import numpy as np

from refs import ref


def f16(x):
    return np.asarray(x, np.float16).astype(np.float64)


# ---- retention (example_retention_fwd) ----------------------------------------------------


@ref
def retention_fwd(ins, p):
    """chunk_retention_fwd: per head h the decay g = 1 - 2^(-5 - h);
    O[ik, b, t, h] = sum_{s <= t} (rnd(scale q_t) . k_s)[key block ik] g^(t - s) v_s, one partial
    per 64-wide block of the key dimension (the harness sums them)."""
    q, k, v = ins["Q"], ins["K"], ins["V"]
    b, L, heads, dk = q.shape
    bk = 64
    nk = dk // bk
    scale = p.get("scale") or dk ** -0.5
    qs = f16(q * scale)
    t = np.arange(L)
    out = np.zeros((nk, b, L, heads, v.shape[3]))
    for h in range(heads):
        g = 1.0 - 2.0 ** (-5.0 - h)
        decay = np.where(t[:, None] >= t[None, :], g ** (t[:, None] - t[None, :]).clip(0), 0.0)
        for ik in range(nk):
            sl = slice(ik * bk, (ik + 1) * bk)
            for bi in range(b):
                s = qs[bi, :, h, sl] @ k[bi, :, h, sl].T
                out[ik, bi, :, h] = (s * decay) @ v[bi, :, h]
    return {"O": out}


# ---- Mamba-2 chunked SSD (example_mamba_chunk_state, example_mamba_chunk_scan) ---------------


def _dA_cumsum(shape, rng, p):
    """dA_cumsum (batch, nheads, nchunks, chunk_size): a running sum of negative decays inside
    each chunk (exp(dA[i] - dA[j]) <= 1 for j <= i, as in Mamba-2)."""
    return np.cumsum(-rng.uniform(0.0, 0.05, shape), axis=-1)


_SSD_GEN = {"dA_cumsum": _dA_cumsum, "dt": lambda shape, rng, p: rng.uniform(0.0, 1.0, shape)}


def _chunked(a, nchunks, cs):
    """(batch, seqlen, ...) -> (batch, nchunks, cs, ...), zero past seqlen."""
    b, L = a.shape[:2]
    out = np.zeros((b, nchunks * cs) + a.shape[2:])
    out[:, :L] = a
    return out.reshape((b, nchunks, cs) + a.shape[2:])


@ref
def mamba_chunk_state(ins, p):
    """chunk_state_fwd: Output[b, c, h, m, n] = sum_{l in chunk c} rnd(x[l, h, m] exp(dA[c, last] -
    dA[c, l]) dt[c, l]) B[l, g, n], g = h // (nheads // ngroups); the scaled x is float16 (the
    kernel's xt_local); positions past seqlen read 0."""
    x, bm, dt, da = ins["x"], ins["B"], ins["dt"], ins["dA_cumsum"]
    nh, ng = x.shape[2], bm.shape[2]
    nc, cs = dt.shape[2], dt.shape[3]
    xc, bc = _chunked(x, nc, cs), _chunked(bm, nc, cs)
    scale = np.exp2(da[..., -1:] * 1.44269504 - da * 1.44269504) * dt  # b h c l
    out = np.zeros((x.shape[0], nc, nh, x.shape[3], bm.shape[3]))
    for h in range(nh):
        xs = f16(xc[:, :, :, h, :] * scale[:, h][..., None])  # b c l m
        out[:, :, h] = np.einsum("bclm,bcln->bcmn", xs, bc[:, :, :, h // (nh // ng), :])
    return {"Output": out}


mamba_chunk_state.gen = _SSD_GEN


@ref
def mamba_chunk_scan(ins, p):
    """chunk_scan_fwd: for position i of chunk c, head h (group g),
    Output = exp(dA[i]) C[i, g, :block_Dstate] . prev_states[c, h, n, :]
           + sum_{j <= i} rnd(rnd(cb[c, g, i, j] exp(dA[i] - dA[j])) dt[j]) x[j, h, n]
           + D[h] x[i, h, n];
    the weights are float16 (cb_local); positions past seqlen read 0."""
    cb, x, dt, da, cm, ps, dd = (ins[n] for n in ("cb", "x", "dt", "dA_cumsum", "C", "prev_states", "D"))
    b, L, nh, hd = x.shape
    ng = cm.shape[2]
    nc, cs = dt.shape[2], dt.shape[3]
    bd = p["block_Dstate"]
    xc, cc = _chunked(x, nc, cs), _chunked(cm, nc, cs)
    dsz = min(bd, cm.shape[3])
    keep = np.tril(np.ones((cs, cs), bool))
    out = np.zeros((b, nc, cs, nh, hd))
    for h in range(nh):
        g = h // (nh // ng)
        a = da[:, h]  # b c l
        state = np.einsum("bcis,bcns->bcin", cc[:, :, :, g, :dsz], ps[:, :, h, :, :dsz]) * np.exp(a)[..., None]
        w = f16(cb[:, :, g] * np.exp(a[..., :, None] - a[..., None, :]))
        w = np.where(keep, f16(w * dt[:, h][..., None, :]), 0.0)
        out[:, :, :, h] = state + np.einsum("bcij,bcjn->bcin", w, xc[:, :, :, h]) + dd[h] * xc[:, :, :, h]
    return {"Output": out.reshape(b, nc * cs, nh, hd)[:, :L]}


mamba_chunk_scan.gen = _SSD_GEN


# ---- linear attention backward (example_linear_attn_bwd) -------------------------------------


def f32(x):
    return np.asarray(x, np.float32).astype(np.float64)


def _lin_bwd_block(q, k, v, do, scale, cs=64):
    """dq, dk, dv of one (key block, value block) pair as the kernel's two chunk passes form them
    (float32 outputs, so the float16 operands the kernel stages in shared memory are rounded
    where it rounds them: the masked score tiles, the running states h and dh, the scaled q)."""
    L = q.shape[0]
    nt = L // cs
    dq, dk, dv = np.zeros(q.shape), np.zeros(k.shape), np.zeros(v.shape)
    h = np.zeros((v.shape[1], k.shape[1]))
    low = np.tril(np.ones((cs, cs), bool))
    for i in range(nt):
        r = slice(i * cs, (i + 1) * cs)
        ds = f16(np.where(low, f32(do[r] @ v[r].T), 0.0))
        dq[r] = f32(ds @ k[r] + do[r] @ f16(h)) * scale
        h = f32(h + v[r].T @ k[r])
    dh = np.zeros((k.shape[1], v.shape[1]))
    up = low.T
    qs = f16(q * scale)
    for i in reversed(range(nt)):
        r = slice(i * cs, (i + 1) * cs)
        dhs = f16(dh)
        ds = f16(np.where(up, f32(v[r] @ do[r].T), 0.0))
        dk[r] = ds @ qs[r] + v[r] @ dhs.T
        ds = f16(np.where(up, f32(k[r] @ qs[r].T), 0.0))
        dv[r] = ds @ do[r] + k[r] @ dhs
        dh = f32(dh + qs[r].T @ do[r])
    return dq, dk, dv


@ref
def linear_attn_bwd(ins, p):
    """tl_fused_chunk_bwd_kernel: gradients of O_t = sum_{s <= t} scale (q_t . k_s) v_s:
    dQ_t = scale sum_{s <= t} (dO_t . v_s) k_s, dK_s = scale sum_{t >= s} (v_s . dO_t) q_t,
    dV_s = scale sum_{t >= s} (k_s . q_t) dO_t, formed per 64-wide key and value block and
    added atomically (float32, zeroed) across the other dimension's blocks."""
    q, k, v, do = ins["Q"], ins["K"], ins["V"], ins["dO"]
    b, L, heads, dk_ = q.shape
    dv_ = v.shape[3]
    scale = p.get("scale") or dk_ ** -0.5
    dq, dk, dv = np.zeros(q.shape), np.zeros(k.shape), np.zeros(v.shape)
    for bi in range(b):
        for h in range(heads):
            for ik in range(dk_ // 64):
                ks = slice(ik * 64, (ik + 1) * 64)
                for iv in range(dv_ // 64):
                    vs = slice(iv * 64, (iv + 1) * 64)
                    a, c, e = _lin_bwd_block(q[bi, :, h, ks], k[bi, :, h, ks], v[bi, :, h, vs], do[bi, :, h, vs], scale)
                    dq[bi, :, h, ks] += a
                    dk[bi, :, h, ks] += c
                    dv[bi, :, h, vs] += e
    return {"dQ": dq, "dK": dk, "dV": dv}


linear_attn_bwd.zero = ("dQ", "dK", "dV")
