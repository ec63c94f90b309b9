"""NumPy references of tile-lang's DeepSeek mHC pre-block kernels (deepseek_mhc/example_mhc_pre).

Written from what each kernel computes (float32 arithmetic; residual and x are bfloat16).
"""
import numpy as np

from refs import f32, ref


def _tf32_exact(shape, rng, p):
    """fn (hc_mult3, hc_hidden_size): values with a 10-bit mantissa, exact in tfloat32, so the
    result does not depend on where the TF32 GEMM rounds its operands."""
    x = rng.uniform(-1, 1, shape)
    m, e = np.frexp(x)
    return np.ldexp(np.round(m * 2 ** 11) / 2 ** 11, e)


@ref
def mhc_pre_gemm_sqrsum(ins, p):
    """mhc_pre_gemm_sqrsum_tilelang: out[t, j] = sum_k x[t, k] fn[j, k] (j < hc_mult3),
    sqrsum[t] = sum_k x[t, k]^2; rows past num_tokens are not stored."""
    x, fn = ins["x"], ins["fn"]
    return {"out": f32(x @ fn.T), "sqrsum": f32((x * x).sum(axis=1))}


mhc_pre_gemm_sqrsum.gen = {"fn": _tf32_exact}


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


@ref
def mhc_pre_big_fuse(ins, p):
    """mhc_pre_big_fuse_tilelang, per token: rms = rsqrt(sum_splits sqrsum / (hc_mult * hidden) +
    rms_eps), mixes = sum_splits gemm_out_mul * rms; post_mix = sigmoid(mixes[hm:2hm] * s1 +
    b[hm:2hm]) * hc_post_mult_value; comb_mix = sinkhorn(mixes[2hm:] * s2 + b[2hm:]): row
    softmax + eps, then columns / (sum + eps), then (repeat - 1) times rows and columns /
    (sum + eps); layer_input = sum_j (sigmoid(mixes[j] * s0 + b[j]) + hc_pre_eps) residual[j]."""
    mul, sq, sc, base, res = (ins[n] for n in ("gemm_out_mul", "gemm_out_sqrsum", "hc_scale", "hc_base", "residual"))
    hm, hidden = p["hc_mult"], p["hidden_size"]
    eps = p["hc_sinkhorn_eps"]
    rms = 1.0 / np.sqrt(sq.sum(axis=0) / (hm * hidden) + p["rms_eps"])
    mixes = mul.sum(axis=0) * rms[:, None]
    post = _sigmoid(mixes[:, hm:2 * hm] * sc[1] + base[hm:2 * hm]) * p["hc_post_mult_value"]
    cm = (mixes[:, 2 * hm:] * sc[2] + base[2 * hm:]).reshape(-1, hm, hm)
    cm = np.exp(cm - cm.max(axis=2, keepdims=True))
    cm = cm / cm.sum(axis=2, keepdims=True) + eps
    cm = cm / (cm.sum(axis=1, keepdims=True) + eps)
    for _ in range(p["sinkhorn_repeat"] - 1):
        cm = cm / (cm.sum(axis=2, keepdims=True) + eps)
        cm = cm / (cm.sum(axis=1, keepdims=True) + eps)
    pre = _sigmoid(mixes[:, :hm] * sc[0] + base[:hm]) + p["hc_pre_eps"]
    layer = np.einsum("tj,tjh->th", pre, res)
    return {"post_mix": post, "comb_mix": cm.reshape(-1, hm * hm), "layer_input": layer}


mhc_pre_big_fuse.gen = {
    "gemm_out_sqrsum": lambda shape, rng, p: rng.uniform(0.2, 1.0, shape) * p["hc_mult"] * p["hidden_size"] / shape[0],
    "hc_scale": lambda shape, rng, p: rng.uniform(0.5, 1.5, shape),
}
