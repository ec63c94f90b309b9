"""NumPy references of tile-lang's block-sparse and index-sparse attention examples
(blocksparse_attention/example_tilelang_block_sparse_attn, seer_attention,
minference/example_vertical_slash_sparse_attn, flash_decoding/example_gqa_decode).

Written from what each kernel computes: softmax(q k^T * dim^-0.5) v over the keys the kernel
visits (base-2 scores, P rounded to float16 before the PV GEMM). Keys past the end of K read
0 (spec: T.copy reads 0 outside a global tensor) and count with score 0 unless masked.
"""
import numpy as np

from refs import f32, ref

LOG2E = 1.44269504


def f16(x):
    return np.asarray(x, np.float16).astype(np.float64)


def masked_rows(q, k, v, keep, scale2):
    """softmax over keys (base-2 scores * scale2) with mask keep (rows, keys); rows, keys padded."""
    s = np.where(keep, f32(q @ k.T) * scale2, -np.inf)
    m = s.max(axis=1, keepdims=True)
    e = np.exp2(s - m)
    return (f16(e) @ v) / e.sum(axis=1, keepdims=True)


def _pad_rows(x, n):
    out = np.zeros((n,) + x.shape[1:])
    out[:x.shape[0]] = x
    return out


def _block_mask_gen(shape, rng, p):
    """BlockSparseMask (b, h, ds, ds): random 0/1 with key block 0 always on (so every query
    has a key, as the examples' harnesses force with x_ds[..., 0] = 100)."""
    m = rng.integers(0, 2, shape)
    m[..., 0] = 1
    return m


def block_sparse_attn(q, k, v, mask, causal, past, causal_stop, bm=64, bn=64):
    """Output (b, h, lq, d): query block i attends to key blocks j with mask[b, h, i, j] among
    the blocks it visits (up to the causal diagonal when causal_stop), keys masked by
    row + past >= key when causal."""
    b, h, lq, d = q.shape
    lk = k.shape[2]
    nq, nk = -(-lq // bm), -(-lk // bn)
    scale2 = d ** -0.5 * LOG2E
    kp = np.zeros((b, h, nk * bn, d))
    vp = np.zeros((b, h, nk * bn, d))
    kp[:, :, :lk], vp[:, :, :lk] = k, v
    out = np.zeros(q.shape)
    for bi in range(b):
        for hi in range(h):
            for i in range(nq):
                rows = np.arange(i * bm, min((i + 1) * bm, lq))
                stop = min(nk, -(-((i + 1) * bm) // bn)) if causal and causal_stop else nk
                blocks = [j for j in range(stop) if mask[bi, hi, i, j]]
                cols = np.concatenate([np.arange(j * bn, (j + 1) * bn) for j in blocks])
                keep = np.ones((rows.size, cols.size), bool)
                if causal:
                    keep = rows[:, None] + past >= cols[None, :]
                out[bi, hi, rows] = masked_rows(q[bi, hi, rows], kp[bi, hi, cols], vp[bi, hi, cols], keep, scale2)
    return out


@ref
def blocksparse_attn_bool(ins, p):
    """example_tilelang_block_sparse_attn blocksparse_flashattn (bool mask, causal loop stops at the
    diagonal block). Each block's scores are taken against that block's own maximum (the kernel
    does not combine it with the running one); the rescaling makes that exact."""
    return {"Output": block_sparse_attn(ins["Q"], ins["K"], ins["V"], ins["BlockSparseMask"],
                                        p.get("is_causal", True), 0, True)}


blocksparse_attn_bool.gen = {"BlockSparseMask": _block_mask_gen}


@ref
def seer_blocksparse_attn(ins, p):
    """seer_attention blocksparse_flashattn: int8 mask, seq_q queries at the end of seq_kv keys
    (causal: row + seq_kv - seq_q >= key), every key block visited."""
    q, k = ins["Q"], ins["K"]
    return {"Output": block_sparse_attn(q, k, ins["V"], ins["BlockSparseMask"], p.get("is_causal", True),
                                        k.shape[2] - q.shape[2], False)}


seer_blocksparse_attn.gen = {"BlockSparseMask": _block_mask_gen}


# ---- GQA decode with a key mask (flash_decoding/example_gqa_decode) -----------------------------


def _gqa_decode_mask(shape, rng, p):
    """mask (batch, seqlen_kv, groups) uint8: three keys in four on, and the first key of every
    split on (a split whose first tile has no key would divide by zero in the kernel)."""
    m = (rng.random(shape) < 0.75).astype(np.int64)
    per = p["seqlen_kv"] // p["num_split"]
    m[:, [per * s for s in range(p["num_split"])], :] = 1
    return m


def _gqa_split(q, k, v, mask, base, ntiles, step, width, limit, scale2):
    """One split of one kv head: tile t covers keys base + t*step + j, j < width; a key counts
    when mask there != 0 (0 past the end) and j < limit."""
    pos = (base + np.arange(ntiles)[:, None] * step + np.arange(width)[None, :]).ravel()
    jj = np.tile(np.arange(width), ntiles)
    inside = pos < k.shape[0]
    kk = np.zeros((pos.size, k.shape[1]))
    vv = np.zeros((pos.size, v.shape[1]))
    kk[inside], vv[inside] = k[pos[inside]], v[pos[inside]]
    on = np.zeros(pos.size, bool)
    on[inside] = mask[pos[inside]] != 0
    keep = np.broadcast_to(on & (jj < limit), (q.shape[0], pos.size))
    s = np.where(keep, f32(q @ kk.T) * scale2, -np.inf)
    m = s.max(axis=1, keepdims=True)
    e = np.exp2(s - m)
    l = e.sum(axis=1)
    return (f16(e) @ vv) / l[:, None], np.log2(l) + m[:, 0]


@ref
def gqa_decode_masked(ins, p):
    """flashattn (example_gqa_decode): query head h reads kv head h // (heads // groups), keys
    with mask != 0. num_split == 1: tiles of block_N keys over ceil(L / block_N). num_split > 1:
    split s starts at (L // ns) * s and takes ceil((L // ns) / block_N) tiles of
    valid_block_N = min(block_N, L // ns) keys, so when L // ns is not a multiple of block_N its
    last tile runs into the next split's keys (counted twice) or past the end (mask reads 0);
    partials and their base-2 lse are float16 and combined by exp2(lse_s - log2 sum exp2 lse)."""
    q, k, v, mask = ins["Q"], ins["K"], ins["V"], ins["mask"]
    b, heads, dim = q.shape
    L, groups = k.shape[1], k.shape[2]
    bn, ns = p["block_N"], p["num_split"]
    per = L // ns
    vbn = min(bn, per)
    g = heads // groups
    scale2 = dim ** -0.5 * LOG2E
    out = np.zeros(q.shape)
    for bi in range(b):
        for h in range(groups):
            hs = slice(h * g, (h + 1) * g)
            args = (q[bi, hs], k[bi, :, h], v[bi, :, h], mask[bi, :, h])
            if ns == 1:
                out[bi, hs], _ = _gqa_split(*args, 0, -(-per // bn), bn, bn, bn, scale2)
                continue
            parts = [_gqa_split(*args, per * s, -(-per // bn), vbn, vbn, per, scale2) for s in range(ns)]
            po = f16(np.stack([o for o, _ in parts]))
            lse = f16(np.stack([l for _, l in parts]))
            mx = lse.max(axis=0)
            tot = np.log2(np.exp2(lse - mx).sum(axis=0)) + mx
            out[bi, hs] = (po * np.exp2(lse - tot)[..., None]).sum(axis=0)
    return {"Output": out}


gqa_decode_masked.gen = {"mask": _gqa_decode_mask}


# ---- MInference vertical + slash sparse attention (minference/example_vertical_slash_sparse_attn) --


def _vs_counts(shape, rng, p):
    """BlockCount (b, h, seq_blocks) in 1..slash_size."""
    return rng.integers(1, p["slash_size"] + 1, shape)


def _vs_offsets(shape, rng, p):
    """BlockOffset (b, h, seq_blocks, slash_size): the diagonal block's start (i * 64) first, so
    every query row has a key in the first tile, then any starts up to it (not aligned)."""
    out = np.zeros(shape, np.int64)
    for i in range(shape[2]):
        out[:, :, i, 0] = i * 64
        out[:, :, i, 1:] = rng.integers(0, i * 64 + 1, shape[:2] + (shape[3] - 1,))
    return out


def _vs_col_counts(shape, rng, p):
    """ColumnCount (b, h, seq_blocks) in 0..vertical_size."""
    return rng.integers(0, p["vertical_size"] + 1, shape)


def _vs_col_index(shape, rng, p):
    """ColumnIndex (b, h, seq_blocks, vertical_size): distinct key positions."""
    out = np.zeros(shape, np.int64)
    for idx in np.ndindex(shape[:3]):
        out[idx] = rng.permutation(p["seq_len"])[:shape[3]]
    return out


@ref
def vs_sparse_attn(ins, p):
    """_tl_vs_sparse_flashattn: query block i (64 rows) attends to (1) BlockCount[i] slash tiles of
    64 keys starting at BlockOffset[i, s] (any start), causal (row >= key), keys past the end
    read 0; (2) the first ColumnCount[i] keys ColumnIndex[i, :] without a causal mask. One
    softmax over both; a key named twice counts twice, as in the kernel."""
    q, k, v = ins["Q"], ins["K"], ins["V"]
    bc, bo, cc, ci = (ins[n].astype(int) for n in ("BlockCount", "BlockOffset", "ColumnCount", "ColumnIndex"))
    b, h, L, d = q.shape
    scale2 = d ** -0.5 * LOG2E
    kp = np.zeros((b, h, L + 64 * 2 + int(bo.max()), d))
    vp = np.zeros(kp.shape)
    kp[:, :, :L], vp[:, :, :L] = k, v
    out = np.zeros(q.shape)
    for bi in range(b):
        for hi in range(h):
            for i in range(-(-L // 64)):
                rows = np.arange(i * 64, min(i * 64 + 64, L))
                slash = np.concatenate([np.arange(o, o + 64) for o in bo[bi, hi, i, :bc[bi, hi, i]]])
                cols = ci[bi, hi, i, :cc[bi, hi, i]]
                keys = np.concatenate([slash, cols])
                keep = np.concatenate([rows[:, None] >= slash[None, :], np.ones((rows.size, cols.size), bool)], axis=1)
                out[bi, hi, rows] = masked_rows(q[bi, hi, rows], kp[bi, hi, keys], vp[bi, hi, keys], keep, scale2)
    return {"Output": out}


vs_sparse_attn.gen = {"BlockCount": _vs_counts, "BlockOffset": _vs_offsets,
                      "ColumnCount": _vs_col_counts, "ColumnIndex": _vs_col_index}
