"""The held-out runs as one table: per shape, cuBLAS / ours for the rule's pick before the change (h-TB-none), each
forced tile (B transposed), and the rule's pick after it (a-TB); then the geometric means. python3 table.py"""
import math
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
KINDS = {"8": "128x256", "10": "64x128", "11": "64x64", "12": "128x128"}


def load(name):
    runs = {}
    for line in open(os.path.join(HERE, name)):
        if "median_ms=" in line:
            d = dict(re.findall(r"(\w+)=(\S+)", line))
            assert d["result"] == "pass", line
            runs[(int(d["m"]), int(d["n"]), int(d["k"]))] = d
    return runs


def ratio(d):
    return float(d["cublas_median_ms"]) / float(d["median_ms"])


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


for tb in ("1", "0"):
    before, after = load("h-%s-none.txt" % tb), load("a-%s.txt" % tb)
    forced = {kind: load("h-%s-%s.txt" % (tb, kind)) for kind in KINDS} if tb == "1" else {}
    print("B %s" % ("transposed" if tb == "1" else "as stored"))
    print("%-18s %-16s %6s  %s  %-16s %6s" % ("M x N x K", "rule before", "ratio",
                                              "".join("%9s" % KINDS[k] for k in forced), "rule after", "ratio"))
    columns = {"before": [], "after": [], "best": []}
    for shape in sorted(after, key=lambda s: (s[1], s[2], s[0])):
        b, a = before[shape], after[shape]
        pick = lambda d: "%s%s" % (d["tile"].rsplit("x", 1)[0], " split" if d["split_tiles"] != "0" else "")
        cells = "".join("%9.3f" % ratio(forced[k][shape]) for k in forced)
        print("%-18s %-16s %6.3f  %s  %-16s %6.3f" % ("%d x %d x %d" % shape, pick(b), ratio(b), cells, pick(a),
                                                       ratio(a)))
        columns["before"].append(ratio(b))
        columns["after"].append(ratio(a))
        if forced:
            columns["best"].append(max(ratio(forced[k][shape]) for k in forced))
    print("geometric mean: rule before %.3f, rule after %.3f%s; worst after %.3f" % (
        geomean(columns["before"]), geomean(columns["after"]),
        ", best forced tile per shape %.3f" % geomean(columns["best"]) if forced else "", min(columns["after"])))
    print()
for name in ("BF16_IN_F32_OUT-1", "TF32_IN_F32_OUT-1", "TF32_IN_F32_OUT-0", "I8_IN_I32_OUT-1"):
    runs = load("t-%s.txt" % name)
    worst = sorted((ratio(d), shape, d["tile"]) for shape, d in runs.items())[:3]
    print("%s, B %s: the rule's pick on this code, geometric mean %.3f; worst %s" % (
        name[:-2], "transposed" if name.endswith("1") else "as stored", geomean([ratio(d) for d in runs.values()]),
        ", ".join("%d x %d x %d %.3f (%s)" % (s + (r, t)) for r, s, t in worst)))
