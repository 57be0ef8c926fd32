#!/bin/bash
# On the GPU machine: old against new int8 transposition, the 65,536-tile case, then gpu-test and bench for int8.
D=.dev/tr; S=$OUT/tr.txt
date -u +%FT%TZ | tee $S
for b in i8old-0 i8new-0 i8old-1 i8new-1; do
  v=""
  for sz in "1000 777 333" "127 253 61" "300 520 200"; do
    v="$v $(timeout 30 $D/$b $sz --alpha=2 --beta=-1 --iterations=1 --warmup=0 --format=kv 2>&1 | grep -oE 'result=[a-z]+|gemm: .*' | head -1)"
  done
  r4=$(timeout 30 $D/$b 4096 4096 4096 --verify=off --iterations=20 --warmup=3 --format=kv 2>&1 | grep -oE ' (median_ms|rate)=[0-9.]+|gemm: .*' | tr '\n' ' ')
  r8=$(timeout 40 $D/$b 8192 8192 8192 --verify=off --iterations=10 --warmup=3 --format=kv 2>&1 | grep -oE ' (median_ms|rate)=[0-9.]+|gemm: .*' | tr '\n' ' ')
  echo "$b |$v | 4096 $r4| 8192 $r8" | tee -a $S
done
for b in i8old-0 i8new-0; do
  echo "$b 64 64 4194368: $(timeout 90 $D/$b 64 64 4194368 --iterations=1 --warmup=0 --format=kv 2>&1 | grep -oE 'result=[a-z]+|gemm: .*' | head -1)" | tee -a $S
done
date -u +%FT%TZ | tee -a $S
python3 tests/gpu_test.py --types I8_IN_I32_OUT,U8_IN_I32_OUT --make-arg ARCH=90 --budget 170 > $OUT/gpu-test-int8.txt 2>&1
tail -4 $OUT/gpu-test-int8.txt
python3 docs/bench/bench.py --types I8_IN_I32_OUT,U8_IN_I32_OUT --make-arg ARCH=90 --budget 80 --csv $OUT/h100-int8.csv --no-plot > $OUT/bench-int8.txt 2>&1
tail -14 $OUT/bench-int8.txt
