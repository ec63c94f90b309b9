"""Random well-typed kernel-level expressions with an exact NumPy model.

A Node is one expression: its .tile text, a function that evaluates it on an
environment of NumPy arrays (float64 for floats, int64 for integers), its
dtype (what tilec computes it in, by the spec's promotion rules), a bound on
|value|, `err`, an upper estimate of |kernel - model| (0: the kernel must match
exactly), and `fb`, the fraction bits of an exact float (its values are
multiples of 2**-fb). Integer casts and comparisons are only built on exact
nodes, so a rounding difference can never flip a branch or a truncation.
"""
import numpy as np

EPS = {"float16": 2.0 ** -11, "float32": 2.0 ** -24, "int32": 0.0, "bfloat16": 2.0 ** -8, "float64": 2.0 ** -53}
MANT = {"float16": 11, "float32": 24}
LIMIT = {"float16": 16000.0, "float32": 1.0e6, "int32": float(1 << 28)}
FLOATS = ("float16", "float32")


def is_float(d):
    return d in FLOATS


class Node:
    def __init__(self, code, ev, dtype, bound, err=0.0, fb=0):
        self.code, self.ev, self.dtype, self.bound, self.err, self.fb = code, ev, dtype, float(bound), err, fb

    @property
    def exact(self):
        return self.err == 0.0


def round_to(x, dtype):
    """Model of storing float64 values in `dtype` (C conversion: floats round, ints truncate)."""
    if dtype == "float16":
        return np.asarray(x, np.float64).astype(np.float16).astype(np.float64)
    if dtype == "float32":
        return np.asarray(x, np.float64).astype(np.float32).astype(np.float64)
    if dtype == "int32":
        return np.trunc(np.asarray(x, np.float64)).astype(np.int64) if np.asarray(x).dtype.kind == "f" \
            else np.asarray(x, np.int64)
    raise ValueError(dtype)


def settle(code, ev, dtype, bound, err, fb):
    """A float result: exact when its grid fits the mantissa, else rounded (err grows by half an ulp)."""
    if not is_float(dtype):
        return Node(code, ev, dtype, bound, 0.0, 0)
    if err == 0.0 and fb is not None and fb <= 14 and bound * 2.0 ** fb < 2.0 ** MANT[dtype]:
        return Node(code, ev, dtype, bound, 0.0, fb)
    return Node(code, ev, dtype, bound, err + max(bound, 1.0) * EPS[dtype] * 2, None)


def promote(a, b):
    if is_float(a.dtype) and is_float(b.dtype):
        return "float32" if "float32" in (a.dtype, b.dtype) else "float16"
    if is_float(a.dtype):
        return a.dtype
    if is_float(b.dtype):
        return b.dtype
    return "int32"


def const(rng, dtype):
    if is_float(dtype):
        v = int(rng.integers(-12, 13)) / 4.0
        text = repr(v)
        return Node(f"({text})" if v < 0 else text, lambda env, v=v: v, dtype, abs(v), 0.0, 2)
    v = int(rng.integers(-9, 10))
    return Node(f"({v})" if v < 0 else str(v), lambda env, v=v: v, "int32", abs(v))


def as_float(n):
    return n.ev if is_float(n.dtype) else (lambda env, f=n.ev: np.asarray(f(env), np.float64))


def cast(n, dtype, spelling):
    """T.cast(n, dtype) in one of its spellings, or None where the model could not be exact."""
    names = {"float16": "T.float16", "float32": "T.float32", "int32": "T.int32"}
    if spelling == 0:
        code = f"T.cast({n.code}, {names[dtype]})"
    elif spelling == 1:
        code = f"{names[dtype]}({n.code})"
    else:
        code = f"T.Cast({names[dtype]}, {n.code})"
    if dtype == "int32":
        if is_float(n.dtype) and not n.exact:
            return None
        ev = (lambda env, f=n.ev: np.trunc(np.asarray(f(env), np.float64)).astype(np.int64)) \
            if is_float(n.dtype) else n.ev
        return Node(code, ev, "int32", np.floor(n.bound))
    ev = lambda env, f=n.ev, d=dtype: round_to(np.asarray(f(env), np.float64), d)
    if n.exact:
        return settle(code, ev, dtype, n.bound, 0.0, n.fb if is_float(n.dtype) else 0)
    return Node(code, ev, dtype, n.bound, n.err + max(n.bound, 1.0) * EPS[dtype] * 2, None)


class ExprGen:
    """Builds random expressions over `leaves` (Nodes) of a wanted dtype."""

    def __init__(self, rng, leaves, ints_ok=True, transcendental=True):
        self.rng, self.leaves, self.ints_ok, self.transcendental = rng, leaves, ints_ok, transcendental

    def pick(self, seq):
        return seq[int(self.rng.integers(len(seq)))]

    def leaf(self, dtype):
        same = [l for l in self.leaves if l.dtype == dtype]
        if same and self.rng.random() < 0.8:
            return self.pick(same)
        if self.rng.random() < 0.3:
            return const(self.rng, dtype)
        other = self.pick(self.leaves)
        if other.dtype == dtype:
            return other
        return cast(other, dtype, int(self.rng.integers(3))) or const(self.rng, dtype)

    def gen(self, dtype, depth):
        for _ in range(6):
            n = self.leaf(dtype) if depth <= 0 or self.rng.random() < 0.2 else self.op(dtype, depth)
            if n is not None and n.bound <= LIMIT[n.dtype]:
                return n
        return const(self.rng, dtype)

    def cond(self, depth):
        """A boolean on exact operands: (code, ev)."""
        r = self.rng.random()
        if r < 0.15 and depth > 0:
            a, b = self.cond(depth - 1), self.cond(depth - 1)
            op = self.pick(["and", "or"])
            f = np.logical_and if op == "and" else np.logical_or
            return f"({a[0]} {op} {b[0]})", lambda env, a=a[1], b=b[1], f=f: f(a(env), b(env))
        if r < 0.2 and depth > 0:
            a = self.cond(depth - 1)
            return f"(not {a[0]})", lambda env, a=a[1]: np.logical_not(a(env))
        dt = self.pick(["int32", "int32", "float32", "float16"])
        for _ in range(4):
            a, b = self.gen(dt, depth - 1), self.gen(dt, depth - 1)
            if a.exact and b.exact:
                break
        else:
            a, b = self.gen("int32", 0), const(self.rng, "int32")
        if not (a.exact and b.exact):
            a, b = const(self.rng, "int32"), self.leaf("int32") if any(l.dtype == "int32" for l in self.leaves) \
                else const(self.rng, "int32")
        ops = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal, "==": np.equal,
               "!=": np.not_equal}
        op = self.pick(list(ops))
        return f"({a.code} {op} {b.code})", lambda env, a=a.ev, b=b.ev, f=ops[op]: f(a(env), b(env))

    def op(self, dtype, depth):
        if dtype == "int32":
            return self.int_op(depth)
        return self.float_op(dtype, depth)

    def binary_children(self, dtype, depth):
        a = self.gen(dtype, depth - 1)
        # an int operand with a float one: the spec's promotion (the float's type)
        bt = "int32" if self.ints_ok and self.rng.random() < 0.15 else dtype
        b = self.gen(bt, depth - 1)
        if self.rng.random() < 0.5:
            a, b = b, a
        return a, b

    def float_op(self, d, depth):
        rng = self.rng
        kind = self.pick(["add", "sub", "mul", "mul", "max", "min", "abs", "neg", "div", "ite", "ternary", "cast",
                          "trans", "clamp", "add"])
        if kind in ("add", "sub", "mul", "max", "min"):
            a, b = self.binary_children(d, depth)
            rd = promote(a, b)
            fa, fb_ = as_float(a), as_float(b)
            afb, bfb = (a.fb if is_float(a.dtype) else 0), (b.fb if is_float(b.dtype) else 0)
            grid = None if afb is None or bfb is None else max(afb, bfb)
            if kind == "add":
                return settle(f"({a.code} + {b.code})", lambda e: fa(e) + fb_(e), rd, a.bound + b.bound,
                              a.err + b.err, grid)
            if kind == "sub":
                return settle(f"({a.code} - {b.code})", lambda e: fa(e) - fb_(e), rd, a.bound + b.bound,
                              a.err + b.err, grid)
            if kind == "mul":
                g = None if grid is None else afb + bfb
                return settle(f"({a.code} * {b.code})", lambda e: fa(e) * fb_(e), rd, a.bound * b.bound,
                              a.err * b.bound + b.err * a.bound + a.err * b.err, g)
            f = np.maximum if kind == "max" else np.minimum
            return settle(f"T.{kind}({a.code}, {b.code})", lambda e: f(fa(e), fb_(e)), rd,
                          max(a.bound, b.bound), max(a.err, b.err), grid)
        if kind in ("abs", "neg"):
            a = self.gen(d, depth - 1)
            if kind == "abs":
                return Node(f"T.abs({a.code})", lambda e, f=a.ev: np.abs(f(e)), a.dtype, a.bound, a.err, a.fb)
            return Node(f"(-{a.code})", lambda e, f=a.ev: -f(e), a.dtype, a.bound, a.err, a.fb)
        if kind == "div":
            a, b = self.gen(d, depth - 1), self.gen(d, depth - 1)
            if not (is_float(a.dtype) and is_float(b.dtype)):
                return None
            rd = promote(a, b)
            return Node(f"({a.code} / (T.abs({b.code}) + 1))", lambda e, fa=a.ev, fb_=b.ev: fa(e) / (np.abs(fb_(e)) + 1),
                        rd, a.bound, a.err + a.bound * b.err + 4 * max(a.bound, 1) * EPS[rd] * 2, None)
        if kind in ("ite", "ternary"):
            c = self.cond(depth - 1)
            a, b = self.gen(d, depth - 1), self.gen(d, depth - 1)
            if a.dtype != b.dtype:
                return None
            code = f"T.if_then_else({c[0]}, {a.code}, {b.code})" if kind == "ite" else \
                f"({a.code} if {c[0]} else {b.code})"
            fb_ = None if a.fb is None or b.fb is None else max(a.fb, b.fb)
            return Node(code, lambda e, c=c[1], fa=a.ev, fb2=b.ev: np.where(c(e), fa(e), fb2(e)), a.dtype,
                        max(a.bound, b.bound), max(a.err, b.err), fb_)
        if kind == "cast":
            src = self.pick(["int32", "float16", "float32"]) if self.ints_ok else self.pick(list(FLOATS))
            return cast(self.gen(src, depth - 1), d, int(rng.integers(3)))
        if kind == "clamp":
            a = self.gen(d, depth - 1)
            if not is_float(a.dtype):
                return None
            lo = int(rng.integers(-8, 1)) / 2.0
            hi = lo + int(rng.integers(1, 9)) / 2.0
            return Node(f"T.clamp({a.code}, {lo!r}, {hi!r})", lambda e, f=a.ev: np.clip(f(e), lo, hi), a.dtype,
                        max(abs(lo), abs(hi)), a.err, None if a.fb is None else max(a.fb, 1))
        if not self.transcendental:
            return None
        a = self.gen(d, depth - 1)
        if not is_float(a.dtype):
            return None
        t = self.pick(["exp", "tanh", "sigmoid", "sqrt", "log", "exp2"])
        e8 = 16 * EPS[a.dtype]
        if t in ("exp", "exp2"):
            if a.bound > 6:
                return None
            f = np.exp if t == "exp" else np.exp2
            top = float(f(a.bound))
            return Node(f"T.{t}({a.code})", lambda e, g=a.ev: f(g(e)), a.dtype, top, top * (a.err + e8), None)
        if t == "tanh":
            return Node(f"T.tanh({a.code})", lambda e, g=a.ev: np.tanh(g(e)), a.dtype, 1.0, a.err + e8, None)
        if t == "sigmoid":
            return Node(f"T.sigmoid({a.code})", lambda e, g=a.ev: 1 / (1 + np.exp(-g(e))), a.dtype, 1.0,
                        a.err / 4 + e8, None)
        if t == "sqrt":
            return Node(f"T.sqrt(T.abs({a.code}) + 1)", lambda e, g=a.ev: np.sqrt(np.abs(g(e)) + 1), a.dtype,
                        np.sqrt(a.bound + 1), a.err / 2 + e8 * np.sqrt(a.bound + 1), None)
        return Node(f"T.log(T.abs({a.code}) + 1)", lambda e, g=a.ev: np.log(np.abs(g(e)) + 1), a.dtype,
                    np.log(a.bound + 1), a.err + e8 * max(1, np.log(a.bound + 1)), None)

    def int_op(self, depth):
        rng = self.rng
        kind = self.pick(["add", "sub", "mul", "floordiv", "mod", "and", "or", "xor", "shr", "shl", "max", "min",
                          "abs", "neg", "invert", "ite", "cast", "add"])
        if kind in ("add", "sub", "mul", "and", "or", "xor", "max", "min"):
            a, b = self.gen("int32", depth - 1), self.gen("int32", depth - 1)
            ops = {"add": ("+", np.add, a.bound + b.bound), "sub": ("-", np.subtract, a.bound + b.bound),
                   "mul": ("*", np.multiply, a.bound * b.bound),
                   "and": ("&", np.bitwise_and, max(a.bound, b.bound) * 2 + 1),
                   "or": ("|", np.bitwise_or, max(a.bound, b.bound) * 2 + 1),
                   "xor": ("^", np.bitwise_xor, max(a.bound, b.bound) * 2 + 1)}
            if kind in ("max", "min"):
                f = np.maximum if kind == "max" else np.minimum
                return Node(f"T.{kind}({a.code}, {b.code})", lambda e, fa=a.ev, fb=b.ev: f(fa(e), fb(e)), "int32",
                            max(a.bound, b.bound))
            sym, f, bound = ops[kind]
            return Node(f"({a.code} {sym} {b.code})", lambda e, fa=a.ev, fb=b.ev: f(fa(e), fb(e)), "int32", bound)
        if kind in ("floordiv", "mod"):
            a = self.gen("int32", depth - 1)
            c = int(rng.integers(1, 8)) * (1 if rng.random() < 0.7 else -1)
            cs = f"({c})" if c < 0 else str(c)
            spelled = rng.random() < 0.2
            if kind == "floordiv":
                code = f"T.floordiv({a.code}, {cs})" if spelled else f"({a.code} // {cs})"
                return Node(code, lambda e, f=a.ev: np.floor_divide(f(e), c), "int32", a.bound)
            code = f"T.floormod({a.code}, {cs})" if spelled else f"({a.code} % {cs})"
            return Node(code, lambda e, f=a.ev: np.mod(f(e), c), "int32", abs(c))
        if kind in ("shr", "shl"):
            a = self.gen("int32", depth - 1)
            k = int(rng.integers(0, 5))
            if kind == "shr":
                return Node(f"({a.code} >> {k})", lambda e, f=a.ev: np.right_shift(f(e), k), "int32", a.bound)
            return Node(f"({a.code} << {k})", lambda e, f=a.ev: np.asarray(f(e), np.int64) * (1 << k), "int32",
                        a.bound * (1 << k))
        if kind in ("abs", "neg", "invert"):
            a = self.gen("int32", depth - 1)
            if kind == "abs":
                return Node(f"T.abs({a.code})", lambda e, f=a.ev: np.abs(f(e)), "int32", a.bound)
            if kind == "neg":
                return Node(f"(-{a.code})", lambda e, f=a.ev: -np.asarray(f(e), np.int64), "int32", a.bound)
            return Node(f"(~{a.code})", lambda e, f=a.ev: ~np.asarray(f(e), np.int64), "int32", a.bound + 1)
        if kind == "ite":
            c = self.cond(depth - 1)
            a, b = self.gen("int32", depth - 1), self.gen("int32", depth - 1)
            return Node(f"T.if_then_else({c[0]}, {a.code}, {b.code})",
                        lambda e, c=c[1], fa=a.ev, fb=b.ev: np.where(c(e), fa(e), fb(e)), "int32",
                        max(a.bound, b.bound))
        return cast(self.gen(self.pick(list(FLOATS)), depth - 1), "int32", int(rng.integers(3)))
