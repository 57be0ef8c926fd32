#!/bin/bash
# Build fit.cu against dc30bc5's out/gemm.cu (no GPU needed) and write fit.txt. Run from this folder.
set -e
cd "$(dirname "$0")"
git show dc30bc5:out/gemm.cu | sed 's/static const HopperChoice HOPPER_TILES/static HopperChoice HOPPER_TILES/' > /tmp/refit-g.cu
ln -sf /tmp/refit-g.cu g.cu
python3 meas.py > meas.txt
nvcc -O2 -std=c++17 -gencode arch=compute_90,code=compute_90 -DCONFIG_ON_COMMAND_LINE -DF16_IN_F32_OUT \
    -DMNK_16x16x16 -DTRANSPOSE_B=1 fit.cu -o /tmp/refit-fit -lcublas -lcuda 2> /dev/null
rm -f g.cu
{
    echo "# the speeds before (64 x 128, 64 x 64, 128 x 128, 128 x 64), then those committed: each pick"
    /tmp/refit-fit p 50 50 90 56
    /tmp/refit-fit p 75 62 87 56
    echo "# the best tile per shape: geometric mean and worst"
    python3 - <<'P'
import math
best = {}
for line in open("meas.txt"):
    tb, m, n, k, kind, ms = line.split()
    best.setdefault((tb, m, n, k), {})[kind] = float(ms)
ratios = [v["cub"] / min(t for key, t in v.items() if key != "cub") for v in best.values()]
print("%.4f %.4f" % (math.exp(sum(map(math.log, ratios)) / len(ratios)), min(ratios)))
P
    echo "# every speed from 40 to 100 in steps of 2: the 20 best by mean, then by worst"
    /tmp/refit-fit 40 100 2 > /tmp/refit-grid.txt
    sort -k5,5nr -k6,6nr /tmp/refit-grid.txt | head -20
    echo "# 128 x 64 left at 56: the same best; the speeds around the committed ones"
    awk '$4 == 56 && $1 >= 68 && $1 <= 84 && $2 >= 58 && $2 <= 66 && $3 >= 84 && $3 <= 92' /tmp/refit-grid.txt
} > fit.txt
