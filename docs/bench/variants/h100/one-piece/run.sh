#!/bin/bash
# Steps 1 to 5 of d_gemm_hopper without the loop over pieces (one piece, the block's tile: issue 41, Hopper
# step 1's listing). Each argument is one part, run in order; outputs under $OUT. The A/B part times the binaries
# built on the CPU machine from the tree before (out/cfg/ab-old-TYPE) and after (out/cfg/ab-new-TYPE): STEPS=1,
# ARCH=90, A as stored, B as stored (int8: transposed). Steps 6 to 9 compile to the same PTX in both. Part ab2:
# fp16 steps 1 to 3 at 8192^3, five rounds, old, new, and ko (out/cfg/ab-ko-...: new in the kernel, the producer's
# loop over pieces as before).
cd "$(dirname "$0")/../../../../.."
OUT=${OUT:-out/one-piece}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$OUT/gpu.txt"
gt="python3 tests/gpu_test.py --gpu-jobs 6 --jobs 16 --make-arg ARCH=90"
for part in "$@"; do
  start=$(date +%s)
  case $part in
    ab) for rep in 1 2 3; do for v in old new; do
          for t in F16_IN_F32_OUT TF32_IN_F32_OUT I8_IN_I32_OUT F64_IN_OUT; do
            sizes="8192"; [ $t = F16_IN_F32_OUT ] && sizes="8192 4096"
            [ $t != F16_IN_F32_OUT ] && [ $rep = 3 ] && continue
            for s in $sizes; do for k in hopper1 hopper2 hopper3 hopper4 hopper5; do
              echo "v=$v rep=$rep t=$t $(out/cfg/ab-$v-$t/gemm --kernel=$k --format=kv --verify=gpu --iterations=20 $s $s $s)"
            done; done
          done
        done; done > "$OUT/ab.txt" 2>&1 ;;
    ab2) for rep in 1 2 3 4 5; do for v in old new ko; do for k in hopper2 hopper1 hopper3; do
           echo "v=$v rep=$rep t=F16_IN_F32_OUT $(out/cfg/ab-$v-F16_IN_F32_OUT/gemm --kernel=$k --format=kv --verify=gpu \
               --iterations=20 8192 8192 8192)"
         done; done; done > "$OUT/ab2.txt" 2>&1 ;;
    final) timeout 280 $gt --parts steps --budget 250 > "$OUT/final-steps.txt" 2>&1
           timeout 300 $gt --parts hopper,matrix --budget 270 > "$OUT/final-hopper-matrix.txt" 2>&1 ;;
    main-part) timeout 300 $gt --parts main --budget 270 > "$OUT/gpu-test-main.txt" 2>&1 ;;
    hopper-matrix) timeout 320 $gt --parts hopper,matrix --budget 280 > "$OUT/gpu-test-hopper-matrix.txt" 2>&1 ;;
    steps-part) timeout 300 $gt --parts steps --budget 270 > "$OUT/gpu-test-steps.txt" 2>&1 ;;
    *) echo "run.sh: unknown part $part" >&2; exit 2 ;;
  esac
  echo "$part: rc=$? $(( $(date +%s) - start )) s" | tee -a "$OUT/times.txt"
  tail -3 "$OUT"/gpu-test-*.txt 2>/dev/null | grep 'gpu-test:' | tail -1
done
