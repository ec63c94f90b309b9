"""NumPy references of tile-lang's varlen GQA decode with per-block logits
(flash_decoding/example_gqa_decode_varlen_logits).

Written from what the kernel computes: base-2 scores, each key block's P taken against that
block's own maximum (the kernel refills scores_max with -inf before every reduce_max) and rounded
to float16 before the PV GEMM, the running sums rescaled by exp2(previous block max - this one),
which makes the result the exact softmax.
"""
import numpy as np

from refs import f32, ref

LOG2E = 1.44269504


def f16(x):
    return np.asarray(x, np.float16).astype(np.float64)


def varlen_kv_lens(p):
    """Sequence lengths for cu_seqlens_k: all in (max_seqlen_kv - block_N, max_seqlen_kv] so that
    every sequence writes every column of S (columns past a sequence's last key block are never
    stored by the kernel), summing to at most total_seqlen_k."""
    b, mx, bn = p["batch"], p["max_seqlen_kv"], p.get("block_N", 128)
    lo = (-(-mx // bn) - 1) * bn + 1
    lens = [mx - (i * 17) % (mx - lo + 1) for i in range(b)]
    assert sum(lens) <= p["total_seqlen_k"] and min(lens) >= lo
    return np.array(lens)


def _cu_seqlens(shape, rng, p):
    return np.concatenate([[0], np.cumsum(varlen_kv_lens(p))])


@ref
def gqa_decode_varlen_logits(ins, p):
    """flashattn_gqa_decode_no_split: Output[b, h] = softmax_2(q . k * dim^-0.5 log2 e) v over the
    keys of sequence b and kv head h // (heads / k_heads); S[b, h, blk] = exp2((m_blk - m_last) *
    scale) / l, m_blk the maximum raw score of key block blk, m_last that of the last block,
    l = sum over keys of exp2((s - m_last) * scale) (plus s_aux[h] with has_sink)."""
    q, k, v, cu = ins["Q"], ins["K"], ins["V"], ins["cu_seqlens_k"].astype(int)
    b, heads, dim = q.shape
    groups = heads // k.shape[1]
    bn = p.get("block_N", 128)
    scale = dim ** -0.5 * LOG2E
    ncol = -(-p["max_seqlen_kv"] // bn)
    out = np.zeros(q.shape)
    s_out = np.zeros((b, heads, ncol))
    for bi in range(b):
        start, length = cu[bi], cu[bi + 1] - cu[bi]
        nblk = -(-length // bn)
        assert nblk == ncol
        for h in range(heads):
            kv = h // groups
            s = f32(k[start:start + length, kv] @ q[bi, h])
            maxes = [s[j * bn:(j + 1) * bn].max() for j in range(nblk)]
            m_last = maxes[-1]
            acc, l = np.zeros(dim), 0.0
            for j in range(nblk):
                sj = s[j * bn:(j + 1) * bn]
                pj = np.exp2(sj * scale - maxes[j] * scale)
                w = np.exp2((maxes[j] - m_last) * scale)
                acc += w * (f16(pj) @ v[start + j * bn:start + j * bn + sj.size, kv])
                l += w * pj.sum()
            if p.get("has_sink"):
                l += ins["s_aux"][h]
            out[bi, h] = acc / l
            s_out[bi, h] = np.exp2((np.array(maxes) - m_last) * scale) / l
    return {"Output": out, "S": s_out}


gqa_decode_varlen_logits.gen = {"cu_seqlens_k": _cu_seqlens}


if __name__ == "__main__":
    # against a plain softmax (exact up to the fp16 rounding of P)
    rng = np.random.default_rng(4)
    p = {"batch": 2, "max_seqlen_kv": 300, "total_seqlen_k": 700, "block_N": 128}
    cu = _cu_seqlens(None, rng, p)
    ins = {"Q": rng.uniform(-1, 1, (2, 4, 16)), "K": rng.uniform(-1, 1, (700, 2, 16)),
           "V": rng.uniform(-1, 1, (700, 2, 16)), "cu_seqlens_k": cu, "s_aux": np.zeros(4)}
    got = gqa_decode_varlen_logits(ins, p)
    for bi in range(2):
        for h in range(4):
            kk = ins["K"][cu[bi]:cu[bi + 1], h // 2]
            s = kk @ ins["Q"][bi, h] / 4.0
            e = np.exp(s - s.max())
            want = e @ ins["V"][cu[bi]:cu[bi + 1], h // 2] / e.sum()
            assert np.abs(got["Output"][bi, h] - want).max() < 2e-3
            blk_max = [s[j * 128:(j + 1) * 128].max() for j in range(3)]
            assert np.allclose(got["S"][bi, h], np.exp(np.array(blk_max) - blk_max[-1]) / (e.sum() * np.exp(s.max() - blk_max[-1])))
    print("refs_decode: self-checks pass")
