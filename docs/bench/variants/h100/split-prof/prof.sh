#!/bin/bash
# Where the time of --kernel=hopper goes on the shapes step 8 splits along K and loses most on (fp16, B
# transposed): each launch's duration and DRAM traffic (Nsight Compute, one run, L2 not evicted), ours and
# cuBLAS's, and the kernel's tile, split and event-timed median (L2 evicted). Run from the repository root on a
# 9.0 GPU; output under $OUT (prof.txt).
set -u
OUT=${OUT:-out/split-prof}
W=out/split-prof-work
mkdir -p "$OUT" $W
make -s TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90a BIN=$W/gemm > $W/build.txt 2>&1 || { cat $W/build.txt; exit 1; }
SHAPES="1024 1024 32768|256 8192 28672|256 4096 14336|16 4096 14336|128 4096 14336"
IFS='|'; for s in $SHAPES; do echo "$s"; done > $W/shapes.txt; unset IFS
{
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
$W/gemm --kernel=hopper --cublas --cold-l2 --format=kv --iterations=20 --warmup=3 --verify=gpu --shapes=$W/shapes.txt |
    tr ' ' '\n' | grep -E '^(m|n|k|tile|split_tiles|median_ms|cublas_median_ms|result)=' | paste -sd' ' | sed 's/ m=/\nm=/g'
IFS='|'; for s in $SHAPES; do
  unset IFS
  echo "== $s"
  ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv \
      $W/gemm --kernel=hopper --iterations=1 --warmup=0 --verify=off --cublas $s > $W/ncu.csv 2>&1
  python3 - $W/ncu.csv <<'PY'
import csv, sys
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
for r in csv.DictReader(rows):
    print("%-4s %-60.60s %-26s %s %s" % (r["ID"], r["Kernel Name"], r["Metric Name"], r["Metric Value"], r["Metric Unit"]))
PY
  IFS='|'
done
} > "$OUT/prof.txt" 2>&1
cat "$OUT/prof.txt"
