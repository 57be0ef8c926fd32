#!/bin/bash
# Builds, on a machine without a GPU, every binary that the canonical run's make bench, make steps and make suite
# use (the names bench.py, steps.py and suite.py give them under out/cfg/), so the device calls run with --no-build.
cd "$(dirname "$0")/../../../../.." || exit 1
jobs=()
for t in F16_IN_F32_OUT:16x16x16 F16_IN_OUT:16x16x16 BF16_IN_F32_OUT:16x16x16 TF32_IN_F32_OUT:16x16x8 \
         I8_IN_I32_OUT:16x16x16 U8_IN_I32_OUT:16x16x16 F64_IN_OUT:8x8x4; do
  type=${t%%:*}; mnk=${t##*:}
  for tb in 0 1; do
    name=${type}_${mnk}_ta0_tb${tb}
    jobs+=("BIN=out/cfg/$name/gemm TYPE=$type MNK=$mnk TRANSPOSE_A=0 TRANSPOSE_B=$tb ARCH=90")
    jobs+=("BIN=out/cfg/${name}_compute_80/gemm TYPE=$type MNK=$mnk TRANSPOSE_A=0 TRANSPOSE_B=$tb ARCH=90 ARCH=compute_80")
  done
done
for c in F16_IN_F32_OUT:16x16x16:0 F16_IN_F32_OUT:16x16x16:1 BF16_IN_F32_OUT:16x16x16:0 TF32_IN_F32_OUT:16x16x8:0 \
         I8_IN_I32_OUT:16x16x16:0 F64_IN_OUT:8x8x4:0; do
  IFS=: read -r type mnk tb <<<"$c"
  jobs+=("BIN=out/cfg/${type}_${mnk}_ta0_tb${tb}_steps/gemm TYPE=$type MNK=$mnk TRANSPOSE_A=0 TRANSPOSE_B=$tb STEPS=1 ARCH=90")
done
make -s out/gemm.cu
printf '%s\n' "${jobs[@]}" | xargs -P "${JOBS:-2}" -I{} sh -c 'make -s {} >/dev/null 2>&1 || echo "FAILED: {}"'
ls out/cfg/*/gemm | wc -l
