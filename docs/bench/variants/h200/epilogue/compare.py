#!/usr/bin/env python3
"""Step 10 on the suite: d_gemm_hopper's time and its ratio to cuBLAS per shape, step 10's run (suite/*.csv: int8,
and fp16 with B transposed, all the device time allowed) against step 9's (before/, the canonical suite-h200.csv), for the shapes that run the 128 x 256 tile (step 10 stores those through shared
memory; tf32 with B as stored keeps storing from registers), then the geometric means of the ratio over all 47
shapes. python3 docs/bench/variants/h200/epilogue/compare.py [BEFORE AFTER...]: other runs (../canonical-2/ passes
step 9's canonical suite and step 10's)."""
import csv
import glob
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def rows(path):
    return {(r["type"], r["transpose_b"], r["m"], r["n"], r["k"]): r
            for r in csv.DictReader(open(path)) if r["kernel"] == "hopper" and r["ratio"]}


before, after = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 2 else \
    (os.path.join(HERE, "before", "suite-h200.csv"), sorted(glob.glob(os.path.join(HERE, "suite", "*.csv"))))
new = {}
for path in after:
    new.update(rows(path))
old = rows(before)
print("| type | B^T | M x N x K | tile | µs before | after | time | ratio before | after |")
print("|---|---|---|---|---:|---:|---:|---:|---:|")
for key, r in new.items():
    o = old[key]
    if "x256x" not in r["tile"] or (key[0] == "TF32_IN_F32_OUT" and key[1] == "0"):
        continue
    print("| %s | %s | %s x %s x %s | %s | %.1f | %.1f | %+.1f%% | %s | %s |" % (
        key[0], key[1], key[2], key[3], key[4], r["tile"] + ("" if r["tile"] == o["tile"] else " (was %s)" % o["tile"]),
        1000 * float(o["median_ms"]), 1000 * float(r["median_ms"]),
        100 * (float(r["median_ms"]) / float(o["median_ms"]) - 1), o["ratio"], r["ratio"]))
print()
print("| type | B^T | geometric mean before | after | shapes under 0.90 before | after |")
print("|---|---|---:|---:|---:|---:|")
for t in sorted({k[0] for k in new}):
    for tb in ("1", "0"):
        keys = [k for k in new if k[0] == t and k[1] == tb]
        if not keys:
            continue
        mean = lambda d: math.exp(sum(math.log(float(d[k]["ratio"])) for k in keys) / len(keys))
        under = lambda d: sum(1 for k in keys if int(k[2]) >= 16 and float(d[k]["ratio"]) < 0.90)
        print("| %s | %s | %.3f | %.3f | %d | %d |" % (t, tb, mean(old), mean(new), under(old), under(new)))
