"""Old (write) against new (read) eviction per shape: our median and cuBLAS's in each, their ratio, and our TB/s.
   python3 docs/bench/variants/h200/evict/compare.py [experiment/]"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SIZE = {"F16_IN_F32_OUT": 2, "BF16_IN_F32_OUT": 2, "TF32_IN_F32_OUT": 4, "I8_IN_I32_OUT": 1}
ACCUM = {"F16_IN_F32_OUT": 4, "BF16_IN_F32_OUT": 4, "TF32_IN_F32_OUT": 4, "I8_IN_I32_OUT": 4}


def rows(path):
    out = {}
    for line in open(path):
        kv = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if "median_ms" in kv:
            out[(int(kv["m"]), int(kv["n"]), int(kv["k"]))] = kv
    return out


def tbs(kind, m, n, k, ms):
    return ((m * k + k * n) * SIZE[kind] + m * n * ACCUM[kind]) / (ms * 1e-3) / 1e12


def median(values):
    values = sorted(values)
    return (values[(len(values) - 1) // 2] + values[len(values) // 2]) / 2


def main():
    results = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "experiment")
    for config in ("F16_IN_F32_OUT_tb1", "TF32_IN_F32_OUT_tb0", "I8_IN_I32_OUT_tb1"):
        kind = config.rsplit("_", 1)[0]
        runs = {b: [rows(os.path.join(results, "%s-%s-%d.txt" % (b, config, p))) for p in (1, 2)]
                for b in ("old", "new")}
        warm = rows(os.path.join(results, "warm-%s.txt" % config))
        print("## %s (medians of two passes; ms; ratio = cuBLAS / ours; TB/s: A, B and C once)" % config)
        print("%-18s %8s %8s %6s %6s | %8s %8s %6s %6s | %8s %8s" % (
            "M x N x K", "old", "cublas", "ratio", "TB/s", "new", "cublas", "ratio", "TB/s", "warm", "cublas"))
        for shape in sorted(runs["new"][0], key=lambda s: (s[1] * s[2], s[0])):
            cells = []
            for b in ("old", "new"):
                ours = median([float(r[shape]["median_ms"]) for r in runs[b]])
                theirs = median([float(r[shape]["cublas_median_ms"]) for r in runs[b]])
                bad = [r[shape]["result"] for r in runs[b] if r[shape]["result"] != "pass"]
                cells += [ours, theirs, theirs / ours, tbs(kind, *shape, ours)]
                if bad:
                    print("NOT PASSED", b, shape, bad)
            w = warm.get(shape, {})
            print("%-18s %8.4f %8.4f %6.3f %6.2f | %8.4f %8.4f %6.3f %6.2f | %8s %8s" % (
                ("%dx%dx%d" % shape,) + tuple(cells) + (w.get("median_ms", "-"), w.get("cublas_median_ms", "-"))))
        print()


main()
