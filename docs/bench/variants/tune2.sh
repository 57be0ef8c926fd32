#!/bin/bash
# Historical (docs/bench/steps-h200.csv): written for the kernel before the mbarrier pipeline (commit
# 635523f and earlier); on today's out/gemm.cu its overrides build other kernels. See h100/ for the current data.
# The later d_gemm variants of docs/bench/steps-h200.csv (after the .shared fragment loads),
# built from out/gemm.cu and timed at 8192^3. Branch numbers index the tile-size block of this
# source: 0 f64, 1 tf32, 2 int8, 3 F16_IN_OUT, 4 the other 16-bit types. Each variant names the
# parameters it changes from the committed choice. Run on a GPU machine: bash docs/bench/variants/tune2.sh
cd "$(dirname "$0")/../../.."
python3 tangle.py gemm.md -o out/gemm.cu
mkdir -p out/var2
cat > out/var2/list <<'L'
f16_cur F16_IN_F32_OUT 16x16x16 4
bf16_new BF16_IN_F32_OUT 16x16x16 4
bf16_32x8 BF16_IN_F32_OUT 32x8x16 4
bf16_k64 BF16_IN_F32_OUT 16x16x16 4 BLOCK_K=64
h16_128 F16_IN_OUT 16x16x16 3 BLOCK_N=128
h16_n256 F16_IN_OUT 16x16x16 3
h16_n256_s4 F16_IN_OUT 16x16x16 3 STAGES=4
tf32_w24 TF32_IN_F32_OUT 16x16x8 1 WARPS_N=4
tf32_w22 TF32_IN_F32_OUT 16x16x8 1
tf32_w22_k32 TF32_IN_F32_OUT 16x16x8 1 BLOCK_K=32 STAGES=3
tf32_w24_k32 TF32_IN_F32_OUT 16x16x8 1 WARPS_N=4 BLOCK_K=32 STAGES=3
f64_cur F64_IN_OUT 8x8x4 0
f64_w2 F64_IN_OUT 8x8x4 0 WARPS_M=2
f64_k32 F64_IN_OUT 8x8x4 0 BLOCK_K=32 STAGES=3
f64_s3 F64_IN_OUT 8x8x4 0 STAGES=3
i8_cur I8_IN_I32_OUT 16x16x16 2
L
while read name type mnk branch rest; do
  for tb in 0 1; do
    python3 docs/bench/variants/variant.py out/var2/$name-$tb.cu $branch $rest
    ( nvcc -O3 -std=c++17 -arch=sm_90 -Xptxas -v -DCONFIG_ON_COMMAND_LINE -D$type -DMNK_$mnk -DTRANSPOSE_B=$tb \
         out/var2/$name-$tb.cu -o out/var2/$name-$tb -lcublas > out/var2/$name-$tb.log 2>&1 || echo "BUILD FAIL $name $tb" ) &
  done
done < out/var2/list
wait
while read name type mnk branch rest; do
  regs=$(grep -A2 "_Z6d_gemmP" out/var2/$name-0.log | grep -oE "Used [0-9]+|[0-9]+ bytes spill stores" | tr '\n' ' ')
  line="$name [$regs]"
  for tb in 0 1; do
    v=$(out/var2/$name-$tb 1000 777 333 --alpha=2 --beta=-1 --iterations=1 --warmup=0 --format=kv | grep -oE 'result=[a-z]+')
    r=$(out/var2/$name-$tb 8192 8192 8192 --verify=off --iterations=10 --warmup=3 --format=kv | grep -oE ' rate=[0-9.]+')
    line="$line | TB=$tb $v 8k$r"
  done
  echo "$line"
done < out/var2/list
