"""Time per shape, HEAD against the real-rows maps (run.sh's oob-*.txt): the better of the two passes' medians of
ours and of cuBLAS's (all runs), in microseconds, and cuBLAS's over ours. python3 compare.py DIR"""
import glob, os, re, sys

runs = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "oob-*.txt"))):
    variant, tb, run = re.match(r"oob-(\w+)-(\d)-(\d)\.txt", os.path.basename(path)).groups()
    for line in open(path):
        f = dict(re.findall(r"(\w+)=(\S+)", line))
        if "median_ms" in f:
            key = (tb, "%s x %s x %s" % (f["m"], f["n"], f["k"]))
            runs.setdefault(key, {}).setdefault(variant, []).append(
                (float(f["median_ms"]) * 1e3, float(f["cublas_median_ms"]) * 1e3, f["result"], f["tile"]))
print("| B^T | shape | tile | head us | oob us | oob/head | cuBLAS us | head ratio | oob ratio | verified |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|---|")
for (tb, shape), v in runs.items():
    if "head" not in v or "oob" not in v:
        continue
    h, o = min(x[0] for x in v["head"]), min(x[0] for x in v["oob"])
    cub = min(x[1] for x in v["head"] + v["oob"])
    ok = all(x[2] == "pass" for x in v["head"] + v["oob"])
    print("| %s | %s | %s | %.1f | %.1f | %.3f | %.1f | %.3f | %.3f | %s |" % (
        tb, shape, v["head"][0][3], h, o, o / h, cub, cub / h, cub / o, "all" if ok else "NO"))
