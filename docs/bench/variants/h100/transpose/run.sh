#!/bin/bash
cd "$(dirname "$0")"
O=${OUT:-/tmp}; S=$O/s7.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv,noheader | tee $S
echo "start $(date -u +%FT%TZ)" | tee -a $S
for b in i8n-vr i8n-vr-pdl i8a1 u8a1t; do
  for sz in "1000 777 333" "127 253 61" "300 520 200" "64 64 4194368" "4160 4224 4096"; do
    echo "$b $sz $(timeout 60 ./$b $sz --alpha=2 --beta=-1 --iterations=1 --warmup=0 --format=kv 2>&1 | grep -oE 'result=[a-z]+|gemm: .*' | head -1)" | tee -a $S
  done
done
for round in 1 2 3; do
  for b in i8n i8n-vr i8n-vr-pdl i8t; do
    for n in 4096 8192; do
      echo "r$round $b $n $(timeout 40 ./$b $n $n $n --verify=off --iterations=20 --warmup=3 --format=kv 2>&1 | grep -oE ' median_ms=[0-9.]+ | rate=[0-9.]+|gemm: .*' | tr '\n' ' ')" | tee -a $S
    done
  done
done
echo "end $(date -u +%FT%TZ)" | tee -a $S
