#!/bin/bash
# The canonical run on the H200 (issue 41): make bench, make steps and make suite on one machine, in parts, and
# gpu-test's parts after them. Each argument is one part, run in order; every part stops before LIMIT seconds
# (default 570) have passed since the call began, so one device call never outruns its 600 s. Each part's CSV,
# console output and logs go to out/bench/canonical-<first part>/, packed at the end into
# $OUT/call-<first part>.tgz (the device tool brings back 8 files a call); the last lines of each part's output
# are printed. The binaries are built first (prebuild.sh; make skips what is up to date), unless PREBUILD=0
# (they came with the call, built where there is no GPU).
LIMIT=${LIMIT:-570}
cd "$(dirname "$0")/../../../../.." || exit 1
begin=$(date +%s)
tag=${1//+/-}   # the device tool brings back no file whose name has a +
W=out/bench/canonical-$tag
OUT=${OUT:-out/canonical}
mkdir -p "$OUT" "$W"
left() { echo $(( LIMIT - ($(date +%s) - begin) )); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv > "$W/gpu.txt" 2>&1
[ "${PREBUILD:-1}" = 0 ] || JOBS=16 bash docs/bench/variants/h200/canonical/prebuild.sh > "$W/prebuild.txt" 2>&1
echo "prebuild: $(( $(date +%s) - begin )) s" | tee -a "$W/times.txt"
common="--jobs 16 --make-arg ARCH=90 --no-plot --no-build"
logs=$W
for part in "$@"; do
  start=$(date +%s); t=$(left); b=$(( t - 60 ))
  if (( t < 40 )); then echo "$part: not run, $t s left" | tee -a "$W/times.txt"; continue; fi
  case $part in
    bench-a) timeout $t python3 docs/bench/bench.py --types F16_IN_F32_OUT,F16_IN_OUT --tiers --naive-max 4096 \
               $common --budget $b --csv "$W/bench-a.csv" --out $logs/blog-a > "$W/bench-a.txt" 2>&1 ;;
    bench-b) timeout $t python3 docs/bench/bench.py --types BF16_IN_F32_OUT,TF32_IN_F32_OUT --tiers --naive-max 4096 \
               $common --budget $b --csv "$W/bench-b.csv" --out $logs/blog-b > "$W/bench-b.txt" 2>&1 ;;
    bench-c) timeout $t python3 docs/bench/bench.py --types I8_IN_I32_OUT,U8_IN_I32_OUT,F64_IN_OUT --tiers \
               --naive-max 4096 $common --budget $b --csv "$W/bench-c.csv" --out $logs/blog-c \
               > "$W/bench-c.txt" 2>&1 ;;
    steps-a) timeout $t python3 docs/bench/steps.py --types F16_IN_F32_OUT,BF16_IN_F32_OUT --sizes 8192,4096 \
               $common --budget $b --csv "$W/steps-a.csv" --out $logs/slog-a > "$W/steps-a.txt" 2>&1 ;;
    steps-b) timeout $t python3 docs/bench/steps.py --types TF32_IN_F32_OUT,I8_IN_I32_OUT,F64_IN_OUT \
               --sizes 8192,4096 $common --budget $b --csv "$W/steps-b.csv" --out $logs/slog-b \
               > "$W/steps-b.txt" 2>&1 ;;
    suite-*) type=$(case ${part#suite-} in fp16) echo F16_IN_F32_OUT;; bf16) echo BF16_IN_F32_OUT;;
                    tf32) echo TF32_IN_F32_OUT;; int8) echo I8_IN_I32_OUT;; esac)
             timeout $t python3 docs/bench/suite.py --types $type --make-arg ARCH=90 --no-build --budget $b \
               --csv "$W/$part.csv" > "$W/$part.txt" 2>&1 ;;
    gpu-*)   parts=${part#gpu-}; parts=${parts//+/,}
             timeout $t python3 tests/gpu_test.py --parts $parts --budget $(( t - 50 )) --gpu-jobs 6 --jobs 16 \
               --make-arg ARCH=90 --out $logs/gpu-test-${parts//,/-} > "$W/$part.txt" 2>&1 ;;
    *) echo "run.sh: unknown part $part" >&2; continue ;;
  esac
  echo "$part: rc=$? $(( $(date +%s) - start )) s" | tee -a "$W/times.txt"
done
echo "call: $(( $(date +%s) - begin )) s" | tee -a "$W/times.txt"
tar czf "$OUT/call-$tag.tgz" -C out/bench "canonical-$tag"
for f in "$W"/*.txt; do echo "== $f"; tail -n 6 "$f"; done
