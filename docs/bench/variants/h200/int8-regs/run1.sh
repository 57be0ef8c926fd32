#!/bin/bash
# The one GPU call of stop 69 (450 s of device time left): int8's swapped roles, B's role in registers.
# gpu-test's hopper and matrix parts for int8 (built on the GPU machine), make suite for int8, force.sh, and the
# compute_80 build's refusal of --kernel=hopper (built here: out/bench/exp/ptx80). All in $OUT/i8regs.tgz.
begin=$(date +%s); W=out/bench/i8regs; mkdir -p "$W" "${OUT:=out/canonical}"
left() { echo $(( ${LIMIT:-300} - ($(date +%s) - begin) )); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv > "$W/gpu.txt" 2>&1
timeout 140 python3 tests/gpu_test.py --parts hopper,matrix --types I8_IN_I32_OUT --budget 110 \
  --gpu-jobs 6 --jobs 16 --make-arg ARCH=90 --out "$W/gpu-test" > "$W/gpu-test.txt" 2>&1
echo "gpu-test rc=$? $(( $(date +%s) - begin )) s" | tee -a "$W/times.txt"
timeout 100 python3 docs/bench/suite.py --types I8_IN_I32_OUT --make-arg ARCH=90 --no-build --budget 80 \
  --csv "$W/suite-int8.csv" > "$W/suite-int8.txt" 2>&1
echo "suite rc=$? $(( $(date +%s) - begin )) s" | tee -a "$W/times.txt"
t=$(( $(left) - 35 ))
(( t > 10 )) && W=$W/force KINDS="16 17 13 12" timeout $t bash docs/bench/variants/h200/int8-regs/force.sh >> "$W/times.txt" 2>&1
t=$(( $(left) - 5 ))
(( t > 5 )) && { timeout $t out/bench/exp/ptx80/gemm --kernel=hopper 64 64 64 > "$W/ptx80.txt" 2>&1; echo "ptx80 rc=$?" >> "$W/ptx80.txt"; }
echo "call $(( $(date +%s) - begin )) s" | tee -a "$W/times.txt"
tar czf "$OUT/i8regs.tgz" -C out/bench i8regs
tail -4 "$W/gpu-test.txt"; tail -3 "$W/suite-int8.txt"; cat "$W/times.txt" "$W/ptx80.txt"
