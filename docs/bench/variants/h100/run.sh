#!/bin/bash
# Times the variants that build.sh LIST made: each verified at 1000x777x333 and 127x253x61, then
# timed at 8192^3 (median of 10 after 3 warm-ups), both TRANSPOSE_B settings.
# usage (on the GPU machine): bash docs/bench/variants/h100/run.sh LIST
cd "$(dirname "$0")/../../../.."
B=out/h100-var/$1
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
echo "start $(date -u +%FT%TZ)"
first=$(head -1 $B/list | cut -d' ' -f1)
echo "peak $($B/$first-0 --peak --format=kv | grep -oE ' rate=[0-9.]+')"
while read name rest; do
  line="$name"
  for tb in 0 1; do
    [ -x $B/$name-$tb ] || continue
    v=$($B/$name-$tb 1000 777 333 --alpha=2 --beta=-1 --iterations=1 --warmup=0 --format=kv < /dev/null | grep -oE 'result=[a-z]+')
    v="$v $($B/$name-$tb 127 253 61 --alpha=2 --beta=-1 --iterations=1 --warmup=0 --format=kv < /dev/null | grep -oE 'result=[a-z]+')"
    r=$($B/$name-$tb 8192 8192 8192 --verify=off --iterations=10 --warmup=3 --format=kv < /dev/null | grep -oE ' rate=[0-9.]+')
    line="$line | TB=$tb $v$r"
  done
  echo "$line"
done < $B/list
echo "timed $(date -u +%FT%TZ)"
