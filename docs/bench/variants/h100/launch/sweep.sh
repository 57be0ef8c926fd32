#!/bin/bash
# sweep-1.txt, ncu.txt, sweep-2.txt: where d_gemm_hopper's extra time on small shapes goes (fp16, B transposed,
# L2 evicted). Variants of cfae255's out/gemm.cu: g0 as it was; g1 tiles without a cluster launched as a plain
# grid; g2 g1 and no cluster barrier at the kernel's end (unsafe for clusters of two: it failed, as expected);
# g3 g1 with __syncthreads at the start and no barrier at the end, for tiles without a cluster only.
# sweep-1.txt's variant g1 failed (it also dropped the attribute from the occupancy query); the g1 of sweep-2.txt
# keeps it there. Run from the repository root on an H100.
set -u
W=out/launch; mkdir -p $W
git show cfae255:out/gemm.cu > $W/g0.cu
python3 - $W <<'PY'
import sys
w = sys.argv[1]
src = open(w + "/g0.cu").read()
old = "    cudaLaunchConfig_t config = hopper_launch(step, run->grid_clusters, &attribute);\n    Run copy = *run;"
g1 = src.replace(old, old.replace("&attribute);", "&attribute);\n    config.numAttrs = hopper_tile(step).cluster > 1;"))
end = "    cluster_sync();   /* the other block may still copy into us or arrive on our barriers */"
start = "    cluster_sync();   /* both blocks' barriers are ready before either copies */"
open(w + "/g1.cu", "w").write(g1)
open(w + "/g2.cu", "w").write(g1.replace(end, "    __syncwarp();"))
open(w + "/g3.cu", "w").write(g1.replace(start, "    if (tile.cluster > 1) cluster_sync(); else __syncthreads();")
                              .replace(end, "    if (tile.cluster > 1) cluster_sync();"))
PY
FL="-O3 -std=c++17 -lineinfo --threads 0 -gencode arch=compute_90a,code=sm_90a -DCONFIG_ON_COMMAND_LINE -DF16_IN_F32_OUT -DMNK_16x16x16 -DTRANSPOSE_A=0 -DTRANSPOSE_B=1"
for v in g0 g1 g2 g3; do nvcc $FL -o $W/$v $W/$v.cu -lcublas & done
wait
printf '%s\n' "256 256 256" "256 256 4096" "512 512 512" "1024 1024 1024" "1000 1000 1000" "128 4096 4096" \
  "16 4096 4096" "64 4096 14336" "777 1000 4096" "256 4096 4096" "2048 2048 2048" > $W/shapes.txt
for pass in 1 2; do for b in g0 g1 g2 g3; do
  echo "== $b pass $pass"
  $W/$b --kernel=hopper --cublas --cold-l2 --format=kv --iterations=50 --warmup=5 --verify=gpu --shapes=$W/shapes.txt \
    | python3 -c '
import sys
for l in sys.stdin:
    d=dict(x.split("=",1) for x in l.split() if "=" in x)
    print(d.get("m"),d.get("n"),d.get("k"),d.get("tile"),d.get("cluster"),"ours",d.get("median_ms"),"cublas",d.get("cublas_median_ms"),d.get("result"))'
done; done
for s in "256 256 256" "1024 1024 1024" "128 4096 4096"; do   # ncu.txt: each launch's duration, ours and cuBLAS's
  echo "== $s"
  ncu --clock-control none --metrics gpu__time_duration.sum,sm__cycles_active.avg,launch__grid_size $W/g0 --kernel=hopper \
    --cublas --iterations=3 --warmup=2 --verify=off $s 2>&1 | grep -E "^  [a-z_]|gpu__time|launch__grid|sm__cycles"
done
