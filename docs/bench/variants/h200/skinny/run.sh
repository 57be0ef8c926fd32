#!/bin/bash
# Step 8's tiles, each forced on every shape (its speed in HOPPER_TILES set to 1000 by sed), against the rule as
# committed (`base`) and cuBLAS, fp16 with B transposed, L2 evicted: the suite's shapes up to M = 1024 and three
# large ones, to measure each tile's speed per flop. Run from the repository root on an H200; kv under $OUT.
# (The runs in forced/ were made while the tiles had at most 8 stages: n128-8, n64-8; a variant then raised
# the cap to 16, n128-9 and n64, and the code now takes as many as fit: 9 and 14. See README.md.)
set -u
OUT=${OUT:-out/skinny}
W=out/skinny-work
mkdir -p "$OUT" $W
python3 - > $W/shapes.txt <<'PY'
import sys; sys.path.insert(0, "docs/bench")
from suite import SUITE
for group, m, n, k, what in SUITE:
    if m <= 1024 or (m, n, k) in ((4096, 4096, 4096), (8192, 8192, 8192), (4096, 14336, 4096)):
        print(m, n, k)
PY
variant() {   # name, sed expression
    mkdir -p $W/$1
    sed "$2" out/gemm.cu > $W/$1/gemm.cu
    cmp -s out/gemm.cu $W/$1/gemm.cu && echo "variant $1: the sed changed nothing" >&2
    make -s TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90a SRC=$W/$1/gemm.cu BIN=$W/$1/gemm > $W/$1.build 2>&1
}
wanted() { case " ${VARIANTS:-base n256 n128 n64 medium} " in *" $1 "*) return 0 ;; esac; return 1; }
wanted base && make -s TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90a BIN=$W/base/gemm > $W/base.build 2>&1 &
wanted n256 && variant n256 's/{HOPPER_NARROW, [0-9]*}/{HOPPER_NARROW, 1000}/' &
wanted n128 && variant n128 's/{HOPPER_NARROW_128, [0-9]*}/{HOPPER_NARROW_128, 1000}/' &
wanted n64 && variant n64 's/{HOPPER_NARROW_64, [0-9]*}/{HOPPER_NARROW_64, 1000}/' &
wanted medium && variant medium 's/{HOPPER_MEDIUM, [0-9]*}/{HOPPER_MEDIUM, 1000}/' &
wait
tail -n 3 $W/*.build
printf '1 1 1\n17 33 65\n100 300 129\n64 64 64\n129 257 1000\n16 4096 4100\n300 200 5000\n' > $W/small.txt
for v in ${VARIANTS:-base n256 n128 n64 medium}; do
    $W/$v/gemm --kernel=hopper --format=kv --iterations=1 --warmup=0 --verify=gpu --shapes=$W/small.txt > $W/small-$v.kv 2>&1
    echo "$v small shapes: $(grep -c result=pass $W/small-$v.kv) of 7 passed $(grep -v result=pass $W/small-$v.kv | head -3)"
    timeout 200 $W/$v/gemm --kernel=hopper --cublas --cold-l2 --format=kv --iterations=20 --warmup=3 --verify=gpu \
        --shapes=$W/shapes.txt > "$OUT/$v.kv" 2> "$W/$v.err"
    echo "$v rc=$? $(grep -c result=pass "$OUT/$v.kv") passed of $(wc -l < $W/shapes.txt)"
done
python3 docs/bench/variants/h200/skinny/table.py "$OUT" ${VARIANTS:-base n256 n128 n64 medium}
