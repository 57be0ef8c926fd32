#!/usr/bin/env python3
"""Tables kv.txt: per shape, our kernel on C = A B and on its swap C^T = B^T A^T, against cuBLAS on C = A B;
TB/s counts A, B and C once (fp16 inputs, float C)."""
import os
import re
import sys

path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "kv.txt")
shape, rows = None, []
for line in open(path):
    if line.startswith("shape "):
        shape, runs = tuple(int(x) for x in line.split()[1:]), []
        rows.append((shape, runs))
    elif "mode=gemm" in line:
        kv = dict(item.split("=", 1) for item in line.split() if "=" in item)
        runs.append(kv)
print("| M × N × K | ours µs | tile | swapped µs | tile | cuBLAS µs | ours / cuBLAS | swapped / cuBLAS | swapped TB/s |")
print("|---|---:|---|---:|---|---:|---:|---:|---:|")
for (m, n, k), (plain, swapped) in rows:
    t0, t1, tc = float(plain["median_ms"]), float(swapped["median_ms"]), float(plain["cublas_median_ms"])
    assert plain["result"] == "pass" and swapped["result"] == "pass"
    tbs = (2 * m * k + 2 * n * k + 4 * m * n) / (t1 * 1e-3) / 1e12
    print("| %d × %d × %d | %.1f | %s | %.1f | %s | %.1f | %.3f | %.3f | %.2f |" % (
        m, n, k, t0 * 1e3, plain.get("tile", "?"), t1 * 1e3, swapped.get("tile", "?"), tc * 1e3,
        tc / t0, tc / t1, tbs))
