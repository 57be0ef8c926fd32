#!/bin/bash
# ab.txt: out/gemm.cu (tiles without a cluster launched as a plain grid, a relaxed cluster barrier at the start,
# the producer's wait for its last slabs instead of a cluster barrier at the end) against cfae255's, fp16, B
# transposed and as stored, 13 shapes, L2 evicted, verified, two passes. Run from the repository root on an H100.
set -u
W=out/launch; mkdir -p $W
git show cfae255:out/gemm.cu > $W/old.cu
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u
FL="-O3 -std=c++17 -lineinfo --threads 0 -gencode arch=compute_90a,code=sm_90a -DCONFIG_ON_COMMAND_LINE -DMNK_16x16x16 -DTRANSPOSE_A=0"
for tb in 1 0; do
  nvcc $FL -DF16_IN_F32_OUT -DTRANSPOSE_B=$tb -o $W/old$tb $W/old.cu -lcublas &
  nvcc $FL -DF16_IN_F32_OUT -DTRANSPOSE_B=$tb -o $W/new$tb out/gemm.cu -lcublas &
done
wait
printf '%s\n' "256 256 256" "256 256 4096" "512 512 512" "1024 1024 1024" "1000 1000 1000" "128 4096 4096" \
  "16 4096 4096" "64 4096 14336" "777 1000 4096" "256 4096 4096" "256 8192 8192" "2048 2048 2048" \
  "4096 4096 4096" > $W/shapes.txt
for pass in 1 2; do for tb in 1 0; do for b in old new; do
  echo "== $b TRANSPOSE_B=$tb pass $pass"
  $W/$b$tb --kernel=hopper --cublas --cold-l2 --format=kv --iterations=30 --warmup=5 --verify=gpu --shapes=$W/shapes.txt \
    | python3 -c '
import sys
for l in sys.stdin:
    d=dict(x.split("=",1) for x in l.split() if "=" in x)
    print(d.get("m"),d.get("n"),d.get("k"),d.get("tile"),d.get("cluster"),"ours",d.get("median_ms"),"cublas",d.get("cublas_median_ms"),d.get("result"))'
done; done; done
