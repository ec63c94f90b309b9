#!/usr/bin/env python3
"""Lists the host suite's kernels for the GPU kit: one line per kernel,
`name<TAB>tile path<TAB>tilec flags`, from test/run/kernels/*.tile (default
flags) and every test/run/cases/*.cpp (its `// TILE:` line, or its embedded
`/* TILE ... */` block written to <outdir>/src/<name>.tile with its
`// TILEC-FLAGS:` line). Usage: suite_list.py <repo root> <outdir>"""
import os, re, shlex, sys

root, out = sys.argv[1], sys.argv[2]
os.makedirs(os.path.join(out, "src"), exist_ok=True)
rows = []
for f in sorted(os.listdir(os.path.join(root, "test/run/kernels"))):
    if f.endswith(".tile"):
        rows.append(("kernel_" + f[:-5], os.path.join(root, "test/run/kernels", f), []))
cases = os.path.join(root, "test/run/cases")
for f in sorted(os.listdir(cases)):
    if not f.endswith(".cpp"):
        continue
    name, text = f[:-4], open(os.path.join(cases, f)).read()
    m = re.search(r"// TILE: ([^\n]*)", text)
    if m:
        args = shlex.split(m.group(1))
        tile, flags = os.path.normpath(os.path.join(cases, args[0])), args[1:]
    else:
        begin = text.index("/* TILE\n") + 8
        src = text[begin:text.index("*/", begin)]
        tile = os.path.join(out, "src", name + ".tile")
        open(tile, "w").write(src)
        m = re.search(r"// TILEC-FLAGS: ([^\n]*)", text)
        flags = shlex.split(m.group(1)) if m else []
    rows.append((name, tile, flags))
for name, tile, flags in rows:
    print(f"{name}\t{tile}\t{shlex.join(flags)}")
