#!/bin/bash
# Historical (docs/bench/steps-h200.csv): written for the kernel before the mbarrier pipeline (commit
# 635523f and earlier); on today's out/gemm.cu its overrides build other kernels. See h100/ for the current data.
# The d_gemm variants of docs/bench/steps-h200.csv measured at 11:24-11:52 UTC (after the tf32 rounding
# pass): thinner slabs, more stages, and the same kernels built without -lineinfo ("plain"). Branch
# numbers as in tune2.sh. Builds with the Makefile's flags for sm_90. Run on a GPU machine:
# bash docs/bench/variants/tune3.sh
cd "$(dirname "$0")/../../.."
python3 tangle.py gemm.md -o out/gemm.cu
mkdir -p out/var3
cat > out/var3/list <<'L'
f16_cur F16_IN_F32_OUT 16x16x16 4
f16_k16s4 F16_IN_F32_OUT 16x16x16 4 BLOCK_K=16 STAGES=4
f16_k16s6 F16_IN_F32_OUT 16x16x16 4 BLOCK_K=16 STAGES=6
f16_k16s4mb3 F16_IN_F32_OUT 16x16x16 4 BLOCK_K=16 STAGES=4 minblocks=3
f16_k32s4 F16_IN_F32_OUT 16x16x16 4 STAGES=4
h16_k16s4 F16_IN_OUT 16x16x16 3 BLOCK_K=16 STAGES=4
h16_k16s6 F16_IN_OUT 16x16x16 3 BLOCK_K=16 STAGES=6
bf16_cur BF16_IN_F32_OUT 16x16x16 4
bf16_k16s4 BF16_IN_F32_OUT 16x16x16 4 BLOCK_K=16 STAGES=4
tf32_cur TF32_IN_F32_OUT 16x16x8 1
tf32_k8s6 TF32_IN_F32_OUT 16x16x8 1 BLOCK_K=8 STAGES=6
tf32_k32s3 TF32_IN_F32_OUT 16x16x8 1 BLOCK_K=32 STAGES=3
i8_cur I8_IN_I32_OUT 16x16x16 2
i8_s4 I8_IN_I32_OUT 16x16x16 2 STAGES=4
h16_k16s3 F16_IN_OUT 16x16x16 3 BLOCK_K=16 STAGES=3
h16_k16s4 F16_IN_OUT 16x16x16 3 BLOCK_K=16 STAGES=4
h16_k16s5 F16_IN_OUT 16x16x16 3 BLOCK_K=16 STAGES=5
h16_k64s2 F16_IN_OUT 16x16x16 3 BLOCK_K=64 STAGES=2
h16_n128k16s4 F16_IN_OUT 16x16x16 3 BLOCK_N=128 BLOCK_K=16 STAGES=4
h16_plain F16_IN_OUT 16x16x16 3 plain
bf16_k32s4 BF16_IN_F32_OUT 16x16x16 4 STAGES=4
bf16_plain BF16_IN_F32_OUT 16x16x16 4 plain
f16_plain F16_IN_F32_OUT 16x16x16 4 plain
tf32_plain TF32_IN_F32_OUT 16x16x8 1 plain
h16_m256k32 F16_IN_OUT 16x16x16 3 BLOCK_M=256 BLOCK_N=128 BLOCK_K=32 STAGES=3
h16_m256k16 F16_IN_OUT 16x16x16 3 BLOCK_M=256 BLOCK_N=128 BLOCK_K=16 STAGES=4
bf16_mb3 BF16_IN_F32_OUT 16x16x16 4 minblocks=3
bf16_w24 BF16_IN_F32_OUT 16x16x16 4 WARPS_N=4
bf16_w24k64 BF16_IN_F32_OUT 16x16x16 4 WARPS_N=4 BLOCK_K=64
f16_w24 F16_IN_F32_OUT 16x16x16 4 WARPS_N=4
L
FLAGS="-O3 -std=c++17 -lineinfo -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90"
while read name type mnk branch rest; do
  for tb in 0 1; do
    python3 docs/bench/variants/variant.py out/var3/$name-$tb.cu $branch $rest
    F=$FLAGS; case " $rest " in *" plain "*) F="-O3 -std=c++17 -arch=sm_90";; esac
    ( nvcc $F -Xptxas -v -DCONFIG_ON_COMMAND_LINE -D$type -DMNK_$mnk -DTRANSPOSE_B=$tb \
         out/var3/$name-$tb.cu -o out/var3/$name-$tb -lcublas > out/var3/$name-$tb.log 2>&1 || echo "BUILD FAIL $name $tb" ) &
  done
done < out/var3/list
wait
echo "built at $(date -u +%H:%M:%S)"
while read name type mnk branch rest; do
  regs=$(grep -A2 "_Z6d_gemmP" out/var3/$name-0.log | grep -oE "Used [0-9]+|[0-9]+ bytes spill stores" | tr '\n' ' ')
  line="$name [$regs]"
  for tb in 0 1; do
    v=$(out/var3/$name-$tb 1000 777 333 --alpha=2 --beta=-1 --iterations=1 --warmup=0 --format=kv | grep -oE 'result=[a-z]+')
    r=$(out/var3/$name-$tb 8192 8192 8192 --verify=off --iterations=10 --warmup=3 --format=kv | grep -oE ' rate=[0-9.]+')
    line="$line | TB=$tb $v 8k$r"
  done
  echo "$line"
done < out/var3/list
echo "timed at $(date -u +%H:%M:%S)"
