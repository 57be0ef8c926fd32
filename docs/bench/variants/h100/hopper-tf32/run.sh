#!/bin/bash
# d_gemm_hopper, tf32 without a rounding pass: the reference truncating (1) against rounding to nearest (0)
set -u
python3 tangle.py gemm.md -o out/gemm.cu
mkdir -p out/t
for model in 0 1; do for ab in "0 0" "0 1" "1 1"; do set -- $ab
  F=$(make -s print-nvccflags ARCH=90 TYPE=TF32_IN_F32_OUT TRANSPOSE_A=$1 TRANSPOSE_B=$2)
  nvcc $F -DHOPPER_TF32_TRUNCATE=$model -o out/t/tf32_${model}_$1$2 out/gemm.cu -lcublas > $OUT/b_${model}_$1$2.log 2>&1 &
done; done; wait
for model in 1 0; do for ab in 00 01 11; do
  for size in "127 253 61" "1000 777 333 --alpha=0.5 --beta=-1.5" "513 1031 1100 --beta=1" "2048 2048 2048 --verify=gpu"; do
    r=$(timeout 90 out/t/tf32_${model}_$ab --kernel=hopper $size --format=kv --iterations=1 --warmup=0 2>&1)
    echo "model=$model ab=$ab [$size] rc=$? $(echo "$r" | tr ' ' '\n' | grep -E '^(result|failures|max_err|bound)=' | tr '\n' ' ')"
  done; done; done
