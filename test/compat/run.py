#!/usr/bin/env python3
"""The tile-lang compatibility suite: compile tile-lang's own kernels with tilec and check them.

For each entry of manifest.toml (a kernel of one of tile-lang's example files),
compiles the file with tilec for each target (host, sm_90a, vulkan), first as
it is (`tilec FILE.py --kernel NAME -D ...`, mode "py"), then, if that fails,
as a copy with the Python harness removed (strip.py, mode "strip"); links the
host target as a shared library, reads its generated header, runs it through
ctypes on random inputs at the entry's (ragged) sizes and compares every
written tensor with the NumPy reference of refs.py. Prints a table and a
summary line. `--testing` runs the kernels of tile-lang's testing/python/
(found by scan.py, compile only unless the manifest has an entry for them).

Usage: run.py --tilelang DIR [--tilec build/bin/tilec] [--filter RE] [--targets host,sm_90a,vulkan]
              [--testing] [--json OUT] [--jobs N] [--manifest FILE]
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

try:
    import numpy as np  # noqa: F401
except ImportError:  # the system interpreter has python3-numpy (scripts/setup.sh)
    if os.path.exists("/usr/bin/python3") and not os.environ.get("TILEC_COMPAT_REEXEC"):
        os.environ["TILEC_COMPAT_REEXEC"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    sys.exit("run.py: needs NumPy (apt-get install python3-numpy; scripts/setup.sh installs it)")

import tomllib  # noqa: E402

import census  # noqa: E402
import numerics  # noqa: E402
import scan  # noqa: E402
import strip  # noqa: E402

TARGET_FLAGS = {
    "host": (["-target=host", "-shared"], "k.so"),
    "sm_90a": (["-target=sm_90a", "-shared"], "k.so"),
    "vulkan": (["-target=vulkan"], "k.spv"),
}
COMPILE_TIMEOUT = 180


def first_diagnostic(text):
    """The first `error:` line of tilec's output (file:line:col dropped), or its first line."""
    lines = [l for l in text.splitlines() if l.strip()]
    for l in lines:
        if "error:" in l:
            return re.sub(r"^.*?error:\s*", "error: ", l).strip()
    return lines[0].strip() if lines else ""


def tilec_caps(tilec):
    try:
        out = subprocess.run([tilec, "--help"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return {"kernel": False}
    return {"kernel": "--kernel" in out}


def compile_one(tilec, src, kernel, defines, target, outdir, caps, with_kernel_flag):
    flags, out = TARGET_FLAGS[target]
    cmd = [tilec, src] + (["--kernel", kernel] if with_kernel_flag else [])
    # tile-lang's usual top-level `def main` cannot be the C symbol (tilec rejects it on
    # host/CUDA/Ascend); it is exported as main_kernel, tile-lang's name for its device kernel.
    if kernel == "main":
        cmd += ["--kernel-name", "main_kernel"]
    for d in defines:
        cmd += ["-D", d]
    cmd += flags + ["-o", os.path.join(outdir, out)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=COMPILE_TIMEOUT)
        text, rc = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired:
        text, rc = f"error: tilec timed out after {COMPILE_TIMEOUT}s", 124
    except OSError as e:
        text, rc = f"error: cannot run tilec: {e}", 127
    if rc < 0 or rc > 128 or "Stack dump:" in text or "PLEASE submit a bug report" in text or \
            re.search(r"Assertion `.*' failed", text):
        text = "error: tilec crashed (signal or stack dump): " + first_diagnostic(text)
    return rc == 0, text, cmd


def run_entry(e, args, caps, workroot):
    """Compiles and checks one manifest entry; returns its result record."""
    r = {"name": e["name"], "file": e["file"], "kernel": e["kernel"], "targets": {}, "numerics": "-",
         "diag": "", "mode": None}
    if e["kernel"] == "main":
        e = dict(e, export=e.get("export", "main_kernel"))  # compile_one's --kernel-name
    path = os.path.join(args.tilelang, e["file"])
    work = os.path.join(workroot, re.sub(r"[^\w.-]", "_", e["name"]))
    os.makedirs(work, exist_ok=True)
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as ex:
        r["diag"] = f"cannot read {path}: {ex}"
        return r
    stripped = None
    try:
        s = strip.strip_source(text, e["kernel"])
        if s is not None:
            stripped = os.path.join(work, os.path.splitext(os.path.basename(path))[0] + ".tile")
            open(stripped, "w").write(s)
            r["constructs"] = sorted(census.constructs(s))
    except SyntaxError as ex:
        r["diag"] = f"not Python syntax: {ex}"
    modes = [("py", path, caps["kernel"])]
    if stripped:
        modes.append(("strip", stripped, False))
    diags = {}
    for target in args.targets:
        tdir = os.path.join(work, target)
        os.makedirs(tdir, exist_ok=True)
        ok = False
        for mode, src, kflag in modes:
            ok, out, cmd = compile_one(args.tilec, src, e["kernel"], e.get("defines", []), target, tdir, caps, kflag)
            diags.setdefault(target, {})[mode] = first_diagnostic(out) if not ok else ""
            if ok:
                r["targets"][target] = mode
                r.setdefault("cmds", {})[target] = " ".join(cmd)
                if target in ("host", "sm_90a"):
                    r[target + "_dir"] = tdir
                break
        if not ok:
            r["targets"][target] = None
    r["diags"] = diags
    r["diag"] = shown_diagnostic(r, args.targets) or r["diag"]
    if "host_dir" in r and e.get("ref"):
        r["numerics"], detail = numerics.check(e, r["host_dir"])
        if r["numerics"] != "ok" and not r["diag"]:
            r["diag"] = detail
        r["numerics_detail"] = detail
    elif not e.get("ref"):
        r["numerics"] = "no-ref"
    elif e.get("device_only") and not r["targets"].get("host"):
        # The host reports the kernel's T.call_extern (CUDA C++ of T.import_source): its
        # reference is checked on the GPU only (--gpu-kit), where the sm_90a build runs.
        r["numerics"] = "device-only"
        r["numerics_detail"] = e["device_only"]
    if args.gpu_kit and e.get("ref") and "sm_90a_dir" in r:
        bundle_for_gpu(e, r, args.gpu_kit)
    return r


def shown_diagnostic(r, targets):
    """The first failing target's diagnostic, from the file as it is (py: what a user sees, and
    nearly every entry that compiles does so unmodified), else from the stripped copy."""
    for target in targets:
        d = r.get("diags", {}).get(target, {})
        msg = d.get("py") or d.get("strip")
        if r["targets"].get(target) is None and msg:
            return f"[{target}] {msg}"
    return ""


def bundle_for_gpu(e, r, kit):
    """The entry's sm_90a shared library, its header and the entry itself (with the host
    verdict) in kit/NAME/, for the GPU kit's `compat` suite (bench/suites/compat.py)."""
    dst = os.path.join(kit, re.sub(r"[^\w.-]", "_", e["name"]))
    os.makedirs(dst, exist_ok=True)
    for f in ("k.so", "k.h"):
        shutil.copy(os.path.join(r["sm_90a_dir"], f), os.path.join(dst, f))
    with open(os.path.join(dst, "entry.json"), "w") as f:
        json.dump(dict(e, host_numerics=r["numerics"], mode=r["targets"]["sm_90a"]), f, indent=1)


def load_manifest(path):
    with open(path, "rb") as f:
        m = tomllib.load(f)
    entries = m.get("entry", [])
    for e in entries:
        top = "testing/python" if e["file"].startswith("testing/") else "examples"
        e.setdefault("name", os.path.splitext(os.path.relpath(e["file"], top))[0] + ":" + e["kernel"])
    return entries, m.get("skip", [])


def testing_entries(tilelang, manifest_entries):
    """Entries for tile-lang's testing/python kernels (scan.py); manifest entries override."""
    known = {}
    for e in manifest_entries:  # the first entry for a (file, kernel) wins
        known.setdefault((e["file"], e["kernel"]), e)
    out, skips = [], []
    root = os.path.join(tilelang, "testing", "python")
    for dp, _, fs in os.walk(root):
        for f in sorted(fs):
            if not f.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(dp, f), tilelang)
            parts = rel.split(os.sep)
            if len(parts) > 2 and parts[2] in scan.OTHER_TARGET_DIRS:
                skips.append({"file": rel, "reason": f"{parts[2]}/: not an NVIDIA target"})
                continue
            if scan.SM100_ONLY.search(open(os.path.join(tilelang, rel), encoding="utf-8").read()):
                skips.append({"file": rel, "reason": "sm_100 only (tcgen05 / tensor memory)"})
                continue
            ents, why = scan.scan_file(tilelang, rel)
            if why:
                skips.append({"file": rel, "reason": why})
                continue
            for name, defines in ents:
                e = known.get((rel, name)) or {"file": rel, "kernel": name,
                                               "defines": [d for d in defines if not d.endswith("=?")]}
                e.setdefault("name", os.path.splitext(os.path.relpath(rel, "testing/python"))[0] + ":" + name)
                out.append(e)
    return sorted(out, key=lambda e: e["name"]), skips


def print_table(results, targets):
    w = max([len(r["name"]) for r in results] + [5])
    head = f"{'entry':<{w}} | " + " | ".join(f"{t:<6}" for t in targets) + " | numerics | first diagnostic"
    print(head)
    print("-" * len(head))
    for r in results:
        cells = []
        for t in targets:
            m = r["targets"].get(t)
            cells.append(f"{('ok/' + m) if m else 'FAIL':<6}")
        diag = r["diag"].replace("\n", " ")
        print(f"{r['name']:<{w}} | " + " | ".join(cells) + f" | {r['numerics']:<8} | {diag[:160]}")


def summary(results, targets, label):
    n = len(results)
    parts = [f"{sum(1 for r in results if r['targets'].get(t))}/{n} compile {t}" for t in targets]
    parts.append(f"{sum(1 for r in results if r['numerics'] == 'ok')}/{n} match")
    return f"{label}: " + ", ".join(parts)


# Diagnostics that name a user's identifier, grouped by their construct.
CAUSE_FAMILIES = [
    (r"annotated target needs a value", "annotated target needs a value: eager-style `X: T.Tensor(...)` declaration"),
    (r"parameter '\w+' of factory '\w+' has no default", "factory parameter without default (manifest lacks a -D)"),
    (r"function '\w+' is neither a @T.prim_func kernel nor a kernel factory",
     "function is neither a @T.prim_func kernel nor a kernel factory"),
    (r"operands of '.+' have (different )?dtypes", "operands of an operator have different dtypes (dtype promotion, spec §5)"),
    (r"needs \d+ bytes of shared memory", "kernel needs more shared memory than the target allows"),
]


def cause_key(msg):
    """A diagnostic reduced to its construct: location and figures dropped, quoted names kept."""
    msg = re.sub(r"^\[[\w]+\]\s*", "", msg)
    for pattern, family in CAUSE_FAMILIES:
        if re.search(pattern, msg):
            return "error: " + family
    return re.sub(r"\b\d+\b", "N", msg).strip()


def triage(results, targets, line, label):
    """Markdown: the summary and the failure causes ranked by how many entries each blocks."""
    out = [f"# {label} triage — {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", "", "`" + line + "`", "",
           "Made by `test/compat/run.py` (branch compat; the manifest is test/compat/manifest.toml): each entry is "
           "compiled as the unmodified .py (`--kernel` once tilec has it) and, if that fails, with the harness "
           "stripped (test/compat/strip.py); the tables rank the first error of the file as it is (the stripped copy's where the .py gives none). "
           "Reproduce one entry: `test/compat/run.py --tilelang /work/tilelang-src --filter NAME --keep /tmp/x` "
           "(the stripped .tile and each target's output stay in /tmp/x).", ""]
    for t in targets:
        causes = {}
        for r in results:
            if r["targets"].get(t):
                continue
            if t != "host" and "host" in targets and not r["targets"].get("host"):
                continue  # counted under host
            d = r.get("diags", {}).get(t, {})
            msg = d.get("py") or d.get("strip") or "(no diagnostic)"
            causes.setdefault(cause_key(msg), []).append(r)
        if not causes:
            continue
        title = "what blocks compilation" if t == "host" else "entries that compile for the host but not here"
        out += [f"## {t}: {title} (first error of the file as it is)", "",
                "| entries | diagnostic | files (first 6) |", "| ---: | --- | --- |"]
        for k, rs in sorted(causes.items(), key=lambda kv: -len(kv[1])):
            files = sorted({r["file"].replace("examples/", "") for r in rs})
            more = f" +{len(files) - 6}" if len(files) > 6 else ""
            out.append(f"| {len(rs)} | `{k[:200]}` | {', '.join(files[:6])}{more} |")
        out.append("")
    py = {}
    for r in results:
        d = r.get("diags", {}).get("host", {}).get("py")
        if d and r["targets"].get("host") != "py":
            py.setdefault(cause_key(d), []).append(r)
    if py:
        out += ["## host: why the unmodified .py file fails (first error)", "", "| entries | diagnostic |",
                "| ---: | --- |"]
        for k, rs in sorted(py.items(), key=lambda kv: -len(kv[1]))[:25]:
            out.append(f"| {len(rs)} | `{k[:200]}` |")
        out.append("")
    uses = {}
    for r in results:
        for c in r.get("constructs", []):
            uses.setdefault(c, []).append(r)
    if uses:
        out += ["## construct census (harness-stripped sources): entries using each construct, and how many of "
                "them compile for the host", "",
                "tilec stops at a file's first error; this counts every entry a construct touches.", "",
                "| construct | entries using it | of them compile (host) | files (first 4) |",
                "| --- | ---: | ---: | --- |"]
        for c, rs in sorted(uses.items(), key=lambda kv: (-sum(1 for r in kv[1] if not r["targets"].get("host")),
                                                         kv[0])):
            ok = sum(1 for r in rs if r["targets"].get("host"))
            files = sorted({r["file"].replace("examples/", "").replace("testing/python/", "") for r in rs})
            out.append(f"| `{c}` | {len(rs)} | {ok} | {', '.join(files[:4])}{' ...' if len(files) > 4 else ''} |")
        out.append("")
    num = {}
    for r in results:
        if r["targets"].get("host") and r["numerics"] not in ("ok", "no-ref", "-"):
            num.setdefault(r["numerics"], []).append(f"{r['name']}: {r.get('numerics_detail', '')[:160]}")
    if num:
        out += ["## host numerics failures", ""]
        for k, rs in num.items():
            out += [f"- **{k}** ({len(rs)})"] + [f"  - {x}" for x in rs]
        out.append("")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description="tile-lang compatibility suite for tilec")
    ap.add_argument("--tilelang", required=True, help="a tile-lang checkout (holds examples/ and testing/)")
    ap.add_argument("--tilec", default=os.path.join(HERE, "..", "..", "build", "bin", "tilec"))
    ap.add_argument("--manifest", default=os.path.join(HERE, "manifest.toml"))
    ap.add_argument("--filter", default="", help="regular expression on entry names")
    ap.add_argument("--targets", default="host,sm_90a,vulkan")
    ap.add_argument("--testing", action="store_true", help="run testing/python's kernels instead of the manifest")
    ap.add_argument("--testing-manifest", default=os.path.join(HERE, "testing.toml"),
                    help="with --testing: entries (sizes, references) that replace the scanned ones")
    ap.add_argument("--json", help="write every result (commands, diagnostics per mode) to this file")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--triage", help="write the ranked failure causes (markdown) to this file")
    ap.add_argument("--from-json", help="print the table, summary and triage of an earlier --json run, run nothing")
    ap.add_argument("--keep", help="keep the work files in this folder")
    ap.add_argument("--gpu-kit", help="also put each referenced entry's sm_90a build here (the GPU kit's compat suite)")
    args = ap.parse_args()
    args.targets = [t for t in args.targets.split(",") if t]
    for t in args.targets:
        if t not in TARGET_FLAGS:
            ap.error(f"unknown target '{t}' (known: {', '.join(TARGET_FLAGS)})")
    args.tilec = os.path.abspath(args.tilec)
    args.tilelang = os.path.abspath(args.tilelang)
    if args.from_json:
        old = json.load(open(args.from_json))
        results, skips = old["results"], old["skips"]
        for r in results:
            if r.get("diags") and not all(r["targets"].get(t) for t in args.targets):
                r["diag"] = shown_diagnostic(r, args.targets) or r["diag"]
        label = old.get("label", "compat")
        return report(results, skips, args, label)
    entries, skips = load_manifest(args.manifest)
    label = "compat"
    if args.testing:
        overrides = entries
        if os.path.exists(args.testing_manifest):
            overrides = load_manifest(args.testing_manifest)[0] + entries
        entries, skips = testing_entries(args.tilelang, overrides)
        label = "compat --testing"
    if args.filter:
        entries = [e for e in entries if re.search(args.filter, e["name"])]
    caps = tilec_caps(args.tilec)
    if args.gpu_kit:
        if "sm_90a" not in args.targets:
            ap.error("--gpu-kit needs the sm_90a target")
        args.gpu_kit = os.path.abspath(args.gpu_kit)
        os.makedirs(args.gpu_kit, exist_ok=True)
    workroot = args.keep or tempfile.mkdtemp(prefix="tilec-compat-")
    os.makedirs(workroot, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda e: run_entry(e, args, caps, workroot), entries))
    if not args.keep:
        subprocess.run(["rm", "-rf", workroot])
    return report(results, skips, args, label)


def report(results, skips, args, label):
    print_table(results, args.targets)
    print()
    print(f"skipped files: {len(skips)} (reasons in the manifest)")
    modes = {m: sum(1 for r in results if r['targets'].get('host') == m) for m in ("py", "strip")}
    print(f"host compiles by mode: as-is .py {modes['py']}, harness stripped {modes['strip']}")
    line = summary(results, args.targets, label)
    with_ref = [r for r in results if r["numerics"] != "no-ref"]
    if with_ref and len(with_ref) < len(results):
        print(summary(with_ref, args.targets, label + " (entries with a NumPy reference)"))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": line, "label": label, "results": results, "skips": skips}, f, indent=1)
    if args.triage:
        with open(args.triage, "w") as f:
            f.write(triage(results, args.targets, line, label))
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
