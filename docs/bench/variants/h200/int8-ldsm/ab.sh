#!/bin/bash
# Stop 71: int8 with B as stored, HEAD (B transposed first) against int8-ldsm.patch (roles swapped, B's role by
# ldmatrix into registers), the two binaries in the same call, on the suite's 47 shapes, twice each, alternating
# (A B A B), L2 evicted, verified on the GPU, cuBLAS in the same process, median of 20 after 3 warm-ups.
# Binaries built here (no GPU):
#   make -s SRC=out/bench/exp/head/gemm.cu BIN=out/bench/exp/head/i8-0/gemm TYPE=I8_IN_I32_OUT TRANSPOSE_B=0 ARCH=90
#   bash docs/bench/variants/h200/int8-regs/force.sh build    (with int8-ldsm.patch applied: the ldsm binary)
# On the GPU machine (carry out/bench/exp):   bash docs/bench/variants/h200/int8-ldsm/ab.sh   -> $W/ab-*.txt
here=docs/bench/variants/h200/int8-ldsm; W=${W:-out/bench/ab}; mkdir -p "$W"
common="--kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas --shapes=$here/suite-shapes.txt"
for pass in 1 2; do
  for v in head:out/bench/exp/head/i8-0/gemm ldsm:out/bench/exp/force_I8_IN_I32_OUT_tb0/gemm; do
    start=$(date +%s)
    timeout 120 ${v#*:} $common > "$W/ab-${v%%:*}-$pass.txt" 2>&1
    echo "ab ${v%%:*} pass $pass rc=$? $(( $(date +%s) - start )) s"
  done
done
