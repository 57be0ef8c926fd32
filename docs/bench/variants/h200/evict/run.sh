#!/bin/bash
# --cold-l2 by a write (cudaMemsetAsync of twice the L2, out/exp/old_*: the parent commit) against a read
# (evict_l2, out/exp/new_*: this commit), on the suite's 30 skinny shapes and 4096^3, 8192^3, for fp16 and int8
# with B transposed and tf32 with B as stored; two passes, old and new alternating; then new without --cold-l2;
# then check.cu (out/exp/evict-check), a plain read timed after each way of evicting. Binaries built where there
# is no GPU and carried:
#   make BIN=out/exp/{old,new}_TYPE_tbT TYPE=TYPE MNK=... TRANSPOSE_A=0 TRANSPOSE_B=T ARCH=90
# Verified on the GPU, cuBLAS in the same process, median of 20 after 3 warm-ups. From the repository root on
# the GPU machine; writes $OUT/evict.tgz.
here=docs/bench/variants/h200/evict
OUT=${OUT:-out/evict}; W=out/evict-work; mkdir -p "$OUT" "$W"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv > "$W/gpu.txt" 2>&1
out/exp/evict-check > "$W/check.txt" 2>&1; echo "check rc=$?"; cat "$W/check.txt"
common="--kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cublas --shapes=$here/shapes.txt"
for c in F16_IN_F32_OUT_tb1 TF32_IN_F32_OUT_tb0 I8_IN_I32_OUT_tb1; do
  for pass in 1 2; do
    for b in old new; do
      start=$(date +%s)
      out/exp/${b}_$c $common --cold-l2 > "$W/$b-$c-$pass.txt" 2>&1
      echo "$b $c pass $pass rc=$? $(( $(date +%s) - start )) s"
    done
  done
  out/exp/new_$c $common > "$W/warm-$c.txt" 2>&1
  echo "warm $c rc=$?"
done
tar czf "$OUT/evict.tgz" -C out evict-work
