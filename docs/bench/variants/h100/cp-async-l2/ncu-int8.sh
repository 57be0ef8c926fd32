#!/bin/bash
# int8 d_gemm at 8192^3: copy engine (sm_90a) against cp.async (compute_80 PTX): pipes, L2, stalls, bank conflicts
cd "$(dirname "$0")"   # i8_tma: make TYPE=I8_IN_I32_OUT TRANSPOSE_B=1 ARCH=90; i8_cp: ARCH=compute_80 (BIN=...)
M=gpu__time_duration.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_imma_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_mio_throttle.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_math_pipe_throttle.ratio,smsp__average_warp_latency_issue_stalled_wait.ratio,smsp__average_warp_latency_issue_stalled_sleeping.ratio,smsp__average_warp_latency_issue_stalled_membar.ratio
for b in i8_tma i8_cp; do
  echo "== $b"
  ncu -k regex:d_gemm --launch-skip 2 --launch-count 1 --metrics $M ./$b --kernel=fast --verify=off --iterations=2 --warmup=1 8192 8192 8192 2>&1 | grep -E "void d_gemm|duration|lts__|sm__|l1tex|smsp__|ERR" | head -24
done
