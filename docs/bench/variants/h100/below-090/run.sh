#!/bin/bash
# Issue 40: the H100 suite's shapes below 0.90 of cuBLAS (and their neighbours), with each of step 9's tiles forced
# (HOPPER_FORCE, two lines added to hopper_kind for this run only) and the rule's own pick ("none"). Binaries are
# out/gemm.cu of this folder's commit with those lines, built on the CPU machine (ARCH=90) and carried as
# out/cfg/force-TYPE-TRANSPOSE_B. Kinds: 9 clusters of two 128 x 256, 11 64 x 128, 12 64 x 64, 13 128 x 128 in
# clusters of two sharing A, 14 64 x 192. L2 evicted, every run verified on the GPU, cuBLAS in the same process,
# two rounds. Output: $OUT/f-CONFIG.txt, one kv line per run, each prefixed with its kind and round.
cd "$(dirname "$0")/../../../../.."
here=docs/bench/variants/h100/below-090
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$OUT/gpu.txt"
for cfg in "F16_IN_F32_OUT-1 f16" "F16_IN_F32_OUT-0 f16" "BF16_IN_F32_OUT-0 bf16" "TF32_IN_F32_OUT-0 tf32"; do
    set -- $cfg
    for round in 1 2; do for kind in none 9 11 12 13 14; do
        if [ "$kind" = none ]; then unset HOPPER_FORCE; else export HOPPER_FORCE=$kind; fi
        out/cfg/force-$1/gemm --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas \
            --shapes=$here/shapes-$2.txt 2>&1 | sed "s/^/kind=$kind round=$round /"
    done; done > "$OUT/f-$1.txt"
    echo "$1: $(grep -c result=pass "$OUT/f-$1.txt") passed, $(grep -c result= "$OUT/f-$1.txt") runs"
done
