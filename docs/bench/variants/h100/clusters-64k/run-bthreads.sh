#!/bin/bash
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
kv() { python3 -c 'import sys; kv=dict(t.split("=",1) for t in sys.stdin.read().split() if "=" in t); print(" ".join(kv.get(k,"?") for k in ("tile","stages","cluster","shared_bytes","copy_path","rate","median_ms","result")))'; }
for pass in 1 2 3; do for b in h_1_base3 h_1_bt99 tf_1_base3 tf_1_bt99; do
  sizes=8192; [ $pass = 1 ] && sizes="8192 4096"
  for size in $sizes; do vf=off; [ $size = 4096 ] && vf=gpu
    ./bin3/${b}_sm90 --shared-limit=99K --format=kv --iterations=10 --warmup=3 --verify=$vf $size $size $size | kv | sed "s/^/$b 99K $size /"
  done; done; done
for b in h_1_bt99 tf_1_bt99; do for s in "1 1 1" "17 33 65" "1000 999 1001" "300 1100 77"; do
 ./bin3/${b}_sm90 --shared-limit=99K --verify=gpu --alpha=1.5 --beta=-0.5 --iterations=1 --warmup=0 $s >/dev/null 2>&1; echo -n "$b/${s// /x}:$? "; done; done; echo
