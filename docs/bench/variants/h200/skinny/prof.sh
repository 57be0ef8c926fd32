#!/bin/bash
# Where the time of --kernel=hopper goes on skinny shapes (fp16, B transposed), H200: each launch's duration
# (Nsight Compute, one run, L2 not evicted) beside the event-timed median with the L2 evicted; and a variant
# `n128` whose 64-row tile becomes 128 x 256 with two consumers, forced on every shape, against the 64-row
# tile forced (`n64`). Run from the repository root; output under $OUT. It ran on gemm.md of 2801753 (one 64 x
# 256 tile): its seds match that source; prof/narrow.kv is its n64, prof/narrow-two.kv its n128.
set -u
OUT=${OUT:-out/skinny}
W=out/skinny-work
mkdir -p "$OUT" $W
variant() {   # name, sed expression
    mkdir -p $W/$1
    sed "$2" out/gemm.cu > $W/$1/gemm.cu
    cmp -s out/gemm.cu $W/$1/gemm.cu && echo "variant $1: the sed changed nothing" >&2
    make -s TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90a SRC=$W/$1/gemm.cu BIN=$W/$1/gemm > $W/$1.build 2>&1
}
make -s TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90a BIN=$W/base/gemm > $W/base.build 2>&1 &
variant n64 's/{HOPPER_NARROW, 55}/{HOPPER_NARROW, 1000}/' &
variant n128 's/{HOPPER_NARROW, 55}/{HOPPER_NARROW, 1000}/; s/tile.consumers = step >= HOPPER_TWO_CONSUMERS \&\& !narrow ? 2 : 1;/tile.consumers = step >= HOPPER_TWO_CONSUMERS ? 2 : 1;/' &
wait
tail -n 3 $W/*.build
SHAPES="16 4096 4096|128 4096 4096|16 4096 14336|16 14336 4096|128 8192 8192|256 8192 8192|128 4096 14336|16 8192 28672"
IFS='|'; for s in $SHAPES; do echo "$s"; done > $W/shapes.txt; unset IFS
for v in base n64 n128; do
    timeout 200 $W/$v/gemm --kernel=hopper --cublas --cold-l2 --format=kv --iterations=20 --warmup=3 --verify=gpu \
        --shapes=$W/shapes.txt > "$OUT/$v.kv" 2> "$OUT/$v.err"
    echo "$v rc=$? $(grep -c result=pass "$OUT/$v.kv") passed"
done
IFS='|'; for s in $SHAPES; do
  unset IFS
  echo "== $s"
  ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum --csv \
      $W/base/gemm --kernel=hopper --iterations=1 --warmup=0 --verify=off --cublas $s > $W/ncu.csv 2>&1
  python3 - $W/ncu.csv <<'PY'
import csv, sys
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
for r in csv.DictReader(rows):
    print("%-4s %-50.50s %-24s %s %s" % (r["ID"], r["Kernel Name"], r["Metric Name"], r["Metric Value"], r["Metric Unit"]))
PY
  IFS='|'
done; unset IFS
python3 - "$OUT" <<'PY'
import sys, os
def kv(path):
    rows = []
    for line in open(path):
        d = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if "m" in d: rows.append(d)
    return rows
runs = {v: kv(os.path.join(sys.argv[1], v + ".kv")) for v in ("base", "n64", "n128")}
print("%-16s %8s %8s %8s %8s  %s" % ("MxNxK", "base", "n64", "n128", "cublas_ms", "tiles base/n64/n128"))
for i, r in enumerate(runs["base"]):
    cells = [runs[v][i] if i < len(runs[v]) else {} for v in ("base", "n64", "n128")]
    print("%-16s %8s %8s %8s %8s  %s" % ("x".join((r["m"], r["n"], r["k"])), *(c.get("median_ms", "-") for c in cells),
          r.get("cublas_median_ms", "-"), " / ".join(c.get("tile", "-") + ":" + c.get("split_tiles", "-") for c in cells)))
PY
