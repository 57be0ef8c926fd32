"""force.sh's runs as a table: per shape, cuBLAS's time over ours with each tile forced (its split: s<tiles>),
and the rule's pick in the suite of the same session (../../../suite-h200.csv).
   python3 docs/bench/variants/h200/evict/force_table.py"""
import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = {10: "128x256c2", 12: "64x128", 13: "64x64", 14: "128x128c2", 15: "64x192", 16: "128x64s", 17: "128x128s"}


def rows(path):
    out = {}
    for line in open(path):
        kv = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if "median_ms" in kv:
            out[(int(kv["m"]), int(kv["n"]), int(kv["k"]))] = kv
    return out


suite = list(csv.DictReader(open(os.path.join(HERE, "../../../suite-h200.csv"))))
for config, kinds in (("F16_IN_F32_OUT-1", (10, 12, 13, 14, 15)), ("TF32_IN_F32_OUT-0", (10, 12, 13, 14, 15, 16, 17)),
                      ("I8_IN_I32_OUT-1", (10, 12, 13, 14, 15))):
    kind, tb = config.rsplit("-", 1)
    forced = {k: rows(os.path.join(HERE, "force", "force-%s-%d.txt" % (config, k))) for k in kinds}
    picks = {(int(r["m"]), int(r["n"]), int(r["k"])): r for r in suite
             if r["type"] == kind and r["transpose_b"] == tb and r["kernel"] == "hopper"}
    print("## %s, B %s\n" % (kind, "transposed" if tb == "1" else "as stored"))
    print("| shape | rule (suite) | " + " | ".join(NAMES[k] for k in kinds) + " | best |")
    print("|---|---:|" + "---:|" * len(kinds) + "---|")
    for shape in sorted(forced[kinds[0]], key=lambda s: (s[1] * s[2], s[0])):
        p = picks[shape]
        cells, best = [], None
        for k in kinds:
            kv = forced[k][shape]
            ratio = float(kv["cublas_median_ms"]) / float(kv["median_ms"])
            split = int(kv["split_tiles"])
            cells.append("%.3f%s%s" % (ratio, " s%d" % split if split else "", "" if kv["result"] == "pass" else " FAIL"))
            best = max(best or (ratio, k), (ratio, k))
        print("| %d x %d x %d | %s %s%s | %s | %s %.3f |" % (shape + (p["ratio"], p["tile"].rsplit("x", 1)[0],
              " s" + p["split_tiles"] if p["split_tiles"] != "0" else "", " | ".join(cells), NAMES[best[1]], best[0])))
    print()
