#!/usr/bin/env python3
"""The forced runs of run.sh as one table: per shape, each kind's median time (us) and the rule's pick; the best."""
import math
import os
import sys

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "logs")
KINDS = ["9", "11", "12", "13", "14"]
NAMES = {"9": "128x256", "11": "64x128", "12": "64x64", "13": "128x128", "14": "64x192"}


def read(kind):
    out = {}
    for line in open(os.path.join(here, "f-%s.txt" % kind)):
        kv = dict(x.split("=", 1) for x in line.split() if "=" in x)
        if "median_ms" in kv:
            out[(int(kv["m"]), int(kv["n"]), int(kv["k"]))] = (float(kv["median_ms"]) * 1e3, kv["tile"],
                                                                int(kv["split_tiles"]), float(kv["cublas_median_ms"]) * 1e3)
    return out


def main():
    data = {k: read(k) for k in KINDS + ["none"]}
    print("| M x N x K | " + " | ".join(NAMES[k] for k in KINDS) + " | rule's pick | cuBLAS | rule / cuBLAS | best / cuBLAS |")
    print("|---|" + "---:|" * len(KINDS) + "---|---:|---:|---:|")
    logs_rule, logs_best = [], []
    for shape in data["none"]:
        t, tile, split, cub = data["none"][shape]
        cells = []
        for k in KINDS:
            tk, _, sk, _ = data[k][shape]
            cells.append("%.1f%s" % (tk, " s" if sk else ""))
        best = min(data[k][shape][0] for k in KINDS)
        logs_rule.append(math.log(cub / t))
        logs_best.append(math.log(cub / best))
        print("| %d x %d x %d | %s | %s%s | %.1f | %.3f | %.3f |" % (shape + (" | ".join(cells), tile.rsplit("x", 1)[0],
                                                                       " s" if split else "", cub, cub / t, cub / best)))
    n = len(logs_rule)
    print("\n%d shapes; geometric mean of cuBLAS / ours: the rule %.3f, the best tile %.3f" %
          (n, math.exp(sum(logs_rule) / n), math.exp(sum(logs_best) / n)), file=sys.stderr)


main()
