#!/bin/bash
# tf32 with the roles swapped (A in registers): one wgmma group left in flight, or not. Writes $OUT/*.txt.
# Run from anywhere on the GPU machine after building the binaries as README says.
cd "$(dirname "$0")/../../../../.."
P=out/cfg/p50   # the binaries (README)
R=docs/bench/variants/h100/tf32-in-flight
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/sass.txt
date -u >> $OUT/sass.txt
for v in base pend dbl; do echo "== $v"; cuobjdump -sass $P/$v-0 | grep -oE 'WARPGROUP\.[A-Z.]+[^;]*|HGMMA[^ ]*' | sed 's/ *$//' | sort | uniq -c | sort -rn | head -12; done >> $OUT/sass.txt 2>&1
# dump the sass of the 64x64 loop for pend and dbl
cuobjdump -sass $P/pend-0 > /tmp/pend.sass; cuobjdump -sass $P/dbl-0 > /tmp/dbl.sass
grep -n 'Function\|HGMMA\|WARPGROUP\|LDS' /tmp/pend.sass | grep -A200 'ILi11ELb0' | head -120 > $OUT/pend-loop.txt
grep -n 'Function\|HGMMA\|WARPGROUP\|LDS' /tmp/dbl.sass | grep -A200 'ILi11ELb0' | head -160 > $OUT/dbl-loop.txt
# verify: every variant, layout and forced tile at ragged sizes
for v in base pend dbl; do for l in 0 1 11; do [ -x $P/$v-$l ] || continue; for kind in none 8 10 11 12; do
  if [ $kind = none ]; then unset HOPPER_FORCE; else export HOPPER_FORCE=$kind; fi
  $P/$v-$l --kernel=hopper --format=kv --iterations=2 --warmup=1 --verify=gpu --shapes=$R/ragged.txt 2>&1 | \
    awk -v v=$v -v l=$l -v k=$kind '{r="?";t="?";m="";for(i=1;i<=NF;i++){split($i,a,"=");if(a[1]=="result")r=a[2];if(a[1]=="tile")t=a[2];if(a[1]=="m"||a[1]=="n"||a[1]=="k")m=m a[2] "x"} print v,l,k,m,t,r}'
done; done; done > $OUT/verify.txt 2>&1
unset HOPPER_FORCE
# time: the suite's 47 shapes, rule's pick, L2 evicted, cuBLAS in the same process
for v in base dbl pend; do
  $P/$v-0 --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas --shapes=$R/suite.txt > $OUT/suite-$v.txt 2>&1
  echo "suite $v rc=$?"
done
# forced tiles on dbl, for the speeds
for kind in 10 11 12 8; do HOPPER_FORCE=$kind $P/dbl-0 --kernel=hopper --format=kv --iterations=10 --warmup=2 --verify=gpu --cold-l2 --cublas --shapes=$R/suite.txt; done > $OUT/forced-dbl.txt 2>&1
echo done-timing
