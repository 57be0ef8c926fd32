"""The runs of run.sh side by side: python3 table.py DIR VARIANT...

One line per shape: each variant's tile and ratio to cuBLAS (its rate over cuBLAS's in the same process), then
the geometric mean of each variant's ratios and the failed runs."""
import math, os, sys

d, names = sys.argv[1], sys.argv[2:]


def kv(name):
    rows = {}
    for line in open(os.path.join(d, name + ".kv")):
        f = dict(x.split("=", 1) for x in line.split() if "=" in x)
        if "median_ms" in f:
            rows[(int(f["m"]), int(f["n"]), int(f["k"]))] = f
    return rows


runs = {n: kv(n) for n in names}
shapes = sorted(set().union(*runs.values()))
print("%-18s" % "M x N x K" + "".join("%22s" % n for n in names))
logs = {n: [] for n in names}
failed = []
for s in shapes:
    line = "%-18s" % "x".join(map(str, s))
    for n in names:
        f = runs[n].get(s)
        if not f:
            line += "%22s" % "-"
            continue
        ratio = float(f["rate"]) / float(f["cublas_rate"])
        logs[n].append(math.log(ratio))
        if f.get("result") != "pass":
            failed.append("%s %s" % (n, "x".join(map(str, s))))
        tile = f["tile"].rsplit("x", 1)[0] + ("c%s" % f.get("cluster", "?")) + ("/s%s" % f["split_tiles"] if f.get("split_tiles", "0") != "0" else "")
        line += "%22s" % ("%s %.3f" % (tile, ratio))
    print(line)
print("%-18s" % "geometric mean" + "".join("%22s" % ("%.3f (%d)" % (math.exp(sum(logs[n]) / len(logs[n])), len(logs[n])) if logs[n] else "-") for n in names))
print("failed:", ", ".join(failed) or "none")
