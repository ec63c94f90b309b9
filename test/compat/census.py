"""Which language constructs a kernel's source uses (for ranking what blocks the suite).

`constructs(src)` walks the Python AST of a (harness-stripped) kernel source
and returns the names of the constructs of spec §3/§5 that it uses — meta-level
Python (f-strings, assert, lambda, comprehensions, ...) and tile-lang
primitives (`T.macro`, `T.alloc_global`, `T.vectorized`, ...). tilec stops at
a file's first error; the census says how many entries each construct touches
in all, so a fix can be ranked by every kernel it unblocks, not just the
kernels where it happens to be the first error.
"""
import ast

# T.<name> primitives worth counting (beyond the v0 core of copy/gemm/Parallel/Pipelined...).
PRIMITIVES = {
    "macro", "const", "empty", "alloc_global", "alloc_buffer", "alloc_reducer", "finalize_reducer",
    "vectorized", "thread_binding", "Persistent", "im2col", "import_source", "call_extern", "dp4a",
    "clamp", "floordiv", "floormod", "Cast", "view", "StridedTensor", "Layout", "Fragment", "ws",
    "alloc_barrier", "barrier_arrive", "barrier_wait", "tma_copy", "wgmma_gemm", "alloc_var", "alloc_local",
    "get_thread_binding", "get_block_binding", "atomic_add", "cumsum", "reduce_absmax", "reduce_abssum",
    "annotate_layout", "use_swizzle", "if_then_else", "infinity", "dynamic", "symbolic", "reinterpret",
    "comm_reducer", "tvm_thread_allreduce", "attr", "evaluate", "shfl_xor", "shfl_down", "Serial", "unroll",
    "Tensor", "Buffer", "print", "atomic_max", "atomic_min", "sync_threads", "max", "min", "pow", "exp",
    "gemm_v2", "wgmma", "fill", "clear", "copy", "reduce_max", "reduce_sum", "reduce_min", "Pipelined",
    "Parallel", "Kernel", "gemm", "tfloat32", "float", "int", "make_swizzled_layout", "any_of", "all_of",
    "loop_break", "assume", "ptx_wgmma_ss", "ptx_mma", "tvm_mma_sync", "mma_store", "ldmatrix",
    "alloc_shared", "alloc_fragment", "rsqrt", "log2", "exp2", "sigmoid", "tanh", "abs", "sqrt",
}


# v0's core, supported since before v1: not counted.
CORE = {"fill", "clear", "copy", "reduce_max", "reduce_sum", "reduce_min", "Pipelined", "Parallel", "Kernel", "gemm",
        "alloc_shared", "alloc_fragment", "rsqrt", "log2", "exp2", "sigmoid", "tanh", "abs", "sqrt", "max", "min",
        "exp", "if_then_else", "infinity", "Tensor", "Buffer", "serial", "prim_func", "log"}


def constructs(src):
    """Set of construct names `src` uses; empty if it does not parse."""
    try:
        tree = ast.parse(src)
    except SyntaxError:
        return {"python syntax error"}
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.JoinedStr):
            out.add("f-string")
        elif isinstance(n, ast.Assert):
            out.add("assert")
        elif isinstance(n, ast.Lambda):
            out.add("lambda")
        elif isinstance(n, (ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp)):
            out.add("comprehension")
        elif isinstance(n, ast.While):
            out.add("while")
        elif isinstance(n, ast.Continue):
            out.add("continue")
        elif isinstance(n, ast.Break):
            out.add("break")
        elif isinstance(n, ast.Try):
            out.add("try")
        elif isinstance(n, ast.ClassDef):
            out.add("class")
        elif isinstance(n, ast.Global):
            out.add("global")
        elif isinstance(n, ast.Constant) and n.value is Ellipsis:
            out.add("... (Ellipsis)")
        elif isinstance(n, ast.Starred):
            out.add("*unpacking")
        elif isinstance(n, ast.keyword) and n.arg is None:
            out.add("**unpacking")
        elif isinstance(n, ast.Dict):
            out.add("dict literal")
        elif isinstance(n, ast.AnnAssign) and n.value is None:
            out.add("bare annotation `X: T.Tensor(...)` (eager style)")
        elif isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names):
            out.add(f"from {n.module} import *")
        elif isinstance(n, ast.BinOp) and isinstance(n.op, ast.MatMult):
            out.add("@ operator")
        elif isinstance(n, ast.Subscript) and isinstance(n.value, ast.Attribute) and \
                isinstance(n.value.value, ast.Name) and n.value.value.id == "T" and n.value.attr in ("Tensor", "Buffer"):
            out.add("T.Tensor[...] subscript")
        elif isinstance(n, ast.FunctionDef):
            outer = [d for d in n.decorator_list]
            for d in outer:
                f = d.func if isinstance(d, ast.Call) else d
                if isinstance(f, ast.Attribute) and f.attr == "macro":
                    out.add("T.macro")
                if isinstance(f, ast.Attribute) and f.attr == "autotune" or isinstance(f, ast.Name) and \
                        f.id == "autotune":
                    out.add("@autotune")
            if any(isinstance(c, ast.FunctionDef) and not any(
                    isinstance(d, ast.Attribute) and d.attr in ("prim_func", "macro") or
                    isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr in ("prim_func", "macro")
                    for d in c.decorator_list) for c in ast.walk(n) if c is not n):
                out.add("nested helper def")
        elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "T":
            if n.attr in CORE:
                pass
            elif n.attr in PRIMITIVES:
                out.add("T." + n.attr)
            elif n.attr[0].islower() and n.attr not in ("float16", "float32", "bfloat16", "int32", "int8",
                                                      "float8_e4m3fn", "float8_e4m3", "float8_e5m2", "uint8",
                                                      "int64", "float64", "int16", "uint32", "bool", "int4",
                                                      "uint4", "uint16", "uint64", "dtype", "ceildiv"):
                out.add("T." + n.attr)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in (
                "isinstance", "sorted", "reversed", "enumerate", "zip", "getattr", "hasattr", "print"):
            out.add(n.func.id + "()")
    return out
