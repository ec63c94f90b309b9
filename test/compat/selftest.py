#!/usr/bin/env python3
"""ctest compat/selftest: runs run.py on selftest.toml (our own kernels) and checks its verdicts.

Each entry must compile for the host in its `expect_mode` ("py": the file as
it is, "strip": with the harness removed) and reach its `expect` numerics
verdict; the summary line must count them. Usage: selftest.py TILEC
"""
import json
import os
import subprocess
import sys
import tempfile
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    tilec = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = [sys.executable, os.path.join(HERE, "run.py"), "--tilelang", HERE, "--tilec", tilec,
               "--manifest", os.path.join(HERE, "selftest.toml"), "--targets", "host", "--json", out]
        p = subprocess.run(cmd, capture_output=True, text=True)
        print(p.stdout + p.stderr)
        if p.returncode != 0:
            print(f"selftest: run.py exited {p.returncode}")
            return 1
        results = {r["name"]: r for r in json.load(open(out))["results"]}
    entries = tomllib.load(open(os.path.join(HERE, "selftest.toml"), "rb"))["entry"]
    bad = 0
    for e in entries:
        r = results.get(e["name"])
        if r is None:
            print(f"FAIL {e['name']}: no result")
            bad += 1
            continue
        problems = []
        mode = r["targets"].get("host")
        if mode != e["expect_mode"]:
            problems.append(f"host compiled in mode {mode}, expected {e['expect_mode']}: {r['diag']}")
        if r["numerics"] != e["expect"]:
            problems.append(f"numerics {r['numerics']}, expected {e['expect']}: {r.get('numerics_detail', r['diag'])}")
        elif e.get("expect_detail", "") not in r.get("numerics_detail", ""):
            problems.append(f"detail '{r.get('numerics_detail')}' lacks '{e['expect_detail']}'")
        if e.get("xfail"):
            if problems:
                print(f"XFAIL {e['name']}: {e['xfail']} ({problems[0][:160]})")
            else:
                print(f"XPASS {e['name']}: it works now; remove its xfail line from selftest.toml")
                bad += 1
        elif problems:
            for msg in problems:
                print(f"FAIL {e['name']}: {msg}")
            bad += 1
    # The summary line counts what the table shows.
    n = len(entries)
    compiled = sum(1 for r in results.values() if r["targets"].get("host"))
    matched = sum(1 for r in results.values() if r["numerics"] == "ok")
    line = f"compat: {compiled}/{n} compile host, {matched}/{n} match"
    if line not in p.stdout:
        print(f"FAIL summary: expected '{line}'")
        bad += 1
    print("selftest: " + ("ok" if not bad else f"{bad} failures"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
