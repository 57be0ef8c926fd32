#!/bin/bash
# The parts of a canonical run (issue 41), written for the H200, first run on an H100: each argument is one part,
# run in order; outputs go to $OUT
# (default out/canonical). Parts: gpu-test, bench-a, bench-b, bench-c, steps-a, steps-b, reference, suite-bf16.
OUT=${OUT:-out/canonical}
mkdir -p "$OUT"
common="--jobs 16 --make-arg ARCH=90 --no-plot"
for part in "$@"; do
  start=$(date +%s)
  case $part in
    gpu-test) timeout 300 python3 tests/gpu_test.py --parts hopper,matrix --budget 260 --gpu-jobs 6 --jobs 16 \
                --make-arg ARCH=90 > "$OUT/gpu-test.txt" 2>&1 ;;
    bench-a) timeout 480 python3 docs/bench/bench.py --types F16_IN_F32_OUT,F16_IN_OUT --tiers --naive-max 4096 \
               $common --budget 440 --csv "$OUT/bench-a.csv" --out "$OUT/blog-a" > "$OUT/bench-a.txt" 2>&1 ;;
    bench-b) timeout 480 python3 docs/bench/bench.py --types BF16_IN_F32_OUT,TF32_IN_F32_OUT --tiers --naive-max 4096 \
               $common --budget 440 --csv "$OUT/bench-b.csv" --out "$OUT/blog-b" > "$OUT/bench-b.txt" 2>&1 ;;
    bench-c) timeout 480 python3 docs/bench/bench.py --types I8_IN_I32_OUT,U8_IN_I32_OUT,F64_IN_OUT --tiers \
               --naive-max 4096 $common --budget 440 --csv "$OUT/bench-c.csv" --out "$OUT/blog-c" \
               > "$OUT/bench-c.txt" 2>&1 ;;
    steps-a) timeout 480 python3 docs/bench/steps.py --types F16_IN_F32_OUT,BF16_IN_F32_OUT --sizes 8192,4096 \
               $common --budget 440 --csv "$OUT/steps-a.csv" --out "$OUT/slog-a" > "$OUT/steps-a.txt" 2>&1 ;;
    steps-b) timeout 480 python3 docs/bench/steps.py --types TF32_IN_F32_OUT,I8_IN_I32_OUT,F64_IN_OUT \
               --sizes 8192,4096 $common --budget 440 --csv "$OUT/steps-b.csv" --out "$OUT/slog-b" \
               > "$OUT/steps-b.txt" 2>&1 ;;
    reference) make -s BIN=out/ref/gemm TYPE=F16_IN_F32_OUT TRANSPOSE_B=1 ARCH=90 &&
               for n in 8192 4096; do for v in gpu off; do
                 out/ref/gemm --kernel=fast --format=kv --verify=$v $n $n $n; done; done > "$OUT/reference.txt" 2>&1 ;;
    suite-bf16) timeout 300 python3 docs/bench/suite.py --types BF16_IN_F32_OUT --make-arg ARCH=90 --budget 260 \
               --csv "$OUT/suite-h200-bf16.csv" > "$OUT/suite-bf16.txt" 2>&1 ;;
    *) echo "run.sh: unknown part $part" >&2; exit 2 ;;
  esac
  echo "$part: rc=$? $(( $(date +%s) - start )) s" | tee -a "$OUT/times.txt"
done
