#!/bin/bash
# Where the long-K shapes' time goes: Nsight Compute's duration of each kernel launch of --kernel=hopper (the split
# launch and its gather) and of cuBLAS, fp16 with B transposed, 256 x 8192 x 28672 and 1024 x 1024 x 32768. The
# binary is run.sh's (out/cfg/force-F16_IN_F32_OUT-1, without HOPPER_FORCE: the rule's pick). Output: $OUT/ncu-*.txt.
cd "$(dirname "$0")/../../../../.."
for shape in "256 8192 28672" "1024 1024 32768"; do
    name=$(echo $shape | tr ' ' x)
    ncu --metrics gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed \
        out/cfg/force-F16_IN_F32_OUT-1/gemm --kernel=hopper --cublas --iterations=2 --warmup=1 --verify=off $shape \
        > "$OUT/ncu-$name.txt" 2>&1
    echo "$name rc=$?"
done
