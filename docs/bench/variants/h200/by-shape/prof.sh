# Kernel times of --kernel=hopper's launches (Nsight Compute) on three skinny shapes that step 8 splits.
set -u
OUT=${OUT:-out/prof}
make -s TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90a BIN=out/prof/gemm > out/prof.build 2>&1; tail -3 out/prof.build
for s in "16 4096 14336" "128 4096 14336" "256 4096 4096"; do
  echo "== $s"
  ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv \
      out/prof/gemm --kernel=hopper --iterations=1 --warmup=0 --verify=off --cublas $s > "$OUT/ncu-${s// /x}.csv" 2>&1
  python3 - "$OUT/ncu-${s// /x}.csv" <<'PY'
import csv, sys
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
for r in csv.DictReader(rows):
    print("%-6s %-60.60s %-28s %s %s" % (r["ID"], r["Kernel Name"], r["Metric Name"], r["Metric Value"], r["Metric Unit"]))
PY
done
