#!/bin/bash
# The rule's picks before and after a change to gemm.md, on the CPU: sim.cu here compiled with HEAD's out/gemm.cu
# (or OLD=commit) and with the working tree's, for 7 type pairs x B as stored and transposed
# x the H100's and H200's bandwidth, on the suite's shapes and a grid of M x N x K (shapes.txt, 575 shapes).
# Prints each pick that differs, then the counts per build.
#   bash docs/bench/variants/h200/swap-tile/picks.sh > picks.txt
cd "$(dirname "$0")/../../../../.." || exit 1
here=docs/bench/variants/h200/swap-tile; bin=${TMPDIR:-/tmp}/gemm-picks2
mkdir -p $bin
git show ${OLD:-HEAD}:out/gemm.cu > $bin/old.cu
cp out/gemm.cu $bin/new.cu
python3 - > $here/shapes.txt <<'PY'
import sys; sys.path.insert(0, 'docs/bench'); import suite
shapes = [(s[1], s[2], s[3]) for s in suite.SUITE]
for m in (1, 16, 32, 48, 64, 100, 128, 192, 256, 384, 512, 777, 1024, 2048, 4096, 8192):
    for n in (256, 1000, 4096, 6144, 8192, 14336, 28672):
        for k in (256, 1024, 4096, 8192, 14336):
            if (m, n, k) not in shapes:
                shapes.append((m, n, k))
for s in shapes:
    print(*s)
PY
builds="F16_IN_F32_OUT:16x16x16 F16_IN_OUT:16x16x16 BF16_IN_F32_OUT:16x16x16 TF32_IN_F32_OUT:16x16x8
        I8_IN_I32_OUT:16x16x16 U8_IN_I32_OUT:16x16x16 F64_IN_OUT:8x8x4"
for b in $builds; do
    t=${b%:*}; mnk=${b#*:}
    for tb in 0 1; do
        for v in old new; do
            src=$here/sim.cu
            nvcc -O1 -std=c++17 -arch=sm_90a -DCONFIG_ON_COMMAND_LINE -D$t -DMNK_$mnk -DTRANSPOSE_B=$tb \
                -DGEMM_CU="\"$bin/$v.cu\"" -I$bin -o $bin/$v-$t-$tb $src -lcublas -lcuda 2>&1 | grep error &
        done
        wait
    done
done
for b in $builds; do
    t=${b%:*}
    for tb in 0 1; do
        for bw in 3.35e12 4.92e12; do
            $bin/old-$t-$tb $bw < $here/shapes.txt | cut -d' ' -f1-6 > $bin/o.txt   # without the kind
            $bin/new-$t-$tb $bw < $here/shapes.txt > $bin/n.txt   # and the kind, and "swapped"
            paste -d'|' $bin/o.txt $bin/n.txt | awk -F'|' '{split($2, f, " "); if ($1 != f[1] " " f[2] " " f[3] " " f[4] " " f[5] " " f[6]) print}' > $bin/d.txt
            d=$(wc -l < $bin/d.txt)
            awk -F'|' -v t=$t -v tb=$tb -v bw=$bw '{print t, "tb=" tb, bw ": " $1 " -> " $2}' $bin/d.txt
            echo "# $t tb=$tb bandwidth $bw: $d of $(wc -l < $here/shapes.txt) picks differ"
        done
    done
done
