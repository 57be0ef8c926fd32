#!/bin/bash
# Stop 71's first device call (one script, ~7 minutes), most wanted first: the 256-row split experiment
# (../fill-256/run.sh), the real-rows maps (../oob/run.sh), int8-ldsm A/B against HEAD (ab.sh), the forced tiles for int8-ldsm, gpu-test hopper+matrix for int8 and uint8 on
# the patched tree. Carry out/bench/fill256 and out/bench/exp. Everything under $OUT (at most 8 files).
begin=$(date +%s); export PYTHONUNBUFFERED=1; T=out/bench/call1; mkdir -p $T "${OUT:=out/call1-out}"
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; date -u +%FT%TZ; } > $T/gpu.txt 2>&1
mkdir -p $T/fill && OUT=$T/fill timeout 170 bash docs/bench/variants/h200/fill-256/run.sh 2>&1 | tee -a $T/times.txt
echo "fill done $(( $(date +%s) - begin )) s" | tee -a $T/times.txt
W=$T/oob bash docs/bench/variants/h200/oob/run.sh 2>&1 | tee -a $T/times.txt
echo "oob done $(( $(date +%s) - begin )) s" | tee -a $T/times.txt
W=$T bash docs/bench/variants/h200/int8-ldsm/ab.sh 2>&1 | tee -a $T/times.txt
echo "ab done $(( $(date +%s) - begin )) s" | tee -a $T/times.txt
W=$T/force KINDS="16 17 13 12" timeout 45 bash docs/bench/variants/h200/int8-regs/force.sh 2>&1 | tee -a $T/times.txt
echo "force done $(( $(date +%s) - begin )) s" | tee -a $T/times.txt
left=$(( ${LIMIT:-560} - ($(date +%s) - begin) ))
(( left > 60 )) && timeout $left python3 tests/gpu_test.py --parts hopper,matrix --types I8_IN_I32_OUT,U8_IN_I32_OUT \
  --budget $(( left - 50 )) --gpu-jobs 6 --jobs 16 --make-arg ARCH=90 --out $T/gpu-test > $T/gpu-test.txt 2>&1
echo "gpu-test rc=$? $(( $(date +%s) - begin )) s" | tee -a $T/times.txt
tar czf $OUT/call1.tgz -C out/bench call1
tail -4 $T/gpu-test.txt
python3 docs/bench/variants/h200/oob/compare.py $T/oob
python3 docs/bench/variants/h100/force-2/meas.py $T/fill/o-*.txt 2>&1 | head -120
