"""Step 8's rule against the forced runs: python3 fit.py [SUITE_CSV]

Reads forced/*.kv (each of step 8's tiles on every shape, fp16, B transposed, L2 evicted; run.sh) and
../by-shape/final/hopper7.kv (the 128 x 256 cluster tile: step 7, same day), and prints, per shape, each
tile's ratio to cuBLAS, the best, and the tile the rule picks (hopper_by_shape in gemm.md, redone here for
fp16 on 132 SMs); then the geometric means of the best and of the rule's picks. With the suite's CSV it also
checks that the program's picks (its `tile` column, fp16, B transposed) are the ones computed here."""
import csv, math, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
RATED, SMS, BANDWIDTH, SPLIT_SECONDS, FILL_SECONDS = 989e12, 132, 3.35e12, 15e-6, 100e-6
# name: block M, block N, cluster, speed (% of the 128 x 256 tile's per flop), fill_share, memory-bound, kv file
TILES = {"128x256": (128, 256, 2, 100, 2, False, "../by-shape/final/hopper7.kv"),
         "64x256": (64, 256, 1, 55, 4, True, "forced/n256.kv"),
         "64x128": (64, 128, 1, 50, 4, True, "forced/n128-9.kv"),
         "64x64": (64, 64, 1, 40, 4, True, "forced/n64.kv"),
         "128x128": (128, 128, 1, 78, 4, True, "forced/medium.kv")}


def kv(path):
    rows = {}
    for line in open(os.path.join(HERE, path)):
        d = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if "median_ms" in d:
            rows[(int(d["m"]), int(d["n"]), int(d["k"]))] = float(d["rate"]) / float(d["cublas_rate"])
    return rows


def up(x, a):
    return (x + a - 1) // a * a


def whole_tiles(tile, tiles, clusters, k):   # hopper_whole_tiles for steps 7 and 8
    bm, bn, cluster, speed, share, memory, _ = tile
    rows = bm * cluster
    seconds = 2.0 * rows * bn * k / (RATED / clusters)
    if memory:
        seconds = max(seconds, (rows + bn) * k * 2 / (BANDWIDTH / clusters))
    last = tiles % clusters
    split = tiles > clusters and last > 0 and 2 * last <= clusters and seconds >= 50e-6
    fill = tiles * share <= clusters and seconds >= FILL_SECONDS
    return tiles - last if split else 0 if fill else tiles


def rule(m, n, k):   # hopper_by_shape
    best = None
    for name, tile in TILES.items():
        bm, bn, cluster, speed = tile[:4]
        tiles = up(m, bm * cluster) // (bm * cluster) * (up(n, bn) // bn)
        clusters = SMS // cluster
        split = whole_tiles(tile, tiles, clusters, up(k, 64)) == 0
        rounds = tiles / clusters if split else math.ceil(tiles / clusters)
        time = rounds * 2.0 * bm * cluster * bn * up(k, 64) / (RATED / clusters * speed / 100) + \
            (SPLIT_SECONDS if split else 0)
        if best is None or time < best[1]:
            best = (name, time)
    return best[0]


ratios = {name: kv(tile[6]) for name, tile in TILES.items()}
shapes = list(ratios["64x64"])
best_log = rule_log = 0
print("%-16s" % "M x N x K" + "".join("%9s" % name for name in TILES) + "   best / rule")
for s in shapes:
    best = max(TILES, key=lambda name: ratios[name][s])
    pick = rule(*s)
    best_log += math.log(ratios[best][s])
    rule_log += math.log(ratios[pick][s])
    print("%-16s" % "x".join(map(str, s)) + "".join("%9.2f" % ratios[name][s] for name in TILES) +
          "   %s / %s" % (best, pick))
print("%d shapes: geometric mean of the best tile %.3f, of the rule's %.3f"
      % (len(shapes), math.exp(best_log / len(shapes)), math.exp(rule_log / len(shapes))))
if len(sys.argv) > 1:
    wrong = []
    for row in csv.DictReader(open(sys.argv[1])):
        if row["type"] == "F16_IN_F32_OUT" and row["transpose_b"] == "1" and row["kernel"] == "hopper":
            m, n, k = int(row["m"]), int(row["n"]), int(row["k"])
            if row["tile"].rsplit("x", 1)[0] != rule(m, n, k):
                wrong.append("%dx%dx%d: program %s, here %s" % (m, n, k, row["tile"], rule(m, n, k)))
    print("the suite's picks agree with the rule here" if not wrong else "disagree: " + "; ".join(wrong))
