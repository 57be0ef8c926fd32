"""Step 8's rule with 128 x 64 (two consumers) against the runs of run.sh on the H100: python3 fit.py [SPEED...]

For each speed of 128 x 64 (percent of the 128 x 256 tile's per flop), the rule's pick per shape (hopper_by_shape,
as in ../../h200/skinny/fit.py, for fp16 on 132 SMs) and its ratio to cuBLAS from the forced runs here: m64.kv
(128 x 64), n128.kv (64 x 128), medium.kv (128 x 128); for the other tiles, old.kv where the rule before 128 x 64
picked the same tile. Prints the geometric mean of the picks, the best measured, and the shapes without a run."""
import math, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.argv, speeds = sys.argv[:1], [int(a) for a in sys.argv[1:]] or list(range(50, 81, 5))
sys.path.insert(0, os.path.join(HERE, "../../h200/skinny"))
import io, contextlib
with contextlib.redirect_stdout(io.StringIO()):
    import fit as base   # its TILES, whole_tiles and rule; its report is silenced
base.HERE = HERE


def kv(name):
    rows = {}
    for line in open(os.path.join(HERE, name + ".kv")):
        d = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if "median_ms" in d:
            rows[(int(d["m"]), int(d["n"]), int(d["k"]))] = (float(d["rate"]) / float(d["cublas_rate"]),
                                                              d["tile"].rsplit("x", 1)[0])
    return rows


runs = {name: kv(name) for name in ("old", "base", "m64", "n128", "medium", "pdl")}
forced = {"128x64": "m64", "64x128": "n128", "128x128": "medium"}
shapes = list(runs["old"])


def measured(s, tile):
    if tile in forced:
        return runs[forced[tile]][s][0]
    ratio, picked = runs["old"][s]
    return ratio if picked == tile else None


best = [max(r for r in (runs[v][s][0] for v in ("old", "m64", "n128", "medium"))) for s in shapes]
print("best of old, m64, n128, medium: %.3f" % math.exp(sum(map(math.log, best)) / len(best)))
for speed in speeds:
    base.TILES["128x64"] = (128, 64, 1, speed, 4, True, None)
    logs, missing = [], []
    for s in shapes:
        r = measured(s, base.rule(*s))
        if r is None:
            missing.append("%dx%dx%d:%s" % (s + (base.rule(*s),)))
        else:
            logs.append(math.log(r))
    print("speed %d: %d shapes, geometric mean %.3f; no run: %s"
          % (speed, len(logs), math.exp(sum(logs) / len(logs)), " ".join(missing) or "none"))
