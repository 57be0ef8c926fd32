#!/bin/bash
# Step 10's first run (H200): the new build (new: C through shared memory) against base and nostore, the same
# shapes and settings as run.sh, the rule's pick only; then ragged and beta != 0 runs of the new build, verified.
here=docs/bench/variants/h200/epilogue
for t in I8_IN_I32_OUT F16_IN_F32_OUT; do
    for v in new base; do
        out/epilogue/$t-1-$v --kernel=hopper --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2 \
            --cublas --shapes=$here/shapes.txt > "$OUT/c-$t-$v.txt" 2>&1
        echo "$t $v rc=$?"
    done
    for s in "1537 2049 1025" "2048 2048 2048" "4000 3000 1000"; do
        out/epilogue/$t-1-new --kernel=hopper --format=kv --iterations=3 --verify=gpu --alpha=2 --beta=$([ $t = I8_IN_I32_OUT ] && echo 3 || echo 0.5) $s \
            >> "$OUT/c-$t-beta.txt" 2>&1
        echo "$t beta $s rc=$?"
    done
done
cuobjdump --dump-resource-usage out/epilogue/I8_IN_I32_OUT-1-new | grep -A1 "d_gemm_hopper" > "$OUT/c-resources.txt"
cuobjdump --dump-resource-usage out/epilogue/I8_IN_I32_OUT-1-base | grep -A1 "d_gemm_hopper" > "$OUT/c-resources-base.txt"
