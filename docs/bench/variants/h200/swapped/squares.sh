# tf32 at 8192^3 and 4096^3, both layouts of B, three times each (L2 evicted, median of 20, verified, cuBLAS in the
# same process): how much the ratio moves from run to run on one machine. Binaries: out/cfg/TF32_IN_F32_OUT_16x16x8_ta0_tb{0,1},
# built from 5fbdf78 (make ARCH=90) and carried. Writes $OUT/squares.txt.
set -u
mkdir -p $OUT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv > $OUT/gpu.txt
for rep in 1 2 3; do for tb in 0 1; do
  out/cfg/TF32_IN_F32_OUT_16x16x8_ta0_tb$tb/gemm --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas 8192 8192 8192 >> $OUT/squares.txt 2>&1
  out/cfg/TF32_IN_F32_OUT_16x16x8_ta0_tb$tb/gemm --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 --cublas 4096 4096 4096 >> $OUT/squares.txt 2>&1
done; done
grep -o "transpose_b=[01] m=[0-9]*\|median_ms=[0-9.]*\|cublas_median_ms=[0-9.]*\|result=[a-z]*" $OUT/squares.txt | paste -d' ' - - - - -
