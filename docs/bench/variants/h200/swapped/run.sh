#!/bin/bash
# tf32 with B as stored (the roles swapped) on the H200: the rule before and after step 9's two swapped tiles
# (128 x 64 and 128 x 128, two consumers, no cluster), and each small tile forced on the suite's skinny shapes.
# Binaries built where there is no GPU and carried (out/exp/old from the parent commit's out/gemm.cu, new from
# this one's, force from this one's with HOPPER_FORCE=kind read in hopper_kind):
#   make SRC=... BIN=out/exp/{old,new,force} TYPE=TF32_IN_F32_OUT MNK=16x16x8 TRANSPOSE_B=0 ARCH=90
# L2 evicted, verified on the GPU, cuBLAS in the same process, median of 20 after 3 warm-ups. From the
# repository root on the GPU machine; writes $OUT/{old,new}-N.txt and $OUT/force-KIND.txt.
here=docs/bench/variants/h200/swapped
OUT=${OUT:-out/swapped}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv > "$OUT/gpu.txt" 2>&1
common="--kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas"
for pass in 1 2; do
  for b in old new; do
    start=$(date +%s)
    out/exp/$b $common --shapes=$here/suite-shapes.txt > "$OUT/$b-$pass.txt" 2>&1
    echo "$b pass $pass rc=$? $(( $(date +%s) - start )) s"
  done
done
for kind in 11 12 13 14 16 17; do
  start=$(date +%s)
  HOPPER_FORCE=$kind out/exp/force $common --shapes=$here/skinny-shapes.txt > "$OUT/force-$kind.txt" 2>&1
  echo "force $kind rc=$? $(( $(date +%s) - start )) s"
done
