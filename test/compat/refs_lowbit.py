"""NumPy references of tile-lang's low-bit and structured-sparse GEMM examples
(bitnet-1.58b/kernel_benchmark, gemm_sp/example_gemm_sp).

Written from what each kernel computes; integer GEMMs are exact.
"""
import numpy as np

from refs import ref


def i2_interleaved(packed):
    """decode_i2u_to_i8s (the CUDA source in the bitnet examples): each 4-byte group of a row,
    read as a little-endian uint32 u, gives 16 values; value 4 i + j (i, j < 4) is
    (u >> (8 j + 2 i)) & 3 (lop3 with mask 0x03030303 on u >> 2 i), unsigned 0..3."""
    b = np.asarray(packed, np.int64) & 0xFF
    rows, nbytes = b.shape
    g = b.reshape(rows, nbytes // 4, 4)
    u = g[..., 0] | (g[..., 1] << 8) | (g[..., 2] << 16) | (g[..., 3] << 24)
    i = np.arange(4)[:, None]
    j = np.arange(4)[None, :]
    vals = (u[..., None, None] >> (8 * j + 2 * i)) & 3  # (rows, groups, i, j)
    return vals.reshape(rows, nbytes * 4)


def i2_interleaved_loop(packed):
    """The same decode, byte by byte (an independent check): byte j of a group holds the values
    4 i + j at bits 2 i."""
    b = np.asarray(packed, np.int64) & 0xFF
    out = np.zeros((b.shape[0], b.shape[1] * 4), np.int64)
    for r in range(b.shape[0]):
        for c in range(b.shape[1]):
            grp, j = divmod(c, 4)
            for i in range(4):
                out[r, 16 * grp + 4 * i + j] = (b[r, c] >> (2 * i)) & 3
    return out


def _bytes(shape, rng, p):
    return rng.integers(-128, 128, shape)


@ref
def bitnet_int8xint2(ins, p):
    """bitnet_158_int8xint2_decode / _prefill: C[m, n] = sum_k A[m, k] w[n, k], w the 2-bit
    weights of B (N, K / 4) decoded by decode_i2u_to_i8s (dp4a / int8 MMA, int32 accumulator)."""
    return {"C": ins["A"] @ i2_interleaved(ins["B"]).T}


bitnet_int8xint2.gen = {"B": _bytes}


# ---- 2:4 structured sparsity ------------------------------------------------------------------


def sparse24_dense(a_sparse, e, e_bits=16):
    """The dense A of T.gemm_sp with ordered metadata (gemm_sp/sparse_utils compress): group g
    of 4 dense columns keeps A_sparse[:, 2 g] and A_sparse[:, 2 g + 1] at the columns given by
    the 2-bit fields at bits 4 (g % (e_bits / 4)) and + 2 of E[:, g // (e_bits / 4)]."""
    m, half = a_sparse.shape
    per = e_bits // 4
    e = np.asarray(e, np.int64) & ((1 << e_bits) - 1)
    dense = np.zeros((m, 2 * half))
    for g in range(half // 2):
        word = e[:, g // per]
        for i in range(2):
            col = (word >> (4 * (g % per) + 2 * i)) & 3
            dense[np.arange(m), 4 * g + col] += a_sparse[:, 2 * g + i]
    return dense


def _sparse_meta(shape, rng, p):
    """E: for every group of four an ordered pair of distinct columns (as compress writes them),
    4 bits a group, packed into signed 16-bit words."""
    pairs = np.array([(a, b) for a in range(4) for b in range(a + 1, 4)])
    per = 4
    choice = pairs[rng.integers(0, len(pairs), (shape[0], shape[1] * per))]
    fields = choice[..., 0] | (choice[..., 1] << 2)
    words = np.zeros(shape, np.int64)
    for g in range(per):
        words |= fields[:, g::per] << (4 * g)
    return words.astype(np.int16).astype(np.int64)


@ref
def gemm_sp_24(ins, p):
    """example_gemm_sp matmul_sp_fp16: C = A @ B, A 2:4 sparse (values A_sparse, metadata E)."""
    return {"C": sparse24_dense(ins["A_sparse"], ins["E"]) @ ins["B"]}


gemm_sp_24.gen = {"E": _sparse_meta}


def _dense_24(shape, rng, p):
    """dense (S, D) for the compressor: every group of four has 0, 1 or 2 nonzeros at random
    columns (the kernel's contract is at most 2); nonzeros at least 0.1 in magnitude, so none
    rounds to zero in float16."""
    s, d = shape
    out = np.zeros(shape)
    count = rng.integers(0, 3, (s, d // 4))
    for r in range(s):
        for g in range(d // 4):
            cols = rng.choice(4, count[r, g], replace=False)
            out[r, 4 * g + cols] = rng.choice([-1.0, 1.0], len(cols)) * rng.uniform(0.1, 1.0, len(cols))
    return out


def compress_24(dense, e_bits=16):
    """2:4 compression with ordered metadata: group g of four columns of a row keeps two columns
    (a, b), a < b: its nonzero columns when there are two; (0, c) for a single nonzero at c > 0;
    (0, 1) for a single nonzero at 0 or none. The values go to nonzero[:, 2 g], [:, 2 g + 1];
    a | b << 2 goes to bits 4 (g % (e_bits / 4)) of meta[:, g // (e_bits / 4)] (signed words)."""
    s, d = dense.shape
    per = e_bits // 4
    vals = np.zeros((s, d // 2))
    meta = np.zeros((s, d // 4 // per), np.int64)
    for r in range(s):
        for g in range(d // 4):
            nz = [c for c in range(4) if dense[r, 4 * g + c] != 0]
            a, b = (nz[0], nz[1]) if len(nz) == 2 else (0, nz[0]) if len(nz) == 1 and nz[0] > 0 else (0, 1)
            vals[r, 2 * g], vals[r, 2 * g + 1] = dense[r, 4 * g + a], dense[r, 4 * g + b]
            meta[r, g // per] |= (a | b << 2) << (4 * (g % per))
    signed = (meta ^ (1 << (e_bits - 1))) - (1 << (e_bits - 1))
    return vals, signed


@ref
def sparse_compress_24(ins, p):
    """sparse_utils _compress_fn (16-bit dtypes, int16 metadata): nonzero, meta = compress_24(dense)."""
    vals, meta = compress_24(ins["dense"])
    return {"nonzero": vals, "meta": meta}


sparse_compress_24.gen = {"dense": _dense_24}


if __name__ == "__main__":
    rng = np.random.default_rng(9)
    q = rng.integers(-128, 128, (3, 8))
    assert np.array_equal(i2_interleaved(q), i2_interleaved_loop(q))
    e = _sparse_meta((2, 3), rng, {})
    a = rng.uniform(-1, 1, (2, 24))
    d = sparse24_dense(a, e)
    assert ((d != 0).reshape(2, -1, 4).sum(axis=2) == 2).all()
    assert np.allclose(d[d != 0].reshape(2, -1), a)  # ordered pairs keep the values' order
    # a dense 2:4 matrix compressed as the example's compress() does (kept columns ascending,
    # 2-bit indices at bits 4 (g % 4) + 2 i of the group's int16 word) decodes back to itself
    dense = np.zeros((3, 32))
    for r in range(3):
        for g in range(8):
            cols = np.sort(rng.choice(4, 2, replace=False))
            dense[r, 4 * g + cols] = rng.uniform(0.5, 1, 2)
    vals = np.zeros((3, 16))
    meta = np.zeros((3, 2), np.int64)
    for r in range(3):
        for g in range(8):
            nz = [i for i in range(4) if dense[r, 4 * g + i] != 0]
            for i, c in enumerate(nz):
                vals[r, 2 * g + i] = dense[r, 4 * g + c]
                meta[r, g // 4] |= c << (4 * (g % 4) + 2 * i)
    assert np.array_equal(sparse24_dense(vals, meta.astype(np.int16).astype(np.int64)), dense)
    # the compressor's output decodes back to its input, the padding columns included
    dense = _dense_24((5, 64), rng, {})
    vals, meta = compress_24(dense)
    assert np.array_equal(sparse24_dense(vals, meta), dense)
    assert meta.min() >= -(1 << 15) and meta.max() < (1 << 15)
    print("refs_lowbit: self-checks pass")
