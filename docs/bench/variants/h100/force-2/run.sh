#!/bin/bash
# Each of step 8's tiles forced (HOPPER_FORCE, patched into a copy of out/gemm.cu for this experiment only) and
# the rule's pick ("none"), on shapes.txt: the suite's shapes below 0.95 of cuBLAS on the H100 (suite-h100.csv).
# tf32 with B as stored and transposed, fp16 with B transposed. L2 evicted, verified on the GPU, cuBLAS in the
# same process, median of 20 after 3 warm-ups. From the repository root, on the GPU machine:
#   bash docs/bench/variants/h100/force-2/run.sh [TYPE:TB ...]   (writes $OUT/o-TYPE-TB.txt, one "# kind" line per run)
# Kinds: 8 128 x 256 in clusters of two, 10 64 x 128, 11 64 x 64, 12 128 x 128 in clusters of two sharing A,
# 13 64 x 192. A forced tile keeps the rule's split for that tile.
here=docs/bench/variants/h100/force-2
mkdir -p out/force2
sed 's|^    return step < HOPPER_BY_SHAPE ? step : hopper_by_shape(m, n, k, sms);|    if (step >= HOPPER_BY_SHAPE \&\& getenv("HOPPER_FORCE")) return atoi(getenv("HOPPER_FORCE"));\n&|' \
    out/gemm.cu > out/force2/gemm.cu
grep -c HOPPER_FORCE out/force2/gemm.cu
builds="${*:-TF32_IN_F32_OUT:0 TF32_IN_F32_OUT:1 F16_IN_F32_OUT:1}"
for b in $builds; do
    t=${b%:*}; tb=${b#*:}
    make -s SRC=out/force2/gemm.cu BIN=out/force2/$t-$tb TYPE=$t TRANSPOSE_B=$tb ARCH=90 > out/force2/build-$t-$tb.txt 2>&1 &
done
wait
ls out/force2
for b in $builds; do
    t=${b%:*}; tb=${b#*:}
    for kind in none 8 10 11 12 13; do
        start=$(date +%s)
        if [ "$kind" = none ]; then unset HOPPER_FORCE; else export HOPPER_FORCE=$kind; fi
        echo "# kind=$kind" >> "${OUT:-.}/o-$t-$tb.txt"
        out/force2/$t-$tb --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas \
            --shapes=$here/shapes.txt >> "${OUT:-.}/o-$t-$tb.txt" 2>&1
        echo "$t tb=$tb kind=$kind rc=$? $(( $(date +%s) - start )) s"
    done
done
