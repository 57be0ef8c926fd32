#!/usr/bin/env python3
"""Prints ab.md from logs/ab.txt: median over rounds of each binary's median time, and new / old."""
import os, re, statistics, sys
here = os.path.dirname(os.path.abspath(__file__))
rows = {}
for line in open(os.path.join(here, "logs", "ab.txt")):
    v = re.search(r"v=(\w+)", line).group(1)
    kv = dict(re.findall(r"(\w+)=(\S+)", line.split(None, 3)[3]))
    if kv.get("result") != "pass":
        sys.exit("not passed: " + line)
    key = (kv["type"], kv["m"], kv["kernel"])
    rows.setdefault(key, {}).setdefault(v, []).append(float(kv["median_ms"]))
print("| type | size | step | old ms (runs) | new ms (runs) | new / old time |")
print("|---|---:|---|---|---|---:|")
ratios = []
for (t, m, k), d in rows.items():
    old, new = statistics.median(d["old"]), statistics.median(d["new"])
    ratios.append(new / old)
    fmt = lambda xs: ", ".join("%.3f" % x for x in xs)
    print("| %s | %s³ | %s | %.3f (%s) | %.3f (%s) | %.3f |" % (t, m, k, old, fmt(d["old"]), new, fmt(d["new"]), new / old))
print("\ngeometric mean of new / old time over %d rows: %.3f" % (len(ratios), statistics.geometric_mean(ratios)))
