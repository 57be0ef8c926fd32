#!/bin/bash
# L2 and tensor-pipe load of d_gemm on the copy-engine path (sm_90a build) and the cp.async path (compute_80 PTX), fp16, 8192^3
cd "$(dirname "$0")"   # f16_tma: make TYPE=F16_IN_F32_OUT ARCH=90; f16_cp: ARCH=compute_80 (BIN=...)
M=gpu__time_duration.sum,lts__t_throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sector_hit_rate.pct,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed
for b in f16_tma f16_cp; do
  for lim in 0 99K; do
    a=""; [ $lim != 0 ] && a="--shared-limit=$lim"
    echo "== $b $lim"
    ncu -k regex:d_gemm --launch-skip 2 --launch-count 1 --metrics $M ./$b $a --kernel=fast --verify=off --iterations=2 --warmup=1 8192 8192 8192 2>&1 | grep -E "d_gemm|duration|lts__|sm__pipe|l1tex|dram__|==PROF==|ERR" | head -14
  done
done
