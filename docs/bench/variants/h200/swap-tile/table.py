"""int8 with B as stored, call1.sh's runs: HEAD (B transposed first in every tile) against the swap per tile (new),
each the better median of its two passes, microseconds; cuBLAS's best median; new / head; the forced tiles (new's
kinds 10, 12 to 17; head's 12 to 15, B transposed first), the fastest of them and the rule's pick against it; the
rule's pick in TB/s (A and B once, C once). Then the geometric mean of new / head. With a second argument, the
same rows as a CSV there (head's TB/s too): the record the page quotes.
    python3 table.py DIR [CSV]"""
import csv, glob, math, os, re, sys

def load(path):
    runs = {}
    if not os.path.exists(path):
        return runs
    text = re.sub(r"gemm: warning: [^\n]*\n", "", open(path).read())   # stderr, interleaved mid-line
    for line in text.split("\n"):
        f = dict(re.findall(r"(\w+)=(\S+)", line))
        if "median_ms" in f:
            cub = f.get("cublas_median_ms", "na")
            runs[(int(f["m"]), int(f["n"]), int(f["k"]))] = (
                float(f["median_ms"]) * 1e3, float(cub) * 1e3 if cub not in ("na", "nan") else None, f["result"],
                f.get("tile", "?"), f.get("split_tiles", "?"))
    return runs

d = sys.argv[1]
head = [load(os.path.join(d, "ab-head-%d.txt" % p)) for p in (1, 2)]
new = [load(os.path.join(d, "ab-new-%d.txt" % p)) for p in (1, 2)]
forced = {}
for path in sorted(glob.glob(os.path.join(d, "force-*-*.txt"))):
    v, kind = re.match(r"force-(\w+)-(\d+)\.txt", os.path.basename(path)).groups()
    forced["%s%s" % ("h" if v == "head" else "", kind)] = load(path)
ratios, failed, rows = [], 0, []
print("| shape | head pick | head µs | new pick | new µs | new / head | cuBLAS µs | fastest forced | µs | new / fastest | new TB/s |")
print("|---|---|---:|---|---:|---:|---:|---|---:|---:|---:|")
for s in sorted(head[0], key=lambda s: (s[0] * s[1] * s[2], s)):
    h = min(r[s][0] for r in head if s in r)
    n = min(r[s][0] for r in new if s in r)
    cub = [r[s][1] for r in head + new if s in r and r[s][1] is not None]
    runs = [r[s] for r in head + new if s in r] + [f[s] for f in forced.values() if s in f]
    failed += sum(r[2] != "pass" for r in runs)
    best = min(((f[s][0], k) for k, f in forced.items() if s in f), default=(None, "-"))
    ratios.append(n / h)
    m, nn, k = s
    tbs = (m * k + nn * k + 4 * m * nn) / (n * 1e-6) / 1e12
    rows.append({"m": m, "n": nn, "k": k, "head_tile": head[0][s][3], "head_split": head[0][s][4],
                 "head_us": "%.1f" % h, "head_tbs": "%.2f" % (tbs * n / h), "new_tile": new[0][s][3],
                 "new_split": new[0][s][4], "new_us": "%.1f" % n, "new_tbs": "%.2f" % tbs, "new_over_head": "%.3f" % (n / h),
                 "cublas_us": "%.1f" % min(cub) if cub else "", "fastest_forced": best[1],
                 "fastest_us": "%.1f" % best[0] if best[0] else ""})
    print("| %d x %d x %d | %s %s | %.1f | %s %s | %.1f | %.3f | %s | %s | %s | %s | %.2f |" % (
        m, nn, k, head[0][s][3], head[0][s][4], h, new[0][s][3], new[0][s][4], n, n / h,
        "%.1f" % min(cub) if cub else "declined", best[1], "%.1f" % best[0] if best[0] else "-",
        "%.3f" % (n / best[0]) if best[0] else "-", tbs))
print("\ngeometric mean of new / head time over %d shapes: %.3f" % (
    len(ratios), math.exp(sum(map(math.log, ratios)) / len(ratios))))
print("runs not verified (result other than pass): %d of %d" % (failed, sum(len(r) for r in head + new) +
                                                                sum(len(f) for f in forced.values())))
print("forced runs: " + " ".join("%s (%d)" % (k, len(f)) for k, f in sorted(forced.items())))
if len(sys.argv) > 2:
    with open(sys.argv[2], "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
