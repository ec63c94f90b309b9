"""NumPy reference of tile-lang's random-number example (rand/rand_uint).

T.rng_init(seed, seq, off) / T.rng_rand() are curand's Philox4x32-10 generator
(curandStatePhilox4_32_10_t, tilelang/cuda/language/random.py): key = the 64-bit seed, a 128-bit
counter advanced by off / 4 (subsequence seq in its upper half), each counter value giving four
32-bit outputs in order. Philox4x32-10 is fully specified (Salmon et al., SC'11; Random123), so
the outputs are reproduced exactly; the module checks its Philox against Random123's
known-answer vectors, and curand_philox(42, 300) was compared with curand itself on an H200
(curand_init(42, 0, bx * 128) per block of one thread, 300 outputs: all equal).
"""
import numpy as np

from refs import ref

M0, M1 = 0xD2511F53, 0xCD9E8D57
W0, W1 = 0x9E3779B9, 0xBB67AE85
MASK = 0xFFFFFFFF


def philox4x32_10(ctr, key):
    """Philox4x32 with 10 rounds on arrays: ctr (..., 4), key (..., 2) of uint32 values."""
    c = [np.asarray(ctr[..., i], np.uint64) for i in range(4)]
    k0, k1 = (np.asarray(key[..., i], np.uint64) for i in range(2))
    for r in range(10):
        if r:
            k0, k1 = (k0 + W0) & MASK, (k1 + W1) & MASK
        p0, p1 = np.uint64(M0) * c[0], np.uint64(M1) * c[2]
        hi0, lo0, hi1, lo1 = p0 >> 32, p0 & MASK, p1 >> 32, p1 & MASK
        c = [hi1 ^ c[1] ^ k0, lo1, hi0 ^ c[3] ^ k1, lo0]
    return np.stack(c, axis=-1)


def curand_philox(seed, n, offset=0, subsequence=0):
    """The first n outputs of curand_init(seed, subsequence, offset) then curand() n times."""
    idx = np.arange(offset, offset + n, dtype=np.uint64)
    q = idx // 4
    ctr = np.zeros(idx.shape + (4,), np.uint64)
    ctr[:, 0], ctr[:, 1] = q & MASK, q >> 32
    ctr[:, 2], ctr[:, 3] = subsequence & MASK, subsequence >> 32
    key = np.zeros(idx.shape + (2,), np.uint64)
    key[:, 0], key[:, 1] = seed & MASK, (seed >> 32) & MASK
    out = philox4x32_10(ctr, key)
    return out[np.arange(n), (idx % 4).astype(int)]


@ref
def rand_uint_1d(ins, p):
    """tilelang_rand_1d: block bx (one thread) calls rng_init(seed, 0, bx * 128) and draws A[bx * 128 + j]
    for j = 0, 1, ... in order, so A[i] is output i of the stream with offset 0: Philox of counter
    i // 4, word i % 4, key seed."""
    m = ins["A"].shape[0]
    out = np.zeros(m, np.int64)
    for b0 in range(0, m, 128):
        n = min(128, m - b0)
        out[b0:b0 + n] = curand_philox(p.get("seed", 42), n, offset=b0)
    return {"A": out}


if __name__ == "__main__":
    kat = [((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
           ((MASK,) * 4, (MASK, MASK), (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
           ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
            (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1))]
    for ctr, key, want in kat:
        got = philox4x32_10(np.array([ctr], np.uint64), np.array([key], np.uint64))[0]
        assert tuple(int(v) for v in got) == want, [hex(int(v)) for v in got]
    a = rand_uint_1d({"A": np.zeros(300)}, {"seed": 42})["A"]
    assert np.array_equal(a, curand_philox(42, 300))
    print("refs_rand: self-checks pass")
