"""Ratios to cuBLAS (same process) of each variant's kv file in DIR: python3 table.py DIR name..."""
import math, os, sys

def kv(path):
    rows = []
    for line in open(path):
        d = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if "m" in d and "median_ms" in d:
            rows.append(d)
    return rows

directory, names = sys.argv[1], sys.argv[2:]
runs = {}
for name in names:
    path = os.path.join(directory, name + ".kv")
    runs[name] = {(r["m"], r["n"], r["k"]): r for r in kv(path)} if os.path.exists(path) else {}
shapes = list(runs[names[0]])
print("%-18s" % "M x N x K" + "".join("%9s" % n for n in names) + "   tile:split of each, cuBLAS TB/s")
logs = {n: [] for n in names}
for s in shapes:
    cells, tiles = [], []
    for n in names:
        r = runs[n].get(s)
        if r and r.get("result") == "pass" and r.get("cublas_rate", "nan") != "nan":
            ratio = float(r["rate"]) / float(r["cublas_rate"])
            logs[n].append(math.log(ratio))
            cells.append("%9.2f" % ratio)
            tiles.append("%s:%s" % (r["tile"].rsplit("x", 1)[0], r["split_tiles"]))
        else:
            cells.append("%9s" % ("fail" if r else "-"))
            tiles.append("-")
    m, nn, k = map(int, s)
    r = runs[names[0]][s]
    tbs = (m * k + nn * k) * 2 / float(r["cublas_median_ms"]) / 1e9 if r.get("cublas_median_ms", "nan") != "nan" else 0
    print("%-18s" % "x".join(s) + "".join(cells) + "   " + " ".join(tiles) + " %.2f" % tbs)
print("%-18s" % "geometric mean" + "".join("%9.3f" % math.exp(sum(l) / len(l)) if l else "%9s" % "-" for l in logs.values()))
