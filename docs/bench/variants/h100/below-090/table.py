#!/usr/bin/env python3
"""Prints forced.md from logs/f-*.txt: per configuration and shape, cuBLAS time / ours (median of the two rounds)
for the rule's pick ("none", with the tile it took) and each forced kind."""
import glob, os, re, statistics
here = os.path.dirname(os.path.abspath(__file__))
KINDS = ["none", "9", "11", "12", "13", "14"]
NAMES = {"9": "128x256 x2", "11": "64x128", "12": "64x64", "13": "128x128 x2", "14": "64x192"}
for path in sorted(glob.glob(os.path.join(here, "logs", "f-*.txt"))):
    rows = {}
    for line in open(path):
        kv = dict(re.findall(r"(\w+)=(\S+)", line))
        if kv.get("result") != "pass":
            raise SystemExit("not passed: " + line)
        key = (int(kv["m"]), int(kv["n"]), int(kv["k"]))
        cell = rows.setdefault(key, {}).setdefault(kv["kind"], {"r": [], "tile": kv["tile"], "split": kv["split_tiles"]})
        cell["r"].append(float(kv["cublas_median_ms"]) / float(kv["median_ms"]))
    print("\n## %s\n" % os.path.basename(path)[2:-4])
    print("| M x N x K | rule's pick | " + " | ".join(NAMES[k] for k in KINDS[1:]) + " |")
    print("|---|---|" + "---:|" * (len(KINDS) - 1))
    for key, cells in rows.items():
        pick = cells["none"]
        out = ["%d x %d x %d" % key, "%s%s %.3f" % (pick["tile"], " split" if pick["split"] != "0" else "",
                                                     statistics.median(pick["r"]))]
        best = max(statistics.median(c["r"]) for c in cells.values())
        for k in KINDS[1:]:
            v = statistics.median(cells[k]["r"])
            out.append(("**%.3f**" if v == best else "%.3f") % v)
        print("| " + " | ".join(out) + " |")
