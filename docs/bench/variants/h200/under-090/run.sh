#!/bin/bash
# NOT RUN YET (written 2026-12-01, stop 60, when no device time was left): the suite's shapes under 0.90 of cuBLAS
# on the H200 (../canonical/under-090.txt) and their neighbours, with each of step 9's tiles forced and the split
# rule's two knobs moved, to find what the H200's faster memory wants before the rule changes. Three variables
# patched into a copy of out/gemm.cu for this experiment only:
#   HOPPER_FORCE=kind   the tile (9 128 x 256 in clusters of two, 11 64 x 128, 12 64 x 64, 13 128 x 128 in clusters
#                       of two sharing A, 14 64 x 192); the rule's split for that tile stays
#   HOPPER_FILL_US=t    step 8 splits tiles of t µs or more (HOPPER_FILL_SECONDS is 100 µs)
#   HOPPER_SHARE=s      step 8's share (tiles * s <= clusters), also with the roles swapped (tf32, B as stored: 2)
# L2 evicted, verified on the GPU, cuBLAS in the same process, median of 20 after 3 warm-ups. From the repository
# root on the GPU machine: bash docs/bench/variants/h200/under-090/run.sh [TYPE:TB ...]
# It writes $OUT/o-TYPE-TB.txt, one "# kind=..." line before each run; python3 .../h100/force-2/meas.py tables them.
here=docs/bench/variants/h200/under-090
mkdir -p out/under090
sed -e 's|^    return step < HOPPER_BY_SHAPE ? step : hopper_by_shape(m, n, k, sms, bandwidth);|    if (step >= HOPPER_BY_SHAPE \&\& getenv("HOPPER_FORCE")) return atoi(getenv("HOPPER_FORCE"));\n&|' \
    -e 's|seconds >= HOPPER_FILL_SECONDS;|seconds >= (getenv("HOPPER_FILL_US") ? atof(getenv("HOPPER_FILL_US")) * 1e-6 : HOPPER_FILL_SECONDS);|' \
    -e 's|^    return tile.memory_bound \&\& !HOPPER_SWAP \&\& share > 2 ? share : 2;|    if (getenv("HOPPER_SHARE")) return atoi(getenv("HOPPER_SHARE"));\n&|' \
    out/gemm.cu > out/under090/gemm.cu
patched=$(grep -c 'getenv("HOPPER_' out/under090/gemm.cu)
[ "$patched" = 3 ] || { echo "run.sh: the patch matched $patched of 3 places; out/gemm.cu has changed" >&2; exit 1; }
builds="${*:-TF32_IN_F32_OUT:0 F16_IN_F32_OUT:1 BF16_IN_F32_OUT:1 I8_IN_I32_OUT:1}"
for b in $builds; do
    t=${b%:*}; tb=${b#*:}
    make -s SRC=out/under090/gemm.cu BIN=out/under090/$t-$tb TYPE=$t TRANSPOSE_B=$tb ARCH=90 \
        > out/under090/build-$t-$tb.txt 2>&1 &
done
wait
for b in $builds; do
    t=${b%:*}; tb=${b#*:}
    [ -x out/under090/$t-$tb ] || { echo "run.sh: $t-$tb did not build (out/under090/build-$t-$tb.txt)" >&2; continue; }
    for run in none none:fill0 none:fill0:share4 none:share4 9 11 12 13 14 11:fill0 12:fill0 12:fill0:share4; do
        start=$(date +%s)
        unset HOPPER_FORCE HOPPER_FILL_US HOPPER_SHARE
        kind=${run%%:*}
        [ "$kind" = none ] || export HOPPER_FORCE=$kind
        case $run in *fill0*) export HOPPER_FILL_US=0 ;; esac
        case $run in *share4*) export HOPPER_SHARE=4 ;; esac
        echo "# kind=$run" >> "${OUT:-.}/o-$t-$tb.txt"
        out/under090/$t-$tb --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas \
            --shapes=$here/shapes.txt >> "${OUT:-.}/o-$t-$tb.txt" 2>&1
        echo "$t tb=$tb $run rc=$? $(( $(date +%s) - start )) s"
    done
done
