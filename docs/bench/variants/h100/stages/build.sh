#!/bin/bash
# Builds the binaries of one list into bin.tar.xz beside this script: build.sh LIST [REVISION [PATCH]]
# tangles gemm.md as of REVISION (default: the working tree), with PATCH applied. README.txt gives each
# sweep's arguments.
# List lines: name type mnk transpose_b sed-expression (spaces as ~, - for none) -Dflags (comma-separated, - for none).
# Names with sm80 are built from compute_80 PTX only, so that an H100 runs their cp.async path.
set -e
HERE=$(cd "$(dirname "$0")" && pwd); LIST=$HERE/${1:-list4}; REV=${2:-}; PATCH=${3:-}
cd "$HERE/../../../../.."
B=/tmp/s6bin; rm -rf $B; mkdir -p $B
if [ -n "$REV" ]; then git show "$REV:gemm.md" > /tmp/s6_gemm.md; else cp gemm.md /tmp/s6_gemm.md; fi
[ -n "$PATCH" ] && patch -s /tmp/s6_gemm.md < "$HERE/$PATCH"
python3 tangle.py /tmp/s6_gemm.md -o /tmp/s6_base.cu
FLAGS="-O3 -std=c++17 -lineinfo -gencode arch=compute_90,code=sm_90"
cp $LIST $B/list
while read name type mnk tb sedexpr flags; do
  [ -z "$name" ] && continue
  src=/tmp/s6_$name.cu
  if [ "$sedexpr" = "-" ]; then cp /tmp/s6_base.cu $src; else sed -e "$(echo "$sedexpr" | tr "~" " ")" /tmp/s6_base.cu > $src; fi
  f=""; [ "$flags" != "-" ] && f=$(echo $flags | tr ',' ' ')
  FL="$FLAGS"; case $name in *sm80*) FL="-O3 -std=c++17 -lineinfo -gencode arch=compute_80,code=compute_80";; esac
  ( nvcc $FL -Xptxas -v -DCONFIG_ON_COMMAND_LINE -D$type -DMNK_$mnk -DTRANSPOSE_B=$tb $f $src -o $B/$name -lcublas > $B/$name.log 2>&1 || echo "BUILD FAIL $name" ) &
  while [ $(jobs -r | wc -l) -ge 3 ]; do sleep 0.5; done
done < $LIST
nvcc -gencode arch=compute_80,code=compute_80 $HERE/probe.cu -o $B/probe80
nvcc -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 $HERE/probe.cu -o $B/probe8090
wait
grep -H -A2 "Function properties for _Z6d_gemm" $B/*.log | grep -E "spill|registers" | grep -v " 0 bytes spill stores, 0 bytes spill loads" | head -40
tar cJf $HERE/bin.tar.xz -C $B .
ls -la $HERE/bin.tar.xz
