#!/bin/bash
# The rule's new pulls with the roles swapped (hopper_pull: 60 GB/s a block in a tile 64 wide, 77 wider; it moves
# five of tf32's picks with B as stored, score.sh) on the H200: gpu-test's hopper and matrix parts for tf32, then
# make suite for tf32, both layouts. The tf32 binaries are built where there is no GPU and carried in out/cfg (those that do not fit the call are
# built there by gpu_test.py):
#   make BIN=out/cfg/TF32_IN_F32_OUT_16x16x8_taA_tbB[_steps]/gemm TYPE=TF32_IN_F32_OUT MNK=16x16x8 \
#        TRANSPOSE_A=A TRANSPOSE_B=B ARCH=90 [STEPS=1]
# From the repository root on the GPU machine; writes $OUT/rule.tgz.
OUT=${OUT:-out/rule}; W=out/bench/rule; mkdir -p "$OUT" "$W"
begin=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv > "$W/gpu.txt" 2>&1
timeout 330 python3 tests/gpu_test.py --parts hopper,matrix --types TF32_IN_F32_OUT --budget 290 \
  --gpu-jobs 6 --jobs 16 --make-arg ARCH=90 --out $W/gpu-test-tf32 > "$W/gpu-tf32.txt" 2>&1
echo "gpu-test tf32 hopper,matrix: rc=$? $(( $(date +%s) - begin )) s" | tee -a "$W/times.txt"
start=$(date +%s)
timeout 200 python3 docs/bench/suite.py --types TF32_IN_F32_OUT --make-arg ARCH=90 --no-build --budget 180 \
  --csv "$W/suite-tf32.csv" > "$W/suite-tf32.txt" 2>&1
echo "suite-tf32: rc=$? $(( $(date +%s) - start )) s" | tee -a "$W/times.txt"
tar czf "$OUT/rule.tgz" -C out/bench rule
tail -n 4 "$W/gpu-tf32.txt" "$W/suite-tf32.txt"
