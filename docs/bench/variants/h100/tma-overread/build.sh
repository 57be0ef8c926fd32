#!/bin/bash
v=$1; t=$2; tb=$3
case $t in f16) T=F16_IN_F32_OUT;; bf) T=BF16_IN_F32_OUT;; h) T=F16_IN_OUT;; esac
nvcc -O3 -std=c++17 -lineinfo -Xptxas -suppress-async-bulk-multicast-advisory-warning -gencode arch=compute_90,code=sm_90 \
  -DCONFIG_ON_COMMAND_LINE -D$T -DMNK_16x16x16 -DTRANSPOSE_B=$tb build/$v.cu -o build/${t}_${tb}_$v -lcublas > build/${t}_${tb}_$v.log 2>&1 || echo "FAIL $v $t $tb"
