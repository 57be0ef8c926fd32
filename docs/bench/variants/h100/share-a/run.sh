#!/bin/bash
# d_gemm_hopper step 8: the two 128-row small tiles in clusters of two side by side along N, rank 0 requesting A's
# slab for both blocks (.multicast::cluster), each block its own B; and step 6 splitting a short last round when a
# tile's time less one piece's is at least twice HOPPER_SPLIT_SECONDS. fp16 with B transposed, L2 evicted, against
# cuBLAS in the same process, on the suite's shapes up to M = 1024 and four large ones. Variants (one binary each):
#   old     gemm.md before this change (small tiles without a cluster; split only tiles of 50 us or more)
#   base    this change, the rule's picks
#   all5    base with all five small tiles in clusters sharing A (the first version of the change)
#   n64, n128, m64, m128   this change with one small tile forced (speed 1000): 64 x 64, 64 x 128, 128 x 64,
#           128 x 128. n256.kv (64 x 256 forced) is from the tree before 64 x 256 was dropped, where
#           HOPPER_NARROW was 64 x 256 and HOPPER_NARROW_128 64 x 128 (the README says how to redo it)
# Run from the repository root on a 9.0 GPU, with the old source at out/share-a-old.cu (git show
# 61f3ef5:out/gemm.cu > out/share-a-old.cu); kv files under $OUT.
set -u
OUT=${OUT:-out/share-a}
W=out/share-a-work
mkdir -p "$OUT" $W
python3 - > $W/shapes.txt <<'PY'
import sys; sys.path.insert(0, "docs/bench")
from suite import SUITE
for group, m, n, k, what in SUITE:
    if m <= 1024 or (m, n, k) in ((4096, 4096, 4096), (4096, 14336, 4096), (5000, 5000, 5000), (2048, 2048, 2048)):
        print(m, n, k)
PY
sort -u $W/shapes.txt -o $W/shapes.txt
build() {   # name, source
    mkdir -p $W/$1
    make -s TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90a SRC=$2 BIN=$W/$1/gemm > $W/$1.build 2>&1 || cat $W/$1.build
}
variant() {   # name, sed expression
    mkdir -p $W/$1
    sed "$2" out/gemm.cu > $W/$1/gemm.cu
    cmp -s out/gemm.cu $W/$1/gemm.cu && echo "variant $1: the sed changed nothing" >&2
    build $1 $W/$1/gemm.cu
}
VARIANTS=${VARIANTS:-old base all5 n64 n128 m64 m128}
wanted() { case " $VARIANTS " in *" $1 "*) return 0 ;; esac; return 1; }
wanted old && build old out/share-a-old.cu &
wanted base && build base out/gemm.cu &
wanted all5 && variant all5 's/step >= HOPPER_CLUSTER \&\& (!small || tile.consumers == 2) ? 2 : 1;/step >= HOPPER_CLUSTER ? 2 : 1;/' &
wanted n64 && variant n64 's/{HOPPER_NARROW_64, [0-9]*}/{HOPPER_NARROW_64, 1000}/' &
wanted n128 && variant n128 's/{HOPPER_NARROW, [0-9]*}/{HOPPER_NARROW, 1000}/' &
wanted m64 && variant m64 's/{HOPPER_MEDIUM_64, [0-9]*}/{HOPPER_MEDIUM_64, 1000}/' &
wanted m128 && variant m128 's/{HOPPER_MEDIUM, [0-9]*}/{HOPPER_MEDIUM, 1000}/' &
wait
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
for v in $VARIANTS; do
    $W/$v/gemm --kernel=hopper --cublas --cold-l2 --format=kv --iterations=20 --warmup=3 --verify=gpu \
        --shapes=$W/shapes.txt > $OUT/$v.kv 2>&1
done
python3 docs/bench/variants/h100/share-a/table.py $OUT $VARIANTS | tee $OUT/table.txt
