#!/bin/bash
# Stop 72's first device call (2026-12-08): gpu-test's hopper and matrix parts on the code as it stands (stop 71
# split step 8's hopper_fills from step 9's hopper_fills_small: host code, picks unchanged by sim.cu), then, on an
# H200 only, fill-256's runs (the H100's are in h100/). Built beforehand here: run.sh build (out/bench/fill256,
# carried); gpu_test.py builds its own binaries on the device.
#   LIMIT=560 bash docs/bench/variants/h200/fill-256/call2.sh
cd "$(dirname "$0")/../../../../.." || exit 1
begin=$(date +%s)
LIMIT=${LIMIT:-560}
OUT=${OUT:-out/call2}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv > "$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
PREBUILD=0 LIMIT=${GPU_LIMIT:-330} OUT=$OUT bash docs/bench/variants/h200/canonical/run.sh gpu-hopper+matrix
left=$(( LIMIT - ($(date +%s) - begin) ))
if ! grep -q H200 "$OUT/gpu.txt"; then
    echo "fill-256: not run, the GPU is not an H200 (h100/ has this GPU's runs)"
elif (( left < 160 )); then
    echo "fill-256: not run, $left s left"
else
    start=$(date +%s)
    timeout $(( left - 5 )) bash docs/bench/variants/h200/fill-256/run.sh > "$OUT/fill.txt" 2>&1
    echo "fill-256: rc=$? $(( $(date +%s) - start )) s"; tail -n 12 "$OUT/fill.txt"
fi
echo "call: $(( $(date +%s) - begin )) s"
