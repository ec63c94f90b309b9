#!/usr/bin/env python3
"""Checks that every frontend diagnostic kind is triggered by some lit test.

Reads the kinds from include/tilec/Frontend/*Diagnostics.def (DIAG(id,
severity, "format")), the places that emit them (`DiagID::id` in lib/ and
tools/) and the diagnostics the lit tests expect: `expected-error {{text}}`
(and -warning/-note/-remark) in files run with --verify-diagnostics, and
`error: text` / `warning: text` / `note: text` in FileCheck lines. A kind is
covered when an expected text could be (part of) one of its messages: the
format with every `{N}` standing for any text. Kinds whose format is little
more than a placeholder (`meta_error` is "{0}") say nothing by themselves;
for them each emitting site is checked instead, by the longest string
literal in its arguments.

Usage: scripts/diag-coverage.py [--root DIR] [--verbose] [--sites] [--check]
  --verbose  list every kind with the test that covers it
  --sites    also list the sites of the catch-all kinds and their coverage
  --check    exit 1 when a kind (or, with --sites, a site) is not covered,
             is covered by FileCheck only, or is never emitted; the keys in
             test/diag-coverage-exceptions.txt (a kind's id or id@literal,
             two spaces, the reason) are exempt. ctest runs
             `--sites --check` as `diag-coverage`.
"""
import argparse
import os
import re
import sys
from collections import defaultdict

WILD = None  # a placeholder in a format: stands for any text


def parse_defs(root):
    """[(id, severity, format, file)] from the Diagnostics .def files."""
    out = []
    d = os.path.join(root, "include", "tilec", "Frontend")
    for name in sorted(os.listdir(d)):
        if not name.endswith("Diagnostics.def") or name == "Diagnostics.def":
            continue
        text = open(os.path.join(d, name), encoding="utf-8").read()
        for m in re.finditer(r"^DIAG\(\s*(\w+)\s*,\s*(\w+)\s*,\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+)\)", text, re.M):
            parts = re.findall(r"\"((?:[^\"\\]|\\.)*)\"", m.group(3))
            fmt = "".join(parts).encode().decode("unicode_escape")
            out.append((m.group(1), m.group(2), fmt, name))
    return out


def tokens(fmt):
    """The format as a list of characters and WILD placeholders."""
    toks = []
    i = 0
    while i < len(fmt):
        if fmt.startswith("{{", i):
            toks.append("{")
            i += 2
        elif fmt[i] == "{":
            j = fmt.find("}", i)
            toks.append(WILD)
            i = j + 1 if j >= 0 else len(fmt)
        elif fmt.startswith("}}", i):
            toks.append("}")
            i += 2
        else:
            toks.append(fmt[i])
            i += 1
    return toks


def literal_chars(toks):
    return sum(1 for t in toks if t is not WILD)


def fragments(toks):
    frags, cur = [], ""
    for t in toks:
        if t is WILD:
            if cur:
                frags.append(cur)
            cur = ""
        else:
            cur += t
    if cur:
        frags.append(cur)
    return frags


def match_score(text, toks):
    """How many of the format's literal characters `text` takes in, when it
    is a substring of some message the format produces; None when it is
    not, or when it is mostly what the placeholders stand for: it must take
    in a third of its length in literal characters (12 at least), or all of
    the format's literal text when that is shorter."""
    n = len(toks)
    need = min(literal_chars(toks), max(12, len(text) // 3))
    # state: token position -> the most literal characters matched getting
    # there (more is always better: what follows does not depend on it); the
    # text may start anywhere in the message.

    wild = [j for j in range(n) if toks[j] is WILD]

    def close(st):
        # a WILD may match the empty string
        for j in wild:
            if j in st and st.get(j + 1, -1) < st[j]:
                st[j + 1] = st[j]
        return st

    states = close({j: 0 for j in range(n + 1)})
    for ch in text:
        nxt = {}
        for j, c in states.items():
            if j < n:
                if toks[j] is WILD:
                    nxt[j] = max(nxt.get(j, -1), c)
                elif toks[j] == ch:
                    nxt[j + 1] = max(nxt.get(j + 1, -1), c + 1)
        if not nxt:
            return None
        states = close(nxt)
    best = max(states.values())
    return best if best >= need else None


EXPECTED = re.compile(r"expected-(error|warning|note|remark)(?:@[^\s{]*)?\s*(?:\d+\s*)?\{\{(.*?)\}\}(?!\})")
CHECKED = re.compile(r"^\s*(?:#|//|;)?\s*[A-Z][A-Z0-9_-]*(?:-NEXT|-SAME|-DAG|-NOT|-LABEL|-COUNT-\d+)?:.*?\b(error|warning|note|remark): (.*)$")


def collect_expected(root):
    """[(text, severity, file, kind)] with kind 'verify' or 'filecheck'."""
    out = []
    test = os.path.join(root, "test")
    for dirpath, dirnames, filenames in os.walk(test):
        dirnames[:] = [d for d in dirnames if d not in ("unit", "compat", "fuzz")]
        for f in filenames:
            if not f.endswith((".tile", ".mlir", ".test", ".py")):
                continue
            path = os.path.join(dirpath, f)
            try:
                text = open(path, encoding="utf-8", errors="replace").read()
            except OSError:
                continue
            rel = os.path.relpath(path, root)
            verify = "--verify-diagnostics" in text or "-verify-diagnostics" in text
            for line in text.splitlines():
                if verify:
                    for m in EXPECTED.finditer(line):
                        out.append((m.group(2), m.group(1), rel, "verify"))
                if "expected-" in line:
                    continue
                m = CHECKED.match(line)
                if m:
                    body = m.group(2)
                    # FileCheck patterns: keep the literal part before a regex
                    body = re.split(r"\{\{|\[\[", body)[0].rstrip()
                    if body:
                        out.append((body, m.group(1), rel, "filecheck"))
    return out


SITE = re.compile(r"DiagID::(\w+)")
STRLIT = re.compile(r"\"((?:[^\"\\]|\\.)*)\"")


def collect_sites(root):
    """{id: [(file, line, [string literals in the call])]}"""
    sites = defaultdict(list)
    for top in ("lib", "tools"):
        for dirpath, _, filenames in os.walk(os.path.join(root, top)):
            for f in filenames:
                if not f.endswith((".cpp", ".h")):
                    continue
                path = os.path.join(dirpath, f)
                lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
                for i, line in enumerate(lines):
                    for m in SITE.finditer(line):
                        # the call's arguments: this line and the following ones
                        # up to the end of the statement
                        call = line[m.end():]
                        k = i
                        while ";" not in call and k + 1 < len(lines) and k < i + 6:
                            k += 1
                            call += " " + lines[k].strip()
                        call = call.split(";")[0]
                        lits = [s.encode().decode("unicode_escape", "replace") for s in STRLIT.findall(call)]
                        sites[m.group(1)].append((os.path.relpath(path, root), i + 1, lits))
    return sites


def load_exceptions(root):
    """{key: reason}: a key is a kind's id, or `id@literal` for one site of a
    catch-all kind (the site's longest string literal, as --sites prints it),
    then at least two spaces and the reason."""
    exc = {}
    p = os.path.join(root, "test", "diag-coverage-exceptions.txt")
    if os.path.exists(p):
        for line in open(p, encoding="utf-8"):
            line = line.rstrip("\n")
            if line.strip() and not line.startswith("#"):
                key, _, why = line.partition("  ")
                exc[key.strip()] = why.strip()
    return exc


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--sites", action="store_true")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    root = os.path.abspath(args.root)

    kinds = parse_defs(root)
    expected = collect_expected(root)
    sites = collect_sites(root)
    exceptions = load_exceptions(root)
    sev_word = {"Error": "error", "Warning": "warning", "Note": "note", "Remark": "remark"}

    problems = []
    rows = []
    catch_all = []
    # Each expected text counts for the kinds that explain most of it (of
    # "'T.copy' is given both..." and "keyword argument 'x' is repeated", the
    # one whose literal words it contains).
    scored = defaultdict(list)  # text index -> [(score, kind)]
    for kid, sev, fmt, deffile in kinds:
        toks = tokens(fmt)
        if literal_chars(toks) < 6:
            continue
        # a message piece a site of this kind spells out is strong evidence
        site_lits = {l.strip() for _, _, lits in sites.get(kid, []) for l in lits if len(l.strip()) >= 8}
        grams = {f[i : i + 6] for f in fragments(toks) for i in range(max(1, len(f) - 5))}
        for k, (text, esev, f, how) in enumerate(expected):
            # cheap filter: the text shares six characters with the format
            if esev != sev_word.get(sev, sev.lower()) or not any(g in text for g in grams):
                continue
            sc = match_score(text, toks)
            if sc is not None:
                bonus = 1000 if any(l in text for l in site_lits) else 0
                # ties: the kind whose literal text the text covers most of
                scored[k].append(((sc + bonus, sc / literal_chars(toks)), kid))
    explained = defaultdict(list)  # kind -> [(how, file, text)]
    for k, cands in scored.items():
        top = max(sc for sc, _ in cands)
        text, esev, f, how = expected[k]
        for sc, kid in cands:
            if sc == top:
                explained[kid].append((how, f, text))
    for kid, sev, fmt, deffile in kinds:
        toks = tokens(fmt)
        if literal_chars(toks) < 6:
            catch_all.append((kid, sev, fmt))
            status = "catch-all"
            where = ""
        else:
            hits = explained.get(kid, [])
            verify = [(f, t) for how, f, t in hits if how == "verify"]
            fc = [(f, t) for how, f, t in hits if how == "filecheck"]
            if verify or fc:
                status = "verify" if verify else "filecheck"
                f, t = (verify or fc)[0]
                where = f"{f}  {t[:60]!r}" if args.verbose else f
            else:
                status, where = "MISSING", ""
        emitted = kid in sites
        if status == "MISSING" and kid not in exceptions:
            problems.append(f"{kid}: no test triggers it ({fmt!r})")
        if status == "filecheck" and kid not in exceptions:
            problems.append(f"{kid}: only a FileCheck test triggers it; write a --verify-diagnostics test, or say in "
                            "test/diag-coverage-exceptions.txt why it has no source location")
        if not emitted and kid not in exceptions:
            problems.append(f"{kid}: never emitted (no DiagID::{kid} in lib/ or tools/)")
        rows.append((kid, sev, status, where, emitted, len(sites.get(kid, []))))

    site_rows = []
    if args.sites:
        texts = [t for t, _, _, _ in expected]
        for kid, sev, fmt in catch_all:
            for f, line, lits in sites.get(kid, []):
                lits = [l for l in lits if len(l.strip()) >= 4]
                if not lits:
                    site_rows.append((kid, f, line, "dynamic", ""))
                    continue
                key = max(lits, key=len).strip()
                probe = key if len(key) <= 40 else key[:40]
                hit = next((t for t in texts if probe in t), None)
                if hit is None:
                    # a literal split across the message: any piece of 12+ chars
                    hit = next((t for t in texts if any(len(p) >= 12 and p in t for p in lits)), None)
                site_rows.append((kid, f, line, "covered" if hit else "MISSING", key))
                if not hit and f"{kid}@{key}" not in exceptions:
                    problems.append(f"{kid} at {f}:{line}: no test expects {key!r}")

    counts = defaultdict(int)
    for r in rows:
        counts[r[2]] += 1
    for kid, sev, status, where, emitted, nsites in rows:
        if args.verbose or status == "MISSING" or not emitted:
            exc = f"  [exempt: {exceptions[kid]}]" if kid in exceptions else ""
            print(f"{kid:40} {status:10} {where}{'' if emitted else '  (never emitted)'}{exc}")
    if args.sites:
        print()
        for kid, f, line, status, key in site_rows:
            if args.verbose or status == "MISSING":
                print(f"{kid:22} {status:8} {f}:{line}  {key!r}")
        sc = defaultdict(int)
        for r in site_rows:
            sc[r[3]] += 1
        print(f"catch-all sites: {sum(sc.values())}: " + ", ".join(f"{v} {k}" for k, v in sorted(sc.items())))
    print(
        f"{len(rows)} diagnostic kinds: {counts['verify']} by --verify-diagnostics, {counts['filecheck']} by "
        f"FileCheck only, {counts['catch-all']} catch-all (checked by site), {counts['MISSING']} not covered"
    )
    if args.check and problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
