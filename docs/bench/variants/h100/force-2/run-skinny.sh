#!/bin/bash
# tf32 with B as stored (the operands swap roles): the rule's pick, 64 x 128 (10), 64 x 64 (11) and 64 x 192 (13)
# forced on the suite's shapes up to M = 1024 (shapes-skinny.txt). As run.sh otherwise; writes $OUT/s-TF32-0.txt.
here=docs/bench/variants/h100/force-2
mkdir -p out/force2
sed 's|^    return step < HOPPER_BY_SHAPE ? step : hopper_by_shape(m, n, k, sms);|    if (step >= HOPPER_BY_SHAPE \&\& getenv("HOPPER_FORCE")) return atoi(getenv("HOPPER_FORCE"));\n&|' \
    out/gemm.cu > out/force2/gemm.cu
make -s SRC=out/force2/gemm.cu BIN=out/force2/TF32_IN_F32_OUT-0 TYPE=TF32_IN_F32_OUT TRANSPOSE_B=0 ARCH=90 || exit 1
for kind in none 10 11 13; do
    start=$(date +%s)
    if [ "$kind" = none ]; then unset HOPPER_FORCE; else export HOPPER_FORCE=$kind; fi
    echo "# kind=$kind" >> "${OUT:-.}/s-TF32-0.txt"
    out/force2/TF32_IN_F32_OUT-0 --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 \
        --cublas --shapes=$here/shapes-skinny.txt >> "${OUT:-.}/s-TF32-0.txt" 2>&1
    echo "kind=$kind rc=$? $(( $(date +%s) - start )) s"
done
