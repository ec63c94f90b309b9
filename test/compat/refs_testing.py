"""NumPy references for kernels of tile-lang's testing/python (run.py --testing, testing.toml).

Written from what each kernel computes (the test files' own kernels, at the sizes testing.toml
gives); GEMMs reuse refs.py's where the tensors are named alike.
"""
import numpy as np

from refs import ref


@ref
def copy_ab(ins, p):
    """B = A (converted to B's dtype by the store)."""
    return {"B": ins["A"]}


@ref
def copy_padded(ins, p):
    """B (padded_M, padded_N) = A (M, N) where A has the element, else the pad value: the
    T.annotate_safe_value of A, 0 without one (a T.copy reads 0 outside a tensor)."""
    a = ins["A"]
    pad = p.get("pad_value")
    out = np.full(ins["B"].shape, 0.0 if pad in (None, "None") else float(pad))
    out[:a.shape[0], :a.shape[1]] = a
    return {"B": out}


@ref
def gemm_batched_trans(ins, p):
    """C[b] = op(A[b]) @ op(B[b]), op the transposes the trans_A / trans_B defines ask for."""
    a = np.swapaxes(ins["A"], 1, 2) if p.get("trans_A") else ins["A"]
    b = np.swapaxes(ins["B"], 1, 2) if p.get("trans_B") else ins["B"]
    return {"C": a @ b}


@ref
def gemm_cleared_a(ins, p):
    """test_tilelang_language_clear matmul: A's shared tile is cleared after each copy, so
    C = 0 @ B^T = 0."""
    return {"C": np.zeros(ins["C"].shape)}


@ref
def gemv_nt_bias(ins, p):
    """C[m, n] = sum_k A[m, k] B[n, k] (+ Bias[n] with with_bias)."""
    c = ins["A"] @ ins["B"].T
    if p.get("with_bias"):
        c = c + ins["Bias"][None, :]
    return {"C": c}


@ref
def gemm_tn(ins, p):
    """C = A^T @ B with A (K, M), B (K, N)."""
    return {"C": ins["A"].T @ ins["B"]}


@ref
def gemm_bf16_chain(ins, p):
    """P = A @ B in float32, rounded to bfloat16 into a fragment; C = P @ B."""
    import cabi
    return {"C": cabi.quantize(ins["A"] @ ins["B"], "bfloat16") @ ins["B"]}


@ref
def atomic_sum_k(ins, p):
    """B[m, n] += sum_k A[k, m, n]: one block per (tile, k) adds its tile atomically into a
    zeroed B."""
    return {"B": ins["B"] + ins["A"].sum(axis=0)}


atomic_sum_k.zero = ("B",)


def _tile_cumsum(a, blocks, dim, reverse):
    """Inclusive cumulative sums inside each tile of `blocks` (a 1-D or 2-D grid of tiles) along
    dim, from the tile's end when reverse; elements past a ragged edge read 0."""
    shape = a.shape
    padded = [-(-s // b) * b for s, b in zip(shape, blocks)]
    x = np.zeros(padded)
    x[tuple(slice(0, s) for s in shape)] = a
    if len(shape) == 1:
        t = x.reshape(-1, blocks[0])
        ax = 1
    else:
        t = x.reshape(padded[0] // blocks[0], blocks[0], padded[1] // blocks[1], blocks[1])
        ax = 1 if dim == 0 else 3
    if reverse:
        t = np.flip(np.cumsum(np.flip(t, ax), ax), ax)
    else:
        t = np.cumsum(t, ax)
    return t.reshape(padded)[tuple(slice(0, s) for s in shape)]


@ref
def tile_cumsum(ins, p):
    """B = per-tile inclusive cumsum of A (T.cumsum on a (block_M, block_N) / (block_N,) tile,
    along dim, reversed with reverse); the output is the kernel's second tensor."""
    names = list(ins)
    a = ins[names[0]]
    blocks = (p["block_M"], p["block_N"]) if a.ndim == 2 else (p.get("block_N") or p["chunk_size"],)
    return {names[1]: _tile_cumsum(a, blocks, p.get("dim", 0), bool(p.get("reverse")))}



# tile-lang's warp-vote kernels (test_tilelang_language_warp_vote.py): B[tx] for one warp of 32
# threads, the values the test asserts as CUDA computes them (votes 1, masks zero-extended).
def _vote_ref(name, lanes, doc):
    def fn(ins, p):
        return {"B": np.asarray(lanes, dtype=np.int64) * np.ones(32, dtype=np.int64)}
    fn.__name__, fn.__doc__ = name, doc
    return ref(fn)


_HALVES = [0x0000FFFF] * 16 + [int(np.uint32(0xFFFF0000).view(np.int32))] * 16
for _name, _lanes, _doc in [
        ("vote_one", 1, "T.any_sync(tx == 0), T.all_sync(1), T.ballot_sync(tx == 0) (bit 0), "
                        "T.syncthreads_and(1), T.syncthreads_or(tx == 0): 1"),
        ("vote_zero", 0, "T.syncthreads_and(tx != 0), T.syncthreads_or(0), T.match_all_sync(tx): 0"),
        ("vote_ballot_full", 0xFFFFFFFF, "T.ballot(1), T.activemask(): the 32 lanes, zero-extended"),
        ("vote_ffs_from7", 7, "T.__ffs(T.ballot_sync(tx >= 7)) - 1: the lowest set lane"),
        ("vote_fns_from7", 9, "T.__fns(ballot of tx >= 7, 0, 3): the third set bit from bit 0 up"),
        ("vote_count16", 16, "T.syncthreads_count(tx < 16)"),
        ("vote_match_halves", _HALVES, "T.match_any_sync(1 for lanes 0-15, 2 for 16-31): each half's mask"),
        ("vote_minus_one", -1, "T.match_all_sync(7): the full mask 0xFFFFFFFF as int32")]:
    _vote_ref(_name, _lanes, _doc)
