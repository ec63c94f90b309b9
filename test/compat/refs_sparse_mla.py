"""NumPy references of tile-lang's DeepSeek v3.2 top-k selector and seesaw sparse MLA forward
(deepseek_v32/topk_selector, deepseek_v32/sparse_mla_fwd_seesaw) and the varlen sparse MLA
backward of dsa_sparse_finetune/sparse_mla_bwd.

Written from what each kernel computes.
"""
import numpy as np

from refs import REFS, f32, ref


def bf16(x):
    import cabi
    return cabi.quantize(x, "bfloat16")


# ---- radix top-k selector ----------------------------------------------------------------------


def fp16_high_byte(x):
    """convert_to_uint16 >> 8 of topk_selector: the order-preserving key of float16(x), top byte."""
    h = np.asarray(x, np.float16).view(np.uint16).astype(np.int64)
    key = np.where(np.asarray(x) < 0, ~h & 0xFFFF, h | 0x8000)
    return key >> 8


def _topk_ranges(p):
    """starts / ends per row: ragged windows inside seq_len."""
    b, n = p["batch"], p["seq_len"]
    starts = np.array([(97 * i) % (n // 4) for i in range(b)])
    ends = np.array([n - (53 * i) % (n // 4) for i in range(b)])
    return starts, ends


def _topk_input(shape, rng, p):
    """Rows whose topk largest values inside [start, end) fall into topk different first-pass
    bins (fp16 top bytes: 2^e (1 + m / 4 + jitter) for 64 consecutive (e, m)), everything else
    in lower bins; larger values are also planted outside the window (the kernel must skip
    them). Then the kernel's atomic output positions are its value ranks: index[j] is the
    position of the j-th largest, and the last one comes through all four tail passes."""
    k = p["topk"]
    assert k <= 64
    starts, ends = _topk_ranges(p)
    x = rng.uniform(-1.0, 2.0 ** -5, shape)
    for r in range(shape[0]):
        slots = [(e, m) for e in range(-4, 12) for m in range(4)][:k]
        vals = np.array([2.0 ** e * (1 + m / 4 + rng.uniform(0, 0.1)) for e, m in slots])
        pos = rng.choice(np.arange(starts[r], ends[r]), k, replace=False)
        x[r, pos] = vals
        outside = [i for i in (starts[r] - 1, ends[r]) if 0 <= i < shape[1]]
        x[r, outside] = 30000.0
    return x


@ref
def ds32_topk_selector(ins, p):
    """tl_topk_impl: index[b] = the positions of the topk largest input[b, start:end), by value
    descending (see _topk_input for why the order is the kernel's)."""
    x = ins["input"]
    st, en = ins["starts"].astype(int), ins["ends"].astype(int)
    k = p["topk"]
    out = np.zeros((x.shape[0], k), np.int64)
    for r in range(x.shape[0]):
        seg = x[r, st[r]:en[r]]
        order = np.argsort(-seg, kind="stable")[:k]
        bins = fp16_high_byte(seg)
        assert len(set(bins[order])) == k and bins[order].min() > np.delete(bins, order).max()
        out[r] = order + st[r]
    return {"index": out}


ds32_topk_selector.gen = {"input": _topk_input,
                          "starts": lambda s, rng, p: _topk_ranges(p)[0],
                          "ends": lambda s, rng, p: _topk_ranges(p)[1]}


# ---- seesaw sparse MLA forward ------------------------------------------------------------------


@ref
def ds32_sparse_mla_fwd_seesaw(ins, p):
    """sparse_mla_fwd (seesaw, two consumer warpgroups each owning half of D): with
    q_start_index_s = 0 and kv_stride = 1 (CP0) the same sparse attention as sparse_mla_fwd:
    softmax over the top-k keys idx <= s (masked scores -5e4, i.e. weight 0), Lse in base 2."""
    return REFS["ds32_sparse_mla_fwd"](ins, p)


ds32_sparse_mla_fwd_seesaw.gen = {"Indices": lambda s, rng, p: REFS["ds32_sparse_mla_fwd"].gen["Indices"](s, rng, p),
                                  "q_start_index_s": lambda s, rng, p: np.zeros(s, np.int64)}


# ---- varlen sparse MLA backward (dsa_sparse_finetune) ------------------------------------------


def varlen_offsets(p):
    """Offsets (B_plus_one) and TokenIndices (S, 2) for B_plus_one - 1 ragged sequences over S tokens."""
    b, n = p["B_plus_one"] - 1, p["S"]
    lens = [n // b + 5 * (i - b // 2) for i in range(b)]
    lens[-1] = n - sum(lens[:-1])
    assert min(lens) > 0
    off = np.concatenate([[0], np.cumsum(lens)])
    tok = np.array([(i, t) for i in range(b) for t in range(lens[i])])
    return off, tok


def _vl_indices(shape, rng, p):
    """Indices (S, kv_group, topk): positions inside the token's sequence, repeats allowed, the
    first the token itself, others past it (masked). No -1: the kernel loads KV[bos + index]
    for every slot before masking."""
    off, tok = varlen_offsets(p)
    idx = np.zeros(shape, np.int64)
    for r in range(shape[0]):
        length = off[tok[r, 0] + 1] - off[tok[r, 0]]
        idx[r] = rng.integers(0, length, shape[1:])
        idx[r, :, 0] = tok[r, 1]
    p.setdefault("_gen", {})["Indices"] = idx
    return idx


def _vl_draw(name):
    def gen(shape, rng, p):
        x = bf16(rng.uniform(-1, 1, shape))
        p.setdefault("_gen", {})[name] = x
        return x
    return gen


def _vl_scale(p):
    sm = p.get("sm_scale")
    return sm if isinstance(sm, float) else (p["D"] + p["D_tail"]) ** -0.5


def _vl_rows(kv, idx, off, tok, r):
    """KV rows of token r's slots (kv_group 1: group 0), their validity (index <= position)."""
    bos, s = off[tok[r, 0]], tok[r, 1]
    keys = idx[r, 0]
    return kv[bos + keys, 0], keys <= s, bos + keys


def _vl_forward(p):
    """Natural-log Lse and O (bf16) of the sparse forward over the drawn Q, KV, Indices."""
    st = p["_gen"]
    if "Lse" in st:
        return st["Lse"], st["O"]
    q, kv, idx = st["Q"], st["KV"], st["Indices"]
    off, tok = varlen_offsets(p)
    sm = _vl_scale(p)
    lse, o = np.zeros(q.shape[:2]), np.zeros(q.shape[:2] + (p["D"],))
    for r in range(q.shape[0]):
        rows, valid, _ = _vl_rows(kv, idx, off, tok, r)
        t = np.where(valid[None, :], f32(q[r] @ rows.T) * sm, -np.inf)
        m = t.max(axis=1)
        e = np.exp(t - m[:, None])
        lse[r] = np.log(e.sum(axis=1)) + m
        o[r] = bf16((e @ rows[:, :p["D"]]) / e.sum(axis=1)[:, None])
    st["Lse"], st["O"] = f32(lse), o
    return st["Lse"], o


@ref
def dsa_sparse_mla_bwd_varlen(ins, p):
    """dsa_sparse_finetune bwd, per token (bos + s) and head, over its topk slots j
    (valid: Indices <= s and != -1; repeats count each time): P = exp(scale [Q, Q_tail] . KV_j -
    Lse) (natural log), dP = P (dO . KV_j[:D] - Delta) scale, both bfloat16; dQ = dP @ KV_j
    (bfloat16); dKV[bos + j] += dP^T [Q, Q_tail] + P^T dO on the first D columns (float32 atomic
    adds, zeroed)."""
    q, kv, do, idx, lse, delta = (ins[n] for n in ("Q", "KV", "dO", "Indices", "Lse", "Delta"))
    off, tok = ins["Offsets"].astype(int), ins["TokenIndices"].astype(int)
    idx = idx.astype(int)
    d, sm = p["D"], _vl_scale(p)
    dq, dkv = np.zeros(q.shape), np.zeros(kv.shape)
    for r in range(q.shape[0]):
        rows, valid, where = _vl_rows(kv, idx, off, tok, r)
        valid = valid & (idx[r, 0] != -1)
        t = f32(q[r] @ rows.T) * sm
        pm = np.where(valid[None, :], np.exp(t - lse[r][:, None]), 0.0)
        dp = f32(do[r] @ rows[:, :d].T)
        ds = bf16(pm * (dp - delta[r][:, None]) * sm)
        pm = bf16(pm)
        dq[r] = ds @ rows
        contrib = ds.T @ q[r]
        contrib[:, :d] += pm.T @ do[r]
        np.add.at(dkv[:, 0], where, contrib)
    return {"dQ": dq, "dKV": dkv}


dsa_sparse_mla_bwd_varlen.gen = {
    "Q": _vl_draw("Q"), "KV": _vl_draw("KV"), "dO": _vl_draw("dO"), "Indices": _vl_indices,
    "Lse": lambda s, rng, p: _vl_forward(p)[0],
    "Delta": lambda s, rng, p: f32((_vl_forward(p)[1] * p["_gen"]["dO"]).sum(axis=-1)),
    "Offsets": lambda s, rng, p: varlen_offsets(p)[0],
    "TokenIndices": lambda s, rng, p: varlen_offsets(p)[1],
}
dsa_sparse_mla_bwd_varlen.zero = ("dKV",)


if __name__ == "__main__":
    rng = np.random.default_rng(2)
    # the bin key orders values like the floats themselves
    v = np.sort(rng.uniform(-100, 100, 2000))
    assert (np.diff(fp16_high_byte(v)) >= 0).all()
    p = {"batch": 3, "seq_len": 5000, "topk": 64}
    x = _topk_input((3, 5000), rng, p)
    st, en = _topk_ranges(p)
    got = ds32_topk_selector({"input": x, "starts": st, "ends": en}, p)["index"]
    for r in range(3):
        assert set(got[r]) == set(np.argsort(-x[r, st[r]:en[r]])[:64] + st[r])
        assert (np.diff(x[r, got[r]]) < 0).all()
    # the varlen backward against finite differences of the loss sum(O * dO) in dQ (one token)
    p = {"S": 30, "B_plus_one": 3, "D": 8, "D_tail": 4, "sm_scale": None, "topk": 6}
    off, tok = varlen_offsets(p)
    assert off[-1] == 30
    ins = {n: dsa_sparse_mla_bwd_varlen.gen[n](s, rng, p) for n, s in
           (("Q", (30, 2, 12)), ("KV", (30, 1, 12)), ("dO", (30, 2, 8)), ("Indices", (30, 1, 6)),
            ("Lse", (30, 2)), ("Delta", (30, 2)), ("Offsets", (3,)), ("TokenIndices", (30, 2)))}
    got = dsa_sparse_mla_bwd_varlen(ins, p)

    def loss(q, kv):
        tot = 0.0
        for r in range(30):
            rows, valid, _ = _vl_rows(kv, ins["Indices"], off, tok, r)
            t = np.where(valid[None, :], q[r] @ rows.T * _vl_scale(p), -np.inf)
            e = np.exp(t - t.max(axis=1, keepdims=True))
            tot += ((e / e.sum(axis=1, keepdims=True)) @ rows[:, :8] * ins["dO"][r]).sum()
        return tot

    for arr, name, at in ((ins["Q"], "dQ", (7, 1, 3)), (ins["KV"], "dKV", (12, 0, 2)), (ins["KV"], "dKV", (12, 0, 10))):
        h = 1e-5
        a1, a2 = arr.copy(), arr.copy()
        a1[at] += h
        a2[at] -= h
        num = (loss(a1, ins["KV"]) - loss(a2, ins["KV"])) / (2 * h) if name == "dQ" else \
            (loss(ins["Q"], a1) - loss(ins["Q"], a2)) / (2 * h)
        assert abs(num - got[name][at]) <= 3e-2 * max(1.0, abs(num)), (name, at, num, got[name][at])
    print("refs_sparse_mla: self-checks pass")
