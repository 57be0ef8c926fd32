"""int8 with B as stored: HEAD against int8-ldsm.patch, ab.sh's ab-*.txt (two passes each): the better median of
the two passes, microseconds; cuBLAS's best median over all four runs; ldsm / head time; its geometric mean.
python3 ab_table.py DIR"""
import math, os, re, sys

def load(path):
    runs = {}
    text = re.sub(r"gemm: warning: [^\n]*\n", "", open(path).read())   # stderr, interleaved mid-line
    for line in text.split("\n"):
        f = dict(re.findall(r"(\w+)=(\S+)", line))
        if "median_ms" in f:
            cub = f.get("cublas_median_ms", "na")
            runs[(int(f["m"]), int(f["n"]), int(f["k"]))] = (
                float(f["median_ms"]) * 1e3, float(cub) * 1e3 if cub not in ("na", "nan") else None, f["result"],
                f.get("tile", "?"), f.get("split_tiles", "?"))
    return runs

d = sys.argv[1]
head = [load(os.path.join(d, "ab-head-%d.txt" % p)) for p in (1, 2)]
ldsm = [load(os.path.join(d, "ab-ldsm-%d.txt" % p)) for p in (1, 2)]
ratios = []
print("| shape | head tile, split | head µs | ldsm tile, split | ldsm µs | ldsm / head | cuBLAS µs | verified |")
print("|---|---|---:|---|---:|---:|---:|---|")
for s in sorted(head[0]):
    h = min(r[s][0] for r in head)
    l = min(r[s][0] for r in ldsm)
    cub = [r[s][1] for r in head + ldsm if r[s][1] is not None]
    ok = all(r[s][2] == "pass" for r in head + ldsm)
    ratios.append(l / h)
    print("| %d x %d x %d | %s %s | %.1f | %s %s | %.1f | %.3f | %s | %s |" % (
        s + (head[0][s][3], head[0][s][4], h, ldsm[0][s][3], ldsm[0][s][4], l, l / h,
             "%.1f" % min(cub) if cub else "declined", "yes" if ok else "NO")))
print("\ngeometric mean of ldsm / head time over %d shapes: %.3f" % (
    len(ratios), math.exp(sum(map(math.log, ratios)) / len(ratios))))
