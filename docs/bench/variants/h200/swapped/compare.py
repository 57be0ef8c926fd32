"""tf32 with B as stored in two suite CSVs: per shape, our tile and split, our time, and cuBLAS's time over ours;
then the rows with B transposed (identical PTX) as a measure of run-to-run.
   python3 compare.py before/suite-h200.csv ../../../suite-h200.csv"""
import csv, math, sys


def rows(path, tb):
    return {(int(r["m"]), int(r["n"]), int(r["k"])): r for r in csv.DictReader(open(path))
            if r["type"] == "TF32_IN_F32_OUT" and r["kernel"] == "hopper" and r["transpose_b"] == tb}


before_path, after_path = sys.argv[1:3]
for tb, name in (("0", "B as stored"), ("1", "B transposed")):
    before, after = rows(before_path, tb), rows(after_path, tb)
    print("## tf32, %s\n" % name)
    print("| M x N x K | tile before | after | us before | after | ratio before | after |")
    print("|---|---|---|---:|---:|---:|---:|")
    logs = []
    for shape in sorted(before, key=lambda s: (s[1], s[2], s[0])):
        b, a = before[shape], after[shape]
        tile = lambda r: r["tile"].rsplit("x", 1)[0] + ("" if r["split_tiles"] == "0" else " s" + r["split_tiles"])
        mark = " *" if tile(b) != tile(a) else ""
        logs.append(math.log(float(a["ratio"]) / float(b["ratio"])))
        print("| %d x %d x %d%s | %s | %s | %.1f | %.1f | %s | %s |" % (shape + (mark, tile(b), tile(a),
              1e3 * float(b["median_ms"]), 1e3 * float(a["median_ms"]), b["ratio"], a["ratio"])))
    print("\nGeometric mean of the ratio's change: %+.1f%% (* : the tile changed)\n" % (100 * (math.exp(sum(logs) / len(logs)) - 1)))
