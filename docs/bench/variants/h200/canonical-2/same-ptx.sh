#!/bin/bash
# Whether two commits' out/gemm.cu compile to the same PTX for sm_90a in every type pair, both layouts of B:
# then ptxas makes the same machine code, and a GPU run of one stands for the other.
# bash docs/bench/variants/h200/canonical-2/same-ptx.sh 185c300 4d053cd   (no GPU; nvcc; about a minute)
set -u
a=${1:?first commit}; b=${2:?second commit}
cd "$(dirname "$0")/../../../../.." || exit 1
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
git show "$a:out/gemm.cu" > "$work/a.cu" && git show "$b:out/gemm.cu" > "$work/b.cu" || exit 1
nvcc=${NVCC:-nvcc}
for pair in F16_IN_F32_OUT:16x16x16 BF16_IN_F32_OUT:16x16x16 F16_IN_OUT:16x16x16 I8_IN_I32_OUT:16x16x16 \
            U8_IN_I32_OUT:16x16x16 TF32_IN_F32_OUT:16x16x8 F64_IN_OUT:8x8x4; do
  for tb in 0 1; do
    for x in a b; do
      "$nvcc" -ptx -O3 -std=c++17 -arch=compute_90a -DCONFIG_ON_COMMAND_LINE -D${pair%:*} -DMNK_${pair#*:} \
        -DTRANSPOSE_B=$tb -o "$work/$x-${pair%:*}-$tb.ptx" "$work/$x.cu" &
    done
  done
done
wait
status=0
for f in "$work"/a-*.ptx; do
  name=${f##*/a-}
  if cmp -s "$f" "$work/b-$name"; then echo "same       ${name%.ptx}"; else echo "DIFFERENT  ${name%.ptx}"; status=1; fi
done
exit $status
