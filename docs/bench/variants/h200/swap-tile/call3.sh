#!/bin/bash
# Stop 72's last device call, for what device time was left (about 190 s): gpu-test's hopper part for int8 and tf32
# on the committed tree (swap per tile, the paired speeds, gpu_test.py's plan for 8-bit's swapped tiles: wanted
# 128 x 64 and 128 x 128 without a cluster, the split at 128 4096 14336, memcheck at HOPPER_SWAPPED).
# $OUT/call3.tgz.
cd "$(dirname "$0")/../../../../.." || exit 1
begin=$(date +%s); T=out/bench/st-call3; mkdir -p $T "${OUT:=out/st-out}"
LIMIT=${LIMIT:-190}
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem --format=csv; date -u +%FT%TZ; } > $T/gpu.txt 2>&1
cat $T/gpu.txt
timeout $(( LIMIT - 10 )) python3 tests/gpu_test.py --parts hopper --types I8_IN_I32_OUT,TF32_IN_F32_OUT \
  --budget $(( LIMIT - 50 )) --gpu-jobs 6 --jobs 16 --make-arg ARCH=90 --out $T/gpu-test > $T/gpu-test.txt 2>&1
echo "gpu-test rc=$? $(( $(date +%s) - begin )) s" | tee -a $T/times.txt
tail -n 4 $T/gpu-test.txt
grep -E "FAIL|fail " $T/gpu-test.txt | head -20
tar czf $OUT/call3.tgz -C out/bench st-call3
