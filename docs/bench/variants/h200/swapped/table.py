"""Tables of swapped/results: per shape, ours / cuBLAS (cuBLAS time over ours) and our tile, for each file given.
   python3 table.py results/new-1.txt results/force-16.txt ..."""
import re, sys

def rows(path):
    out = {}
    for line in open(path):
        kv = dict(re.findall(r"(\w+)=(\S+)", line))
        if "median_ms" not in kv:
            continue
        shape = (int(kv["m"]), int(kv["n"]), int(kv["k"]))
        ratio = float(kv["cublas_median_ms"]) / float(kv["median_ms"])
        split = kv.get("split_tiles", "0")
        out[shape] = "%.3f %s%s %s" % (ratio, kv["tile"].rsplit("x", 1)[0], "" if split == "0" else " s" + split,
                                        kv["result"])
    return out

files = sys.argv[1:]
tables = [rows(f) for f in files]
shapes = sorted(set().union(*tables), key=lambda s: (s[1], s[2], s[0]))
print("| shape | " + " | ".join(f.split("/")[-1].replace(".txt", "") for f in files) + " |")
print("|---|" + "---:|" * len(files))
for s in shapes:
    print("| %d x %d x %d | " % s + " | ".join(t.get(s, "") for t in tables) + " |")
