"""Removes the Python harness around one tile-lang kernel.

`strip_source(src, kernel)` keeps what the kernel (or factory) `kernel` needs
at the meta level — tilelang imports, the module constants, helper functions
and macros it names, transitively — and drops everything else: torch and
other harness imports, reference and benchmark functions, `main()`, argparse
and `if __name__ == "__main__":` blocks. The result is what spec §1 says must
compile ("a kernel file written for tile-lang must compile after deleting the
Python harness around it"). Works on Python's own AST; comments are lost.
"""
import ast

# Imports kept: modules spec §3 gives a meaning to.
KEEP_MODULES = ("tilelang", "tvm", "math", "itertools", "functools", "operator", "typing", "dataclasses")


def _module_kept(name):
    return any(name == m or name.startswith(m + ".") for m in KEEP_MODULES)


def _names_used(node):
    """Names `node` reads that it does not bind itself (Python's free variables, approximately:
    a name bound anywhere inside a function counts as local to it)."""
    loads, bound = set(), set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            (loads if isinstance(n.ctx, ast.Load) else bound).add(n.id)
        elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name):
            loads.add(n.value.id)
        elif isinstance(n, ast.arg):
            bound.add(n.arg)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n is not node:
            bound.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in n.names)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        # Decorators and defaults are evaluated outside the function's scope.
        outer = getattr(node, "decorator_list", []) + node.args.defaults + node.args.kw_defaults
        extra = set()
        for d in outer:
            if d is not None:
                extra |= _names_used(d)
        return (loads - bound) | extra
    return loads if not isinstance(node, ast.ClassDef) else loads - bound


def _defined(stmt):
    """Names a top-level statement binds."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {stmt.name}
    out = set()
    targets = []
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        targets = [stmt.target]
    for t in targets:
        for n in ast.walk(t):
            if isinstance(n, ast.Name):
                out.add(n.id)
    return out


def _is_main_guard(stmt):
    return (isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Compare)
            and isinstance(stmt.test.left, ast.Name) and stmt.test.left.id == "__name__")


def strip_source(src, kernel):
    """The source of `kernel` and what it needs, harness removed; None if `kernel` is absent."""
    tree = ast.parse(src)
    body = [s for s in tree.body if not _is_main_guard(s)]
    if not any(isinstance(s, ast.FunctionDef) and s.name == kernel for s in body):
        return None
    imports, rest = [], []
    for s in body:
        if isinstance(s, ast.Import):
            kept = [a for a in s.names if _module_kept(a.name)]
            if kept:
                imports.append(ast.Import(names=kept))
        elif isinstance(s, ast.ImportFrom):
            if s.module and _module_kept(s.module) and s.level == 0:
                imports.append(s)
        elif isinstance(s, ast.Try):
            continue  # optional-import idioms: harness
        else:
            rest.append(s)
    # Keep the statements that bind a name needed by the kernel, transitively.
    need, kept = {kernel}, set()
    changed = True
    while changed:
        changed = False
        for i, s in enumerate(rest):
            if i in kept:
                continue
            if _defined(s) & need:
                kept.add(i)
                need |= _names_used(s)
                changed = True
    # `from M import a, b`: only the names the kept code uses (`import *` stays).
    kept_imports = []
    for s in imports:
        if isinstance(s, ast.ImportFrom) and not any(a.name == "*" for a in s.names):
            names = [a for a in s.names if (a.asname or a.name) in need]
            if not names:
                continue
            s = ast.ImportFrom(module=s.module, names=names, level=0)
        kept_imports.append(s)
    out = kept_imports + [s for i, s in enumerate(rest) if i in kept]
    mod = ast.Module(body=out, type_ignores=[])
    return ast.unparse(ast.fix_missing_locations(mod)) + "\n"
