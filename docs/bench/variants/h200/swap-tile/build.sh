#!/bin/bash
# Builds, where there is no GPU, the two int8 binaries (B as stored) that call1.sh and call2.sh time: head (HEAD's
# out/gemm.cu, or OLD=commit; since the swap landed, OLD=575c403: B transposed first in every tile) and new (the working tree's out/gemm.cu: step 9's small tiles
# swap their roles). Each has one line patched into hopper_kind, so HOPPER_FORCE=kind runs that tile (its own split
# stays). Into out/bench/swap-tile/{head,new}/gemm, carried to the GPU machine.
cd "$(dirname "$0")/../../../../.." || exit 1
dir=out/bench/swap-tile; mkdir -p $dir/head $dir/new
git show ${OLD:-HEAD}:out/gemm.cu > $dir/head/plain.cu
cp out/gemm.cu $dir/new/plain.cu
for v in head new; do
  sed -e 's|^    int kind = hopper_by_shape(m, n, k, sms, bandwidth);|    if (getenv("HOPPER_FORCE")) return atoi(getenv("HOPPER_FORCE"));\n&|' \
      $dir/$v/plain.cu > $dir/$v/gemm.cu
  [ "$(grep -c 'getenv("HOPPER_FORCE")' $dir/$v/gemm.cu)" = 1 ] || { echo "build.sh: no match in $v" >&2; exit 1; }
  make -s SRC=$dir/$v/gemm.cu BIN=$dir/$v/gemm TYPE=I8_IN_I32_OUT MNK=16x16x16 TRANSPOSE_A=0 TRANSPOSE_B=0 ARCH=90 &
done
wait
rm -f $dir/*/gemm.flags $dir/*/plain.cu
ls -la $dir/*/gemm
