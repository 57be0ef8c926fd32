#!/bin/bash
# Stop 71 (2026-12-07): the tensor maps of K-major operands with their real rows (M, N) instead of the padded ones,
# so that the TMA fills the padding rows of a box with zeros instead of reading them: at 16 x 8192 x 8192 a 64 x 64
# tile reads 64 rows of A for 16 real ones, 4 x A's bytes through L2, as many bytes as B's. The box and the bytes
# its barrier expects do not change (out-of-bound elements are written as zeros and counted). Host code only: one
# argument in each of make_hopper_maps' two K-major calls (the sed below). fp16, both layouts, HEAD against it, in
# the same call, twice alternating, L2 evicted, verified on the GPU, median of 20.
# Build here:   bash docs/bench/variants/h200/oob/run.sh build      (out/bench/exp/head and out/bench/exp/oob)
# GPU machine:  bash docs/bench/variants/h200/oob/run.sh            (carry out/bench/exp; writes $W/oob-*.txt)
here=docs/bench/variants/h200/oob
if [ "$1" = build ]; then
  d=out/bench/exp/oob; mkdir -p $d out/bench/exp/head
  [ -f out/bench/exp/head/gemm.cu ] || cp out/gemm.cu out/bench/exp/head/gemm.cu
  sed -e 's|make_tensor_map(&run->a_map, a, shape->m_padded, shape->k_padded, panel, panel, tile.block_m, 1,|make_tensor_map(\&run->a_map, a, shape->m, shape->k_padded, panel, panel, tile.block_m, 1,|' \
      -e 's|make_tensor_map(&run->b_map, b, shape->n_padded, shape->k_padded, panel, panel, b_share, 1,|make_tensor_map(\&run->b_map, b, shape->n, shape->k_padded, panel, panel, b_share, 1,|' \
      out/bench/exp/head/gemm.cu > $d/gemm.cu
  [ "$(diff out/bench/exp/head/gemm.cu $d/gemm.cu | grep -c '^>')" = 2 ] || { echo "oob: the sed matched no longer" >&2; exit 1; }
  for tb in 0 1; do
    make -s SRC=$d/gemm.cu BIN=$d/f16-$tb/gemm TYPE=F16_IN_F32_OUT MNK=16x16x16 TRANSPOSE_B=$tb ARCH=90 &&
    make -s SRC=out/bench/exp/head/gemm.cu BIN=out/bench/exp/head/f16-$tb/gemm TYPE=F16_IN_F32_OUT MNK=16x16x16 \
      TRANSPOSE_B=$tb ARCH=90 || exit 1
  done
  exit 0
fi
W=${W:-out/bench/oob}; mkdir -p "$W"
common="--kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas --shapes=$here/shapes.txt"
for pass in 1 2; do
  for tb in 1 0; do
    for v in head oob; do
      start=$(date +%s)
      timeout 60 out/bench/exp/$v/f16-$tb/gemm $common > "$W/oob-$v-$tb-$pass.txt" 2>&1
      echo "oob $v tb=$tb pass $pass rc=$? $(( $(date +%s) - start )) s"
    done
  done
done
