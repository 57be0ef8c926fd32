#!/usr/bin/env python3
"""The A/B table of run.sh's ab part: per configuration and shape, the median over rounds of each binary's median
time, cuBLAS's median over all its runs of that shape (both binaries time it), and ours against it.
Usage: table.py logs/ab.txt"""
import statistics
import sys

runs = {}
for line in open(sys.argv[1]):
    kv = dict(token.split("=", 1) for token in line.split() if "=" in token)
    if "median_ms" not in kv:
        continue
    key = (kv["cfg"], "%sx%sx%s" % (kv["m"], kv["n"], kv["k"]))
    entry = runs.setdefault(key, {"old": [], "new": [], "cublas": [], "split": kv.get("split_tiles"),
                                  "tile": kv.get("tile"), "results": set()})
    entry[kv["v"]].append(float(kv["median_ms"]))
    entry["cublas"].append(float(kv["cublas_median_ms"]))
    entry["results"].add(kv["result"])
print("| config | M x N x K | tile | split tiles | old ms | new ms | new / old | cuBLAS ms | old ratio | new ratio |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
for (cfg, shape), e in runs.items():
    old, new, cub = (statistics.median(e[x]) for x in ("old", "new", "cublas"))
    print("| %s | %s | %s | %s | %.4f | %.4f | %.3f | %.4f | %.3f | %.3f |%s" % (
        cfg, shape, e["tile"], e["split"], old, new, new / old, cub, cub / old, cub / new,
        "" if e["results"] == {"pass"} else " " + ",".join(sorted(e["results"]))))
