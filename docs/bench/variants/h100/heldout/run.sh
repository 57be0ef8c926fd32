#!/bin/bash
# Held-out shapes: does step 8's rule pick well on shapes the speeds were not fitted on? fp16, L2 evicted, verified
# on the GPU, cuBLAS in the same process. B transposed: each of step 8's tiles forced (HOPPER_FORCE, force.patch
# applied to out/gemm.cu of 4278369) and the rule's pick ("none"); B as stored: the rule's pick only.
#   patch out/gemm.cu < docs/bench/variants/h100/heldout/force.patch   (then restore it: make out/gemm.cu)
#   nvcc flags of `make ARCH=90 TYPE=F16_IN_F32_OUT TRANSPOSE_B=tb`, output out/cfg/hold/force-tb, tb = 1 and 0
#   bash docs/bench/variants/h100/heldout/run.sh
# Kinds: 8 128 x 256 in clusters of two (the last step's), 10 64 x 128, 11 64 x 64, 12 128 x 128 in clusters of
# two sharing A. Writes $OUT/h-TB-KIND.txt.
cd "$(dirname "$0")/../../../../.."
here=docs/bench/variants/h100/heldout
run() {
    local tb=$1 kind=$2 start=$(date +%s)
    if [ "$kind" = none ]; then unset HOPPER_FORCE; else export HOPPER_FORCE=$kind; fi
    out/cfg/hold/force-$tb --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas \
        --shapes=$here/shapes.txt > "${OUT:-.}/h-$tb-$kind.txt" 2>&1
    echo "tb=$tb kind=$kind rc=$? $(( $(date +%s) - start )) s"
}
# After the rule change (HOPPER_BLOCK_PULL, gemm.md of the commit with this folder): the rule's pick, both layouts,
# from binaries of `make BIN=out/cfg/hold/new-tb TYPE=F16_IN_F32_OUT TRANSPOSE_B=tb ARCH=90`. Writes $OUT/a-TB.txt.
#   bash docs/bench/variants/h100/heldout/run.sh after
if [ "$1" = after ]; then
    for tb in 1 0; do
        start=$(date +%s)
        out/cfg/hold/new-$tb --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas \
            --shapes=$here/shapes.txt > "${OUT:-.}/a-$tb.txt" 2>&1
        echo "after tb=$tb rc=$? $(( $(date +%s) - start )) s"
    done
    exit 0
fi
# The other wgmma type pairs on this code, the rule's pick (bf16 and int8 B transposed, tf32 both layouts), from
# `make BIN=out/cfg/hold/T-tb TYPE=T TRANSPOSE_B=tb ARCH=90`. Writes $OUT/t-T-TB.txt.
#   bash docs/bench/variants/h100/heldout/run.sh types
if [ "$1" = types ]; then
    for binary in BF16_IN_F32_OUT-1 TF32_IN_F32_OUT-1 TF32_IN_F32_OUT-0 I8_IN_I32_OUT-1; do
        start=$(date +%s)
        out/cfg/hold/$binary --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas \
            --shapes=$here/shapes.txt > "${OUT:-.}/t-$binary.txt" 2>&1
        echo "$binary rc=$? $(( $(date +%s) - start )) s"
    done
    exit 0
fi
for kind in none 8 10 11 12; do run 1 $kind; done
run 0 none
