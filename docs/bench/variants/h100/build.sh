#!/bin/bash
# Builds the d_gemm variants of docs/bench/steps-h100.csv (no GPU needed) into out/h100-var/LIST/.
# usage: bash docs/bench/variants/h100/build.sh LIST     (LIST: round1 round2 round3 round4 steps)
# A LIST row is "name type mnk branch [commit] overrides...": the variant is out/gemm.cu of BASE (the
# kernel before the mbarrier pipeline) or of the row's commit (steps.list), with variant.py's tile
# overrides for that branch of the tile-size block, and these extra words:
#   l2pf / l2pf256   cp.async with .L2::128B / .L2::256B     GROUP_ROWS=N   block-order groups of N rows
#   ptx              fp16 fragments also loaded by inline-PTX wmma.load...shared
#   mbar=D           the mbarrier pipeline of mbar.cu with D slabs in flight (gemm.md's PREFETCH)
# Builds with the Makefile's flags for sm_90 only; then run.sh LIST on the GPU machine.
set -e
BASE=635523f
cd "$(dirname "$0")/../../../.."
HERE=docs/bench/variants/h100
LIST=$1; B=out/h100-var/$LIST
rm -rf $B; mkdir -p $B/src
cp $HERE/$LIST.list $B/list
FLAGS="-O3 -std=c++17 -lineinfo -gencode arch=compute_90,code=sm_90"
TMP=$(mktemp -d); trap 'rm -rf $TMP' EXIT
while read name type mnk branch rest; do
  commit=$BASE
  case "$rest" in [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]*) commit=${rest%% *}; rest=${rest#* };; esac
  mkdir -p $TMP/out; git show $commit:out/gemm.cu > $TMP/out/gemm.cu
  git show $BASE:docs/bench/variants/variant.py > $TMP/variant.py
  git show $BASE:docs/bench/variants/dbuf.cu > $TMP/dbuf.cu
  sed -i 's/^#define GROUP_ROWS 8/#ifndef GROUP_ROWS\n#define GROUP_ROWS 8\n#endif/' $TMP/out/gemm.cu
  for tb in 0 1; do
    out=$B/src/$name-$tb.cu
    (cd $TMP && python3 variant.py x.cu $branch $(for r in $rest; do case $r in l2pf*|mbar=*|GROUP_ROWS=*|ptx) ;; *) echo $r;; esac; done)) && mv $TMP/x.cu $out
    for r in $rest; do
      case $r in
        l2pf) sed -i 's/cp\.async\.\(c[ag]\)\.shared\.global \[/cp.async.\1.shared.global.L2::128B [/' $out;;
        l2pf256) sed -i 's/cp\.async\.\(c[ag]\)\.shared\.global \[/cp.async.\1.shared.global.L2::256B [/' $out;;
        GROUP_ROWS=*) sed -i "s/^#define GROUP_ROWS 8/#define GROUP_ROWS ${r#GROUP_ROWS=}/" $out;;
        mbar=*) python3 $HERE/mbar.py $out ${r#mbar=};;
        ptx) python3 $HERE/ptx.py $out;;
      esac
    done
    nvcc $FLAGS -Xptxas -v -DCONFIG_ON_COMMAND_LINE -D$type -DMNK_$mnk -DTRANSPOSE_B=$tb $out -o $B/$name-$tb \
      -lcublas > $B/$name-$tb.log 2>&1 || echo "BUILD FAIL $name $tb"
  done
done < $B/list
for f in $B/*-0.log; do
  n=$(basename ${f%-0.log})
  echo "$n: $(grep -A2 "_Z6d_gemmP" $f | grep -oE "Used [0-9]+|[0-9]+ bytes spill stores" | tr '\n' ' ')"
done
