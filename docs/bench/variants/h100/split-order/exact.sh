#!/bin/bash
# A split round dealt one part per cluster (tile = cluster mod tiles, part = cluster / tiles, clusters / tiles
# parts; the clusters past tiles x parts idle) against the committed dealing (equal shares, tile after tile):
# OLD and NEW are the two sources. fp16, B transposed, L2 evicted, cuBLAS in the same process. Output under $OUT.
set -u
OUT=${OUT:-out/split-exact}
W=out/split-exact-work
mkdir -p "$OUT" $W/old $W/new
make -s TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90a SRC=$OLD BIN=$W/old/gemm > $W/old.build 2>&1 &
make -s TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90a SRC=$NEW BIN=$W/new/gemm > $W/new.build 2>&1 &
wait
tail -n 3 $W/*.build
printf '%s\n' "16 4096 14336" "32 4096 14336" "64 4096 14336" "128 4096 14336" "256 4096 14336" "16 8192 28672" \
    "32 8192 28672" "64 8192 28672" "256 8192 28672" "1024 1024 32768" "4608 2048 12288" "777 1000 32768" \
    "16 4096 32768" > $W/shapes.txt
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
for v in old new; do
    $W/$v/gemm --kernel=hopper --cublas --cold-l2 --format=kv --iterations=20 --warmup=3 --verify=gpu \
        --shapes=$W/shapes.txt > "$OUT/$v.kv" 2> "$W/$v.err"
    echo "$v rc=$? $(grep -c result=pass "$OUT/$v.kv") passed of 13 $(head -c 300 $W/$v.err)"
done
python3 docs/bench/variants/h200/skinny/table.py "$OUT" old new | tee "$OUT/table.txt"
