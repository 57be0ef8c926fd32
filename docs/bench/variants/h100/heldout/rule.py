"""A Python copy of step 8's rule (hopper_by_shape, fp16, 132 SMs) scored against the forced runs of ../refit/ (the
suite's 38 shapes, both layouts) and of this folder (B transposed). First it checks that the copy makes the
program's picks (before the change: suite-h100.csv's and h-1-none.txt's); then, for a block's pull P counted for
small tiles left whole when tiles x fill_share <= clusters (the change; "all" counts it for every whole small tile),
the geometric mean of cuBLAS / the picked tile's time on each set and the worst. python3 rule.py"""
import csv
import math
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
REFIT = os.path.join(HERE, "..", "refit")
RATED, BANDWIDTH, SMS = 989e12, 3.35e12, 132
TILES = {8: dict(cm=256, cn=256, cluster=2, small=False, share=2, speed=100),   # kind: cluster tile, ...
         10: dict(cm=64, cn=128, cluster=1, small=True, share=4, speed=75),
         11: dict(cm=64, cn=64, cluster=1, small=True, share=4, speed=62),
         12: dict(cm=128, cn=256, cluster=2, small=True, share=4, speed=87)}
KIND_OF = {"128x256x64": 8, "64x128x64": 10, "64x64x64": 11, "128x128x64": 12}


def up(x, a):
    return (x + a - 1) // a * a


def parts(clusters, tiles, k_tiles):
    return min(clusters // tiles, k_tiles)


def whole_tiles(t, tiles, clusters, k):   # hopper_whole_tiles
    seconds = 2 * t["cm"] * t["cn"] * k / (RATED / clusters)
    if t["small"]:
        seconds = max(seconds, (t["cm"] + t["cn"]) * k * 2 / (BANDWIDTH / clusters))
    last = tiles % clusters
    saved = seconds * (1 - 1 / parts(clusters, last, k // 64)) if last else 0
    if tiles > clusters and last and 2 * last <= clusters and saved >= 30e-6:
        return tiles - last
    return 0 if tiles * t["share"] <= clusters and seconds >= 100e-6 else tiles


def pick(m, n, k, pull=None, every=False):   # hopper_by_shape
    best = None
    for kind, t in TILES.items():
        mp, np_, kp = up(m, t["cm"]), up(n, t["cn"]), up(k, 64)
        tiles, clusters = (mp // t["cm"]) * (np_ // t["cn"]), SMS // t["cluster"]
        split = whole_tiles(t, tiles, clusters, kp) == 0
        rounds = 1 / parts(clusters, tiles, kp // 64) if split else math.ceil(tiles / clusters)
        time = rounds * 2 * t["cm"] * t["cn"] * kp / (RATED / clusters * t["speed"] / 100)
        if pull and t["small"] and not split and (every or tiles * t["share"] <= clusters):
            time = max(time, rounds * (t["cm"] + t["cn"]) * kp * 2 / (t["cluster"] * pull))
        time += 15e-6 if split else 0
        if best is None or time < best[0]:
            best = (time, kind)
    return best[1]


def load(files):
    runs = {}
    for path, tb, kind in files:
        for line in open(path):
            if "median_ms=" in line:
                d = dict(re.findall(r"(\w+)=(\S+)", line))
                entry = runs.setdefault((tb, int(d["m"]), int(d["n"]), int(d["k"])), {"cublas": []})
                entry[kind] = float(d["median_ms"])
                entry["cublas"].append(float(d["cublas_median_ms"]))
                entry.setdefault("tile_" + kind, d["tile"])
    return runs


def score(runs, **rule):
    ratios = []
    for shape, entry in runs.items():
        cublas = sorted(entry["cublas"])[len(entry["cublas"]) // 2]
        ratios.append((cublas / entry[str(pick(*shape[1:], **rule))], shape))
    return math.exp(sum(math.log(r) for r, _ in ratios) / len(ratios)), min(ratios)


suite = load([(os.path.join(REFIT, "o-%s-%s.txt" % (tb, k)), tb, k) for tb in "01" for k in ("8", "10", "11", "12")])
held = load([(os.path.join(HERE, "h-1-%s.txt" % k), "1", k) for k in ("none", "8", "10", "11", "12")])
program = {}
for row in csv.DictReader(open(os.path.join(HERE, "..", "..", "..", "suite-h100.csv"))):
    if row["type"] == "F16_IN_F32_OUT" and row["kernel"] == "hopper":
        program[(row["transpose_b"], int(row["m"]), int(row["n"]), int(row["k"]))] = KIND_OF[row["tile"]]
for shape, entry in held.items():
    program[shape] = KIND_OF[entry["tile_none"]]
wrong = [shape for shape, kind in program.items() if pick(*shape[1:]) != kind]
print("the copy makes the program's picks on %d shapes: %s" % (len(program), "yes" if not wrong else wrong))
for every in (False, True):
    for pull in (None, 40e9, 60e9, 80e9, 90e9, 100e9, 120e9):
        (s, sw), (h, hw) = score(suite, pull=pull, every=every), score(held, pull=pull, every=every)
        print("%-5s pull %-4s GB/s  suite %.4f (worst %.3f %s)  held-out %.4f (worst %.3f %s)" % (
            "all" if every else "few", "-" if pull is None else "%d" % (pull / 1e9), s, sw[0], "x".join(map(str, sw[1][1:])),
            h, hw[0], "x".join(map(str, hw[1][1:]))))
