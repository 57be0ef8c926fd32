#!/bin/bash
# d_gemm_hopper step 8 (tiles chosen by shape): hopper7 against hopper8 (--kernel=hopper) and cuBLAS on the
# suite's shapes, L2 evicted before each timed run (--cold-l2), fp16 with B transposed (nn.Linear's layout);
# and variants of step 8 built from out/gemm.cu with one line changed: NARROW (every shape on 64-row tiles, to
# measure their speed per flop), FILL0 (split every tile when at most half the SMs' worth, however short),
# NOFILL (never); bf16 runs hopper7 and hopper8 too. PARTS picks (default "base narrow fill0 nofill bf16"). Run from the repository root on an
# H200; kv files under $OUT (or out/by-shape).
set -u
OUT=${OUT:-out/by-shape}
PARTS=${PARTS:-base narrow fill0 nofill bf16}
W=out/by-shape
mkdir -p "$OUT" $W
python3 - > $W/shapes.txt <<'PY'
import sys; sys.path.insert(0, "docs/bench")
from suite import SUITE
for group, m, n, k, what in SUITE:
    print(m, n, k)
PY
variant() {   # name, sed expression
    mkdir -p $W/$1
    sed "$2" out/gemm.cu > $W/$1/gemm.cu
    cmp -s out/gemm.cu $W/$1/gemm.cu && echo "variant $1: the sed changed nothing" >&2
    make -s TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90a SRC=$W/$1/gemm.cu BIN=$W/$1/gemm > $W/$1.build 2>&1
}
make -s TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90a STEPS=1 BIN=$W/base/gemm > $W/base.build 2>&1 &
make -s TYPE=BF16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90a STEPS=1 BIN=$W/bf16/gemm > $W/bf16.build 2>&1 &
wanted() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
wanted narrow && variant narrow 's/{HOPPER_NARROW, 55}/{HOPPER_NARROW, 1000}/' &
wanted fill0 && variant fill0 's/^#define HOPPER_FILL_SECONDS [0-9e.-]*/#define HOPPER_FILL_SECONDS 0.0/' &
wanted nofill && variant nofill 's/^#define HOPPER_FILL_SECONDS [0-9e.-]*/#define HOPPER_FILL_SECONDS 1.0/' &
wait
tail -n 3 $W/*.build
run() {   # name, binary, kernel
    timeout 300 $2 --kernel=$3 --cublas --cold-l2 --format=kv --iterations=20 --warmup=3 --verify=gpu \
        --shapes=$W/shapes.txt > "$OUT/$1.kv" 2> "$OUT/$1.err"
    echo "$1 rc=$? $(grep -c result=pass "$OUT/$1.kv") passed"
}
for part in $PARTS; do
    case $part in
    base) run hopper7 $W/base/gemm hopper7; run hopper8 $W/base/gemm hopper ;;
    bf16) run bf16-hopper7 $W/bf16/gemm hopper7; run bf16-hopper8 $W/bf16/gemm hopper ;;
    *) run $part $W/$part/gemm hopper ;;
    esac
done
python3 docs/bench/variants/h200/by-shape/table.py "$OUT"
