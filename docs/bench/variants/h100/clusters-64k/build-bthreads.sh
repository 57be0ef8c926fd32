#!/bin/bash
v=$1; t=$2; tb=$3; arch=${4:-sm90}
case $t in h) T="F16_IN_OUT -DMNK_16x16x16";; tf) T="TF32_IN_F32_OUT -DMNK_16x16x8";; esac
G="-gencode arch=compute_90,code=sm_90"; [ $arch = cp ] && G="-gencode arch=compute_80,code=compute_80"
nvcc -O3 -std=c++17 -lineinfo -Xptxas -suppress-async-bulk-multicast-advisory-warning $G \
  -DCONFIG_ON_COMMAND_LINE -D$T -DTRANSPOSE_B=$tb $v.cu -o bin3/${t}_${tb}_${v}_$arch -lcublas > bin3/${t}_${tb}_${v}_$arch.log 2>&1 || echo "FAIL $v $t $tb $arch"
