#!/bin/bash
# d_gemm_hopper step 7 (a first round as short split along K): hopper6 against hopper7 and cuBLAS on the
# suite's shapes, fp16 and bf16 with B transposed (nn.Linear's layout), in one process per kernel; and
# hopper7 built with HOPPER_FILL_SECONDS 0 (every problem of at most half the clusters' tiles split) to
# place the threshold (ZERO=0 leaves that run out). Run from the repository root on an H200; results under $OUT (or out/fill).
set -u
OUT=${OUT:-out/fill}
mkdir -p "$OUT" out/fill
python3 - > out/fill/shapes.txt <<'PY'
import sys; sys.path.insert(0, "docs/bench")
from suite import SUITE
for group, m, n, k, what in SUITE:
    print(m, n, k)
PY
for type in F16_IN_F32_OUT BF16_IN_F32_OUT; do
    make -s TYPE=$type TRANSPOSE_B=1 STEPS=1 BIN=out/fill/$type/gemm > out/fill/$type.build 2>&1 &
done
mkdir -p out/fill/zero
sed 's/^#define HOPPER_FILL_SECONDS [0-9e.-]*/#define HOPPER_FILL_SECONDS 0.0/' out/gemm.cu > out/fill/zero/gemm.cu
grep -c 'HOPPER_FILL_SECONDS 0.0' out/fill/zero/gemm.cu
make -s TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 SRC=out/fill/zero/gemm.cu BIN=out/fill/zero/gemm > out/fill/zero.build 2>&1 &
wait
tail -n 3 out/fill/*.build
for type in F16_IN_F32_OUT BF16_IN_F32_OUT; do
    for kernel in hopper6 hopper7; do
        out/fill/$type/gemm --kernel=$kernel --cublas --format=kv --iterations=20 --warmup=3 --verify=gpu \
            --shapes=out/fill/shapes.txt > "$OUT/$type-$kernel.kv" 2> "$OUT/$type-$kernel.err"
        echo "$type $kernel rc=$?"
    done
done
[ "${ZERO:-1}" = 1 ] && out/fill/zero/gemm --kernel=hopper --cublas --format=kv --iterations=20 --warmup=3 --verify=gpu \
    --shapes=out/fill/shapes.txt > "$OUT/zero-hopper.kv" 2> "$OUT/zero-hopper.err"
echo "zero rc=$?"
python3 - "$OUT" <<'PY'
import sys, os, glob
out = sys.argv[1]
def load(path):
    rows = {}
    for line in open(path):
        kv = dict(t.split("=", 1) for t in line.split() if "=" in t)
        if "m" in kv:
            rows[(kv["m"], kv["n"], kv["k"])] = kv
    return rows
for type in ("F16_IN_F32_OUT", "BF16_IN_F32_OUT"):
    six, seven = load("%s/%s-hopper6.kv" % (out, type)), load("%s/%s-hopper7.kv" % (out, type))
    zero = load("%s/zero-hopper.kv" % out) if type.startswith("F16") and os.path.exists("%s/zero-hopper.kv" % out) else {}
    print("%s, B transposed: rate (TFLOP/s) and ratio to cuBLAS" % type)
    print("%-20s %9s %9s %9s %7s %7s %6s %s" % ("M x N x K", "hopper6", "hopper7", "cublas", "h6/cb", "h7/cb", "split", "zero/cb"))
    for key in six:
        a, b = six[key], seven.get(key, {})
        cb = float(b.get("cublas_rate", a.get("cublas_rate", "nan")))
        z = zero.get(key)
        print("%-20s %9s %9s %9.1f %7.2f %7.2f %6s %s %s %s" % ("x".join(key), a.get("rate"), b.get("rate"), cb,
              float(a["rate"]) / cb, float(b.get("rate", "nan")) / cb, b.get("split_tiles"),
              "%.2f" % (float(z["rate"]) / float(z["cublas_rate"])) if z else "",
              a.get("result"), b.get("result")))
PY
