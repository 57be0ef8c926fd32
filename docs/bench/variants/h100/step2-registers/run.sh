#!/bin/bash
# setmaxnreg from step 3 on (tile.move_registers): step 2's 256 threads have 255 registers each without it.
# Each argument is one part, run in order; outputs under $OUT. The A/B part times the binaries built on the CPU
# machine from the tree before (out/cfg/ab-old, dc5d184) and after (out/cfg/ab-new): fp16, A and B as stored,
# STEPS=1, ARCH=90. hopper1 is the same code in both: the noise.
cd "$(dirname "$0")/../../../../.."
OUT=${OUT:-out/step2-registers}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$OUT/gpu.txt"
here=docs/bench/variants/h100/step2-registers
gt="python3 tests/gpu_test.py --gpu-jobs 6 --jobs 16 --make-arg ARCH=90"
for part in "$@"; do
  start=$(date +%s)
  case $part in
    ab) for rep in 1 2 3; do for v in old new; do
          for k in hopper1 hopper2 hopper3 hopper; do
            echo "v=$v rep=$rep $(out/cfg/ab-$v/gemm --kernel=$k --format=kv --verify=gpu --iterations=20 8192 8192 8192)"
          done
          out/cfg/ab-$v/gemm --kernel=hopper --format=kv --verify=gpu --iterations=20 --cold-l2 \
              --shapes=$here/shapes.txt | sed "s/^/v=$v rep=$rep /"
        done; done > "$OUT/ab.txt" 2>&1 ;;
    main-part) timeout 300 $gt --parts main --budget 270 > "$OUT/gpu-test-main.txt" 2>&1 ;;
    hopper-matrix) timeout 320 $gt --parts hopper,matrix --budget 280 > "$OUT/gpu-test-hopper-matrix.txt" 2>&1 ;;
    steps-part) timeout 300 $gt --parts steps --budget 270 > "$OUT/gpu-test-steps.txt" 2>&1 ;;
    *) echo "run.sh: unknown part $part" >&2; exit 2 ;;
  esac
  echo "$part: rc=$? $(( $(date +%s) - start )) s" | tee -a "$OUT/times.txt"
  tail -3 "$OUT"/gpu-test-*.txt 2>/dev/null | grep 'gpu-test:' | tail -1
done
