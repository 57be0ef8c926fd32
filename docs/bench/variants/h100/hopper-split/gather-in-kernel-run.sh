#!/bin/bash
# step 6 (the last round split along K): gpu-test hopper part, then hopper5 vs hopper6 A/B with cuBLAS
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 tests/gpu_test.py --parts hopper --gpu-jobs 4 --budget 200 --make-arg ARCH=90 > $OUT/gpu-test-hopper.txt 2>&1
echo "gpu_test rc=$?"; tail -25 $OUT/gpu-test-hopper.txt
for cfg in "F64_IN_OUT 0" "F64_IN_OUT 1" "F16_IN_F32_OUT 0" "F16_IN_OUT 0" "TF32_IN_F32_OUT 0" "I8_IN_I32_OUT 1"; do
  set -- $cfg
  make -s BIN=/tmp/ab/$1_$2/gemm TYPE=$1 TRANSPOSE_B=$2 STEPS=1 ARCH=90 >/tmp/ab_$1_$2.log 2>&1 &
done; wait
cat /tmp/ab_*.log | grep -i error | head
for cfg in "F64_IN_OUT 0" "F64_IN_OUT 1" "F16_IN_F32_OUT 0" "F16_IN_OUT 0" "TF32_IN_F32_OUT 0" "I8_IN_I32_OUT 1"; do
  set -- $cfg
  for size in 8192 4096 1024; do
    for pass in 1 2; do
      for k in hopper5 hopper6; do
        line=$(/tmp/ab/$1_$2/gemm --kernel=$k --cublas --verify=off --format=kv $size $size $size)
        echo "$1 tb=$2 $size $k pass$pass $(echo "$line" | grep -oE ' (median_ms|rate|cublas_rate)=[^ ]*' | tr -d '\n')"
      done
    done
  done
done | tee $OUT/ab.txt
