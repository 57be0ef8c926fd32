#!/bin/bash
# Where --kernel=hopper loses to cuBLAS on shapes of one round or less (fp16, B transposed): per launch, the
# duration, the grid, the bytes moved between L2 and the SMs and from DRAM, and how busy L2, DRAM, the SMs and
# the tensor pipe were (Nsight Compute, one run; ncu flushes the caches before each profiled launch). Ours and
# cuBLAS's, with each shape's tile, split and event-timed medians (L2 evicted). Run from the repository root on a
# 9.0 GPU; output under $OUT (prof.txt).
set -u
OUT=${OUT:-out/l2-prof}
W=out/l2-prof-work
mkdir -p "$OUT" $W
make -s TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90a BIN=$W/gemm > $W/build.txt 2>&1 || { cat $W/build.txt; exit 1; }
SHAPES=${SHAPES:-"16 4096 4096|128 4096 4096|256 4096 4096|256 8192 8192|256 256 256|1000 1000 1000|1024 1024 1024|777 1000 4096|2048 2048 2048|5000 5000 5000"}
IFS='|'; for s in $SHAPES; do echo "$s"; done > $W/shapes.txt; unset IFS
FULL=gpu__time_duration.sum,launch__grid_size,lts__t_bytes.sum,dram__bytes_read.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed
BASIC=gpu__time_duration.sum,launch__grid_size,lts__t_bytes.sum,dram__bytes_read.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
{
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
$W/gemm --kernel=hopper --cublas --cold-l2 --format=kv --iterations=20 --warmup=3 --verify=gpu --shapes=$W/shapes.txt |
    tr ' ' '\n' | grep -E '^(m|n|k|tile|split_tiles|median_ms|cublas_median_ms|result)=' | paste -sd' ' | sed 's/ m=/\nm=/g'
IFS='|'; for s in $SHAPES; do
  unset IFS
  echo "== $s"
  ncu --clock-control none --metrics $FULL --csv $W/gemm --kernel=hopper --iterations=1 --warmup=0 --verify=off \
      --cublas $s > $W/ncu.csv 2>&1
  grep -q '"Kernel Name"' $W/ncu.csv || ncu --clock-control none --metrics $BASIC --csv $W/gemm --kernel=hopper \
      --iterations=1 --warmup=0 --verify=off --cublas $s > $W/ncu.csv 2>&1
  python3 - $W/ncu.csv <<'PY'
import csv, sys
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
if not rows:
    print("".join(open(sys.argv[1]).readlines()[-5:]))
for r in csv.DictReader(rows):
    print("%-4s %-50.50s %-70s %s %s" % (r["ID"], r["Kernel Name"], r["Metric Name"], r["Metric Value"], r["Metric Unit"]))
PY
  IFS='|'
done
} > "$OUT/prof.txt" 2>&1
tail -n 40 "$OUT/prof.txt"
