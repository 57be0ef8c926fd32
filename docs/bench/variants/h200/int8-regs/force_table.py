# The forced tiles of force.sh (force/force-KIND.txt) as one table: per shape the median us of each kind (/sN: N
# tiles split), cuBLAS's, and the best kind's TB/s reading A and B once.
#   python3 docs/bench/variants/h200/int8-regs/force_table.py [DIR] > force.txt   (DIR: default force/ beside it)
import collections, glob, os, sys
here = os.path.dirname(os.path.abspath(__file__))
res = collections.defaultdict(dict)
for path in sorted(glob.glob(os.path.join(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "force"), "force-*.txt"))):
    kind = os.path.basename(path)[6:-4]
    for line in open(path):
        kv = dict(x.split("=", 1) for x in line.split() if "=" in x)
        if "m" in kv:
            res[(int(kv["m"]), int(kv["n"]), int(kv["k"]))][kind] = (
                float(kv["median_ms"]) * 1000, kv["split_tiles"], kv["result"], float(kv["cublas_median_ms"]) * 1000)
print("M N K: us per kind (16 swapped 128x64, 17 swapped 128x128, 13 64x64, 12 64x128); cuBLAS us; best TB/s")
for (m, n, k), runs in sorted(res.items()):
    best = min(v[0] for v in runs.values())
    cells = " ".join("%s:%.1f%s%s" % (kind, v[0], "/s" + v[1] if v[1] != "0" else "", "" if v[2] == "pass" else "!" + v[2])
                     for kind, v in sorted(runs.items()))
    print("%d x %d x %d  %s  cuBLAS %.1f  best %.2f TB/s" % (m, n, k, cells, next(iter(runs.values()))[3],
                                                          (m * k + n * k) / best / 1e6))
