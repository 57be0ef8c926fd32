#!/bin/bash
# Stop 70's first GPU call: int8-regs.patch with B's role loaded by one ldmatrix.x4.trans per K step of 32
# (paired_load) instead of sixteen 16-bit loads. gpu-test's hopper, matrix and main parts for int8 and uint8 (built
# on the GPU machine), make suite for int8 (both layouts), and the forced tiles of force.sh (binary built here:
# bash docs/bench/variants/h200/int8-regs/force.sh build). Everything lands in $OUT/ldsm.tgz.
begin=$(date +%s); W=out/bench/ldsm; mkdir -p "$W" "${OUT:=out/canonical}"
left() { echo $(( ${LIMIT:-480} - ($(date +%s) - begin) )); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv > "$W/gpu.txt" 2>&1
date -u +%FT%TZ >> "$W/gpu.txt"
timeout 150 python3 tests/gpu_test.py --parts hopper,matrix --types I8_IN_I32_OUT,U8_IN_I32_OUT --budget 120 \
  --gpu-jobs 6 --jobs 16 --make-arg ARCH=90 --out "$W/gpu-test" > "$W/gpu-test.txt" 2>&1
echo "gpu-test hopper,matrix rc=$? $(( $(date +%s) - begin )) s" | tee -a "$W/times.txt"
timeout 100 python3 docs/bench/suite.py --types I8_IN_I32_OUT --make-arg ARCH=90 --no-build --budget 85 \
  --csv "$W/suite-int8.csv" > "$W/suite-int8.txt" 2>&1
echo "suite rc=$? $(( $(date +%s) - begin )) s" | tee -a "$W/times.txt"
W=$W/force KINDS="16 17 13 12" timeout 40 bash docs/bench/variants/h200/int8-regs/force.sh >> "$W/times.txt" 2>&1
echo "force $(( $(date +%s) - begin )) s" | tee -a "$W/times.txt"
t=$(( $(left) - 15 ))
(( t > 30 )) && { timeout $t python3 tests/gpu_test.py --parts main --types I8_IN_I32_OUT,U8_IN_I32_OUT \
  --budget $(( t - 25 )) --gpu-jobs 6 --jobs 16 --make-arg ARCH=90 --out "$W/gpu-main" > "$W/gpu-main.txt" 2>&1
  echo "gpu-test main rc=$? $(( $(date +%s) - begin )) s" | tee -a "$W/times.txt"; }
echo "call $(( $(date +%s) - begin )) s" | tee -a "$W/times.txt"
tar czf "$OUT/ldsm.tgz" -C out/bench ldsm
tail -3 "$W/gpu-test.txt"; tail -3 "$W/suite-int8.txt"; tail -3 "$W/gpu-main.txt" 2>/dev/null; cat "$W/times.txt"
