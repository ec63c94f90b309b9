"""NumPy references of tile-lang's native sparse attention examples (deepseek_nsa/).

Written from what each kernel computes. The forward kernels share one core: query token t of
kv head h (its G = heads // head_kv query heads together) attends to the key blocks
BlockIndices[.., t, h, :] names, block i covering keys i*BS .. i*BS+BS-1; scores are scaled in
base 2 (scale * log2e), softmax over every key of every block the kernel takes, output
sum(p v) / sum(p). Keys past the end of the tensor read as 0 (spec: a T.copy reads 0 outside
a global tensor), so a block reaching past the end contributes zero keys with score 0 unless
the causal mask drops them. P enters the PV GEMM as float16.
"""
import numpy as np

from refs import f32, ref

LOG2E = 1.44269504


def f16(x):
    return np.asarray(x, np.float16).astype(np.float64)


def _block_keys(k, v, starts, bs):
    """Keys, values and positions of the blocks starting at `starts` (zero past the end)."""
    pos = (np.asarray(starts)[:, None] + np.arange(bs)[None, :]).ravel()
    inside = pos < k.shape[0]
    kk = np.zeros((pos.size, k.shape[1]))
    vv = np.zeros((pos.size, v.shape[1]))
    kk[inside] = k[pos[inside]]
    vv[inside] = v[pos[inside]]
    return kk, vv, pos


def sparse_rows(q, kk, vv, keep, scale2):
    """Output and base-2 lse of queries q (G, D) over keys kk (N, D) with mask keep (N,)."""
    s = f32(q @ kk.T) * scale2
    s = np.where(keep[None, :], s, -np.inf)
    m = s.max(axis=1, keepdims=True)
    e = np.exp2(s - m)
    l = e.sum(axis=1, keepdims=True)
    o = (f16(e) @ vv) / l
    return o, np.log2(l[:, 0]) + m[:, 0]


def _scale2(p, dim, log2e_on_given=True):
    s = p.get("scale")
    if s is None:
        return dim ** -0.5 * LOG2E
    return s * LOG2E if log2e_on_given else s


def nsa_fwd_all(q, k, v, idx, p, want_lse=False):
    """The fixed-batch forward (example_tilelang_nsa_fwd, benchmark_nsa_fwd, the bwd file's
    tilelang_kernel_fwd): a block i is taken when 0 <= i*BS <= t; causal masks keys > t."""
    b, L, heads, dim = q.shape
    hkv = k.shape[2]
    g, bs = heads // hkv, p["block_size"]
    causal = p.get("is_causal", True)
    scale2 = _scale2(p, dim)
    out = np.zeros(q.shape)
    lse = np.zeros((b, L, heads))
    for bi in range(b):
        for h in range(hkv):
            for t in range(L):
                starts = [int(i) * bs for i in idx[bi, t, h] if 0 <= int(i) * bs <= t]
                kk, vv, pos = _block_keys(k[bi, :, h], v[bi, :, h], starts, bs)
                keep = pos <= t if causal else np.ones(pos.size, bool)
                o, l = sparse_rows(q[bi, t, h * g:(h + 1) * g], kk, vv, keep, scale2)
                out[bi, t, h * g:(h + 1) * g], lse[bi, t, h * g:(h + 1) * g] = o, l
    return out, lse


def _fwd_indices(shape, rng, p):
    """BlockIndices (b, L, head_kv, S): per token t, 1..S distinct blocks among 0..t//BS (the
    current block included, so the causal mask cuts it), the other slots blocks the kernel
    skips (-1 or a block starting after t), in a random order."""
    b, L, hkv, S = shape
    bs = p["block_size"]
    out = np.zeros(shape, np.int64)
    for bi in range(b):
        for t in range(L):
            for h in range(hkv):
                avail = t // bs + 1
                c = int(rng.integers(1, min(S, avail) + 1))
                taken = list(rng.permutation(avail)[:c])
                future = list(range(avail, -(-L // bs) + 1))
                while len(taken) < S:
                    taken.append(int(rng.choice(future)) if future and rng.random() < 0.5 else -1)
                out[bi, t, h] = rng.permutation(taken)
    return out


@ref
def nsa_fwd(ins, p):
    """example_tilelang_nsa_fwd / benchmark_nsa_fwd native sparse attention: Output (b, L, heads, dim)."""
    o, _ = nsa_fwd_all(ins["Q"], ins["K"], ins["V"], ins["BlockIndices"], p)
    return {"Output": o}


nsa_fwd.gen = {"BlockIndices": _fwd_indices}


@ref
def nsa_fwd_lse(ins, p):
    """example_tilelang_nsa_bwd tilelang_kernel_fwd: O_slc and LSE_slc = log2(sum exp2(s * scale))."""
    o, lse = nsa_fwd_all(ins["Q"], ins["K"], ins["V"], ins["BlockIndices"], p)
    return {"O_slc": o, "LSE_slc": lse}


nsa_fwd_lse.gen = nsa_fwd.gen


@ref
def nsa_bwd_preprocess(ins, p):
    """tilelang_kernel_preprocess: Delta[b, t, h] = sum_d O * dO, each product in float16 (the
    kernel multiplies two float16 fragments), summed in float32."""
    return {"Delta": f16(ins["O"] * ins["dO"]).sum(axis=-1)}


# ---- decode (one query token) ---------------------------------------------------------------


def _decode_indices(shape, rng, p):
    """BlockIndices (b, 1, head_kv, S): 1..S distinct blocks of the keys, one slot in three of the
    rest -1 (skipped), the others a block wholly past the end (taken: zero keys, score 0)."""
    b, _, hkv, S = shape
    bs, L = p["block_size"], p["seq_len"]
    nb = -(-L // bs)
    out = np.zeros(shape, np.int64)
    for bi in range(b):
        for h in range(hkv):
            c = int(rng.integers(1, min(S, nb) + 1))
            taken = list(rng.permutation(nb)[:c])
            while len(taken) < S:
                taken.append(-1 if rng.random() < 0.67 else nb + int(rng.integers(0, 3)))
            out[bi, 0, h] = rng.permutation(taken)
    return out


def decode_rows(q, blocks, scale2):
    """The decode kernel's loop over its taken blocks (kk, vv) in order: each block's scores are
    taken against that block's own maximum m_b; logsum is carried over with exp2(m_prev - m_b)
    but the output accumulator is not (the example has no `acc_o *= scores_scale` step), so
    Output = sum_b rnd(exp2(s_b - m_b)) v_b / logsum. Exact attention when one block is taken."""
    acc = np.zeros((q.shape[0], blocks[0][1].shape[1]))
    logsum = np.zeros(q.shape[0])
    m_prev = np.full(q.shape[0], -np.inf)
    for kk, vv in blocks:
        s = f32(q @ kk.T) * scale2
        m = s.max(axis=1)
        e = np.exp2(s - m[:, None])
        logsum = logsum * np.exp2(m_prev - m) + e.sum(axis=1)
        acc += f16(e) @ vv
        m_prev = m
    return acc / logsum[:, None]


@ref
def nsa_decode(ins, p):
    """example_tilelang_nsa_decode: one query token per batch; a block is taken when its index is
    >= 0 (no causal mask, no upper bound: keys past the end read 0 and count with score 0).
    scale defaults to dim^-0.5 * log2e; a given scale is used as the base-2 scale itself.
    The blocks combine as decode_rows says (no rescaling of the output between blocks)."""
    q, k, v, idx = ins["Q"], ins["K"], ins["V"], ins["BlockIndices"]
    b, _, heads, dim = q.shape
    hkv = k.shape[2]
    g, bs = heads // hkv, p["block_size"]
    scale2 = _scale2(p, dim, log2e_on_given=False)
    out = np.zeros(q.shape)
    for bi in range(b):
        for h in range(hkv):
            blocks = [_block_keys(k[bi, :, h], v[bi, :, h], [int(i) * bs], bs)[:2] for i in idx[bi, 0, h] if int(i) >= 0]
            out[bi, 0, h * g:(h + 1) * g] = decode_rows(q[bi, 0, h * g:(h + 1) * g], blocks, scale2)
    return {"Output": out}


nsa_decode.gen = {"BlockIndices": _decode_indices}


# ---- variable-length (packed sequences) -------------------------------------------------------


def _varlen_lens(p):
    from refs_attention import seq_lens
    return seq_lens(p["c_seq_len"], p["batch"])


def _varlen_offsets(shape, rng, p):
    return np.concatenate([[0], np.cumsum(_varlen_lens(p))]).astype(np.int64)


def _varlen_token_indices(shape, rng, p):
    return np.array([(n, t) for n, l in enumerate(_varlen_lens(p)) for t in range(l)], np.int64)


def _varlen_counts(shape, rng, p):
    """BlockCounts (c_seq_len, head_kv) in 1..S."""
    return rng.integers(1, p["selected_blocks"] + 1, shape)


def _varlen_indices(shape, rng, p):
    """BlockIndices (c_seq_len, head_kv, S): per packed token (local position t), distinct blocks
    among 0..t//BS first, then skipped ones (-1, or a block starting after t)."""
    cl, hkv, S = shape
    bs = p["block_size"]
    out = np.zeros(shape, np.int64)
    row = 0
    for l in _varlen_lens(p):
        for t in range(l):
            for h in range(hkv):
                avail = t // bs + 1
                c = int(rng.integers(1, min(S, avail) + 1))
                taken = list(rng.permutation(avail)[:c])
                while len(taken) < S:
                    taken.append(-1 if rng.random() < 0.5 else avail + int(rng.integers(0, 2)))
                out[row, h] = taken
            row += 1
    return out


@ref
def nsa_fwd_varlen(ins, p):
    """example_tilelang_nsa_fwd_varlen: packed token c = bos + t of sequence n (TokenIndices[c] =
    (n, t)) takes the first NS = BlockCounts[t, h] slots of BlockIndices[c, h] (the kernel reads
    BlockCounts at the local position t, not at c), a block i when 0 <= i*BS <= t, keys
    bos + i*BS + j with i*BS + j <= t (causal). Every grid block along batch writes the same
    rows, so O_slc is written once per token and head."""
    q, k, v = ins["Q"], ins["K"], ins["V"]
    idx, counts, offs = ins["BlockIndices"].astype(int), ins["BlockCounts"].astype(int), ins["Offsets"].astype(int)
    tok = ins["TokenIndices"].astype(int)
    cl, heads, dim = q.shape
    hkv = k.shape[1]
    g, bs = heads // hkv, p["block_size"]
    causal = p.get("is_causal", True)
    scale2 = _scale2(p, dim)
    out = np.zeros(q.shape)
    for c in range(cl):
        n, t = tok[c]
        bos = offs[n]
        for h in range(hkv):
            ns = counts[t, h]
            starts = [int(i) * bs for i in idx[bos + t, h, :ns] if 0 <= int(i) * bs <= t]
            kk, vv, pos = _block_keys(k[:, h], v[:, h], [bos + s for s in starts], bs)
            keep = pos - bos <= t if causal else np.ones(pos.size, bool)
            out[bos + t, h * g:(h + 1) * g], _ = sparse_rows(q[bos + t, h * g:(h + 1) * g], kk, vv, keep, scale2)
    return {"O_slc": out}


nsa_fwd_varlen.gen = {"BlockIndices": _varlen_indices, "BlockCounts": _varlen_counts,
                      "Offsets": _varlen_offsets, "TokenIndices": _varlen_token_indices}


# ---- backward (example_tilelang_nsa_bwd; these factories read `H`, a global of the file's
# `__main__` block, so they do not compile yet: unchecked) -------------------------------------


def _draw16(name):
    def gen(shape, rng, p):
        x = f16(rng.uniform(-1, 1, shape))
        p.setdefault("_gen", {})[name] = x
        return x
    return gen


def _bwd_lse(shape, rng, p):
    """LSE_slc (b, L, heads): the base-2 log-sum-exp of each query over its causal keys, so that
    P = exp2(s * scale - lse) lies in [0, 1] as in a real backward pass."""
    g = p["_gen"]
    q, k = g["Q"], g["K"]
    b, L, heads, dim = q.shape
    hkv = k.shape[2]
    scale2 = _scale2(p, dim)
    out = np.zeros(shape)
    keep = np.tril(np.ones((L, L), bool))
    for bi in range(b):
        for hq in range(heads):
            s = np.where(keep, f32(q[bi, :, hq] @ k[bi, :, hq // (heads // hkv)].T) * scale2, -np.inf)
            m = s.max(axis=1)
            out[bi, :, hq] = np.log2(np.exp2(s - m[:, None]).sum(axis=1)) + m
    return out


def _bwd_mask(shape, rng, p):
    """BlockMask (b, L, head_kv, NS) of 0/1, indexed by key block."""
    return rng.integers(0, 2, shape)


def nsa_bwd_all(ins, p):
    """dq (b, L, heads, dim), dk, dv (b, L, head_kv, dim) of tilelang_kernel_bwd_dqkv: key block j
    of kv head h takes query token i >= j*BS when BlockMask[b, i, h, j]; P = exp2(s * scale -
    lse) with keys past i zeroed, dV += rnd(P)^T dO, dS = rnd(P (dO V^T - Delta) sm_scale),
    dK += dS^T Q, dQ_i += dS K (float16 atomic adds into a zeroed DQ)."""
    q, k, v, do = ins["Q"], ins["K"], ins["V"], ins["DO_slc"]
    lse, delta, mask = ins["LSE_slc"], ins["Delta_slc"], ins["BlockMask"]
    b, L, heads, dim = q.shape
    hkv = k.shape[2]
    g, bs = heads // hkv, p["block_size"]
    sm_scale = p.get("scale") or dim ** -0.5
    scale2 = sm_scale * LOG2E
    dq, dk, dv = np.zeros(q.shape), np.zeros(k.shape), np.zeros(v.shape)
    for bi in range(b):
        for h in range(hkv):
            hs = slice(h * g, (h + 1) * g)
            for j in range(-(-L // bs)):
                rows = np.arange(j * bs, j * bs + bs)
                kb = np.zeros((bs, dim))
                vb = np.zeros((bs, dim))
                inside = rows < L
                kb[inside], vb[inside] = k[bi, rows[inside], h], v[bi, rows[inside], h]
                for i in range(j * bs, L):
                    if mask[bi, i, h, j] == 0:
                        continue
                    qi, doi = q[bi, i, hs], do[bi, i, hs]
                    pt = f32(np.exp2(f32(kb @ qi.T) * scale2 - lse[bi, i, hs][None, :]))
                    pt = np.where((rows <= i)[:, None], pt, 0.0)
                    dst = f32(vb @ doi.T)
                    dv[bi, rows[inside], h] += (f16(pt) @ doi)[inside]
                    ds = f16(pt * (dst - delta[bi, i, hs][None, :]) * sm_scale)
                    dk[bi, rows[inside], h] += (ds @ qi)[inside]
                    dq[bi, i, hs] = f16(dq[bi, i, hs] + ds.T @ kb)
    return dq, dk, dv


_BWD_GEN = {"Q": _draw16("Q"), "K": _draw16("K"), "LSE_slc": _bwd_lse,
            "Delta_slc": lambda shape, rng, p: rng.uniform(-1, 1, shape), "BlockMask": _bwd_mask}


@ref
def nsa_bwd_dqkv(ins, p):
    """tilelang_kernel_bwd_dqkv (NV = 1): DQ, DK (with a leading NV axis) and DV."""
    dq, dk, dv = nsa_bwd_all(ins, p)
    return {"DQ": dq[None], "DK": dk[None], "DV": dv}


nsa_bwd_dqkv.gen = _BWD_GEN
nsa_bwd_dqkv.zero = ("DQ",)


@ref
def nsa_bwd_dkv(ins, p):
    """tilelang_kernel_bwd_dkv: the dqkv kernel without dQ."""
    _, dk, dv = nsa_bwd_all(ins, p)
    return {"DK": dk[None], "DV": dv}


nsa_bwd_dkv.gen = _BWD_GEN


@ref
def nsa_block_mask(ins, p):
    """tilelang_kernel_block_mask (with BlockCounts): BlockMask[b, t, h, i] = (BlockIndices[b, t, h, i]
    * BS <= t and i < BlockCounts[b, t, h]) for slot i < S; the kernel indexes the mask by the
    slot, not by the block the slot names, and leaves columns S.. unwritten (zeroed)."""
    idx, counts = ins["BlockIndices"], ins["BlockCounts"]
    bs = p["block_size"]
    S = idx.shape[3]
    out = np.zeros(ins["BlockMask"].shape)
    slot = np.arange(S)[None, None, None, :]
    t = np.arange(idx.shape[1])[None, :, None, None]
    out[..., :S] = (idx * bs <= t) & (slot < counts[..., None])
    return {"BlockMask": out}


nsa_block_mask.gen = {"BlockIndices": _fwd_indices,
                      "BlockCounts": lambda shape, rng, p: rng.integers(0, p["selected_blocks"] + 1, shape)}
nsa_block_mask.zero = ("BlockMask",)
