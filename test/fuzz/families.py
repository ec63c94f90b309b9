"""The kernel families of the differential fuzzer (see kernels.py)."""
import numpy as np

from expr import EPS, ExprGen, Node, is_float, round_to
from kernels import (DT, isf, IDX, Case, Dims, Tensor, block_cond, bound_of, ceil_to, convert, crop, header,
                     index_env, input_values, kernel_open, leaf, out_tol, pad, pick, tensor_param, threads_for,
                     tile_shape)

FRAG_DTYPES = ["float32", "float32", "float16", "int32"]
IO_DTYPES = ["float32", "float32", "float16", "int32"]
IN_DTYPES = IO_DTYPES + ["bfloat16", "float64", "int8", "int16"]
OUT_DTYPES = IO_DTYPES + ["bfloat16", "float64"]
EXPR_DTYPES = ("float16", "float32", "int32")


def scalar_leaf(rng, case, params):
    if rng.random() < 0.3:
        v = int(rng.integers(-8, 9)) / 4.0
        case.scalars["alpha"] = v
        params.append("alpha: T.float32")
        case.features.add("scalar")
        return [Node("alpha", lambda e, v=v: v, "float32", abs(v), 0.0, 2)]
    return []


def load_tile(rng, case, body, name, gdt, fdt, tile, origin, env, value, padded):
    """Global `name` into a fragment (maybe through shared): code in body; returns the leaves it gives."""
    ind = "        "
    leaves = []
    src = convert(pad(value, padded), gdt, gdt)
    via = rng.random()
    if via < 0.4:
        sdt = pick(rng, [gdt, gdt, fdt])
        direct_ok = sdt in EXPR_DTYPES
        body.append(f"{ind}{name}_s = T.alloc_shared({tile_shape(tile)}, {DT[sdt]})")
        body.append(f"{ind}T.copy({name}[{origin}], {name}_s)")
        sv = convert(src, gdt, sdt)
        env[f"{name}_s"] = sv
        idx = ", ".join(IDX[:len(tile)])
        leaves.append(leaf(f"{name}_s[{idx}]", sdt, bound_of(gdt)))
        env[f"{name}_s[{idx}]"] = sv
        if not direct_ok:
            leaves = []
        elif rng.random() < 0.5:
            return leaves  # read the shared tile directly in the T.Parallel
        body.append(f"{ind}{name}_f = T.alloc_fragment({tile_shape(tile)}, {DT[fdt]})")
        body.append(f"{ind}T.copy({name}_s, {name}_f)")
        fv = convert(sv, sdt, fdt)
        case.features.add("shared")
    else:
        body.append(f"{ind}{name}_f = T.alloc_fragment({tile_shape(tile)}, {DT[fdt]})")
        body.append(f"{ind}T.copy({name}[{origin}], {name}_f)")
        fv = convert(src, gdt, fdt)
    idx = ", ".join(IDX[:len(tile)])
    env[f"{name}_f[{idx}]"] = fv
    leaves.append(leaf(f"{name}_f[{idx}]", fdt, bound_of(gdt)))
    return leaves


def elementwise(rng, seed):
    case = Case(seed, "elementwise")
    rank = int(pick(rng, [1, 2, 2, 2, 3]))
    names = ["M", "N", "P"][:rank]
    if rank == 1:
        tiles = [int(pick(rng, [16, 32, 64, 128, 256]))]
    elif rank == 2:
        tiles = [int(pick(rng, [1, 2, 4, 8, 16])), int(pick(rng, [8, 16, 32, 64]))]
    else:
        tiles = [int(pick(rng, [1, 2, 4])), int(pick(rng, [2, 4, 8])), int(pick(rng, [8, 16]))]
    dims = Dims(rng, case, names, tiles)
    padded = [ceil_to(n, t) for n, t in zip(dims.values, tiles)]
    threads = threads_for(rng, case)
    n_in = int(rng.integers(1, 4))
    params, body, env = [], [], {}
    open_line, bvars = kernel_open(rank, names, tiles, threads)
    env.update(index_env(rank, tiles, padded, bvars))
    origin = ", ".join(f"{bvars[d]} * {tiles[d]}" for d in range(rank))
    leaves = [Node(IDX[d], lambda e, n=IDX[d]: e[n], "int32", tiles[d]) for d in range(rank)]
    leaves += [Node(b, lambda e, n=b: e[n], "int32", 8) for b in bvars]
    for k in range(n_in):
        gdt, fdt = pick(rng, IN_DTYPES), pick(rng, FRAG_DTYPES)
        value = input_values(rng, gdt, dims.values)
        case.tensors.append(Tensor(f"X{k}", gdt, dims.values, value=value))
        params.append(tensor_param(f"X{k}", names, gdt))
        leaves += load_tile(rng, case, body, f"X{k}", gdt, fdt, tiles, origin, env, value, padded)
    odt, ofdt = pick(rng, OUT_DTYPES), pick(rng, FRAG_DTYPES)
    params.append(tensor_param("Out", names, odt))
    case.tensors.append(Tensor("Out", odt, dims.values, written=True))
    leaves += scalar_leaf(rng, case, params)
    gen = ExprGen(rng, leaves)
    idx = ", ".join(IDX[:rank])
    par = f"for {idx} in T.Parallel({', '.join(map(str, tiles))}):"
    ind = "        "
    direct = rng.random() < 0.2 and odt in EXPR_DTYPES
    if not direct:
        body.append(f"{ind}O_f = T.alloc_fragment({tile_shape(tiles)}, {DT[ofdt]})")
    target = f"O_f[{idx}]" if not direct else \
        "Out[" + ", ".join(f"{bvars[d]} * {tiles[d]} + {IDX[d]}" for d in range(rank)) + "]"
    store_dt = ofdt if not direct else odt
    depth = int(rng.integers(1, 5))

    def assign(indent, node):
        return f"{indent}{target} = {node.code}"

    def stage(indent):
        """One T.Parallel assigning target (with an optional element-level if): (lines, node, ev)."""
        lines = [indent + par]
        inner = indent + "    "
        guard = ""
        if direct and "ragged" in case.features:
            guard = " and ".join(f"{bvars[d]} * {tiles[d]} + {IDX[d]} < {names[d]}" for d in range(rank))
        if rng.random() < 0.25:
            c = gen.cond(2)
            a, b = gen.gen(store_dt, depth), gen.gen(store_dt, depth)
            pre = inner
            if guard:
                lines.append(f"{inner}if {guard}:")
                pre = inner + "    "
            lines += [f"{pre}if {c[0]}:", assign(pre + "    ", a), f"{pre}else:", assign(pre + "    ", b)]
            node = Node("", lambda e: np.where(c[1](e), a.ev(e), b.ev(e)), store_dt, max(a.bound, b.bound),
                        max(a.err, b.err), None if a.fb is None or b.fb is None else max(a.fb, b.fb))
            case.features.add("if")
            return lines, node
        node = gen.gen(store_dt, depth)
        if guard:
            lines += [f"{inner}if {guard}:", assign(inner + "    ", node)]
        else:
            lines.append(assign(inner, node))
        return lines, node

    if rng.random() < 0.25:
        bc = block_cond(rng, bvars, env)
        l1, n1 = stage(ind + "    ")
        l2, n2 = stage(ind + "    ")
        body += [f"{ind}if {bc[0]}:"] + l1 + [f"{ind}else:"] + l2
        res = Node("", lambda e: np.where(bc[1](e), n1.ev(e), n2.ev(e)), store_dt, max(n1.bound, n2.bound),
                   max(n1.err, n2.err), None if n1.fb is None or n2.fb is None else max(n1.fb, n2.fb))
        case.features.add("block-if")
    else:
        lines, res = stage(ind)
        body += lines
    value = np.broadcast_to(res.ev(env), padded)
    value = convert(value, "float32" if is_float(res.dtype) else "int32", store_dt)
    if not direct and rng.random() < 0.3:
        # a second stage reads the first one's result
        env[f"O_f[{idx}]"] = value
        prev = Node(f"O_f[{idx}]", lambda e, n=f"O_f[{idx}]": e[n], ofdt, res.bound, res.err,
                    res.fb if is_float(ofdt) else 0)
        gen2 = ExprGen(rng, leaves + [prev, prev])
        node = gen2.gen(ofdt, 2)
        body += [ind + par, f"{ind}    O_f[{idx}] = {node.code}"]
        value = convert(np.broadcast_to(node.ev(env), padded), "float32" if is_float(node.dtype) else "int32", ofdt)
        res = node
        case.features.add("two-stage")
    if not direct and rng.random() < 0.15 and ofdt != "int32" or (not direct and ofdt == "int32"
                                                                  and rng.random() < 0.15):
        d = int(rng.integers(rank))
        rev = rng.random() < 0.4
        body.append(f"{ind}T.cumsum(O_f, dim={d}{', reverse=True' if rev else ''})")
        value = cumsum_tiles(value, tiles, d, rev, ofdt)
        n = tiles[d]
        res = Node("", None, ofdt, res.bound * n, res.err * n + (res.bound * n * EPS.get(ofdt, 0) * 2 * n
                                                                   if is_float(ofdt) else 0), None)
        case.features.add("cumsum")
    if not direct:
        if rng.random() < 0.3:
            sdt = pick(rng, [ofdt, odt])
            body += [f"{ind}O_s = T.alloc_shared({tile_shape(tiles)}, {DT[sdt]})", f"{ind}T.copy(O_f, O_s)",
                     f"{ind}T.copy(O_s, Out[{origin}])"]
            value = convert(value, ofdt, sdt)
            store_src = sdt
        else:
            body.append(f"{ind}T.copy(O_f, Out[{origin}])")
            store_src = ofdt
        value = convert(value, store_src, odt)
    else:
        value = convert(value, store_dt, odt)
        case.features.add("direct-store")
    if not isf(odt) and not res.exact:
        return None  # an inexact value truncated to an integer: no exact model
    ref = crop(value, dims.values)
    case.expected["Out"] = ref
    case.atol["Out"] = out_tol(res, odt, ref) if isf(odt) else 0
    case.features.add("io-" + odt)
    case.source = "\n".join(header(case, dims.lines, params) + [open_line] + body) + "\n"
    return case


def cumsum_tiles(x, tiles, d, rev, dtype):
    """Inclusive prefix sums within every tile along axis d (reversed: suffix sums)."""
    t = tiles[d]
    shp = list(x.shape)
    nt = shp[d] // t
    y = np.moveaxis(np.asarray(x, np.float64 if is_float(dtype) else np.int64), d, 0)
    y = y.reshape((nt, t) + y.shape[1:])
    if rev:
        y = np.flip(np.cumsum(np.flip(y, 1), 1), 1)
    else:
        y = np.cumsum(y, 1)
    y = np.moveaxis(y.reshape((nt * t,) + y.shape[2:]), 0, d)
    return convert(y, dtype, dtype)


REDUCE = {"sum": (np.sum, "T.clear({a})"), "abssum": (lambda x, axis: np.sum(np.abs(x), axis=axis), "T.clear({a})"),
          "max": (np.max, "T.fill({a}, {lo})"), "min": (np.min, "T.fill({a}, {hi})"),
          "absmax": (lambda x, axis: np.max(np.abs(x), axis=axis), "T.clear({a})")}


def reduce(rng, seed):
    """Row (dim=1) or column (dim=0) reductions of a 2-D tensor over a loop of tiles."""
    case = Case(seed, "reduce")
    dim = int(rng.integers(2))
    bM, bN = int(pick(rng, [1, 2, 4, 8, 16, 32])), int(pick(rng, [8, 16, 32, 64, 128]))
    if bM * bN > 2048:
        bN = 2048 // bM
    dims = Dims(rng, case, ["M", "N"], [bM, bN])
    M, N = dims.values
    Mp, Np = ceil_to(M, bM), ceil_to(N, bN)
    threads = threads_for(rng, case)
    gdt = pick(rng, IO_DTYPES)
    fdt = pick(rng, ["float32", "float32", "float16", "int32"])
    adt = fdt if not is_float(fdt) else pick(rng, ["float32", "float32", fdt])
    op = pick(rng, list(REDUCE))
    odt = adt if rng.random() < 0.7 else pick(rng, IO_DTYPES)
    x = input_values(rng, gdt, (M, N))
    case.tensors.append(Tensor("X", gdt, (M, N), value=x))
    ind = "        "
    loop_n = f"T.ceildiv({'N' if dim == 1 else 'M'}, {bN if dim == 1 else bM})"
    outer, n_out, acc_len = ("M", bM, bM) if dim == 1 else ("N", bN, bN)
    params = [tensor_param("X", ["M", "N"], gdt), tensor_param("Out", [outer], odt)]
    case.tensors.append(Tensor("Out", odt, (M if dim == 1 else N,), written=True))
    lines = [f"    with T.Kernel(T.ceildiv({outer}, {n_out}), threads={threads}) as bx:",
             f"{ind}x_f = T.alloc_fragment(({bM}, {bN}), {DT[fdt]})",
             f"{ind}acc = T.alloc_fragment(({acc_len},), {DT[adt]})"]
    lo = "-T.infinity(%s)" % DT[adt] if is_float(adt) else "-1000000"
    hi = "T.infinity(%s)" % DT[adt] if is_float(adt) else "1000000"
    fn, init = REDUCE[op]
    combine = rng.random() < 0.3
    lines.append(ind + init.format(a="acc", lo=lo, hi=hi))
    if rng.random() < 0.5:
        loop = f"T.serial({loop_n})"
    else:
        loop = f"T.Pipelined({loop_n}, num_stages={int(rng.integers(1, 4))})"
        case.features.add("pipelined")
    lines.append(f"{ind}for k in {loop}:")
    origin = "bx * %d, k * %d" % (bM, bN) if dim == 1 else "k * %d, bx * %d" % (bM, bN)
    staged = rng.random() < 0.4
    if staged:
        sdt = pick(rng, [gdt, fdt])
        lines += [f"{ind}    x_s = T.alloc_shared(({bM}, {bN}), {DT[sdt]})", f"{ind}    T.copy(X[{origin}], x_s)",
                  f"{ind}    T.copy(x_s, x_f)"]
        xv = convert(convert(pad(x, (Mp, Np)), gdt, sdt), sdt, fdt)
        case.features.add("shared")
    else:
        lines.append(f"{ind}    T.copy(X[{origin}], x_f)")
        xv = convert(pad(x, (Mp, Np)), gdt, fdt)
    env = {"x_f[i, j]": xv}
    rows, cols = np.arange(Mp).reshape(-1, 1), np.arange(Np).reshape(1, -1)
    env.update({"i": rows % bM, "j": cols % bN, "k": (cols // bN) if dim == 1 else (rows // bM),
                "bx": (rows // bM) if dim == 1 else (cols // bN)})
    xnode = leaf("x_f[i, j]", fdt, bound_of(gdt))
    if rng.random() < 0.5:
        leaves = [xnode, xnode, Node("i", lambda e: e["i"], "int32", bM), Node("j", lambda e: e["j"], "int32", bN),
                  Node("k", lambda e: e["k"], "int32", 8), Node("bx", lambda e: e["bx"], "int32", 8)]
        f = ExprGen(rng, leaves).gen(fdt, int(rng.integers(1, 4)))
        lines += [f"{ind}    for i, j in T.Parallel({bM}, {bN}):", f"{ind}        x_f[i, j] = {f.code}"]
        xv = convert(np.broadcast_to(f.ev(env), (Mp, Np)), "float32" if is_float(f.dtype) else "int32", fdt)
        xnode = f
        case.features.add("map")
    axis = dim
    if combine:
        lines += [f"{ind}    part = T.alloc_fragment(({acc_len},), {DT[adt]})",
                  f"{ind}    T.reduce_{op}(x_f, part, dim={dim})",
                  f"{ind}    for i in T.Parallel({acc_len}):"]
        c = {"sum": "acc[i] + part[i]", "abssum": "acc[i] + part[i]", "max": "T.max(acc[i], part[i])",
             "min": "T.min(acc[i], part[i])", "absmax": "T.max(acc[i], part[i])"}[op]
        lines.append(f"{ind}        acc[i] = {c}")
        case.features.add("combine")
    else:
        lines.append(f"{ind}    T.reduce_{op}(x_f, acc, dim={dim}, clear=False)")
    case.features.add("reduce_" + op)
    red = fn(np.asarray(xv, np.float64), axis=axis)
    n = Np if dim == 1 else Mp
    if op in ("sum", "abssum"):
        err = n * xnode.err + (n * xnode.bound * EPS.get(adt, 0) * 2 * np.log2(n + 1) if is_float(adt) else 0)
        if is_float(fdt) and fdt != adt:
            err += n * xnode.bound * EPS[fdt] * 2
        bound = n * xnode.bound
    else:
        err, bound = xnode.err + (xnode.bound * EPS[adt] * 2 if is_float(adt) and not xnode.exact else 0), xnode.bound
    if not is_float(adt):
        red = red.astype(np.int64)
    elif not (op in ("sum", "abssum") and err > 0) and xnode.exact and bound * 4 < 2 ** 10:
        err = 0.0  # an exact sum of quarter-grid values stays exact
    elif adt == "float16" and bound > 8000:
        return None
    res = Node("", None, adt, bound, err, 2 if err == 0 else None)
    vec = convert(red, adt, adt)
    if rng.random() < 0.3:
        # an epilogue on the reduced vector
        env2 = {"acc[i]": vec, "i": np.arange(len(vec)) % acc_len, "bx": np.arange(len(vec)) // acc_len}
        g = ExprGen(rng, [Node("acc[i]", lambda e: e["acc[i]"], adt, bound, err, res.fb),
                          Node("i", lambda e: e["i"], "int32", acc_len)], transcendental=err > 0).gen(adt, 2)
        lines += [f"{ind}for i in T.Parallel({acc_len}):", f"{ind}    acc[i] = {g.code}"]
        vec = convert(np.broadcast_to(g.ev(env2), vec.shape), "float32" if is_float(g.dtype) else "int32", adt)
        res = g
        case.features.add("epilogue")
    lines.append(f"{ind}T.copy(acc, Out[bx * {n_out}])")
    if not is_float(odt) and not res.exact:
        return None
    ref = convert(vec, adt, odt)[:(M if dim == 1 else N)]
    case.expected["Out"] = ref
    case.atol["Out"] = out_tol(res, odt, ref) if is_float(odt) else 0
    if is_float(odt) and res.exact and res.fb is None:
        case.atol["Out"] = np.abs(ref) * EPS[odt] * 2
    case.source = "\n".join(header(case, dims.lines, params) + lines) + "\n"
    return case


def gemm(rng, seed):
    """C = op(A) @ op(B) over a (pipelined) K loop of shared tiles, maybe A in a fragment, an epilogue."""
    case = Case(seed, "gemm")
    bM, bN, bK = (int(pick(rng, [16, 32, 64])) for _ in range(3))
    kind = pick(rng, [("float16", "float32"), ("float16", "float32"), ("float32", "float32"), ("int8", "int32"),
                      ("float16", "float16")])
    ab, cd = kind
    tA, tB = rng.random() < 0.25, rng.random() < 0.4
    dims = Dims(rng, case, ["M", "N", "K"], [bM, bN, bK], mult_max=3)
    M, N, K = dims.values
    Mp, Np, Kp = ceil_to(M, bM), ceil_to(N, bN), ceil_to(K, bK)
    threads = int(pick(rng, [32, 64, 128, 128, 256]))
    case.threads = threads
    a = input_values(rng, ab, (K, M) if tA else (M, K))
    b = input_values(rng, ab, (N, K) if tB else (K, N))
    odt = pick(rng, [cd, cd, "float32" if cd != "int32" else "int32", "float16" if cd != "int32" else "int32"])
    case.tensors += [Tensor("A", ab, a.shape, value=a), Tensor("B", ab, b.shape, value=b),
                     Tensor("C", odt, (M, N), written=True)]
    params = [tensor_param("A", ["K", "M"] if tA else ["M", "K"], ab),
              tensor_param("B", ["N", "K"] if tB else ["K", "N"], ab), tensor_param("C", ["M", "N"], odt)]
    ind = "        "
    a_tile = (bK, bM) if tA else (bM, bK)
    b_tile = (bN, bK) if tB else (bK, bN)
    lines = [f"    with T.Kernel(T.ceildiv(N, {bN}), T.ceildiv(M, {bM}), threads={threads}) as (bx, by):",
             f"{ind}A_s = T.alloc_shared({a_tile}, {DT[ab]})", f"{ind}B_s = T.alloc_shared({b_tile}, {DT[ab]})",
             f"{ind}C_f = T.alloc_fragment(({bM}, {bN}), {DT[cd]})"]
    clear_accum = rng.random() < 0.2
    if not clear_accum:
        lines.append(f"{ind}T.clear(C_f)")
    stages = int(rng.integers(1, 4))
    loop = f"T.Pipelined(T.ceildiv(K, {bK}), num_stages={stages})" if rng.random() < 0.7 else \
        f"T.serial(T.ceildiv(K, {bK}))"
    lines.append(f"{ind}for k in {loop}:")
    lines.append(f"{ind}    T.copy(A[{'k * %d, by * %d' % (bK, bM) if tA else 'by * %d, k * %d' % (bM, bK)}], A_s)")
    lines.append(f"{ind}    T.copy(B[{'bx * %d, k * %d' % (bN, bK) if tB else 'k * %d, bx * %d' % (bK, bN)}], B_s)")
    src_a = "A_s"
    if rng.random() < 0.25 and not tA:
        lines += [f"{ind}    A_f = T.alloc_fragment({a_tile}, {DT[ab]})", f"{ind}    T.copy(A_s, A_f)"]
        src_a = "A_f"
        case.features.add("gemm-frag-A")
    opts = (", transpose_A=True" if tA else "") + (", transpose_B=True" if tB else "")
    if clear_accum:
        opts += ", clear_accum=(k == 0)"
    if rng.random() < 0.3:
        opts += ", policy=T.GemmWarpPolicy.%s" % pick(rng, ["Square", "FullRow", "FullCol"])
    lines.append(f"{ind}    T.gemm({src_a}, B_s, C_f{opts})")
    ap = pad(a, (Kp, Mp) if tA else (Mp, Kp))
    bp = pad(b, (Np, Kp) if tB else (Kp, Np))
    A2 = ap.T if tA else ap
    B2 = bp.T if tB else bp
    if clear_accum:
        case.features.add("clear_accum")  # cleared on the first K tile: the sum of all of them
    c = np.asarray(A2, np.float64) @ np.asarray(B2, np.float64)
    kk = A2.shape[1]
    ba = bound_of(ab)
    bound = kk * ba * ba
    err = 0.0 if bound * 16 < 2 ** (11 if cd == "float16" else 24) or cd == "int32" else bound * EPS[cd] * 2 * kk
    if cd == "float16" and bound > 8000:
        return None
    cv = convert(c, "float32", cd) if cd != "int32" else c.astype(np.int64)
    res = Node("", None, cd, bound, err, 4 if err == 0 else None)
    if rng.random() < 0.35:
        rows, cols = np.arange(Mp).reshape(-1, 1), np.arange(Np).reshape(1, -1)
        env = {"C_f[i, j]": cv, "i": rows % bM, "j": cols % bN, "bx": cols // bN, "by": rows // bM}
        leaves = [Node("C_f[i, j]", lambda e: e["C_f[i, j]"], cd, bound, err, res.fb)] * 2 + \
            [Node(n, lambda e, n=n: e[n], "int32", 8) for n in ("i", "j", "bx", "by")]
        g = ExprGen(rng, leaves, transcendental=rng.random() < 0.5).gen(cd, 2)
        lines += [f"{ind}for i, j in T.Parallel({bM}, {bN}):", f"{ind}    C_f[i, j] = {g.code}"]
        cv = convert(np.broadcast_to(g.ev(env), cv.shape), "float32" if is_float(g.dtype) else "int32", cd)
        res = g
        case.features.add("epilogue")
    if rng.random() < 0.3:
        lines += [f"{ind}C_s = T.alloc_shared(({bM}, {bN}), {DT[cd]})", f"{ind}T.copy(C_f, C_s)",
                  f"{ind}T.copy(C_s, C[by * {bM}, bx * {bN}])"]
    else:
        lines.append(f"{ind}T.copy(C_f, C[by * {bM}, bx * {bN}])")
    if not is_float(odt) and not res.exact:
        return None
    ref = crop(convert(cv, cd, odt), (M, N))
    case.expected["C"] = ref
    case.atol["C"] = out_tol(res, odt, ref) if is_float(odt) else 0
    case.features.add(f"gemm-{ab}-{cd}" + ("-tA" if tA else "") + ("-tB" if tB else ""))
    case.source = "\n".join(header(case, dims.lines, params) + lines) + "\n"
    return case


def atomic(rng, seed):
    """Column sums of every block's tile, added into Out with T.atomic_add (region or element form)."""
    case = Case(seed, "atomic")
    bM, bN = int(pick(rng, [2, 4, 8, 16])), int(pick(rng, [8, 16, 32, 64]))
    dims = Dims(rng, case, ["M", "N"], [bM, bN])
    M, N = dims.values
    Mp, Np = ceil_to(M, bM), ceil_to(N, bN)
    threads = threads_for(rng, case)
    gdt = pick(rng, ["float32", "float16", "int32"])
    adt = "int32" if gdt == "int32" else "float32"
    x = input_values(rng, gdt, (M, N))
    case.tensors += [Tensor("X", gdt, (M, N), value=x), Tensor("Out", adt, (N,), written=True, init="zero")]
    params = [tensor_param("X", ["M", "N"], gdt), tensor_param("Out", ["N"], adt)]
    ind = "        "
    lines = [f"    with T.Kernel(T.ceildiv(N, {bN}), T.ceildiv(M, {bM}), threads={threads}) as (bx, by):",
             f"{ind}x_f = T.alloc_fragment(({bM}, {bN}), {DT[adt]})", f"{ind}T.copy(X[by * {bM}, bx * {bN}], x_f)"]
    xv = convert(pad(x, (Mp, Np)), gdt, adt)
    xnode = leaf("x_f[i, j]", adt, 8)
    if rng.random() < 0.5:
        rows, cols = np.arange(Mp).reshape(-1, 1), np.arange(Np).reshape(1, -1)
        env = {"x_f[i, j]": xv, "i": rows % bM, "j": cols % bN, "bx": cols // bN, "by": rows // bM}
        leaves = [xnode, xnode] + [Node(n, lambda e, n=n: e[n], "int32", 8) for n in ("i", "j", "bx", "by")]
        f = ExprGen(rng, leaves, transcendental=False).gen(adt, 2)
        lines += [f"{ind}for i, j in T.Parallel({bM}, {bN}):", f"{ind}    x_f[i, j] = {f.code}"]
        xv = convert(np.broadcast_to(f.ev(env), (Mp, Np)), "float32" if is_float(f.dtype) else "int32", adt)
        xnode = f
        case.features.add("map")
    form = int(rng.integers(3))
    scope = "fragment" if form == 0 else pick(rng, ["shared", "fragment"])
    lines += [f"{ind}col = T.alloc_{scope}(({bN},), {DT[adt]})", f"{ind}T.reduce_sum(x_f, col, dim=0)"]
    if form == 0:
        lines.append(f"{ind}T.atomic_add(Out[bx * {bN}], col)")
        case.features.add("atomic-region")
    elif form == 1:
        lines += [f"{ind}for j in T.Parallel({bN}):", f"{ind}    T.atomic_add(Out[bx * {bN} + j], col[j])"]
        case.features.add("atomic-parallel")
        if N % bN:
            return None  # an element atomic past the end: not dropped by contract
    else:
        if scope != "shared":
            return None
        lines += [f"{ind}if T.get_thread_binding() == 0:", f"{ind}    for j in T.serial({bN}):",
                  f"{ind}        if bx * {bN} + j < N:", f"{ind}            T.atomic_add(Out[bx * {bN} + j], col[j])"]
        case.features.add("atomic-thread0")
    tot = np.sum(np.asarray(xv, np.float64), axis=0)
    ref = tot[:N] if adt == "float32" else tot[:N].astype(np.int64)
    bound = Mp * xnode.bound
    if adt == "int32" and bound > 2 ** 28:
        return None
    case.expected["Out"] = ref
    case.atol["Out"] = 0 if adt == "int32" else (Mp * 4 * xnode.err + bound * EPS["float32"] * 2 * Mp + 1e-30)
    case.source = "\n".join(header(case, dims.lines, params) + lines) + "\n"
    return case


def perthread(rng, seed):
    """Per-thread code: each thread reads R consecutive elements into T.alloc_local (guarded by an if),
    folds them into a T.alloc_var over a serial / range / unrolled loop and writes them back."""
    case = Case(seed, "perthread")
    th = threads_for(rng, case)
    R = int(pick(rng, [1, 2, 3, 4, 8]))
    chunk = th * R
    G = int(rng.integers(1, 4))
    N = max(1, G * chunk - (int(rng.integers(0, chunk)) if rng.random() < 0.6 else 0))
    form = rng.random()
    if form < 0.4:
        dim_line, const_n = 'N = T.dynamic("N")', False
        case.dims["N"] = N
        case.features.add("dynamic")
    elif form < 0.7:
        dim_line, const_n = f"N = {G * chunk}", True
        case.defines.append(f"N={N}")
        case.features.add("-D")
    else:
        dim_line, const_n = f"N = {N}", True
    if N % chunk:
        case.features.add("ragged")
    gdt, ldt = pick(rng, IO_DTYPES), pick(rng, ["float32", "float32", "int32", "float16"])
    vdt = "int32" if ldt == "int32" else pick(rng, ["float32", ldt])
    odt = pick(rng, IO_DTYPES)
    x = input_values(rng, gdt, (N,))
    case.tensors += [Tensor("X", gdt, (N,), value=x), Tensor("Out", odt, (N,), written=True)]
    params = [tensor_param("X", ["N"], gdt), tensor_param("Out", ["N"], odt)]
    ind = "        "
    loops = [f"T.serial({R})", f"range({R})", f"T.unroll({R})", f"range(0, {R}, 1)", f"T.serial({R - 1}, -1, -1)"]
    lines = [f"    with T.Kernel(T.ceildiv(N, {chunk}), threads={th}) as bx:",
             f"{ind}tx = T.get_thread_binding()" if rng.random() < 0.7 else f"{ind}tx = T.get_thread_binding(0)",
             f"{ind}loc = T.alloc_local(({R},), {DT[ldt]})", f"{ind}acc = T.alloc_var({DT[vdt]})",
             f"{ind}for r in {pick(rng, loops)}:", f"{ind}    g = (bx * {th} + tx) * {R} + r",
             f"{ind}    if g < N:"]
    bxv = np.arange(G).reshape(-1, 1, 1)
    txv = np.arange(th).reshape(1, -1, 1)
    rv = np.arange(R).reshape(1, 1, -1)
    gv = (bxv * th + txv) * R + rv
    xp = pad(x, (G * chunk,)).reshape(G, th, R)
    env = {"X[g]": xp, "r": rv, "tx": txv, "bx": bxv, "g": gv}
    leaves = [leaf("X[g]", gdt, bound_of(gdt))] * 2 + [Node("r", lambda e: e["r"], "int32", R),
                                                      Node("tx", lambda e: e["tx"], "int32", th),
                                                      Node("bx", lambda e: e["bx"], "int32", 4)]
    f = ExprGen(rng, leaves).gen(ldt, int(rng.integers(1, 4)))
    lines += [f"{ind}        loc[r] = {f.code}", f"{ind}    else:", f"{ind}        loc[r] = 0"]
    fv = convert(np.broadcast_to(f.ev(env), gv.shape), "float32" if is_float(f.dtype) else "int32", ldt)
    fv = np.where(gv < N, fv, 0)
    lnode = Node("loc[r]", lambda e: e["loc[r]"], ldt, f.bound, f.err, f.fb if is_float(ldt) else 0)
    if not is_float(ldt) and not f.exact:
        return None
    op = pick(rng, ["sum", "max", "min"])
    init = {"sum": "0", "max": "-100000", "min": "100000"}[op]
    lines += [f"{ind}acc = {init}", f"{ind}for r in {pick(rng, loops)}:"]
    comb = {"sum": "acc + loc[r]", "max": "T.max(acc, loc[r])", "min": "T.min(acc, loc[r])"}[op]
    lines.append(f"{ind}    acc = {comb}")
    fl = np.asarray(fv, np.float64) if is_float(ldt) else np.asarray(fv, np.int64)
    accv = {"sum": np.sum, "max": np.max, "min": np.min}[op](fl, axis=2, keepdims=True)
    accv = np.maximum(accv, -100000) if op == "max" else np.minimum(accv, 100000) if op == "min" else accv
    abound = R * f.bound if op == "sum" else max(f.bound, 100000)
    aerr = (R * f.err + (R * f.bound * EPS.get(vdt, 0) * 2 if not f.exact else 0)) if op == "sum" else f.err
    if vdt == "float16" and op == "sum" and R * f.bound * 4 >= 2 ** 11:
        aerr += R * f.bound * EPS["float16"] * 2 * R
    if vdt == "float16" and op != "sum":
        return None  # +-100000 is not a float16
    accv = convert(accv, vdt, vdt)
    env.update({"loc[r]": fv, "acc": accv})
    anode = Node("acc", lambda e: e["acc"], vdt, abound, aerr, 2 if aerr == 0 else None)
    h = ExprGen(rng, [lnode, lnode, anode, Node("r", lambda e: e["r"], "int32", R)],
                transcendental=False).gen(odt if odt == "int32" else "float32", 2)
    lines += [f"{ind}for r in {pick(rng, loops)}:", f"{ind}    if (bx * {th} + tx) * {R} + r < N:",
              f"{ind}        Out[(bx * {th} + tx) * {R} + r] = {h.code}"]
    if not is_float(odt) and not h.exact:
        return None
    hv = convert(np.broadcast_to(h.ev(env), gv.shape), "float32" if is_float(h.dtype) else "int32", odt)
    ref = hv.reshape(-1)[:N]
    case.expected["Out"] = ref
    case.atol["Out"] = out_tol(h, odt, ref) if is_float(odt) else 0
    case.features.add("local-var")
    case.source = "\n".join(header(case, [dim_line], params) + lines) + "\n"
    return case


FAMILIES = [("elementwise", elementwise, 4), ("reduce", reduce, 3), ("gemm", gemm, 2), ("atomic", atomic, 1),
            ("perthread", perthread, 2)]


def generate(seed, family=None):
    """The case of `seed` (a family chosen by weight unless given); retries sub-seeds where a draw has no model."""
    for sub in range(50):
        rng = np.random.default_rng([seed, sub])
        fams = [f for f in FAMILIES if family in (None, f[0])]
        w = np.array([f[2] for f in fams], float)
        fam = fams[int(rng.choice(len(fams), p=w / w.sum()))]
        case = fam[1](rng, seed)
        if case is not None:
            case.sub = sub
            return case
    raise RuntimeError(f"seed {seed}: no case with a model in 50 draws")
