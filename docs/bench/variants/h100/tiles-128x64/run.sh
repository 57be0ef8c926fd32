#!/bin/bash
# d_gemm_hopper step 8 with a fifth tile without a cluster, 128 x 64 with two consumers (HOPPER_MEDIUM_64), and
# programmatic dependent launch of d_gather_pieces: fp16 with B transposed, L2 evicted, against cuBLAS in the
# same process, on the suite's shapes up to M = 1024 and three large ones. Variants (one binary each):
#   old     the rule before 128 x 64 (its speed set to 1, so it never wins)
#   base    the rule with 128 x 64 at its speed in HOPPER_TILES
#   m64     128 x 64 forced on every shape (speed 1000); n128, medium: 64 x 128 and 128 x 128 forced
#   pdl     base, with d_gather_pieces launched early (pdl.py)
# Run from the repository root on a 9.0 GPU; kv files and the table under $OUT.
set -u
OUT=${OUT:-out/tiles-128x64}
W=out/tiles-128x64-work
D=docs/bench/variants/h100/tiles-128x64
mkdir -p "$OUT" $W
python3 - > $W/shapes.txt <<'PY'
import sys; sys.path.insert(0, "docs/bench")
from suite import SUITE
for group, m, n, k, what in SUITE:
    if m <= 1024 or (m, n, k) in ((4096, 4096, 4096), (8192, 8192, 8192), (4096, 14336, 4096)):
        print(m, n, k)
PY
build() {   # name, source
    make -s TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90a SRC=$2 BIN=$W/$1/gemm > $W/$1.build 2>&1
}
variant() {   # name, sed expression
    mkdir -p $W/$1
    sed "$2" out/gemm.cu > $W/$1/gemm.cu
    cmp -s out/gemm.cu $W/$1/gemm.cu && echo "variant $1: the sed changed nothing" >&2
    build $1 $W/$1/gemm.cu
}
VARIANTS=${VARIANTS:-old base m64 n128 medium pdl}
wanted() { case " $VARIANTS " in *" $1 "*) return 0 ;; esac; return 1; }
wanted base && build base out/gemm.cu &
wanted old && variant old 's/{HOPPER_MEDIUM_64, [0-9]*}/{HOPPER_MEDIUM_64, 1}/' &
wanted m64 && variant m64 's/{HOPPER_MEDIUM_64, [0-9]*}/{HOPPER_MEDIUM_64, 1000}/' &
wanted n128 && variant n128 's/{HOPPER_NARROW_128, [0-9]*}/{HOPPER_NARROW_128, 1000}/' &
wanted medium && variant medium 's/{HOPPER_MEDIUM, [0-9]*}/{HOPPER_MEDIUM, 1000}/' &
wanted pdl && { mkdir -p $W/pdl && python3 $D/pdl.py out/gemm.cu $W/pdl/gemm.cu && build pdl $W/pdl/gemm.cu; } &
wait
tail -n 3 $W/*.build
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
printf '1 1 1\n17 33 65\n100 300 129\n64 64 64\n129 257 1000\n16 4096 4100\n300 200 5000\n' > $W/small.txt
for v in $VARIANTS; do
    $W/$v/gemm --kernel=hopper --format=kv --iterations=1 --warmup=0 --verify=gpu --shapes=$W/small.txt > $W/small-$v.kv 2>&1
    echo "$v small shapes: $(grep -c result=pass $W/small-$v.kv) of 7 passed $(grep -v result=pass $W/small-$v.kv | head -3)"
    timeout 150 $W/$v/gemm --kernel=hopper --cublas --cold-l2 --format=kv --iterations=20 --warmup=3 --verify=gpu \
        --shapes=$W/shapes.txt > "$OUT/$v.kv" 2> "$W/$v.err"
    echo "$v rc=$? $(grep -c result=pass "$OUT/$v.kv") passed of $(wc -l < $W/shapes.txt) $(head -c 300 $W/$v.err)"
done
python3 docs/bench/variants/h200/skinny/table.py "$OUT" $VARIANTS | tee "$OUT/table.txt"
