#!/bin/bash
# int8 with B as stored, its roles swapped and B's in registers (this commit): each of step 9's tiles forced on the
# 30 skinny shapes, --cold-l2, to fit the swapped pull of an 8-bit operand loaded into registers. The binary is
# out/gemm.cu with one line patched in hopper_kind (HOPPER_FORCE=kind; the tile's own split stays), built where
# there is no GPU:   bash docs/bench/variants/h200/int8-regs/force.sh build
# Kinds: 10 128 x 256 in clusters of two, 12 64 x 128, 13 64 x 64, 14 128 x 128 in clusters sharing A, 15 64 x 192,
# 16 and 17 the swapped 128 x 64 and 128 x 128. Verified on the GPU, cuBLAS in the same process, median of 20 after
# 3 warm-ups. On the GPU machine it writes $W/force-*.txt.
bin=out/bench/exp/force_I8_IN_I32_OUT_tb0
if [ "$1" = build ]; then
  mkdir -p out/bench/exp
  sed -e 's|^    int kind = hopper_by_shape(m, n, k, sms, bandwidth);|    if (getenv("HOPPER_FORCE")) return atoi(getenv("HOPPER_FORCE"));\n&|' \
      out/gemm.cu > out/bench/exp/force.cu
  [ "$(grep -c 'getenv("HOPPER_FORCE")' out/bench/exp/force.cu)" = 1 ] || { echo "force.sh: no match" >&2; exit 1; }
  make -s SRC=out/bench/exp/force.cu BIN=$bin/gemm TYPE=I8_IN_I32_OUT MNK=16x16x16 TRANSPOSE_A=0 TRANSPOSE_B=0 ARCH=90
  exit $?
fi
W=${W:-out/bench/force-i8}; mkdir -p "$W"
common="--kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas"
for kind in ${KINDS:-16 17 13 12 14 15 10}; do
  start=$(date +%s)
  HOPPER_FORCE=$kind $bin/gemm $common --shapes=docs/bench/variants/h200/swapped/skinny-shapes.txt \
    > "$W/force-$kind.txt" 2>&1
  echo "force $kind rc=$? $(( $(date +%s) - start )) s"
done
