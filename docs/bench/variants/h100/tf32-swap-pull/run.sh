#!/bin/bash
# tf32 with B as stored (roles swapped): each of step 8's five tiles forced on the shapes whose pick a rule variant
# changes (shapes.txt), from the repository root on the device machine; the binary is out/gemm.cu with a line in
# hopper_kind that takes the tile from HOPPER_FORCE (built on the CPU machine, carried). Output under $OUT.
cd "$(dirname "$0")/../../../../.."
for kind in 8 10 11 12 13; do
    HOPPER_FORCE=$kind out/cfg/force-tf32-0/gemm --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu \
        --cold-l2 --cublas --shapes=docs/bench/variants/h100/tf32-swap-pull/shapes.txt > $OUT/f-$kind.txt 2>&1
    echo "kind $kind rc=$? pass=$(grep -c result=pass $OUT/f-$kind.txt)"
done
