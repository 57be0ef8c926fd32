#!/bin/bash
# d_gather_pieces with C_VECTOR elements a thread (16 bytes, loaded and stored as one) against one a thread
# (issue 40: the gather was the whole gap to cuBLAS at 256 x 8192 x 28672, below-090/prof.sh). Binaries built on the
# CPU machine (ARCH=90, default steps) from out/gemm.cu before (out/cfg/gab/g-old-TYPE-TRANSPOSE_B) and after
# (g-new-...), carried. Part ab: shapes.txt, --kernel=hopper, L2 evicted, verified on the GPU, cuBLAS in the same
# process, three rounds, old and new alternating. Part prof: Nsight Compute's duration of every kernel, fp16 B
# transposed, on the two long-K shapes. Outputs under $OUT.
cd "$(dirname "$0")/../../../../.."
here=docs/bench/variants/h100/gather
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$OUT/gpu.txt"
configs="F16_IN_F32_OUT-1 F16_IN_F32_OUT-0 BF16_IN_F32_OUT-1 TF32_IN_F32_OUT-0 TF32_IN_F32_OUT-1 F16_IN_OUT-1
         I8_IN_I32_OUT-1 F64_IN_OUT-0"
for part in "$@"; do
  start=$(date +%s)
  case $part in
    ab) for round in 1 2 3; do for cfg in $configs; do for v in old new; do
          out/cfg/gab/g-$v-$cfg/gemm --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas \
              --shapes=$here/shapes.txt 2>&1 | sed "s/^/v=$v round=$round cfg=$cfg /"
        done; done; done > "$OUT/ab.txt" ;;
    prof) for v in old new; do for shape in "256 8192 28672" "1024 1024 32768"; do
            ncu --metrics gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed \
                out/cfg/gab/g-$v-F16_IN_F32_OUT-1/gemm --kernel=hopper --iterations=2 --warmup=1 --verify=off $shape \
                > "$OUT/ncu-$v-$(echo $shape | tr ' ' x).txt" 2>&1
          done; done ;;
    *) echo "run.sh: unknown part $part" >&2; exit 2 ;;
  esac
  echo "$part: $(( $(date +%s) - start )) s" | tee -a "$OUT/times.txt"
done
grep -c result=pass "$OUT/ab.txt"; grep -c result= "$OUT/ab.txt"; grep result= "$OUT/ab.txt" | grep -v result=pass | head
