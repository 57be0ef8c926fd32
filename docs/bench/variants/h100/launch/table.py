"""table.txt from ab.txt: d_gemm_hopper / cuBLAS (cuBLAS time over ours) per shape, old and new, both passes."""
import collections
import os

HERE = os.path.dirname(os.path.abspath(__file__))
runs, order, current = collections.defaultdict(list), [], None
for line in open(os.path.join(HERE, "ab.txt")):
    words = line.split()
    if line.startswith("=="):
        current = (words[1], words[2])
    elif len(words) >= 10 and words[-1] == "pass":
        shape = " x ".join(words[:3])
        if shape not in order:
            order.append(shape)
        runs[current + (shape,)].append((float(words[6]) * 1e3, float(words[8]) * 1e3, words[3], words[4]))
for layout, name in (("TRANSPOSE_B=1", "B transposed"), ("TRANSPOSE_B=0", "B as stored")):
    print("%s: ratio to cuBLAS, pass 1 / pass 2; our median us, pass 1" % name)
    print("%-20s %-12s %-13s %-13s %8s %8s" % ("M x N x K", "tile", "old", "new", "old us", "new us"))
    for shape in order:
        old, new = runs[("old", layout, shape)], runs[("new", layout, shape)]
        ratios = lambda rows: " / ".join("%.3f" % (c / t) for t, c, _, _ in rows)
        print("%-20s %-12s %-13s %-13s %8.1f %8.1f" % (shape, new[0][2] + " c" + new[0][3], ratios(old), ratios(new),
                                                     old[0][0], new[0][0]))
    print()
