#!/bin/bash
# On the GPU machine: the 1-D transposition grid: large K with A or B transposed first, timing, then gpu-test --quick for int8.
D=.dev/tr; S=$OUT/tr2.txt
date -u +%FT%TZ | tee $S
for b in i8fix-00 i8fix-11; do
  echo "$b 64 64 4194368: $(timeout 90 $D/$b 64 64 4194368 --iterations=1 --warmup=0 --format=kv 2>&1 | grep -oE 'result=[a-z]+|gemm: .*' | head -1)" | tee -a $S
  echo "$b 4096: $(timeout 30 $D/$b 4096 4096 4096 --verify=off --iterations=20 --warmup=3 --format=kv 2>&1 | grep -oE ' (median_ms|rate)=[0-9.]+|gemm: .*' | tr '\n' ' ')" | tee -a $S
done
python3 tests/gpu_test.py --quick --skip-failure-paths --types I8_IN_I32_OUT,U8_IN_I32_OUT --make-arg ARCH=90 --budget 100 > $OUT/gpu-test-int8-quick.txt 2>&1
tail -16 $OUT/gpu-test-int8-quick.txt
