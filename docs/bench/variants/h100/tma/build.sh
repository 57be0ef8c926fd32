#!/bin/bash
# Builds the copy-engine experiment binaries of `list` into bin.tar.xz next to this script (for run.sh).
# Lines of list: name type mnk transpose_b sed-expression-or-"-" comma-separated-nvcc-flags-or-"-"
# ("~" in the sed expression stands for a space). As used on 2026-11-21 with working copies of gemm.md
# that had two switches the committed source does not: CLUSTER_N (the cluster size, now CLUSTER in the
# tile table) and NO_TMA (the cp.async path on sm_90). See README.txt.
set -e
D=$(cd "$(dirname "$0")" && pwd)
cd "$D/../../../../.."
B=/tmp/mcbin; rm -rf $B; mkdir -p $B
python3 tangle.py gemm.md -o /tmp/mc_base.cu
FLAGS="-O3 -std=c++17 -lineinfo -gencode arch=compute_90,code=sm_90"
cp "$D/list" $B/list
while read name type mnk tb sedexpr flags; do
  [ -z "$name" ] && continue
  src=/tmp/mc_$name.cu
  if [ "$sedexpr" = "-" ]; then cp /tmp/mc_base.cu $src; else sed -e "$(echo "$sedexpr" | tr "~" " ")" /tmp/mc_base.cu > $src; fi
  f=""; [ "$flags" != "-" ] && f=$(echo $flags | tr ',' ' ')
  ( nvcc $FLAGS -Xptxas -v -DCONFIG_ON_COMMAND_LINE -D$type -DMNK_$mnk -DTRANSPOSE_B=$tb $f $src -o $B/$name -lcublas > $B/$name.log 2>&1 || echo "BUILD FAIL $name" ) &
  while [ $(jobs -r | wc -l) -ge 3 ]; do sleep 0.5; done
done < "$D/list"
wait
grep -H -A2 "Function properties for _Z6d_gemm" $B/*.log | grep -E "spill|registers" | grep -v " 0 bytes spill stores, 0 bytes spill loads" | head -40
tar cJf "$D/bin.tar.xz" -C $B .
ls -la "$D/bin.tar.xz"
