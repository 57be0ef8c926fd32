#!/bin/bash
# On the GPU machine: verify and time every binary of bin.tar.xz, then Nsight Compute (raw page) on
# the binaries named in $NCU. $PEAK names binaries whose --peak to print first.
cd "$(dirname "$0")"
D=/tmp/s6run; rm -rf $D; mkdir -p $D; tar xJf bin.tar.xz -C $D
O=${OUT:-/tmp}; S=$O/sweep.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv,noheader | tee $S
echo "start $(date -u +%FT%TZ)" | tee -a $S
for p in probe80 probe8090; do [ -x $D/$p ] && $D/$p | tee -a $S; done
for b in ${PEAK:-}; do echo "peak $b $(timeout 30 $D/$b --peak --format=kv | grep -oE ' rate=[0-9.]+')" | tee -a $S; done
while read name rest; do
  [ -x $D/$name ] || { echo "$name missing" | tee -a $S; continue; }
  v=""
  for sz in "1000 777 333" "127 253 61" "300 520 200"; do
    v="$v $(timeout 30 $D/$name $sz --alpha=2 --beta=-1 --iterations=1 --warmup=0 --format=kv 2>&1 | grep -oE 'result=[a-z]+|gemm: .*' | head -1)"
  done
  r4=$(timeout 30 $D/$name 4096 4096 4096 --verify=off --iterations=10 --warmup=3 --format=kv 2>&1 | grep -oE ' rate=[0-9.]+|gemm: .*')
  r8=$(timeout 40 $D/$name 8192 8192 8192 --verify=off --iterations=10 --warmup=3 --format=kv 2>&1 | grep -oE ' rate=[0-9.]+|gemm: .*')
  echo "$name |$v | 4096$r4 | 8192$r8" | tee -a $S
done < $D/list
echo "end $(date -u +%FT%TZ)" | tee -a $S
for b in ${NCU:-}; do
  timeout 100 ncu --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section SchedulerStats --page raw -k d_gemm -c 1 $D/$b 4096 4096 4096 --verify=off --iterations=1 --warmup=0 > $O/ncu-$b.txt 2>&1
  echo "ncu $b rc=$?" | tee -a $S
done
echo "end2 $(date -u +%FT%TZ)" | tee -a $S
