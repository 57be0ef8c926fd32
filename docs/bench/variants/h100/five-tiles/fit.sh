#!/bin/bash
# Build fit.c against out/gemm.cu (no GPU needed) and write fit.txt. Run from anywhere.
set -e
cd "$(dirname "$0")"
sed 's/static const HopperChoice HOPPER_TILES/static HopperChoice HOPPER_TILES/' ../../../../../out/gemm.cu > /tmp/five-g.cu
ln -sf /tmp/five-g.cu g.cu
python3 meas.py > meas.txt
nvcc -O2 -std=c++17 -x cu -gencode arch=compute_90,code=compute_90 -DCONFIG_ON_COMMAND_LINE -DF16_IN_F32_OUT \
    -DMNK_16x16x16 -DTRANSPOSE_B=1 fit.c -o /tmp/five-fit -lcublas -lcuda 2> /dev/null
rm -f g.cu
{
    echo "# columns: speeds of 64 x 128, 64 x 64, 128 x 128, 64 x 192; geometric mean; worst; where; picks not measured"
    echo "# without 64 x 192 (its speed 1: never picked), then with the committed 71: each pick"
    /tmp/five-fit p 75 62 87 1
    /tmp/five-fit p 75 62 87 71
    echo "# the other three at their committed speeds, 64 x 192 from 50 to 100"
    /tmp/five-fit | awk '$1 == 75 && $2 == 62 && $3 == 87'
    echo "# all four free (64 x 128 69 to 81, 64 x 64 56 to 68, 128 x 128 81 to 93, 64 x 192 50 to 100): the 10 best"
    /tmp/five-fit | sort -k5,5nr -k6,6nr | head -10
    echo "# the best tile of each shape"
    python3 -c "
import math
best = {}
for line in open('meas.txt'):
    m, n, k, kind, ratio = line.split()
    best[(m, n, k)] = max(best.get((m, n, k), 0), float(ratio))
print('%.4f' % math.exp(sum(map(math.log, best.values())) / len(best)))"
} > fit.txt
