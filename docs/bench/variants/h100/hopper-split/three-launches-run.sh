#!/bin/bash
# step 6 as three launches (whole rounds; the last round's pieces; d_gather_pieces): gpu-test hopper part, then A/B
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 tests/gpu_test.py --parts hopper --gpu-jobs 4 --budget 240 --make-arg ARCH=90 > $OUT/gpu-test-hopper.txt 2>&1
echo "gpu_test rc=$?"; tail -14 $OUT/gpu-test-hopper.txt
CFGS="F64_IN_OUT:0 F64_IN_OUT:1 F16_IN_F32_OUT:0 I8_IN_I32_OUT:1"
for cfg in $CFGS; do t=${cfg%:*}; b=${cfg#*:}
  make -s BIN=/tmp/ab/${t}_$b/gemm TYPE=$t TRANSPOSE_B=$b STEPS=1 ARCH=90 >/tmp/ab_${t}_$b.log 2>&1 &
done; wait
cat /tmp/ab_*.log | grep -i error | head
for cfg in $CFGS; do t=${cfg%:*}; b=${cfg#*:}
  case $t in F64_IN_OUT) sizes="8192,8192,8192 8192,4096,4096 4096,4096,4096 8448,8192,8192";; *) sizes="8192,8192,8192 8192,7424,8192 8192,7424,4096";; esac
  for size in $sizes; do
    for pass in 1 2; do
      for k in hopper5 hopper6; do
        line=$(/tmp/ab/${t}_$b/gemm --kernel=$k --cublas --verify=off --format=kv ${size//,/ })
        echo "$t tb=$b $size $k pass$pass $(echo "$line" | grep -oE ' (median_ms|rate|cublas_rate)=[^ ]*' | tr -d '\n')"
      done
    done
  done
done | tee $OUT/ab.txt
