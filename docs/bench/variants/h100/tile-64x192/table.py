"""The ratios (cuBLAS / ours) of this folder's runs, B transposed: the rule's pick and 64 x 128 / 64 x 192 forced,
each shape, and the geometric means over the suite's 47 shapes and the 32 held-out ones. python3 table.py"""
import math
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    runs = {}
    for line in open(os.path.join(HERE, name)):
        d = dict(re.findall(r"(\w+)=(\S+)", line))
        if "median_ms" in d:
            runs[(int(d["m"]), int(d["n"]), int(d["k"]))] = (float(d["cublas_median_ms"]) / float(d["median_ms"]),
                                                            d["tile"], d["split_tiles"])
    return runs


runs = [load(n) for n in ("pick-base2-1.txt", "pick-n192-1.txt", "f10-base2-1.txt", "f10-n192-1.txt")]
held = set(tuple(map(int, l.split())) for l in open(os.path.join(HERE, "..", "heldout", "shapes.txt")) if l.strip())
print("M x N x K            pick (64x128)       pick (64x192)       64x128 forced  64x192 forced  best of the five")
for shape in sorted(runs[0]):
    r = [x[shape] for x in runs]
    best = max(r[0][0], r[1][0], r[2][0], r[3][0])
    print("%-20s %-19s %-19s %-14s %-14s %.3f" % ("x".join(map(str, shape)), "%.3f %s" % r[0][:2], "%.3f %s" % r[1][:2],
                                                "%.3f" % r[2][0], "%.3f" % r[3][0], best))
for name, shapes in (("suite", [s for s in runs[0] if s not in held]), ("held-out", [s for s in runs[0] if s in held])):
    mean = lambda i: math.exp(sum(math.log(runs[i][s][0]) for s in shapes) / len(shapes))
    both = math.exp(sum(math.log(max(runs[0][s][0], runs[3][s][0])) for s in shapes) / len(shapes))
    print("%s (%d shapes): pick %.4f, pick with 64x192 for 64x128 %.4f, 64x128 forced %.4f, 64x192 forced %.4f, "
          "the better of the pick and 64x192 %.4f" % (name, len(shapes), mean(0), mean(1), mean(2), mean(3), both))
