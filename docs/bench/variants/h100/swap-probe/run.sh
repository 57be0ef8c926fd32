#!/bin/bash
# Issue 40's swap-AB, probed with the kernels as they are: C = A B with small M (tokens) against
# C^T = B^T A^T, whose M is N (the weights' rows) and whose N is the tokens. With B transposed (N x K, as
# nn.Linear stores it) the swapped problem has the same layouts: its A is B as stored, its B is A as stored.
# Each line: the shape, then our kernel on it and on its swap, cuBLAS on it (same process as the first).
OUT=${OUT:-out/swap-probe}
mkdir -p "$OUT"
make -s BIN=out/swap/gemm TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90 || exit 1
run() { out/swap/gemm --kernel=hopper --format=kv --cold-l2 --iterations=20 --verify=gpu "$@"; }
for nk in "4096 14336" "14336 4096" "4096 4096" "6144 4096" "8192 8192" "8192 28672"; do
  set -- $nk
  for m in 16 32 64 128; do
    echo "shape $m $1 $2"
    run --cublas $m $1 $2
    run $1 $m $2
  done
done > "$OUT/kv.txt" 2>&1
