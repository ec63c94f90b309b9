"""NumPy references of tile-lang's weight-dequantizing GEMM/GEMV examples (dequantize_gemm/).

Written from what each kernel's dequantization does to the packed bytes (element j of a row is
nibble j % 2 of byte j // 2, the low nibble first), then the GEMM in float64: the kernels
multiply exact dequantized values and accumulate in float32 (fp16 where the entry says so).
"""
import numpy as np

from refs import f32, ref


def nibbles(packed):
    """(rows, bytes) bytes -> (rows, 2 * bytes) nibbles 0..15, low nibble first."""
    u = np.asarray(packed, np.int64) & 0xFF
    return np.stack((u & 0xF, u >> 4), axis=-1).reshape(u.shape[0], -1)


def fp4_e2m1_biased(packed):
    """The examples' s1e2m1 decode without a zero or subnormal case: exponent e in 0..3 is
    rebased (fp16: e + 14, bf16: e + 126), so the value is (-1)^s 2^(e - 1) (1 + m / 2)."""
    f = nibbles(packed)
    s, e, m = f >> 3, (f >> 1) & 3, f & 1
    return np.where(s == 1, -1.0, 1.0) * np.exp2(e - 1.0) * (1 + m / 2)


def fp4_e2m1_biased_bits(packed):
    """The same decode built as fp16 bit patterns one element at a time (an independent check)."""
    f = nibbles(packed)
    out = np.zeros(f.shape)
    for idx, v in np.ndenumerate(f):
        bits = ((v >> 3) << 15) | ((((v & 6) >> 1) + 14) << 10) | ((v & 1) << 9)
        out[idx] = float(np.array([bits], np.uint16).view(np.float16)[0])
    return out


def _bytes(shape, rng, p):
    """Packed weights: every byte value (the default draw would give only 0..7)."""
    return rng.integers(0, 256, shape)


def _sbytes(shape, rng, p):
    return rng.integers(-128, 128, shape)


@ref
def dequant_fp4_convert(ins, p):
    """example_dequant_gemm_fp4_hopper test_convert: C (N, K) = fp4 decode of B (N, K / 2)."""
    return {"C": fp4_e2m1_biased(ins["B"])}


dequant_fp4_convert.gen = {"B": _bytes}


@ref
def dequant_fp4_gemm_t(ins, p):
    """example_dequant_gemm_fp4_hopper matmul: Ct (N, M) = dec(B) @ A^T (the kernel computes the
    transposed product, GEMM of the dequantized tile with A_shared, transpose_B)."""
    return {"Ct": fp4_e2m1_biased(ins["B"]) @ ins["A"].T}


dequant_fp4_gemm_t.gen = {"B": _bytes}


@ref
def dequant_bf16_fp4_gemm(ins, p):
    """example_dequant_gemm_bf16_fp4_hopper matmul, simple path: C (M, N) = A @ dec(B)^T
    (the bf16 decode with scale 0 gives the same values as the fp16 one)."""
    return {"C": ins["A"] @ fp4_e2m1_biased(ins["B"]).T}


dequant_bf16_fp4_gemm.gen = {"B": _bytes}


@ref
def dequant_bf16_mxfp4_gemm(ins, p):
    """example_dequant_gemm_bf16_mxfp4_hopper matmul, simple path without bias: the nibble's bf16
    value times T.shift_left(1, Scale[n, k // scale_size]), i.e. times 2^Scale (the simple path's
    bf16 helper ignores its scale argument), C = A @ B'^T. Bias is an unused input."""
    ss = p.get("scale_size", 32)
    scale = np.repeat(ins["Scale"], ss, axis=1)
    w = fp4_e2m1_biased(ins["B"]) * np.exp2(scale)
    return {"C": ins["A"] @ w.T}


dequant_bf16_mxfp4_gemm.gen = {"B": _bytes, "Scale": lambda s, rng, p: rng.integers(0, 8, s)}


def int4_unsigned(packed):
    return nibbles(packed).astype(np.float64)


def int4_signed(packed):
    """_tir_packed_int_to_int_convert: the nibble sign-extended from 4 bits (-8..7)."""
    n = nibbles(packed)
    return np.where(n >= 8, n - 16, n).astype(np.float64)


def _f16(x):
    return np.asarray(x, np.float16).astype(np.float64)


@ref
def dequant_gemv_int4(ins, p):
    """example_dequant_gemv_fp16xint4 dequantize_gemv without fast decoding (signed int4
    nibbles): C[m, n] = sum_k A[m, k] B'[n, k]. accum_dtype is float16: each of the
    reduce_thread lanes adds its products (rounded to fp16) in fp16, in k order, over its
    micro_size_k elements of each block_K step; the lanes' sums are then added (fp16, in a tree)."""
    a, w = ins["A"], int4_signed(ins["B"])
    rt = p.get("reduce_thread", 32)
    mk = 8  # 128-bit transactions of float16
    m, k = a.shape
    n = w.shape[0]
    prod = _f16(a[:, None, :] * w[None, :, :])  # (m, n, k)
    lanes = prod.reshape(m, n, k // (rt * mk), rt, mk)
    acc = np.zeros((m, n, rt))
    for ko in range(lanes.shape[2]):
        for ki in range(mk):
            acc = _f16(acc + lanes[:, :, ko, :, ki])
    while acc.shape[-1] > 1:
        h = acc.shape[-1] // 2
        acc = _f16(acc[..., :h] + acc[..., h:])
    return {"C": acc[..., 0]}


dequant_gemv_int4.gen = {"B": _sbytes}


@ref
def dequant_gemm_uint4(ins, p):
    """example_dequant_gemm_fine_grained matmul: unsigned nibbles, C = A @ B'^T (fp16 accumulator
    when accum_dtype says so; the GEMM's order is not fixed, so the reference sums exactly)."""
    return {"C": ins["A"] @ int4_unsigned(ins["B"]).T}


dequant_gemm_uint4.gen = {"B": _sbytes}


if __name__ == "__main__":
    rng = np.random.default_rng(1)
    b = rng.integers(0, 256, (5, 9))
    assert np.array_equal(fp4_e2m1_biased(b), fp4_e2m1_biased_bits(b))
    q = rng.integers(-128, 128, (4, 6))
    loop = np.array([[((int(q[r, j // 2]) & 0xFF) >> (4 * (j % 2))) & 0xF for j in range(12)] for r in range(4)])
    assert np.array_equal(int4_unsigned(q), loop)
    assert np.array_equal(int4_signed(q), np.where(loop > 7, loop - 16, loop))
    a = rng.uniform(-1, 1, (2, 512))
    qb = rng.integers(-128, 128, (8, 256))
    got = dequant_gemv_int4({"A": _f16(a), "B": qb}, {})["C"]
    want = _f16(a) @ int4_signed(qb).T
    assert np.abs(got - want).max() / np.abs(want).max() < 1e-2
    print("refs_dequant: self-checks pass")
