#!/bin/bash
# tf32.txt: tf32 with B as stored (the operands swap roles), step 8's small tiles split when tiles x fill_share <=
# clusters, with fill_share 4 (6e8b355, "now"), 2 (fs2, kept) or 1 (fs1); 15 skinny shapes, L2 evicted, verified,
# two passes. Run from the repository root on an H100.
set -u
W=out/tf32-fill; mkdir -p $W
git show 6e8b355:out/gemm.cu > $W/now.cu
sed 's/    tile.fill_share = small ? 4 : 2;/    tile.fill_share = small \&\& !HOPPER_SWAP ? 4 : 2;/' $W/now.cu > $W/fs2.cu
sed 's/    tile.fill_share = small ? 4 : 2;/    tile.fill_share = small \&\& HOPPER_SWAP ? 1 : small ? 4 : 2;/' $W/now.cu > $W/fs1.cu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
FL="-O3 -std=c++17 -lineinfo --threads 0 -gencode arch=compute_90a,code=sm_90a -DCONFIG_ON_COMMAND_LINE -DTF32_IN_F32_OUT -DMNK_16x16x8 -DTRANSPOSE_A=0 -DTRANSPOSE_B=0"
for b in now fs2 fs1; do nvcc $FL -o $W/t_$b $W/$b.cu -lcublas & done
wait
printf '%s\n' "16 4096 14336" "32 4096 14336" "64 4096 14336" "128 4096 14336" "16 8192 8192" "32 8192 8192" \
  "64 8192 8192" "128 8192 8192" "16 8192 28672" "32 8192 28672" "64 8192 28672" "128 8192 28672" \
  "256 6144 4096" "256 8192 8192" "16 6144 4096" > $W/shapes.txt
for pass in 1 2; do for b in now fs2 fs1; do
  echo "== $b pass $pass"
  $W/t_$b --kernel=hopper --cublas --cold-l2 --format=kv --iterations=20 --warmup=3 --verify=gpu --shapes=$W/shapes.txt \
    | python3 -c '
import sys
for l in sys.stdin:
    d=dict(x.split("=",1) for x in l.split() if "=" in x)
    print(d.get("m"),d.get("n"),d.get("k"),d.get("tile"),d.get("cluster"),d.get("split_tiles"),"ours",d.get("median_ms"),"cublas",d.get("cublas_median_ms"),d.get("result"))'
done; done
