#!/bin/bash
# Hopper step 1 without a producer (one warpgroup copies and multiplies; the steps renumbered 1 to 9): the
# checks and measurements of stop 56. Each argument is one part, run in order; outputs go to $OUT.
OUT=${OUT:-out/hopper-alone}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$OUT/gpu.txt"
gt="python3 tests/gpu_test.py --gpu-jobs 6 --jobs 16 --make-arg ARCH=90"
for part in "$@"; do
  start=$(date +%s)
  case $part in
    hopper-matrix) timeout 320 $gt --parts hopper,matrix --budget 280 > "$OUT/gpu-test-hopper-matrix.txt" 2>&1 ;;
    steps-part) timeout 300 $gt --parts steps --budget 270 > "$OUT/gpu-test-steps.txt" 2>&1 ;;
    main-part) timeout 300 $gt --parts main --budget 270 > "$OUT/gpu-test-main.txt" 2>&1 ;;
    rates) make -s BIN=out/alone/gemm STEPS=1 ARCH=90 &&
           for k in hopper1 hopper2 hopper3; do for n in 8192 4096; do
             out/alone/gemm --kernel=$k --format=kv --verify=gpu $n $n $n; done; done > "$OUT/rates.txt" 2>&1 ;;
    *) echo "run.sh: unknown part $part" >&2; exit 2 ;;
  esac
  echo "$part: rc=$? $(( $(date +%s) - start )) s" | tee -a "$OUT/times.txt"
  tail -2 "$OUT"/gpu-test-*.txt 2>/dev/null | grep 'gpu-test:' | tail -1
done
