#!/bin/bash
# Stop 72's second device call: the rule with 8-bit's paired speeds (HOPPER_TILES' third column, fitted on call 1's
# forced runs). Most wanted first, each part only while LIMIT (seconds) lasts: gpu-test's hopper and matrix parts
# for int8 and tf32 (the type pairs whose swapped roles moved from one macro to the tile; call 1 ran uint8's
# whole, int8's in part); then int8 with B as stored, head against new on the suite's 47 shapes, twice each,
# alternating; then gpu-test's hopper and matrix parts for bf16 and f64. Carry out/bench/swap-tile (build.sh).
# $OUT/call2.tgz.
cd "$(dirname "$0")/../../../../.." || exit 1
begin=$(date +%s); export PYTHONUNBUFFERED=1; T=out/bench/st-call2; mkdir -p $T "${OUT:=out/st-out}"
here=docs/bench/variants/h200/swap-tile; bin=out/bench/swap-tile
LIMIT=${LIMIT:-560}
left() { echo $(( LIMIT - ($(date +%s) - begin) )); }
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; date -u +%FT%TZ; } > $T/gpu.txt 2>&1
cat $T/gpu.txt
gpu_test() {   # name, types, seconds
  timeout $3 python3 tests/gpu_test.py --parts hopper,matrix --types $2 --budget $(( $3 - 40 )) --gpu-jobs 6 \
    --jobs 16 --make-arg ARCH=90 --out $T/gpu-test-$1 > $T/gpu-test-$1.txt 2>&1
  echo "gpu-test $1 rc=$? $(( $(date +%s) - begin )) s" | tee -a $T/times.txt
  tail -n 3 $T/gpu-test-$1.txt
}
gpu_test int8-tf32 I8_IN_I32_OUT,TF32_IN_F32_OUT $(( $(left) - ${AB_SECONDS:-80} ))
common="--kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas --shapes=$here/suite-shapes.txt"
for pass in 1 2; do
  for v in head new; do
    (( $(left) < 25 )) && { echo "ab $v pass $pass: not run" | tee -a $T/times.txt; continue; }
    start=$(date +%s)
    timeout 40 $bin/$v/gemm $common > $T/ab-$v-$pass.txt 2>&1
    echo "ab $v pass $pass rc=$? $(( $(date +%s) - start )) s" | tee -a $T/times.txt
  done
done
(( $(left) > 90 )) && gpu_test bf16-f64 BF16_IN_F32_OUT,F64_IN_OUT $(( $(left) - 5 ))
echo "call: $(( $(date +%s) - begin )) s" | tee -a $T/times.txt
tar czf $OUT/call2.tgz -C out/bench st-call2
