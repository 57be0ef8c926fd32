"""Ratios (cuBLAS median time / the kernel's) per shape and forced kind, from the o-*.txt files of run.sh; a kind
may carry more after it ("none:2", ../../h200/skinny-2/), and "none..." is the rule's pick."""
import re
import sys

for path in sys.argv[1:]:
    table, kinds = {}, []
    kind = None
    for line in open(path):
        m = re.match(r"# kind=(\S+)", line)
        if m:
            kind = m.group(1)
            kinds.append(kind)
            continue
        f = dict(re.findall(r"(\w+)=(\S+)", line))
        if "median_ms" not in f:
            continue
        shape = "%s x %s x %s" % (f["m"], f["n"], f["k"])
        ratio = float(f["cublas_median_ms"]) / float(f["median_ms"])
        cell = "%.3f%s" % (ratio, "" if f["result"] == "pass" else " " + f["result"])
        if kind.startswith("none"):
            cell += " (%s%s)" % (f["tile"], ", split" if f["split_tiles"] != "0" else "")
        table.setdefault(shape, {})[kind] = cell
    print("## %s\n" % path)
    print("| shape | " + " | ".join(kinds) + " |")
    print("|---|" + "---:|" * len(kinds))
    for shape, cells in table.items():
        print("| %s | %s |" % (shape, " | ".join(cells.get(k, "") for k in kinds)))
    print()
