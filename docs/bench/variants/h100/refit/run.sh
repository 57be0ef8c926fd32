#!/bin/bash
# Each of step 8's tiles forced on shapes.txt, and the rule's own pick: fp16, B transposed (TB=1) and as stored
# (TB=0), L2 evicted, verified on the GPU, cuBLAS in the same process. From the repository root of dc30bc5 with
# force.patch applied to out/gemm.cu (HOPPER_FORCE=kind makes --kernel=hopper take that kind):
#   git apply docs/bench/variants/h100/refit/force.patch
#   for tb in 1 0; do make BIN=out/force-$tb TYPE=F16_IN_F32_OUT TRANSPOSE_B=$tb ARCH=90; done
#   bash docs/bench/variants/h100/refit/run.sh 1; bash docs/bench/variants/h100/refit/run.sh 0
# Kinds at dc30bc5: 8 128 x 256 in clusters of two (the last step's), 10 64 x 128, 11 64 x 64, 12 128 x 128 and
# 13 128 x 64 in clusters of two sharing A; "none" is the rule's pick. Writes $OUT/o-TB-KIND.txt.
cd "$(dirname "$0")/../../../../.."
tb=$1
here=docs/bench/variants/h100/refit
for kind in none 8 10 11 12 13; do
    start=$(date +%s)
    if [ "$kind" = none ]; then unset HOPPER_FORCE; else export HOPPER_FORCE=$kind; fi
    out/force-$tb --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas \
        --shapes=$here/shapes.txt > "${OUT:-.}/o-$tb-$kind.txt" 2>&1
    echo "tb=$tb kind=$kind rc=$? $(( $(date +%s) - start )) s"
done
