#!/bin/bash
# Stop 72's device call for the swap per tile (one script, about 8 minutes; carry out/bench/swap-tile, built by
# build.sh). Most wanted first:
#   1. gpu-test's hopper and matrix parts, every type pair, on the working tree (swap per tile; and stop 71's split
#      of hopper_fills, which has not run on a GPU);
#   2. int8, B as stored, the rule's pick: head against new on the suite's 47 shapes, twice each, alternating;
#   3. each of step 9's tiles forced in new (10: 128 x 256 in clusters, B transposed first; 12 to 17 small tiles,
#      roles swapped) and, B transposed first, in head (12 to 15), on the same 47 shapes.
# L2 evicted, median of 20 after 3 warm-ups, verified on the GPU, cuBLAS in the same process. $OUT/call1.tgz.
cd "$(dirname "$0")/../../../../.." || exit 1
begin=$(date +%s); export PYTHONUNBUFFERED=1; T=out/bench/st-call1; mkdir -p $T "${OUT:=out/st-out}"
here=docs/bench/variants/h200/swap-tile; bin=out/bench/swap-tile
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; date -u +%FT%TZ; } > $T/gpu.txt 2>&1
cat $T/gpu.txt
timeout ${GPU_LIMIT:-290} python3 tests/gpu_test.py --parts hopper,matrix --budget $(( ${GPU_LIMIT:-290} - 50 )) \
  --gpu-jobs 6 --jobs 16 --make-arg ARCH=90 --out $T/gpu-test > $T/gpu-test.txt 2>&1
echo "gpu-test rc=$? $(( $(date +%s) - begin )) s" | tee -a $T/times.txt
tail -n 5 $T/gpu-test.txt
common="--kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas --shapes=$here/suite-shapes.txt"
for pass in 1 2; do
  for v in head new; do
    start=$(date +%s)
    timeout 60 $bin/$v/gemm $common > $T/ab-$v-$pass.txt 2>&1
    echo "ab $v pass $pass rc=$? $(( $(date +%s) - start )) s" | tee -a $T/times.txt
  done
done
for run in new:16 new:13 new:17 new:12 new:14 new:10 head:13 head:12 head:14 new:15 head:15; do
  left=$(( ${LIMIT:-560} - ($(date +%s) - begin) ))
  (( left < 25 )) && { echo "force $run: not run, $left s left" | tee -a $T/times.txt; continue; }
  v=${run%:*}; kind=${run#*:}; start=$(date +%s)
  HOPPER_FORCE=$kind timeout $(( left - 5 )) $bin/$v/gemm $common > $T/force-$v-$kind.txt 2>&1
  echo "force $run rc=$? $(( $(date +%s) - start )) s" | tee -a $T/times.txt
done
echo "call: $(( $(date +%s) - begin )) s" | tee -a $T/times.txt
tar czf $OUT/call1.tgz -C out/bench st-call1
