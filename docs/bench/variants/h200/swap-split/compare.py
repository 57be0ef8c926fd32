#!/usr/bin/env python3
"""d_gemm_hopper / cuBLAS per shape, this run (../../../suite-h200.csv) against the run before (before/), for the rows
whose tile or split changed and those that moved by 5% or more. python3 docs/bench/variants/h200/swap-split/compare.py"""
import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def rows(path):
    return {(r["type"], r["transpose_b"], r["m"], r["n"], r["k"]): r
            for r in csv.DictReader(open(path)) if r["kernel"] == "hopper" and r["ratio"]}


new, old = rows(os.path.join(HERE, "..", "..", "..", "suite-h200.csv")), rows(os.path.join(HERE, "before", "suite-h200.csv"))
print("| type | B^T | M x N x K | tile before | after | ratio before | after |")
print("|---|---|---|---|---|---:|---:|")
for key, r in new.items():
    o = old[key]
    changed = (r["tile"], r["split_tiles"]) != (o["tile"], o["split_tiles"])
    moved = abs(float(r["ratio"]) / float(o["ratio"]) - 1) >= 0.05
    if changed or moved:
        tile = lambda x: x["tile"] + (" split %s" % x["split_tiles"] if x["split_tiles"] != "0" else "")
        print("| %s | %s | %s x %s x %s | %s | %s | %s | %s |" % (key[0], key[1], key[2], key[3], key[4], tile(o),
              tile(r) + ("" if changed else " (same)"), o["ratio"], r["ratio"]))
