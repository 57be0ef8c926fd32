#!/bin/bash
# The full tiles (no --shared-limit) of fp16 and bf16, zeros against next bytes, 8192³, three passes
# alternating; build/base.cu and build/ovr.cu come from mk.py (run where git history is).
cd "$(dirname "$0")"
for v in base ovr; do for t in f16 bf; do for tb in 0 1; do ./build.sh $v $t $tb & done; done; done; wait
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
kv() { python3 -c 'import sys; kv=dict(t.split("=",1) for t in sys.stdin.read().split() if "=" in t); print(" ".join(kv.get(k,"?") for k in ("tile","stages","cluster","shared_bytes","copy_path","rate","median_ms","result")))'; }
for pass in 1 2 3; do for t in f16 bf; do for tb in 0 1; do for v in base ovr; do b=${t}_${tb}_$v
  timeout 60 ./build/$b --format=kv --iterations=10 --warmup=3 --verify=off 8192 8192 8192 | kv | sed "s/^/$b full 8192 /"
done; done; done; done
for b in f16_0_ovr f16_1_ovr bf_0_ovr bf_1_ovr; do timeout 60 ./build/$b --format=kv --verify=gpu --iterations=3 --warmup=1 4096 4096 4096 | kv | sed "s/^/$b full 4096 /"; done
