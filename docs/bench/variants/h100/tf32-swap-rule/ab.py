#!/usr/bin/env python3
"""run.sh ab's rounds as one table (python3 ab.py [v2|v4]): per shape whose tile changed, the median over rounds of each
rule's median time, and the ratio; then the geometric means."""
import math
import os
import statistics
import sys

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "logs", sys.argv[1] if len(sys.argv) > 1 else "v4")


def runs(v):
    out = {}
    for r in (1, 2, 3):
        if not os.path.exists(os.path.join(here, "ab-%s-%d.txt" % (v, r))):
            continue
        for line in open(os.path.join(here, "ab-%s-%d.txt" % (v, r))):
            kv = dict(x.split("=", 1) for x in line.split() if "=" in x)
            if "median_ms" in kv:
                key = (int(kv["m"]), int(kv["n"]), int(kv["k"]))
                out.setdefault(key, []).append((float(kv["median_ms"]) * 1e3, float(kv["cublas_median_ms"]) * 1e3,
                                                kv["tile"].rsplit("x", 1)[0] + (" s" if kv["split_tiles"] != "0" else "")))
    return out


old, new = runs("old"), runs("new")
changed = [tuple(map(int, l.split())) for l in open(os.path.join(os.path.dirname(os.path.dirname(here)), "changed.txt"))]
print("| M x N x K | old tile | new tile | old us | new us | cuBLAS us | old / new | new / cuBLAS |")
print("|---|---|---|---:|---:|---:|---:|---:|")
logs, logs_c = {"changed": [], "suite": []}, {"old": [], "new": []}
for key in old:
    o = statistics.median(t for t, _, _ in old[key])
    n = statistics.median(t for t, _, _ in new[key])
    c = statistics.median([x for _, x, _ in old[key]] + [x for _, x, _ in new[key]])
    group = "changed" if key in changed else "suite"
    logs[group].append(math.log(o / n))
    if old[key][0][2] != new[key][0][2] or group == "changed":
        print("| %d x %d x %d | %s | %s | %.1f | %.1f | %.1f | %.3f | %.3f |" % (key + (old[key][0][2], new[key][0][2], o, n,
                                                                                   c, o / n, c / n)))
    if group == "suite":
        logs_c["old"].append(math.log(c / o))
        logs_c["new"].append(math.log(c / n))
for g, v in logs.items():
    print("\n%s: %d shapes, geometric mean of old / new time %.3f, worst %.3f, best %.3f" %
          (g, len(v), math.exp(sum(v) / len(v)), math.exp(min(v)), math.exp(max(v))))
for g, v in logs_c.items():
    print("shapes.txt, %s rule: geometric mean of cuBLAS / ours %.3f, worst %.3f" % (g, math.exp(sum(v) / len(v)),
                                                                                     math.exp(min(v))))
