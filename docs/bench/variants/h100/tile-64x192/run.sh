#!/bin/bash
# 64 x 192 in place of step 8's 64 x 128 (kind 10), fp16: verify, then forced and picked on the suite + held-out shapes
cd "$(dirname "$0")/../../../../.."
P=out/cfg/p50b   # the binaries (README)
R=docs/bench/variants/h100/tile-64x192
for tb in 0 1; do for v in base2 n192; do
  HOPPER_FORCE=10 $P/$v-$tb --kernel=hopper --format=kv --iterations=2 --warmup=1 --verify=gpu --shapes=docs/bench/variants/h100/tf32-in-flight/ragged.txt 2>&1 | grep -o 'm=[0-9]* n=[0-9]* k=[0-9]*\|result=[a-z]*\|tile=[0-9x]*' | paste - - - | sed "s/^/$v $tb /"
done; done
for tb in 1 0; do
  for v in base2 n192; do
    HOPPER_FORCE=10 $P/$v-$tb --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas --shapes=$R/shapes.txt > $OUT/f10-$v-$tb.txt 2>&1
    echo "f10 $v $tb rc=$?"
    $P/$v-$tb --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas --shapes=$R/shapes.txt > $OUT/pick-$v-$tb.txt 2>&1
    echo "pick $v $tb rc=$?"
  done
done
