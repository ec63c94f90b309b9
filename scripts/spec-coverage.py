#!/usr/bin/env python3
"""Checks that every construct of spec v1 §3 and §5 is used by a test that checks something.

The constructs are the rows of test/spec-coverage.txt (one construct a row: its section, its
name, a Python regex). A construct is covered when its regex matches the code of at least one
test that checks values:
  - a lit test (.tile/.mlir/.test under test/, outside the directories lit.cfg.py excludes)
    whose RUN lines run FileCheck or --verify-diagnostics and that has check lines
    (`CHECK:` or a --check-prefix's lines) or `expected-error/warning/note/remark` markers;
  - a host numeric case (test/run/cases/*.cpp): the kernel of its `/* TILE ... */` block or of
    its `// TILE: file` line, when the case compares results (expect...()).
The code a regex sees is the file with its comments taken out (in .tile, `#` to the end of the
line outside strings; in .mlir and .cpp, `//`), plus the commands of its RUN lines, so a mention
in a comment does not count. A row's flags (the first field) change what it sees:
  kernel  only the lines of kernel bodies (`with T.Kernel(...)` blocks and `@T.macro` bodies)
  raw     the whole file, comments included (to pair a construct with an expected-error marker)
  gap     a construct tilec does not implement yet; the row ends with ` :: why`. A gap is listed
          but does not fail the check (unless --strict); a gap that a test covers fails it, like
          an unexpected pass, until its flag is dropped.

Usage: scripts/spec-coverage.py [--root DIR] [--verbose] [--strict]
  prints `covered N/M`, then each construct not covered and each known gap (with --verbose every
  construct and the first tests that cover it); exits 1 when a construct that is not a gap is
  not covered, or a gap is (with --strict: also when a gap is not covered). ctest runs it as
  `spec-coverage`.
"""
import argparse
import os
import re
import sys

LIT_EXCLUDES = {"Inputs", "unit", "fuzz", "gpu", "run", "install", "compat"}
LIT_SUFFIXES = (".tile", ".mlir", ".test")
CHECK_SUFFIX = r"(?:-NEXT|-SAME|-NOT|-DAG|-LABEL|-EMPTY|-COUNT-\d+)?:"
MARKER = re.compile(r"expected-(?:error|warning|note|remark)")


def parse_table(path):
    """[(section, flags, name, compiled regex, why it is a gap)] from the table."""
    rows, section = [], "?"
    for no, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = re.match(r"^\[(.*)\]$", line.strip())
        if m:
            section = m.group(1)
            continue
        parts = line.split(" :: ")
        head = parts[0].strip()
        flags = set()
        while True:
            m = re.match(r"^(kernel|raw|gap)\s+(.*)$", head)
            if not m:
                break
            flags.add(m.group(1))
            head = m.group(2)
        if len(parts) != (3 if "gap" in flags else 2):
            sys.exit(f"{path}:{no}: a row is `[flags] name :: regex` (a gap's: `gap name :: regex :: why`)")
        regex = parts[1].strip()
        why = parts[2].strip() if "gap" in flags else ""
        try:
            rx = re.compile(regex, re.M)
        except re.error as e:
            sys.exit(f"{path}:{no}: bad regex: {e}")
        rows.append((section, flags, head, rx, why))
    return rows


def strip_hash_comment(line):
    """The line up to a `#` outside a string literal (a rough Python tokenizer)."""
    quote, i = None, 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if line.startswith(quote, i):
                i += len(quote)
                quote = None
                continue
        elif c in "'\"":
            quote = line[i : i + 3] if line[i : i + 3] in ('"""', "'''") else c
            i += len(quote)
            continue
        elif c == "#":
            return line[:i].rstrip()
        i += 1
    return line


def run_lines(text):
    return [m.group(1) for m in re.finditer(r"(?:#|//|;)\s*RUN:(.*)$", text, re.M)]


def code_of(text, kind):
    """The file's code without comments, as lines."""
    out = []
    for line in text.split("\n"):
        if kind == "tile":
            out.append(strip_hash_comment(line).rstrip())
        else:
            s = line.lstrip()
            out.append("" if s.startswith("//") or s.startswith("#") else re.sub(r"\s//.*$", "", line).rstrip())
    return out


def kernel_lines(lines):
    """The lines of `with T.Kernel(...)` blocks and `@T.macro` functions' bodies."""
    out, depth, pending_macro = [], None, False
    for line in lines:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if depth is not None:
            if indent > depth:
                out.append(line)
                continue
            depth = None
        s = line.strip()
        if re.match(r"@T\.macro\b", s):
            pending_macro = True
        elif pending_macro and s.startswith("def "):
            depth, pending_macro = indent, False
        elif re.match(r"with\s+T\.Kernel\s*\(", s):
            depth = indent
            out.append(line)
    return out


def has_checks(text, runs):
    """Whether a lit test checks something: FileCheck lines or diagnostic markers."""
    cmds = " ".join(runs)
    if "--verify-diagnostics" in cmds and MARKER.search(text):
        return True
    if "FileCheck" not in cmds:
        return False
    prefixes = {"CHECK"}
    for m in re.finditer(r"--?check-prefix(?:es)?[= ]([A-Za-z0-9_,-]+)", cmds):
        prefixes.update(m.group(1).split(","))
    rx = re.compile(r"(?:#|//|;)\s*(?:" + "|".join(map(re.escape, sorted(prefixes))) + ")" + CHECK_SUFFIX)
    return bool(rx.search(text))


class Source:
    def __init__(self, label, raw, code_lines, runs):
        self.label = label
        self.raw = raw
        self.code = "\n".join(runs + code_lines)
        self.kernel = "\n".join(kernel_lines(code_lines))


def helper_modules(test_dir, runs):
    """The code of the helper modules on a test's `-I %S/DIR` path: they are part of the test."""
    out = []
    for m in re.finditer(r"-I\s*%S/(\S+)", " ".join(runs)):
        for dirpath, dirnames, filenames in os.walk(os.path.join(test_dir, m.group(1))):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith((".tile", ".py")):
                    text = open(os.path.join(dirpath, name), encoding="utf-8", errors="replace").read()
                    out += code_of(text, "tile")
    return out


def lit_sources(root):
    test = os.path.join(root, "test")
    for dirpath, dirnames, filenames in os.walk(test):
        dirnames[:] = sorted(d for d in dirnames if d not in LIT_EXCLUDES)
        for name in sorted(filenames):
            if not name.endswith(LIT_SUFFIXES):
                continue
            path = os.path.join(dirpath, name)
            text = open(path, encoding="utf-8", errors="replace").read()
            runs = run_lines(text)
            if not runs or not has_checks(text, runs):
                continue
            kind = "tile" if name.endswith(".tile") else "other"
            code = code_of(text, kind) + helper_modules(dirpath, runs)
            yield Source(os.path.relpath(path, root), text, code, runs)


def run_sources(root):
    cases = os.path.join(root, "test", "run", "cases")
    if not os.path.isdir(cases):
        return
    for name in sorted(os.listdir(cases)):
        if not name.endswith(".cpp"):
            continue
        path = os.path.join(cases, name)
        text = open(path, encoding="utf-8", errors="replace").read()
        if not re.search(r"\bexpect\w*\s*\(", text):
            continue
        kernel, flags = None, []
        m = re.search(r"^// TILE: (\S+)(.*)$", text, re.M)
        if m:
            kpath = os.path.normpath(os.path.join(cases, m.group(1)))
            if os.path.exists(kpath):
                kernel = open(kpath, encoding="utf-8", errors="replace").read()
            flags.append(m.group(2))
        else:
            b = text.find("/* TILE\n")
            if b >= 0:
                e = text.find("*/", b)
                kernel = text[b + 8 : e]
        m = re.search(r"^// TILEC-FLAGS: (.*)$", text, re.M)
        if m:
            flags.append(m.group(1))
        if kernel is None:
            continue
        yield Source(os.path.relpath(path, root), kernel, code_of(kernel, "tile"), flags)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--strict", action="store_true", help="known gaps fail the check too")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    rows = parse_table(os.path.join(root, "test", "spec-coverage.txt"))
    sources = list(lit_sources(root)) + list(run_sources(root))
    missing, gaps, fixed = [], [], []
    for section, flags, name, rx, why in rows:
        hits = []
        for src in sources:
            text = src.raw if "raw" in flags else src.kernel if "kernel" in flags else src.code
            if rx.search(text):
                hits.append(src.label)
        if "gap" in flags:
            (fixed if hits else gaps).append((section, name, why))
        elif not hits:
            missing.append((section, name, why))
        if args.verbose:
            shown = ", ".join(hits[:3]) + (f" (+{len(hits) - 3})" if len(hits) > 3 else "")
            state = "ok  " if hits else "GAP " if "gap" in flags else "MISS"
            print(f"{state} {section}: {name}: {shown}")
    covered = len(rows) - len(missing) - len(gaps)
    print(f"spec-coverage: covered {covered}/{len(rows)} constructs ({len(sources)} checking tests; "
          f"{len(gaps)} known gaps)")
    for section, name, _ in missing:
        print(f"missing: {section}: {name}")
    for section, name, why in gaps:
        print(f"known gap: {section}: {name}: {why}")
    for section, name, _ in fixed:
        print(f"covered now, drop the row's gap flag: {section}: {name}")
    return 1 if missing or fixed or (args.strict and gaps) else 0


if __name__ == "__main__":
    sys.exit(main())
