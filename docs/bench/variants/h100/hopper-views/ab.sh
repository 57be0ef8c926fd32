#!/bin/bash
# A/B: d_gemm_hopper before and after the one-branch-per-step copy of B (fp16, A and B as stored)
git show de1013e:gemm.md > /tmp/old.md && python3 tangle.py /tmp/old.md -o /tmp/old.cu || exit 1
make -s STEPS=1 SRC=/tmp/old.cu BIN=out/ab-old/gemm ARCH=90 &
make -s STEPS=1 BIN=out/ab-new/gemm ARCH=90 &
wait
for pass in 1 2; do
  for shape in "8192 8192 8192" "64 4096 14336" "128 14336 4096"; do
    for k in hopper1 hopper2 hopper3 hopper; do
      for v in old new; do
        r=$(out/ab-$v/gemm --kernel=$k --format=kv --verify=off --iterations=20 --cold-l2 $shape | grep -o "median_ms=[0-9.]*\|tile=[0-9x]*" | tr '\n' ' ')
        echo "pass=$pass $shape $k $v $r"
      done
    done
  done
done
