#!/bin/bash
# Issue 40 on the H200: the suite's weakest shapes with step 8's tiles forced (HOPPER_FORCE) and step 7's
# threshold moved (FILL_SHARE: split every tile when tiles x FILL_SHARE <= clusters; the code's is 4 for the
# small tiles, 2 otherwise). Both are patched into a copy of out/gemm.cu for this experiment only. L2 evicted,
# verified on the GPU, cuBLAS in the same process, median of 20 after 3 warm-ups. From the repository root:
#   bash docs/bench/variants/h200/skinny-2/run.sh [TYPE:TB ...]     (writes $OUT/o-TYPE-TB.txt)
# Configurations "kind:share": kind none is the rule's pick; 8 128 x 256 in clusters of two, 10 64 x 128,
# 11 64 x 64, 12 128 x 128 sharing A, 13 64 x 192; share - is the code's.
here=docs/bench/variants/h200/skinny-2
mkdir -p out/skinny2
sed -e 's|^    return step < HOPPER_BY_SHAPE ? step : hopper_by_shape(m, n, k, sms);|    if (step >= HOPPER_BY_SHAPE \&\& getenv("HOPPER_FORCE")) return atoi(getenv("HOPPER_FORCE"));\n&|' \
    -e 's|tiles \* tile.fill_share <= clusters|tiles * (getenv("FILL_SHARE") ? atoi(getenv("FILL_SHARE")) : tile.fill_share) <= clusters|' \
    out/gemm.cu > out/skinny2/gemm.cu
grep -c 'getenv("HOPPER_FORCE")\|getenv("FILL_SHARE")' out/skinny2/gemm.cu
builds="${*:-F16_IN_F32_OUT:1 F16_IN_F32_OUT:0}"
for b in $builds; do
    t=${b%:*}; tb=${b#*:}
    make -s SRC=out/skinny2/gemm.cu BIN=out/skinny2/$t-$tb TYPE=$t TRANSPOSE_B=$tb ARCH=90 > out/skinny2/build-$t-$tb.txt 2>&1 &
done
wait
ls out/skinny2
for b in $builds; do
    t=${b%:*}; tb=${b#*:}
    for config in none:- none:2 none:1 11:1 10:- 10:1 13:1 12:- 8:-; do
        kind=${config%:*}; share=${config#*:}
        start=$(date +%s)
        if [ "$kind" = none ]; then unset HOPPER_FORCE; else export HOPPER_FORCE=$kind; fi
        if [ "$share" = - ]; then unset FILL_SHARE; else export FILL_SHARE=$share; fi
        echo "# kind=$config" >> "${OUT:-.}/o-$t-$tb.txt"
        out/skinny2/$t-$tb --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas \
            --shapes=$here/shapes.txt >> "${OUT:-.}/o-$t-$tb.txt" 2>&1
        echo "$t tb=$tb $config rc=$? $(( $(date +%s) - start )) s"
    done
done
