"""The forced runs as one table for fit.cu: `TB M N K KIND MS` per run, and `TB M N K cub MS`, the median of the
six cuBLAS medians measured for that shape and layout. python3 meas.py > meas.txt"""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
KINDS = ("none", "8", "10", "11", "12", "13")
for tb in ("1", "0"):
    cublas = {}
    for kind in KINDS:
        for line in open(os.path.join(HERE, "o-%s-%s.txt" % (tb, kind))):
            if "median_ms=" not in line:
                continue
            d = dict(re.findall(r"(\w+)=(\S+)", line))
            shape = (d["m"], d["n"], d["k"])
            cublas.setdefault(shape, []).append(float(d["cublas_median_ms"]))
            if kind != "none":
                print(tb, *shape, kind, d["median_ms"])
    for shape, times in cublas.items():
        times.sort()
        print(tb, *shape, "cub", "%.6f" % times[len(times) // 2])
