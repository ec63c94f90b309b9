"""NumPy references for the compatibility manifest, written from what each kernel computes.

Each reference is `def NAME(ins, p) -> {tensor: expected}`: `ins` holds every
tensor argument by its kernel-parameter name as float64 (inputs already rounded
to their dtype; written tensors at their initial value), `p` the entry's
defines, dims and scalars. Only the returned tensors are compared. A reference
may carry `gen = {tensor: fn(shape, rng, p)}` for inputs that need a structure
(indices, masks), `zero = (...)` for outputs the kernel accumulates into, and
`scalars = {...}` defaults.
"""
import numpy as np

REFS = {}


def ref(fn):
    REFS[fn.__name__] = fn
    return fn


def f32(x):
    """Rounds to float32 (what an fp32 accumulator or output holds)."""
    return np.asarray(x, np.float32).astype(np.float64)


def fp8_e4m3(x):
    import cabi
    return cabi.quantize(x, "float8_e4m3")


# ---- GEMM family -------------------------------------------------------------


@ref
def gemm_nn(ins, p):
    """C = A @ B with A (M, K), B (K, N)."""
    return {"C": ins["A"] @ ins["B"]}


@ref
def gemm_nt(ins, p):
    """C = A @ B.T with A (M, K), B (N, K)."""
    return {"C": ins["A"] @ ins["B"].T}


@ref
def gemm_trans(ins, p):
    """C = op(A) @ op(B), op chosen by the trans_A / trans_B defines."""
    a = ins["A"].T if p.get("trans_A") else ins["A"]
    b = ins["B"].T if p.get("trans_B") else ins["B"]
    return {"C": a @ b}


@ref
def gemm_nn_accumulate(ins, p):
    """C += A @ B into a zeroed C (split-K and stream-K kernels add partial products atomically)."""
    return {"C": ins["C"] + ins["A"] @ ins["B"]}


gemm_nn_accumulate.zero = ("C",)


@ref
def gemm_nt_accumulate(ins, p):
    """C += A @ B.T into a zeroed C."""
    return {"C": ins["C"] + ins["A"] @ ins["B"].T}


gemm_nt_accumulate.zero = ("C",)


# ---- GEMV --------------------------------------------------------------------


@ref
def gemv_bk(ins, p):
    """C[n] = sum_k B[n, k] * A[k]."""
    return {"C": ins["B"] @ ins["A"]}


@ref
def gemv_ax(ins, p):
    """o[m] = sum_n a[m, n] * x[n]."""
    return {"o": ins["a"] @ ins["x"]}


# ---- element-wise, casts, norms ------------------------------------------------


@ref
def elementwise_add(ins, p):
    return {"C": ins["A"] + ins["B"]}


def _per_token_cast(x, group=128):
    """Per (row, 128-column group) scale = max(amax, 1e-4) / 448; q = fp8(clamp(x / scale))."""
    m, n = x.shape
    g = -(-n // group)
    pad = np.zeros((m, g * group))
    pad[:, :n] = x
    blocks = pad.reshape(m, g, group)
    s = f32(np.maximum(np.abs(blocks).max(axis=2), 1e-4) / 448.0)
    q = fp8_e4m3(np.clip(f32(blocks / s[:, :, None]), -448.0, 448.0))
    return q.reshape(m, g * group)[:, :n], s


@ref
def per_token_cast_to_fp8(ins, p):
    q, s = _per_token_cast(ins["X"])
    return {"X_fp8": q, "X_amax": s}


def _batch_sizes(shape, rng, p):
    """Group sizes summing to M, each at most M_max (group_per_split_token_cast)."""
    bg, m, m_max = p["BG"], p["M"], p["M_max"]
    sizes = [m // bg] * bg
    sizes[-1] += m - sum(sizes)
    assert max(sizes) <= m_max
    return np.array(sizes)


@ref
def group_per_split_token_cast_to_fp8(ins, p):
    x, sizes = ins["X"], ins["batch_sizes"].astype(int)
    bg, m_max, n = p["BG"], p["M_max"], x.shape[1]
    g = -(-n // 128)
    q_all, s_all = np.zeros((bg, m_max, n)), np.zeros((bg, m_max, g))
    off = 0
    for b in range(bg):
        q, s = _per_token_cast(x[off:off + sizes[b]])
        q_all[b, :sizes[b]], s_all[b, :sizes[b]] = q, s
        off += sizes[b]
    return {"X_fp8": q_all, "X_amax": s_all}


group_per_split_token_cast_to_fp8.gen = {"batch_sizes": _batch_sizes}


@ref
def rms_norm(ins, p):
    """B = A / sqrt(mean(A^2) + 1e-12) per row."""
    a = ins["A"]
    return {"B": a / np.sqrt((a * a).mean(axis=1, keepdims=True) + 1e-12)}


@ref
def layernorm_fwd(ins, p):
    x, g, b = ins["X"], ins["gamma"], ins["beta"]
    eps = p.get("eps", 1e-5)
    mean = x.mean(axis=1)
    var = (x * x).mean(axis=1) - mean * mean
    rstd = 1 / np.sqrt(var + eps)
    return {"Y": (x - mean[:, None]) * rstd[:, None] * g + b, "Mean": mean, "Rstd": rstd}


def _layernorm_stats(shape, rng, p):
    return rng.uniform(-0.5, 0.5, shape)


@ref
def layernorm_bwd(ins, p):
    """DX, DGamma, DBeta of y = (x - mean) * rstd * gamma + beta, given the forward's Mean and Rstd."""
    dy, x, g, mean, rstd = ins["DY"], ins["X"], ins["gamma"], ins["Mean"], ins["Rstd"]
    xh = (x - mean[:, None]) * rstd[:, None]
    dxh = dy * g
    c1 = (dxh * xh).mean(axis=1, keepdims=True)
    c2 = dxh.mean(axis=1, keepdims=True)
    return {"DX": rstd[:, None] * (dxh - c2 - xh * c1), "DGamma": (dy * xh).sum(axis=0), "DBeta": dy.sum(axis=0)}


layernorm_bwd.zero = ("DGamma", "DBeta")
layernorm_bwd.gen = {"Rstd": lambda shape, rng, p: rng.uniform(0.5, 2.0, shape)}


# ---- reductions, top-k, softmax --------------------------------------------------


@ref
def topk(ins, p):
    """The k largest logits of each row, descending, with their column indices."""
    x, k = ins["logits"], p["topk"]
    idx = np.argsort(-x, axis=1, kind="stable")[:, :k]
    return {"topk_gates": np.take_along_axis(x, idx, 1), "topk_indices": idx}


@ref
def softmax_rows(ins, p):
    x = ins["X"]
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return {"Y": e / e.sum(axis=1, keepdims=True)}


# ---- convolution ---------------------------------------------------------------


@ref
def conv2d_nhwc(ins, p):
    """out[n, oh, ow, f] = sum data[n, oh*S - P + kh*D, ow*S - P + kw*D, c] * kernel[kh, kw, c, f] (zero padding)."""
    x, w = ins["data"], ins["kernel"]
    s, d, pad = p["S"], p["D"], p["P"]
    n, h, wd, c = x.shape
    kh_, kw_, _, f = w.shape
    oh = (h + 2 * pad - d * (kh_ - 1) - 1) // s + 1
    ow = (wd + 2 * pad - d * (kw_ - 1) - 1) // s + 1
    xp = np.zeros((n, h + 2 * pad, wd + 2 * pad, c))
    xp[:, pad:pad + h, pad:pad + wd] = x
    out = np.zeros((n, oh, ow, f))
    for i in range(kh_):
        for j in range(kw_):
            patch = xp[:, i * d:i * d + s * (oh - 1) + 1:s, j * d:j * d + s * (ow - 1) + 1:s, :]
            out += patch @ w[i, j]
    return {"out": out}


# ---- attention -----------------------------------------------------------------


def _attention(q, k, v, causal=False, past=0):
    """softmax(q k^T / sqrt(d)) v over the last two axes; causal keeps key j <= query i + past."""
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if causal:
        i = np.arange(s.shape[-2])[:, None]
        j = np.arange(s.shape[-1])[None, :]
        s = np.where(j <= i + past, s, -np.inf)
    m = s.max(axis=-1, keepdims=True)
    e = np.exp(s - m)
    l = e.sum(axis=-1, keepdims=True)
    return (e / l) @ v, (np.log(l) + m)[..., 0]


def _bshd(x):
    return np.swapaxes(x, 1, 2)


def _expand_kv(k, heads):
    """GQA: query head h reads key/value head h // (heads // kv_heads) (axis 1, bhsd)."""
    return np.repeat(k, heads // k.shape[1], axis=1)


@ref
def mha_fwd_bhsd(ins, p):
    q, k, v = ins["Q"], ins["K"], ins["V"]
    o, _ = _attention(q, k, v, p.get("is_causal", False), k.shape[2] - q.shape[2])
    return {"Output": o}


@ref
def mha_fwd_bshd(ins, p):
    q, k, v = (_bshd(ins[n]) for n in ("Q", "K", "V"))
    k, v = _expand_kv(k, q.shape[1]), _expand_kv(v, q.shape[1])
    o, _ = _attention(q, k, v, p.get("is_causal", False))
    return {"Output": _bshd(o)}


@ref
def mha_fwd_bshd_lse(ins, p):
    """Forward pass of the backward examples: Output (bshd) and lse in base 2 (b, h, s)."""
    q, k, v = (_bshd(ins[n]) for n in ("Q", "K", "V"))
    k, v = _expand_kv(k, q.shape[1]), _expand_kv(v, q.shape[1])
    o, lse = _attention(q, k, v, p.get("is_causal", False))
    return {"Output": _bshd(o), "lse": lse / np.log(2)}


@ref
def mha_fwd_bhsd_lse(ins, p):
    q, k, v = ins["Q"], ins["K"], ins["V"]
    o, lse = _attention(q, k, v, p.get("is_causal", False))
    return {"Output": o, "lse": lse / np.log(2)}


@ref
def attn_bwd_preprocess_bshd(ins, p):
    """Delta[b, h, s] = sum_d O[b, s, h, d] * dO[b, s, h, d]; each product is
    rounded to O's dtype (the kernel multiplies two float16 fragments in
    float16, then adds into its float32 accumulator)."""
    return {"Delta": _bshd(_in_dtype(ins["O"] * ins["dO"], p).sum(axis=-1)[..., None])[..., 0]}


@ref
def attn_bwd_preprocess_bhsd(ins, p):
    return {"Delta": _in_dtype(ins["O"] * ins["dO"], p).sum(axis=-1)}


def _in_dtype(x, p):
    """Rounds to the kernel's input dtype (float16 unless -D dtype= says bfloat16)."""
    if "bfloat16" in str(p.get("dtype", "")):
        import cabi
        return cabi.quantize(x, "bfloat16")
    return np.asarray(x, np.float16).astype(np.float64)


# ---- the suite's self-test (selftest.toml, kernels/) ------------------------------


@ref
def selftest_wrong_gemm(ins, p):
    """A deliberately wrong reference: the self-test checks that the suite reports it."""
    return {"C": ins["A"] @ ins["B"] + 0.5}


@ref
def selftest_softmax(ins, p):
    x = ins["X"]
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return {"Y": e / e.sum(axis=1, keepdims=True)}


@ref
def selftest_scale_rows(ins, p):
    return {"Y": ins["X"] * p["alpha"] + 1.0}


@ref
def selftest_copy(ins, p):
    return {"Y": ins["X"]}


# ---- linear attention ------------------------------------------------------------


@ref
def linear_attn_fwd(ins, p):
    """Causal linear attention without decay: O_t = sum_{s<=t} (scale q_t . k_s) v_s; final_state = K^T V."""
    q, k, v = (np.swapaxes(ins[n], 1, 2) for n in ("Q", "K", "V"))  # b h s d
    scale = p.get("scale") or q.shape[-1] ** -0.5
    s = (q * scale) @ np.swapaxes(k, -1, -2)
    s = np.tril(s)
    o = s @ v
    return {"O": np.swapaxes(o, 1, 2), "final_state": np.swapaxes(k, -1, -2) @ v}


linear_attn_fwd.zero = ("O",)


@ref
def mla_decode(ins, p):
    """DeepSeek MLA decode: scores = [Q, Q_pe] . [KV, K_pe] * scale over the sequence, Output = softmax @ KV.

    Q (b, h, d), Q_pe (b, h, pe), KV (b, s, kvh, d), K_pe (b, s, kvh, pe); query head i reads
    KV head i // (h // kvh); scale = softmax_scale, or (d + pe)^-0.5 where the kernel fixes it."""
    q, qpe, kv, kpe = ins["Q"], ins["Q_pe"], ins["KV"], ins["K_pe"]
    b, h, d = q.shape
    kvh = kv.shape[2]
    scale = p.get("softmax_scale", (d + qpe.shape[-1]) ** -0.5)
    out = np.zeros((b, h, d))
    for i in range(h):
        g = i // (h // kvh)
        s = (np.einsum("bd,bsd->bs", q[:, i], kv[:, :, g]) + np.einsum("bd,bsd->bs", qpe[:, i], kpe[:, :, g])) * scale
        e = np.exp(s - s.max(axis=1, keepdims=True))
        out[:, i] = np.einsum("bs,bsd->bd", e / e.sum(axis=1, keepdims=True), kv[:, :, g])
    return {"Output": out}


@ref
def blocksparse_gemm(ins, p):
    """C = sum over K blocks k with BlockMask[bm, bn, k] of A[bm, k] @ B[k, bn] (block_M x block_K x block_N tiles)."""
    a, b, mask = ins["A"], ins["B"], ins["BlockMask"].astype(bool)
    bm, bn, bk = p["block_M"], p["block_N"], p["block_K"]
    c = np.zeros((a.shape[0], b.shape[1]))
    for i in range(mask.shape[0]):
        for j in range(mask.shape[1]):
            for k in range(mask.shape[2]):
                if mask[i, j, k]:
                    c[i * bm:(i + 1) * bm, j * bn:(j + 1) * bn] += \
                        a[i * bm:(i + 1) * bm, k * bk:(k + 1) * bk] @ b[k * bk:(k + 1) * bk, j * bn:(j + 1) * bn]
    return {"C": c}


# ---- further families ----------------------------------------------------------
# Each refs_<family>.py next to this file holds the references of one family of
# tile-lang's examples and registers them in REFS through `@ref` (`from refs import ref`).
import importlib as _importlib
import pathlib as _pathlib

for _module in sorted(_pathlib.Path(__file__).resolve().parent.glob("refs_*.py")):
    _importlib.import_module(_module.stem)
