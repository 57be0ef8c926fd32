#!/bin/bash
# Builds multicast experiment binaries into .dev/mc/bin.tar.xz. Lines: name type mnk tb [sed-expr] -- -Dflags
set -e
cd "$(dirname "$0")/../.."
B=/tmp/mcbin; rm -rf $B; mkdir -p $B
python3 tangle.py gemm.md -o /tmp/mc_base.cu
FLAGS="-O3 -std=c++17 -lineinfo -gencode arch=compute_90,code=sm_90"
cp .dev/mc/list $B/list
while read name type mnk tb sedexpr flags; do
  [ -z "$name" ] && continue
  src=/tmp/mc_$name.cu
  if [ "$sedexpr" = "-" ]; then cp /tmp/mc_base.cu $src; else sed -e "$(echo "$sedexpr" | tr "~" " ")" /tmp/mc_base.cu > $src; fi
  f=""; [ "$flags" != "-" ] && f=$(echo $flags | tr ',' ' ')
  ( nvcc $FLAGS -Xptxas -v -DCONFIG_ON_COMMAND_LINE -D$type -DMNK_$mnk -DTRANSPOSE_B=$tb $f $src -o $B/$name -lcublas > $B/$name.log 2>&1 || echo "BUILD FAIL $name" ) &
  while [ $(jobs -r | wc -l) -ge 3 ]; do sleep 0.5; done
done < .dev/mc/list
wait
grep -H -A2 "Function properties for _Z6d_gemm" $B/*.log | grep -E "spill|registers" | grep -v " 0 bytes spill stores, 0 bytes spill loads" | head -40
tar cJf .dev/mc/bin.tar.xz -C $B .
ls -la .dev/mc/bin.tar.xz
