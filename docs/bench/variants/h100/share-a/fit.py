"""Step 8's rule with the small tiles in clusters sharing A, against the runs of run.sh: python3 fit.py [--search]

For each shape, each small tile's ratio to cuBLAS when forced (n64, n128, n256, m64, m128 .kv), the 128 x 256
cluster tile's from base.kv where it ran it, the best, and the tile the rule picks (hopper_by_shape
and hopper_whole_tiles of gemm.md, redone here for fp16 on 132 SMs with the speeds of HOPPER_TILES). Prints the
geometric means of the best tiles and of the rule's picks; --search tries every speed from 30 to 100 in steps of
10 for the small tiles and prints the best few. Reads the kv files of this folder, or of the folder named first."""
import itertools, math, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
RATED, SMS, BANDWIDTH, SPLIT_SECONDS, FILL_SECONDS = 989e12, 132, 3.35e12, 15e-6, 100e-6
# name: cluster tile rows, columns, blocks per cluster, speed, fill_share, memory-bound, forced run
TILES = {"128x256": [256, 256, 2, 100, 2, False, None],   # the speeds committed with this change
         "64x256": [64, 256, 1, 45, 4, True, "n256"],    # not built any more: slower than 64 x 128 everywhere
         "64x128": [64, 128, 1, 50, 4, True, "n128"],
         "64x64": [64, 64, 1, 50, 4, True, "n64"],
         "128x128": [128, 256, 2, 90, 4, True, "m128"],
         "128x64": [128, 128, 2, 56, 4, True, "m64"]}
BEFORE = {"64x256": 55, "64x128": 50, "64x64": 40, "128x128": 80, "128x64": 56}   # the speeds before
RUNS = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else "."


def kv(name):
    rows = {}
    for line in open(os.path.join(HERE, RUNS, name + ".kv")):
        d = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if "median_ms" in d:
            rows[(int(d["m"]), int(d["n"]), int(d["k"]))] = (float(d["rate"]) / float(d["cublas_rate"]),
                                                              d["tile"].rsplit("x", 1)[0])
    return rows


def up(x, a):
    return (x + a - 1) // a * a


def parts(clusters, tiles, k_tiles):
    return min(clusters // tiles, k_tiles)


def whole_tiles(tile, tiles, k):   # hopper_whole_tiles, step 8
    rows, cols, cluster, speed, share, memory, _ = tile
    clusters = SMS // cluster
    seconds = 2.0 * rows * cols * k / (RATED / clusters)
    if memory:
        seconds = max(seconds, (rows + cols) * k * 2 / (BANDWIDTH / clusters))
    last = tiles % clusters
    saved = seconds * (1 - 1.0 / parts(clusters, last, k // 64)) if last else 0
    split = tiles > clusters and last > 0 and 2 * last <= clusters and saved >= 2 * SPLIT_SECONDS
    fill = tiles * share <= clusters and seconds >= FILL_SECONDS
    return tiles - last if split else 0 if fill else tiles


def rule(m, n, k):   # hopper_by_shape
    best = None
    for name, tile in TILES.items():
        rows, cols, cluster, speed = tile[:4]
        clusters = SMS // cluster
        tiles = up(m, rows) // rows * (up(n, cols) // cols)
        kp = up(k, 64)
        split = whole_tiles(tile, tiles, kp) == 0
        rounds = 1.0 / parts(clusters, tiles, kp // 64) if split else math.ceil(tiles / clusters)
        time = rounds * 2.0 * rows * cols * kp / (RATED / clusters * speed / 100) + (SPLIT_SECONDS if split else 0)
        if best is None or time < best[1]:
            best = (name, time)
    return best[0]


runs = {v: kv(v) for v in ("base", "n64", "n128", "n256", "m64", "m128")}
shapes = sorted(runs["base"])


def ratio(s, name):
    if TILES[name][6]:
        return runs[TILES[name][6]][s][0]
    return runs["base"][s][0] if runs["base"][s][1] == name else None


def mean(picks):
    logs = [math.log(ratio(s, p)) for s, p in picks if ratio(s, p)]
    return math.exp(sum(logs) / len(logs)), len(picks) - len(logs)


if "--search" in sys.argv:
    results = []
    for speeds in itertools.product(range(30, 101, 10), repeat=5):
        for name, speed in zip(("64x256", "64x128", "64x64", "128x128", "128x64"), speeds):
            TILES[name][3] = speed
        g, missing = mean([(s, rule(*s)) for s in shapes])
        results.append((g, missing, speeds))
    results.sort(reverse=True)
    for g, missing, speeds in results[:10]:
        print("64x256 64x128 64x64 128x128 128x64 = %s: %.4f (%d shapes without a run of the pick)"
              % (speeds, g, missing))
    sys.exit(0)
best = []
print("%-18s" % "M x N x K" + "".join("%9s" % n for n in TILES) + "   best / rule")
for s in shapes:
    r = {n: ratio(s, n) for n in TILES}
    b = max((n for n in TILES if r[n]), key=lambda n: r[n])
    best.append((s, b))
    print("%-18s" % "x".join(map(str, s)) + "".join("%9s" % ("%.3f" % r[n] if r[n] else "-") for n in TILES)
          + "   %s / %s" % (b, rule(*s)))
print("%d shapes: best tile %.3f, rule %.3f (%d picks without a run)"
      % ((len(shapes), mean(best)[0]) + mean([(s, rule(*s)) for s in shapes])))
del TILES["64x256"]
print("without 64 x 256: rule %.3f (%d picks without a run)" % mean([(s, rule(*s)) for s in shapes]))
for name, speed in BEFORE.items():
    TILES.setdefault(name, [64, 256, 1, 0, 4, True, "n256"])[3] = speed
print("the speeds before, with 64 x 256: rule %.3f (%d picks without a run)" % mean([(s, rule(*s)) for s in shapes]))
