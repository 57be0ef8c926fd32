#!/bin/bash
cd "$(dirname "$0")"   # bin/: the binaries of build.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader; date -u
kv() { python3 -c 'import sys; kv=dict(t.split("=",1) for t in sys.stdin.read().split() if "=" in t); print(" ".join(kv.get(k,"?") for k in ("tile","stages","cluster","shared_bytes","rate","median_ms","result")))'; }
echo "bin limit size tile stages cluster shared rate ms result"
for pass in 1 2; do
for b in f16_0 f16_1 bf_0 bf_1 h_0 h_1; do
  for v in base c4 h64a h64b; do
    [ -x bin/${b}_$v ] || continue
    lims="99K 64K"; [ $v = base ] && lims="0 99K 64K"; case $v in h64*) lims=64K;; esac
    for lim in $lims; do
      sizes=8192; [ $pass = 1 ] && sizes="8192 4096"
      for size in $sizes; do
        vf=off; [ $size = 4096 ] && vf=gpu
        a=""; [ $lim != 0 ] && a="--shared-limit=$lim"; ./bin/${b}_$v $a --format=kv --iterations=10 --warmup=3 --verify=$vf $size $size $size | kv | sed "s/^/${b}_$v $lim $size /"
      done
    done
  done
done
done
echo "--- ragged"
for bin in bin/*_c4 bin/*_h64a bin/*_h64b; do for lim in 99K 64K; do for s in "1 1 1" "17 33 65" "1000 999 1001" "300 1100 77"; do
 ./$bin --shared-limit=$lim --verify=gpu --alpha=1.5 --beta=-0.5 --iterations=1 --warmup=0 $s >/dev/null 2>&1; echo -n "$(basename $bin)/$lim/${s// /x}:$? "; done; done; done; echo
