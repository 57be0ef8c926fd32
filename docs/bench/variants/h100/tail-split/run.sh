#!/bin/bash
# Step 6 splits a short last round along K only when a cluster tile is 50 us of work or more at the rated speed
# (hopper_whole_tiles). Here the threshold is 20 us (variant s20), which splits the last round of the shapes
# below and of no other suite shape (checked on the CPU); fp16, B transposed, L2 evicted, against cuBLAS in the
# same process, two passes each, alternating. Run from the repository root on a 9.0 GPU; kv files under $OUT.
set -u
OUT=${OUT:-out/tail-split}
W=out/tail-split-work
mkdir -p "$OUT" $W/base $W/s20
printf '%s\n' "3000 3000 3000" "3750 3750 3750" "4250 4250 4250" "4750 4750 4750" "5000 5000 5000" \
    "5500 5500 5500" "3000 7000 4096" "4096 4096 4096" > $W/shapes.txt
sed 's/seconds >= 50e-6/seconds >= 20e-6/' out/gemm.cu > $W/s20/gemm.cu
cmp -s out/gemm.cu $W/s20/gemm.cu && { echo "s20: the sed changed nothing"; exit 1; }
make -s TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90a BIN=$W/base/gemm > $W/base.build 2>&1 &
make -s TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90a SRC=$W/s20/gemm.cu BIN=$W/s20/gemm > $W/s20.build 2>&1 &
wait
for pass in 1 2; do
  for v in base s20; do
    $W/$v/gemm --kernel=hopper --cublas --cold-l2 --format=kv --iterations=20 --warmup=3 --verify=gpu \
        --shapes=$W/shapes.txt > $OUT/$v-$pass.kv 2>&1
  done
done
python3 - $OUT <<'PY'
import sys, glob, os
def rows(path):
    out = {}
    for line in open(path):
        kv = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if "m" in kv and "median_ms" in kv:
            out[(kv["m"], kv["n"], kv["k"])] = kv
    return out
d = sys.argv[1]
print("%-18s %-12s %5s %9s %9s %9s %6s %6s" % ("shape", "variant", "split", "ms", "cublas", "ratio", "pass", "res"))
for p in (1, 2):
    base, s20 = rows(f"{d}/base-{p}.kv"), rows(f"{d}/s20-{p}.kv")
    for key in base:
        for name, r in (("base", base[key]), ("s20", s20.get(key, {}))):
            if not r: continue
            ms, cu = float(r["median_ms"]), float(r["cublas_median_ms"])
            print("%-18s %-12s %5s %9.4f %9.4f %9.3f %6d %6s" % ("x".join(key), name, r.get("split_tiles", "?"), ms, cu, cu / ms, p, r.get("result", "?")))
PY
