#!/bin/bash
# The rule's picks for the suite's shapes, from a gemm.cu (default out/gemm.cu), against a suite CSV's tile and
# split_tiles columns (default docs/bench/suite-h200.csv): prints the rows that differ, then their count. CPU only.
#   bash docs/bench/variants/h200/swap-split/picks.sh [GEMM_CU [CSV]]
cd "$(dirname "$0")/../../../../.." || exit 1
cu=$(realpath "${1:-out/gemm.cu}"); csv=${2:-docs/bench/suite-h200.csv}
here=docs/bench/variants/h200/swap-tile; bin=${TMPDIR:-/tmp}/gemm-picks
mkdir -p $bin
python3 -c "import sys; sys.path.insert(0, 'docs/bench'); import suite
for s in suite.SUITE: print(s[1], s[2], s[3])" > $bin/shapes.txt
for b in F16_IN_F32_OUT:16x16x16 BF16_IN_F32_OUT:16x16x16 TF32_IN_F32_OUT:16x16x8 I8_IN_I32_OUT:16x16x16; do
    t=${b%:*}; mnk=${b#*:}
    for tb in 0 1; do
        nvcc -O1 -std=c++17 -arch=sm_90a -DCONFIG_ON_COMMAND_LINE -D$t -DMNK_$mnk -DTRANSPOSE_B=$tb \
            -DGEMM_CU="\"$cu\"" -I$(dirname "$cu") -o $bin/$t-$tb $here/sim.cu -lcublas -lcuda 2>&1 | grep error &
    done
done
wait
python3 - "$bin" "$csv" <<'PY'
import csv, subprocess, sys
bin, path = sys.argv[1:]
differ = 0
rows = [r for r in csv.DictReader(open(path)) if r["kernel"] == "hopper"]
for t, tb in sorted({(r["type"], r["transpose_b"]) for r in rows}):
    out = subprocess.run(["%s/%s-%s" % (bin, t, tb)], stdin=open(bin + "/shapes.txt"), capture_output=True, text=True)
    pick = {tuple(f[:3]): (f[3], f[4]) for f in (line.split() for line in out.stdout.splitlines())}
    for r in rows:
        if (r["type"], r["transpose_b"]) == (t, tb) and pick[(r["m"], r["n"], r["k"])] != (r["tile"], r["split_tiles"]):
            differ += 1
            print(t, tb, r["m"], r["n"], r["k"], "csv", r["tile"], r["split_tiles"], "rule", *pick[(r["m"], r["n"], r["k"])])
print("picks.sh: %d of %d rows differ" % (differ, len(rows)))
PY
