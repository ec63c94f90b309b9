"""The GPU kit's suites, run on the device by bench/kit.py: each module offers
check_<suite>(kit, small) -> [{"name", "shape", "err", "ok"}] and
bench_<suite>(kit) -> {"tables": [markdown lines], "summary": [lines], "figures": {...}}."""


def row(name, shape, err, ok, rows):
    """Records and prints one numerics verdict."""
    r = {"name": name, "shape": shape, "err": err if isinstance(err, str) else f"{err:.2e}", "ok": bool(ok)}
    rows.append(r)
    print(f"check {name:34s} {shape:24s} {r['err']:>9s} {'PASS' if ok else 'FAIL'}", flush=True)
    return ok


def table(header, rows):
    """Markdown lines of a table."""
    return ["", "| " + " | ".join(header) + " |", "|" + " --- |" * len(header)] + \
        ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
