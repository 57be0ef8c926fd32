#!/bin/bash
# Each of step 9's tiles forced on the suite's 30 skinny shapes, with --cold-l2 reading the L2 (this commit), for
# fp16 and int8 with B transposed and tf32 with B as stored: what the rule should pick now that a timed run no
# longer writes back the eviction's dirty lines. out/exp/force_CONFIG is out/gemm.cu with one line patched in
# hopper_kind, HOPPER_FORCE=kind (the tile's own split stays), built where there is no GPU:
#   bash docs/bench/variants/h200/evict/force.sh build
# Kinds: 10 128 x 256 in clusters of two, 12 64 x 128, 13 64 x 64, 14 128 x 128 in clusters sharing A, 15 64 x 192,
# 16 and 17 the swapped 128 x 64 and 128 x 128 (tf32, B as stored). Verified on the GPU, cuBLAS in the same
# process, median of 20 after 3 warm-ups. On the GPU machine it writes $OUT/force.tgz.
here=docs/bench/variants/h200/evict
configs="F16_IN_F32_OUT:16x16x16:1 TF32_IN_F32_OUT:16x16x8:0 I8_IN_I32_OUT:16x16x16:1"
if [ "$1" = build ]; then
  mkdir -p out/exp
  sed -e 's|^    int kind = hopper_by_shape(m, n, k, sms, bandwidth);|    if (getenv("HOPPER_FORCE")) return atoi(getenv("HOPPER_FORCE"));\n&|' \
      out/gemm.cu > out/exp/force.cu
  [ "$(grep -c 'getenv("HOPPER_FORCE")' out/exp/force.cu)" = 1 ] || { echo "force.sh: the patch did not match" >&2; exit 1; }
  for c in $configs; do
    IFS=: read -r t mnk tb <<<"$c"
    make -s SRC=out/exp/force.cu BIN=out/exp/force_${t}_tb$tb TYPE=$t MNK=$mnk TRANSPOSE_A=0 TRANSPOSE_B=$tb ARCH=90 &
  done
  wait; ls -la out/exp/force_*; exit 0
fi
OUT=${OUT:-out/force}; W=out/force-work; mkdir -p "$OUT" "$W"
common="--kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas"
for c in $configs; do
  IFS=: read -r t mnk tb <<<"$c"
  kinds="10 12 13 14 15"; [ "$t:$tb" = TF32_IN_F32_OUT:0 ] && kinds="$kinds 16 17"
  for kind in $kinds; do
    start=$(date +%s)
    HOPPER_FORCE=$kind out/exp/force_${t}_tb$tb $common --shapes=docs/bench/variants/h200/swapped/skinny-shapes.txt \
      > "$W/force-$t-$tb-$kind.txt" 2>&1
    echo "$t tb=$tb force $kind rc=$? $(( $(date +%s) - start )) s"
  done
done
tar czf "$OUT/force.tgz" -C out force-work
