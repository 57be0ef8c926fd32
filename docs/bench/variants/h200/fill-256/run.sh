#!/bin/bash
# NOT RUN YET (written in stop 69's second session, 2026-12-04, when no GPU was lent). The 256-row skinny shapes
# (fp16 and bf16 256 x 8192 x 8192 at 0.80 to 0.86 of cuBLAS, tf32 0.90) and 777 x 1000 x 4096 with B transposed
# (0.85) run one round of whole tiles: the rule's 128 x 128 or 64 x 128. The last step's 128 x 256 tile, in
# clusters of two, whole (under-090: 84.5 us at 256 x 8192 x 8192, one round on 64 of 132 SMs), was never measured
# split along K there: step 8 splits only tiles of 100 us or more (HOPPER_FILL_SECONDS), and a 256 x 256 cluster
# tile of K = 8192 is 72 us at its share of the rated rate. Split in two it would be about 42 us plus the pieces'
# sums (2 x 8 MiB of fp32, which the 60 MiB L2 holds) against cuBLAS's 53. This measures that, and the rule with
# step 8's threshold at 0, before any change to the rule. Two variables patched into a copy of out/gemm.cu:
#   HOPPER_FORCE=kind   step 9's tile (10 128 x 256 in clusters of two, 12 64 x 128, 14 128 x 128 in clusters of
#                       two sharing A); the rule's split for that tile stays
#   HOPPER_FILL_US=t    step 8 splits tiles of t us or more (HOPPER_FILL_SECONDS is 100 us)
# Build here, without a GPU:   bash docs/bench/variants/h200/fill-256/run.sh build   (out/bench/fill256/, carried)
# On the GPU machine:          bash docs/bench/variants/h200/fill-256/run.sh          ($OUT/o-TYPE-TB.txt)
# L2 evicted, verified on the GPU, cuBLAS in the same process, median of 20 after 3 warm-ups; one "# kind=..." line
# before each run; python3 docs/bench/variants/h100/force-2/meas.py $OUT/o-*.txt tables them.
here=docs/bench/variants/h200/fill-256
dir=out/bench/fill256
builds="${BUILDS:-F16_IN_F32_OUT:1 F16_IN_F32_OUT:0 BF16_IN_F32_OUT:1 BF16_IN_F32_OUT:0 TF32_IN_F32_OUT:1}"
if [ "$1" = build ]; then
    mkdir -p $dir
    sed -e 's|^    int kind = hopper_by_shape(m, n, k, sms, bandwidth);|    if (getenv("HOPPER_FORCE")) return atoi(getenv("HOPPER_FORCE"));\n&|' \
        -e 's|seconds >= HOPPER_FILL_SECONDS;|seconds >= (getenv("HOPPER_FILL_US") ? atof(getenv("HOPPER_FILL_US")) * 1e-6 : HOPPER_FILL_SECONDS);|' \
        out/gemm.cu > $dir/gemm.cu
    patched=$(grep -c 'getenv("HOPPER_' $dir/gemm.cu)
    # step 8's hopper_fills and step 9's hopper_fills_small each test HOPPER_FILL_SECONDS once (since stop 71)
    [ "$patched" = 3 ] || { echo "run.sh: the patch matched $patched of 3 places; out/gemm.cu has changed" >&2; exit 1; }
    for b in $builds; do
        t=${b%:*}; tb=${b#*:}
        make -s SRC=$dir/gemm.cu BIN=$dir/$t-$tb/gemm TYPE=$t TRANSPOSE_B=$tb ARCH=90 > $dir/build-$t-$tb.txt 2>&1 ||
            echo "run.sh: $t-$tb did not build ($dir/build-$t-$tb.txt)" >&2
    done
    rm -f $dir/*/gemm.flags
    exit 0
fi
for b in $builds; do
    t=${b%:*}; tb=${b#*:}
    [ -x $dir/$t-$tb/gemm ] || { echo "run.sh: no $dir/$t-$tb/gemm (run.sh build)" >&2; continue; }
    for run in none none:fill0 10:fill0 14:fill0 12:fill0; do
        start=$(date +%s)
        unset HOPPER_FORCE HOPPER_FILL_US
        kind=${run%%:*}
        [ "$kind" = none ] || export HOPPER_FORCE=$kind
        case $run in *fill0*) export HOPPER_FILL_US=0 ;; esac
        echo "# kind=$run" >> "${OUT:-.}/o-$t-$tb.txt"
        timeout 60 $dir/$t-$tb/gemm --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 \
            --cublas --shapes=$here/shapes.txt >> "${OUT:-.}/o-$t-$tb.txt" 2>&1
        echo "$t tb=$tb $run rc=$? $(( $(date +%s) - start )) s"
    done
done
