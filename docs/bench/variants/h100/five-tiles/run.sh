#!/bin/bash
# Step 8 with its fifth tile, 64 x 192, on the device machine, from the repository root; output under $OUT.
#   run.sh check        gpu-test's hopper and matrix parts, then the rule's pick on the 32 held-out shapes
#                       (../heldout/shapes.txt) for each type pair and layout the page quotes
#   run.sh suite T,T [U,U]  make suite for type pairs T, binaries from out/cfg (built on the CPU machine); first
#                       gpu-test's hopper part for type pairs U
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader
case "$1" in
check)
    python3 tests/gpu_test.py --parts hopper,matrix --budget 330 --gpu-jobs 6 --make-arg ARCH=90 > $OUT/gpu-test.txt 2>&1
    echo "gpu-test rc=$?"
    sed -n '/== gpu-test summary/,$p' $OUT/gpu-test.txt | tail -25
    for cfg in F16_IN_F32_OUT_16x16x16_ta0_tb1 F16_IN_F32_OUT_16x16x16_ta0_tb0 BF16_IN_F32_OUT_16x16x16_ta0_tb1 \
               TF32_IN_F32_OUT_16x16x8_ta0_tb1 TF32_IN_F32_OUT_16x16x8_ta0_tb0 I8_IN_I32_OUT_16x16x16_ta0_tb1; do
        out/cfg/$cfg/gemm --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas \
            --shapes=docs/bench/variants/h100/heldout/shapes.txt > $OUT/held-$cfg.txt 2>&1
        echo "held-out $cfg rc=$? pass=$(grep -c result=pass $OUT/held-$cfg.txt)"
    done ;;
suite)
    [ -n "$3" ] && { python3 tests/gpu_test.py --parts hopper --types "$3" --budget 200 --gpu-jobs 6 --make-arg ARCH=90 \
        > $OUT/gpu-test-hopper.txt 2>&1; echo "gpu-test rc=$?"; tail -3 $OUT/gpu-test-hopper.txt; }
    python3 docs/bench/suite.py --types "$2" --no-build --csv $OUT/suite-$(echo $2 | tr , -).csv > $OUT/suite-$(echo $2 | tr , -).txt 2>&1
    echo "suite rc=$?"; tail -5 $OUT/suite-*.txt ;;
esac
