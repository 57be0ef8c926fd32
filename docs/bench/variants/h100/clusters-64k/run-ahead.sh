#!/bin/bash
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
kv() { python3 -c 'import sys; kv=dict(t.split("=",1) for t in sys.stdin.read().split() if "=" in t); print(" ".join(kv.get(k,"?") for k in ("tile","stages","cluster","shared_bytes","rate","median_ms","result")))'; }
for pass in 1 2 3; do for b in f16_0 f16_1 bf_0 bf_1 h_0 h_1; do for v in base2 ah1; do
  sizes=8192; [ $pass = 1 ] && sizes="8192 4096"
  for size in $sizes; do vf=off; [ $size = 4096 ] && vf=gpu
    ./bin2/${b}_$v --shared-limit=99K --format=kv --iterations=10 --warmup=3 --verify=$vf $size $size $size | kv | sed "s/^/${b}_$v 99K $size /"
  done; done; done; done
