#!/bin/bash
# Where the time of a compute-bound tile goes (H200): the rule's pick with and without the epilogue's stores, and
# each one-consumer tile forced, on int8 and fp16 with B transposed; then ncu on two kernels if it can read the
# counters. Binaries from build.sh (carried). L2 evicted, median of 20 after 3 warm-ups; nostore is not verified
# (it writes nothing), the others are, on the GPU. From the repository root on the GPU machine:
#   bash docs/bench/variants/h200/epilogue/run.sh        # $OUT/e-TYPE-VARIANT-KIND.txt, $OUT/ncu-*.txt
here=docs/bench/variants/h200/epilogue
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv > "$OUT/gpu.txt"
for t in I8_IN_I32_OUT F16_IN_F32_OUT; do
    for run in base:none nostore:none base:13 base:14 base:11 nostore:14; do
        v=${run%:*}; kind=${run#*:}
        unset HOPPER_FORCE
        [ "$kind" = none ] || export HOPPER_FORCE=$kind
        verify=gpu; [ $v = nostore ] && verify=off
        start=$(date +%s)
        out/epilogue/$t-1-$v --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=$verify --cold-l2 \
            --cublas --shapes=$here/shapes.txt > "$OUT/e-$t-$v-$kind.txt" 2>&1
        echo "$t $v kind=$kind rc=$? $(( $(date +%s) - start )) s"
    done
done
unset HOPPER_FORCE
for s in "F16_IN_F32_OUT 256 8192 8192" "I8_IN_I32_OUT 4096 6144 4096"; do
    set -- $s
    timeout 120 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
        --section ComputeWorkloadAnalysis -k regex:d_gemm_hopper --launch-skip 1 --launch-count 1 \
        out/epilogue/$1-1-base --kernel=hopper --iterations=1 --warmup=1 --verify=off $2 $3 $4 \
        > "$OUT/ncu-$1-$2x$3x$4.txt" 2>&1
    echo "ncu $s rc=$?"
done
