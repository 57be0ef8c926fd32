#!/bin/bash
# temporary: F16_IN_OUT tall tile (256 x 256, 3 stages) against 128 x 256 (4 stages)
set -u
python3 tangle.py gemm.md -o out/gemm.cu
mkdir -p out/t
for tall in 0 1; do for a in 0 1; do for b in 0 1; do
  F=$(make -s print-nvccflags ARCH=90 TYPE=F16_IN_OUT TRANSPOSE_A=$a TRANSPOSE_B=$b)
  nvcc $F -DHOPPER_TALL=$tall -o out/t/g_${tall}_$a$b out/gemm.cu -lcublas > $OUT/b_${tall}_$a$b.log 2>&1 &
done; done; done; wait
ls out/t
for a in 0 1; do for b in 0 1; do
  for size in "1 1 1" "127 253 61" "1000 777 333 --alpha=0.5 --beta=-1.5" "513 1031 1100 --beta=1" "2048 2048 2048"; do
    r=$(timeout 60 out/t/g_1_$a$b --kernel=hopper $size --format=kv --iterations=1 --warmup=0 2>&1)
    echo "tall ta$a tb$b [$size] rc=$? $(echo "$r" | tr ' ' '\n' | grep -E '^(result|max_err)=' | tr '\n' ' ')"
  done; done; done
for rep in 1 2; do for b in 0 1; do for size in 8192 4096; do for tall in 0 1; do
  r=$(timeout 120 out/t/g_${tall}_0$b --kernel=hopper $size $size $size --cublas --verify=gpu --format=kv --iterations=10 --warmup=3 2>&1)
  echo "PERF tall=$tall tb$b $size $(echo "$r" | tr ' ' '\n' | grep -E '^(result|rate|cublas_rate)=' | tr '\n' ' ')"
done; done; done; done
