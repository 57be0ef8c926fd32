#!/usr/bin/env bash
# Candidate tile configurations for the smaller shared-memory budgets (gemm.md, "Tile sizes per GPU").
# Applies candidates.patch to a copy of gemm.md (extra rows of the tile table, and GEMM_TILE=<row> to force
# one), builds fp16, F16_IN_OUT and int8 for sm_90 and fp16 as compute_80 PTX (the cp.async path), and
# times every row at 8192^3 and 4096^3, B as stored. Run from the repository root on the GPU:
#   bash docs/bench/variants/h100/tiers/run.sh > tiers.txt
set -euo pipefail
here=docs/bench/variants/h100/tiers
work=$(mktemp -d)
cp gemm.md "$work/gemm.md"
patch -s "$work/gemm.md" "$here/candidates.patch"
python3 tangle.py "$work/gemm.md" -o "$work/gemm.cu"
build() {   # type, arch flags, binary
    nvcc -O3 -std=c++17 -DCONFIG_ON_COMMAND_LINE -D"$1" -DMNK_16x16x16 -Xptxas \
         -suppress-async-bulk-multicast-advisory-warning $2 -o "$3" "$work/gemm.cu" -lcublas
}
build F16_IN_F32_OUT "-gencode arch=compute_90,code=sm_90" "$work/f16" &
build F16_IN_OUT "-gencode arch=compute_90,code=sm_90" "$work/f16acc" &
build I8_IN_I32_OUT "-gencode arch=compute_90,code=sm_90" "$work/i8" &
build F16_IN_F32_OUT "-gencode arch=compute_80,code=compute_80" "$work/f16_sm80" &
wait
echo "binary tile_row size tile stages cluster shared_bytes copy_path rate median_ms result"
for binary in f16 f16acc i8 f16_sm80; do
    case $binary in f16|f16_sm80) rows="0 1 2 3 4 5 6 7 8 9";; f16acc) rows="0 1 2 3 4 5 6 7";; i8) rows="0 1 2 3";; esac
    for row in $rows; do
        for size in 8192 4096; do
            verify=gpu; [ $size = 8192 ] && verify=off
            GEMM_TILE=$row "$work/$binary" --format=kv --iterations=10 --warmup=3 --verify=$verify $size $size $size |
                python3 -c 'import sys; kv=dict(t.split("=",1) for t in sys.stdin.read().split() if "=" in t); print(" ".join(kv.get(k,"?") for k in ("tile","stages","cluster","shared_bytes","copy_path","rate","median_ms","result")))' |
                sed "s/^/$binary $row $size /"
        done
    done
done
