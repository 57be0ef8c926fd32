#!/usr/bin/env python3
"""The by-shape variants' table: each kv file's rate over cuBLAS's in the same process, per shape, with the tile
step 8 took and whether it split; then the geometric mean. Usage: table.py DIR (the kv files run.sh wrote)."""
import glob
import math
import os
import sys


def load(path):
    rows = {}
    for line in open(path):
        kv = dict(t.split("=", 1) for t in line.split() if "=" in t)
        if "m" in kv:
            rows[(int(kv["m"]), int(kv["n"]), int(kv["k"]))] = kv
    return rows


def ratio(kv):
    try:
        return float(kv["rate"]) / float(kv["cublas_rate"])
    except (KeyError, ValueError, ZeroDivisionError):
        return None


def main(folder):
    runs = {os.path.basename(p)[:-3]: load(p) for p in sorted(glob.glob(os.path.join(folder, "*.kv")))}
    order = [n for n in ("hopper7", "hopper8", "narrow", "fill0", "nofill", "bf16-hopper7", "bf16-hopper8") if n in runs]
    order += [n for n in runs if n not in order]
    shapes = []
    for rows in runs.values():
        shapes += [s for s in rows if s not in shapes]
    print("%-18s %s   tile of hopper8, split tiles, cuBLAS TB/s" % ("M x N x K", " ".join("%12s" % n for n in order)))
    for shape in shapes:
        cells = []
        for name in order:
            kv = runs[name].get(shape)
            r = ratio(kv) if kv else None
            flag = "" if not kv or kv.get("result") == "pass" else "!"
            cells.append("%12s" % (("%.2f" % r if r else "-") + flag))
        h8 = runs.get("hopper8", {}).get(shape, {})
        m, n, k = shape
        cb = float(h8.get("cublas_rate", "nan") or "nan")
        tbs = (2 * (m * k + n * k) + 4 * m * n) * cb / (2.0 * m * n * k) if cb == cb else float("nan")
        print("%-18s %s   %s c%s %s %.2f" % ("x".join(map(str, shape)), " ".join(cells), h8.get("tile", "-"),
                                             h8.get("cluster", "-"), h8.get("split_tiles", "-"), tbs))
    means = []
    for name in order:
        values = [ratio(kv) for kv in runs[name].values() if ratio(kv)]
        means.append("%12s" % ("%.3f" % math.exp(sum(map(math.log, values)) / len(values)) if values else "-"))
    print("%-18s %s" % ("geometric mean", " ".join(means)))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out/by-shape")
