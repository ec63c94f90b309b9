"""NumPy references of small tile-lang examples: iket/ (element-wise kernels with profiling
marks), hadamard_transform/example_hadamard, grouped_gemm/example_grouped_gemm_fwd.

Written from what each kernel computes.
"""
import numpy as np

from refs import ref


# ---- iket: the marks and ranges are profiling events, they do not change the data ------------


@ref
def iket_add(ins, p):
    """minimal elementwise_add_with_iket: C = A + B."""
    return {"C": ins["A"] + ins["B"]}


@ref
def iket_add_scale(ins, p):
    """all_features add_scale_with_iket: C = (A + B) * Scale[0] (float32)."""
    return {"C": (ins["A"] + ins["B"]) * ins["Scale"][0]}


@ref
def iket_add_one(ins, p):
    """payload_minimal payload_mark_kernel: C = A + 1."""
    return {"C": ins["A"] + 1.0}


# ---- Walsh-Hadamard transform ------------------------------------------------------------------


def fwht(x):
    """Unnormalised fast Walsh-Hadamard transform of each row, natural (Sylvester) order:
    y[i] = sum_j (-1)^popcount(i & j) x[j]; rows of power-of-two length."""
    y = np.array(x, np.float64)
    n = y.shape[-1]
    h = 1
    while h < n:
        y = y.reshape(y.shape[0], -1, 2, h)
        y = np.stack((y[:, :, 0] + y[:, :, 1], y[:, :, 0] - y[:, :, 1]), axis=2)
        h *= 2
    return y.reshape(x.shape)


def hadamard_matrix(n):
    i = np.arange(n)
    bits = np.bitwise_and(i[:, None], i[None, :])
    pop = np.vectorize(lambda v: bin(int(v)).count("1"))(bits)
    return np.where(pop % 2 == 0, 1.0, -1.0)


@ref
def hadamard_rows(ins, p):
    """example_hadamard hadamard: B = A @ H_n (H_n the Sylvester Hadamard matrix, symmetric):
    butterflies inside a thread, across lanes by warp shuffle, across warps through shared memory."""
    return {"B": fwht(ins["A"])}


# ---- grouped GEMM over row groups padded to block_M ---------------------------------------------


def _gg_fwd_tables(p):
    """batch_sizes from the batch_sizes_list define; offsets their prefix sums; padded offsets the
    prefix sums of the sizes rounded up to block_M (as construct_inputs builds them)."""
    sizes = np.array(list(p["batch_sizes_list"]))
    bm = p["block_M"]
    off = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    padded = np.concatenate([[0], np.cumsum(-(-sizes // bm) * bm)[:-1]])
    return sizes, off, padded


@ref
def grouped_gemm_padded(ins, p):
    """example_grouped_gemm_fwd grouped_gemm: C[rows of group g] = A[rows of g] @ B[g]
    (B[g]^T with trans_b); each block of block_M rows belongs to one group."""
    a, b = ins["A"], ins["B"]
    sizes, off, _ = _gg_fwd_tables(p)
    c = np.zeros((a.shape[0], b.shape[1] if p.get("trans_b") else b.shape[2]))
    for g in range(len(sizes)):
        w = b[g].T if p.get("trans_b") else b[g]
        c[off[g]:off[g] + sizes[g]] = a[off[g]:off[g] + sizes[g]] @ w
    return {"C": c}


grouped_gemm_padded.gen = {"batch_sizes": lambda s, rng, p: _gg_fwd_tables(p)[0],
                           "batch_offsets": lambda s, rng, p: _gg_fwd_tables(p)[1],
                           "batch_padded_offsets": lambda s, rng, p: _gg_fwd_tables(p)[2]}


if __name__ == "__main__":
    rng = np.random.default_rng(3)
    for n in (2, 8, 64, 256):
        x = rng.uniform(-1, 1, (3, n))
        assert np.allclose(fwht(x), x @ hadamard_matrix(n))
    p = {"batch_sizes_list": [30, 77, 5], "block_M": 64}
    s, o, pad = _gg_fwd_tables(p)
    assert list(o) == [0, 30, 107] and list(pad) == [0, 64, 192]
    # the kernel's block mapping over these tables (cur_batch from the padded offsets, m_start,
    # actual_rows) covers every row of every group once and no other row
    bm = 64
    sizes, off, pad = _gg_fwd_tables({"batch_sizes_list": [30, 77, 64, 5], "block_M": bm})
    seen = []
    for bx in range(int(sum(-(-sizes // bm)))):
        cur = max(i for i in range(4) if bx * bm >= pad[i])
        m_start = bx * bm - pad[cur] + off[cur]
        rows = max(0, min(bm, sizes[cur] + pad[cur] - bx * bm))
        seen += list(range(m_start, m_start + rows))
    assert sorted(seen) == list(range(int(sizes.sum())))
    a, b = rng.uniform(-1, 1, (176, 5)), rng.uniform(-1, 1, (4, 5, 3))
    c = grouped_gemm_padded({"A": a, "B": b}, {"batch_sizes_list": [30, 77, 64, 5], "block_M": bm})["C"]
    assert np.allclose(c[100], a[100] @ b[1]) and np.allclose(c[175], a[175] @ b[3])
    print("refs_elementwise: self-checks pass")
