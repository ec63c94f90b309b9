#!/usr/bin/env python3
"""Drafts compatibility-manifest entries from a tile-lang checkout.

Reads every .py file under DIR/examples (or the given subfolders) with Python's
own `ast` module, finds its kernels and factories (functions decorated with
`jit` / `autotune` / `T.prim_func`, or defining an inner `@T.prim_func`), and
guesses `-D` values from how the file's harness calls them (argparse
defaults, `main()` defaults, `FACTORY(...)` / `FACTORY.compile(...)` calls).
Prints TOML `[[entry]]` / `[[skip]]` tables on stdout: a starting point that a
person reviews (sizes, references, skip reasons) before it goes into
manifest.toml. Nothing here is run by the suite itself.

Usage: scan.py --tilelang DIR [SUBDIR...]
"""
import argparse
import ast
import os
import re
import sys

KERNEL_DECORATORS = ("jit", "autotune", "prim_func", "macro")
# testing/python folders for other vendors' targets.
OTHER_TARGET_DIRS = {"amd", "metal", "webgpu"}
# Blackwell-only primitives: a testing/python file using them is not an sm_90 kernel.
SM100_ONLY = re.compile(r"tcgen05|alloc_tmem|tcgen5")
OTHER_ARCH = re.compile(r"tcgen05|sm_?100|sm_?120|\bhip\b|rocm|gfx9|cdna|mfma|ascend|metal", re.I)


def dec_name(d):
    """Name of a decorator expression: `tilelang.jit(...)` -> `jit`; `triton.jit` -> ``."""
    if isinstance(d, ast.Call):
        d = d.func
    if isinstance(d, ast.Attribute):
        if isinstance(d.value, ast.Name) and d.value.id in ("triton", "numba", "torch"):
            return ""
        return d.attr
    if isinstance(d, ast.Name):
        return d.id
    return ""


def _returns_value(fn):
    """Whether `fn` itself (not a nested def) has a `return X`."""
    todo = list(fn.body)
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Return) and n.value is not None:
            return True
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(n))
    return False


def has_inner_prim_func(fn):
    """A factory: defines an inner `@T.prim_func` and returns something."""
    if not _returns_value(fn):
        return False
    for node in ast.walk(fn):
        if node is not fn and isinstance(node, ast.FunctionDef):
            if any(dec_name(d) == "prim_func" for d in node.decorator_list):
                return True
    return False


def t_const_names(fn):
    """Names declared by `A, B = T.const("A, B")` in an eager kernel."""
    names = []
    for node in ast.walk(fn):
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and dec_name(node.value) == "const" and node.value.args
                and isinstance(node.value.args[0], ast.Constant)):
            names += [n.strip() for n in str(node.value.args[0].value).split(",") if n.strip()]
    return names


def tensor_params(fn):
    """Eager-style tensor parameters: `X: T.Tensor(...)` statements naming a parameter."""
    params = {a.arg for a in fn.args.args}
    out = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id in params:
            out.add(node.target.id)
    return out


class Env:
    """A tiny evaluator of harness expressions over literal bindings."""

    def __init__(self):
        self.vars = {}

    def ev(self, e):
        if isinstance(e, ast.Constant):
            return e.value
        if isinstance(e, ast.Name):
            if e.id in self.vars:
                return self.vars[e.id]
            raise KeyError(e.id)
        if isinstance(e, ast.Attribute):
            if isinstance(e.value, ast.Name) and e.value.id in ("args", "opt", "options", "cfg"):
                if e.attr in self.vars:
                    return self.vars[e.attr]
                raise KeyError(e.attr)
            if isinstance(e.value, ast.Name) and e.value.id == "T":
                return Raw("T." + e.attr)
            if isinstance(e.value, ast.Name) and e.value.id == "torch":
                return Raw("T." + e.attr)
            raise KeyError(ast.unparse(e))
        if isinstance(e, ast.BinOp):
            a, b = self.ev(e.left), self.ev(e.right)
            ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
                   ast.FloorDiv: lambda: a // b, ast.Div: lambda: a / b, ast.Pow: lambda: a ** b,
                   ast.Mod: lambda: a % b}
            return ops[type(e.op)]()
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
            return -self.ev(e.operand)
        if isinstance(e, (ast.Tuple, ast.List)):
            return tuple(self.ev(x) for x in e.elts)
        raise KeyError(ast.unparse(e))


class Raw(str):
    """A value printed as meta source (`T.float16`), not as a string literal."""


def fmt(v):
    if isinstance(v, Raw):
        return str(v)
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, str):
        return "T." + v if v in ("float16", "bfloat16", "float32", "float8_e4m3", "int8") else repr(v)
    if isinstance(v, tuple):
        return "(" + ", ".join(fmt(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    return repr(v)


def harness_env(tree):
    env = Env()
    for node in ast.walk(tree):
        # parser.add_argument("--name", default=V)
        if isinstance(node, ast.Call) and dec_name(node) == "add_argument" and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                name = first.value.lstrip("-").replace("-", "_")
                for kw in node.keywords:
                    if kw.arg == "default":
                        try:
                            env.vars[name] = env.ev(kw.value)
                        except Exception:
                            pass
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and fn.name in ("main", "run_regression_perf", "test", "run"):
            args = fn.args.args[len(fn.args.args) - len(fn.args.defaults):]
            for a, d in zip(args, fn.args.defaults):
                try:
                    env.vars.setdefault(a.arg, env.ev(d))
                except Exception:
                    pass
    for _ in range(2):
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                t = node.targets[0]
                try:
                    v = env.ev(node.value)
                except Exception:
                    continue
                if isinstance(t, ast.Name):
                    env.vars.setdefault(t.id, v)
                elif isinstance(t, ast.Tuple) and isinstance(v, tuple) and len(v) == len(t.elts):
                    for n, x in zip(t.elts, v):
                        if isinstance(n, ast.Name):
                            env.vars.setdefault(n.id, x)
    return env


def _parents(tree):
    par = {}
    for node in ast.walk(tree):
        for c in ast.iter_child_nodes(node):
            par[c] = node
    return par


def _enclosing_function(node, par):
    while node in par:
        node = par[node]
        if isinstance(node, ast.FunctionDef):
            return node
    return None


def _bind_call(node, params, env, got, missing):
    for i, a in enumerate(node.args):
        if i < len(params) and not isinstance(a, ast.Starred):
            try:
                got[params[i]] = env.ev(a)
            except Exception:
                missing.append(params[i])
    for kw in node.keywords:
        if kw.arg:
            try:
                got[kw.arg] = env.ev(kw.value)
            except Exception:
                missing.append(kw.arg)


def _parametrize_first(fn, env):
    """Values of the first `@pytest.mark.parametrize` case of a test function."""
    out = {}
    for d in fn.decorator_list:
        if isinstance(d, ast.Call) and dec_name(d) == "parametrize" and len(d.args) >= 2:
            try:
                names = [n.strip() for n in env.ev(d.args[0]).split(",")]
                first = d.args[1].elts[0]
                vals = env.ev(first)
                vals = vals if len(names) > 1 else (vals,)
                out.update(zip(names, vals))
            except Exception:
                pass
    return out


def function_env(tree, fn, env, par, depth=0):
    """An Env for code inside `fn`: its defaults, parametrize values, a caller's arguments, literals."""
    e = Env()
    e.vars = dict(env.vars)
    if fn is None:
        return e
    args = fn.args.args[len(fn.args.args) - len(fn.args.defaults):]
    for a, d in zip(args, fn.args.defaults):
        try:
            e.vars[a.arg] = e.ev(d)
        except Exception:
            pass
    e.vars.update(_parametrize_first(fn, e))
    if depth < 2:
        params = [a.arg for a in fn.args.args]
        best = None
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == fn.name:
                outer = function_env(tree, _enclosing_function(node, par), env, par, depth + 1)
                got, missing = {}, []
                _bind_call(node, params, outer, got, missing)
                if best is None or len(missing) < len(best[1]):
                    best = (got, missing)
        if best:
            e.vars.update(best[0])
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                e.vars.setdefault(node.targets[0].id, e.ev(node.value))
            except Exception:
                pass
    return e


def call_bindings(tree, fn, env):
    """`-D` values from the harness call of `fn` whose arguments evaluate best."""
    params = [a.arg for a in fn.args.args]
    par = _parents(tree)
    best = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        is_call = isinstance(f, ast.Name) and f.id == fn.name
        is_compile = (isinstance(f, ast.Attribute) and f.attr == "compile" and isinstance(f.value, ast.Name)
                      and f.value.id == fn.name)
        if not (is_call or is_compile):
            continue
        local = function_env(tree, _enclosing_function(node, par), env, par)
        got, missing = {}, []
        _bind_call(node, params, local, got, missing)
        # Autotune searches pass lists of candidates: prefer calls with scalars.
        missing += [k for k, v in got.items() if isinstance(v, tuple) and k not in ("shape",)]
        if best is None or len(missing) < len(best[1]):
            best = (got, missing)
    return best or ({}, [])


def scan_file(root, rel):
    src = open(os.path.join(root, rel), encoding="utf-8").read()
    try:
        tree = ast.parse(src)
    except SyntaxError as e:
        return [], f"not Python 3 syntax ({e.msg})"
    kernels = []
    triton_jit = re.search(r"from triton import .*\bjit\b", src)
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        decs = [dec_name(d) for d in fn.decorator_list]
        if triton_jit and "jit" in decs:
            continue
        if any(d in KERNEL_DECORATORS for d in decs) or has_inner_prim_func(fn):
            if "macro" in decs:
                continue
            kernels.append(fn)
    if not kernels:
        return [], "no tile-lang kernel (harness, utilities, Triton or torch code)"
    env = harness_env(tree)
    entries = []
    for fn in kernels:
        tensors = tensor_params(fn)
        need = []
        nodefault = fn.args.args[:len(fn.args.args) - len(fn.args.defaults)]
        need += [a.arg for a in nodefault if a.arg not in tensors]
        need += t_const_names(fn)
        got, missing = call_bindings(tree, fn, env)
        defines = []
        for n in need:
            if n in got:
                defines.append(f"{n}={fmt(got[n])}")
            elif n in env.vars:
                defines.append(f"{n}={fmt(env.vars[n])}")
            else:
                defines.append(f"{n}=?")
        for k, v in got.items():
            if k not in need and k not in tensors:
                defines.append(f"{k}={fmt(v)}")
        entries.append((fn.name, defines))
    return entries, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tilelang", required=True)
    ap.add_argument("subdirs", nargs="*", default=["examples"])
    a = ap.parse_args()
    files = []
    for sub in a.subdirs:
        for dp, _, fs in os.walk(os.path.join(a.tilelang, sub)):
            files += [os.path.relpath(os.path.join(dp, f), a.tilelang) for f in fs if f.endswith(".py")]
    for rel in sorted(files):
        base = os.path.basename(rel)
        src = open(os.path.join(a.tilelang, rel), encoding="utf-8").read()
        if rel.startswith("examples") and (base.startswith(("test_", "regression_")) or base == "conftest.py"):
            print(f'[[skip]]\nfile = "{rel}"\nreason = "harness only: calls the kernels of other example files"\n')
            continue
        entries, why = scan_file(a.tilelang, rel)
        if why:
            print(f'[[skip]]\nfile = "{rel}"\nreason = "{why}"\n')
            continue
        arch = OTHER_ARCH.search(src)
        for name, defines in entries:
            print("[[entry]]")
            print(f'file = "{rel}"')
            print(f'kernel = "{name}"')
            print("defines = [" + ", ".join('"' + d.replace('"', "'") + '"' for d in defines) + "]")
            if arch:
                print(f'# mentions "{arch.group(0)}": check the target')
            print()


if __name__ == "__main__":
    sys.exit(main())
