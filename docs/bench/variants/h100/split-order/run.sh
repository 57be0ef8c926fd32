#!/bin/bash
# A split round's slabs numbered part by part (each tile's K cut into clusters / tiles parts, part 0 of every
# tile first) against tile after tile (`old`: the source before, given as OLD=path): fp16 with B transposed, L2
# evicted, cuBLAS in the same process, on the suite's shapes that step 8 splits along K, and DRAM bytes read
# by each launch (Nsight Compute) at 1024 x 1024 x 32768. Run from the repository root on a 9.0 GPU.
set -u
OUT=${OUT:-out/split-order}
W=out/split-order-work
mkdir -p "$OUT" $W/old $W/new
make -s TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90a SRC=$OLD BIN=$W/old/gemm > $W/old.build 2>&1 &
make -s TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90a BIN=$W/new/gemm > $W/new.build 2>&1 &
wait
tail -n 3 $W/*.build
printf '%s\n' "16 4096 14336" "32 4096 14336" "64 4096 14336" "128 4096 14336" "256 4096 14336" "16 8192 28672" \
    "32 8192 28672" "64 8192 28672" "256 8192 28672" "1024 1024 32768" > $W/shapes.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
for v in old new; do
    $W/$v/gemm --kernel=hopper --cublas --cold-l2 --format=kv --iterations=20 --warmup=3 --verify=gpu \
        --shapes=$W/shapes.txt > "$OUT/$v.kv" 2> "$W/$v.err"
    echo "$v rc=$? $(grep -c result=pass "$OUT/$v.kv") passed of 10 $(head -c 300 $W/$v.err)"
done
python3 docs/bench/variants/h200/skinny/table.py "$OUT" old new | tee "$OUT/table.txt"
for v in old new; do
    ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum --csv \
        $W/$v/gemm --kernel=hopper --iterations=1 --warmup=0 --verify=off 1024 1024 32768 2>&1 |
        grep '^"' | python3 -c "
import csv, sys
for r in csv.DictReader(sys.stdin):
    print('$v', r['Kernel Name'][:40], r['Metric Name'], r['Metric Value'])" | tee -a "$OUT/ncu.txt"
done
