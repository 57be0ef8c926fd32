#!/bin/bash
# The rule of a gemm.cu (default out/gemm.cu) scored on force.sh's runs, CPU only: for the suite's 30 skinny shapes
# and each of fp16 and int8 with B transposed and tf32 with B as stored, the rule's pick (swap-tile/sim.cu), the
# ratio cuBLAS / ours measured with that tile and split forced (force/), the geometric mean and the worst; a pick
# with no forced run of the same tile and split counts as missing. Also prints the picks that differ from the
# suite CSV's (picks.sh) on all 47 shapes and eight builds.
#   bash docs/bench/variants/h200/evict/score.sh [GEMM_CU]
cd "$(dirname "$0")/../../../../.." || exit 1
cu=$(realpath "${1:-out/gemm.cu}"); here=docs/bench/variants/h200/evict; bin=${TMPDIR:-/tmp}/gemm-score
mkdir -p $bin
for b in F16_IN_F32_OUT:16x16x16:1 TF32_IN_F32_OUT:16x16x8:0 I8_IN_I32_OUT:16x16x16:1; do
    IFS=: read -r t mnk tb <<<"$b"
    nvcc -O1 -std=c++17 -arch=sm_90a -DCONFIG_ON_COMMAND_LINE -D$t -DMNK_$mnk -DTRANSPOSE_B=$tb \
        -DGEMM_CU="\"$cu\"" -I$(dirname "$cu") -o $bin/$t-$tb docs/bench/variants/h200/swap-tile/sim.cu \
        -lcublas -lcuda 2>&1 | grep error &
done
wait
python3 - "$bin" "$here" <<'PY'
import glob, math, os, subprocess, sys
bin, here = sys.argv[1:]
shapes = open("docs/bench/variants/h200/swapped/skinny-shapes.txt").read()
for t, tb in (("F16_IN_F32_OUT", "1"), ("TF32_IN_F32_OUT", "0"), ("I8_IN_I32_OUT", "1")):
    forced = {}
    for path in glob.glob(os.path.join(here, "force", "force-%s-%s-*.txt" % (t, tb))):
        for line in open(path):
            kv = dict(f.split("=", 1) for f in line.split() if "=" in f)
            if "median_ms" in kv:
                forced[(kv["m"], kv["n"], kv["k"], kv["tile"], kv["split_tiles"])] = \
                    float(kv["cublas_median_ms"]) / float(kv["median_ms"])
    out = subprocess.run(["%s/%s-%s" % (bin, t, tb)], input=shapes, capture_output=True, text=True).stdout
    ratios, missing, worst = [], [], []
    for f in (line.split() for line in out.splitlines()):
        r = forced.get(tuple(f[:5]))
        if r is None:
            missing.append("%sx%sx%s %s s%s" % tuple(f[:5]))
        else:
            ratios.append(r)
            worst.append((r, "%sx%sx%s %s s%s" % tuple(f[:5])))
    mean = math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else 0
    worst.sort()
    print("%-16s tb%s mean %.3f over %d, worst %s; missing %s" % (
        t, tb, mean, len(ratios), ", ".join("%.3f %s" % w for w in worst[:3]), missing or "none"))
PY
bash docs/bench/variants/h200/swap-split/picks.sh "$cu" | tail -40
