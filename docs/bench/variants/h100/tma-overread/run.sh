#!/bin/bash
# Times the variants of mk.py (built by build.sh) on the device: every tier, 8192³ twice, 4096³ verified.
cd "$(dirname "$0")"
mkdir -p build && python3 mk.py || exit 1
jobs=()
for v in base ovr; do for t in f16 h; do for tb in 0 1; do ./build.sh $v $t $tb & done; done; done
for v in k16 k16ovr; do for tb in 0 1; do ./build.sh $v h $tb & done; done
wait
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
kv() { python3 -c 'import sys; kv=dict(t.split("=",1) for t in sys.stdin.read().split() if "=" in t); print(" ".join(kv.get(k,"?") for k in ("tile","stages","cluster","shared_bytes","copy_path","rate","median_ms","result")))'; }
BINS="f16_0_base f16_0_ovr f16_1_base f16_1_ovr h_0_base h_0_ovr h_0_k16 h_0_k16ovr h_1_base h_1_ovr h_1_k16 h_1_k16ovr"
for pass in 1 2; do for b in $BINS; do for lim in 0 163K 99K 64K; do
  case $b in *k16*) [ $lim = 99K ] || continue;; esac
  sizes=8192; [ $pass = 1 ] && sizes="8192 4096"
  for size in $sizes; do vf=off; [ $size = 4096 ] && vf=gpu
    timeout 60 ./build/$b --shared-limit=$lim --format=kv --iterations=10 --warmup=3 --verify=$vf $size $size $size | kv | sed "s/^/$b $lim $size /"
  done; done; done; done
for b in f16_0_ovr f16_1_ovr h_0_ovr h_1_ovr h_0_k16ovr h_1_k16ovr h_0_k16; do for lim in 0 99K 64K; do for s in "1 1 1" "17 33 65" "1000 999 1001" "300 1100 77"; do
 timeout 60 ./build/$b --shared-limit=$lim --verify=gpu --alpha=1.5 --beta=-0.5 --iterations=1 --warmup=0 $s >/dev/null 2>&1; echo -n "$b/$lim/${s// /x}:$? "; done; done; echo; done
