#!/bin/bash
# Nsight Compute on tf32 with B as stored, 64 x 128 (kind 10) against 64 x 64 (kind 11), where the forced runs
# (meas-skinny.txt) found 64 x 128 faster: 16 x 6144 x 4096 and 128 x 4096 x 14336. One launch each, L2 cold (the
# first launch), unverified. Writes $OUT/prof.txt. From the repository root, on the GPU machine.
mkdir -p out/force2
sed 's|^    return step < HOPPER_BY_SHAPE ? step : hopper_by_shape(m, n, k, sms);|    if (step >= HOPPER_BY_SHAPE \&\& getenv("HOPPER_FORCE")) return atoi(getenv("HOPPER_FORCE"));\n&|' \
    out/gemm.cu > out/force2/gemm.cu
make -s SRC=out/force2/gemm.cu BIN=out/force2/TF32_IN_F32_OUT-0 TYPE=TF32_IN_F32_OUT TRANSPOSE_B=0 ARCH=90 || exit 1
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,\
lts__t_bytes.sum,lts__t_sector_hit_rate.pct,sm__throughput.avg.pct_of_peak_sustained_elapsed,\
launch__grid_size,launch__registers_per_thread,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,\
smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct
for shape in "16 6144 4096" "128 4096 14336"; do
    for kind in 10 11; do
        echo "== $shape kind $kind"
        HOPPER_FORCE=$kind ncu --kernel-name regex:d_gemm_hopper --launch-count 1 --metrics $metrics --csv \
            out/force2/TF32_IN_F32_OUT-0 --kernel=hopper --iterations=1 --warmup=0 --verify=off $shape 2>&1 |
            grep -E '^"' | cut -d, -f12- | grep -v '^"Metric Name"'
    done
done > "${OUT:-.}/prof.txt"
