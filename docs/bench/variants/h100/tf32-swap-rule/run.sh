#!/bin/bash
# tf32 with B as stored (the roles swap: B's rows are loaded into registers): each of step 9's tiles forced on
# shapes.txt (the suite's and ../heldout/'s shapes with M or N at most 1100), and the rule's own pick ("none").
# The binary is out/gemm.cu of 47978a2 with two lines in hopper_kind that take the kind from HOPPER_FORCE, built on
# the CPU machine (TYPE=TF32_IN_F32_OUT TRANSPOSE_B=0 ARCH=90) and carried as out/cfg/force-tf32-0. Kinds: 9 the
# last step's 128 x 256 in clusters of two, 11 64 x 128, 12 64 x 64, 13 128 x 128 in clusters of two sharing A,
# 14 64 x 192. L2 evicted, every run verified on the GPU, cuBLAS in the same process. Output: $OUT/f-KIND.txt.
cd "$(dirname "$0")/../../../../.."
here=docs/bench/variants/h100/tf32-swap-rule
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$OUT/gpu.txt"
if [ "$1" = suite ]; then   # the suite's tf32 rows with the new rule; binaries built on the CPU machine, carried
    start=$(date +%s)
    python3 docs/bench/suite.py --types TF32_IN_F32_OUT --no-build --csv "$OUT/suite-tf32.csv" > "$OUT/suite.log" 2>&1
    echo "suite rc=$? $(( $(date +%s) - start )) s"
    start=$(date +%s)
    timeout 280 python3 tests/gpu_test.py --gpu-jobs 6 --jobs 16 --make-arg ARCH=90 --parts hopper,matrix \
        --types TF32_IN_F32_OUT --budget 250 > "$OUT/gpu-test-tf32.txt" 2>&1
    echo "gpu-test rc=$? $(( $(date +%s) - start )) s: $(grep 'gpu-test: planned' "$OUT/gpu-test-tf32.txt")"
    exit 0
fi
if [ "$1" = ab ]; then
    unset HOPPER_FORCE
    for round in $(seq 1 ${2:-3}); do for v in old new; do
        bin=out/cfg/force-tf32-0/gemm; [ $v = new ] && bin=out/cfg/new-tf32-0/gemm
        cat $here/changed.txt $here/shapes.txt > /tmp/ab-shapes.txt
        $bin --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas \
            --shapes=/tmp/ab-shapes.txt > "$OUT/ab-$v-$round.txt" 2>&1
        echo "$v round $round rc=$? pass=$(grep -c result=pass "$OUT/ab-$v-$round.txt")"
    done; done
    exit 0
fi
for kind in none 9 11 12 13 14; do
    start=$(date +%s)
    if [ "$kind" = none ]; then unset HOPPER_FORCE; else export HOPPER_FORCE=$kind; fi
    out/cfg/force-tf32-0/gemm --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas \
        --shapes=$here/shapes.txt > "$OUT/f-$kind.txt" 2>&1
    echo "kind $kind rc=$? pass=$(grep -c result=pass "$OUT/f-$kind.txt") $(( $(date +%s) - start )) s"
done
# Part two (run.sh ab [ROUNDS]): the rule before (out/cfg/force-tf32-0 without HOPPER_FORCE) and after
# (out/cfg/new-tf32-0), ROUNDS rounds (default 3) each on changed.txt (60 shapes whose pick the first variant changed,
# up to 6 per change of tile, drawn from a grid of 6336) and on shapes.txt. Output: $OUT/ab-{old,new}-ROUND.txt.
# logs/v2/: the first variant (every small tile, split or whole, at least its bytes at HOPPER_BLOCK_PULL), 3 rounds;
# logs/v4/: the one adopted (whole small tiles only), 2 rounds.
# Part three (run.sh suite): the suite's tf32 rows and gpu-test's hopper and matrix parts for tf32, adopted rule.
