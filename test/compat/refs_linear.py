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
