#!/usr/bin/env bash
# B's slab by cp.async on the copy-engine path (EXP_B_RULE 1) against the copy engine (0); rule 2: B always by cp.async.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
echo "binary limit size tile stages shared_bytes rate median_ms result"
for bin in f16_T_r0 f16_T_r1 bf_T_r0 bf_T_r1 h_T_r0 h_T_r1 tf_T_r0 tf_T_r1 f16_N_r2 h_N_r2; do
  limits="0 163K 99K 64K"; case $bin in tf*) limits="0 163K 99K";; esac
  for lim in $limits; do
    for size in 8192 4096; do
      v=gpu; [ $size = 8192 ] && v=off
      arg=""; [ $lim != 0 ] && arg="--shared-limit=$lim"
      ./$bin $arg --format=kv --iterations=10 --warmup=3 --verify=$v $size $size $size |
        python3 -c 'import sys; kv=dict(t.split("=",1) for t in sys.stdin.read().split() if "=" in t); print(" ".join(kv.get(k,"?") for k in ("tile","stages","shared_bytes","rate","median_ms","result")))' | sed "s/^/$bin $lim $size /"
    done
  done
done
echo "--- sanitizers (mixed path)"
for bin in f16_T_r1 h_T_r1 tf_T_r1; do
  for lim in 99K 64K; do
    [ $bin = tf_T_r1 ] && [ $lim = 64K ] && continue
    for tool in memcheck racecheck synccheck; do
      compute-sanitizer --tool $tool --error-exitcode 9 ./$bin --shared-limit=$lim --verify=gpu --iterations=1 --warmup=0 --alpha=0.5 --beta=2 301 517 259 > /tmp/san.txt 2>&1
      echo "$bin $lim $tool rc=$? $(grep -c 'ERROR SUMMARY: 0' /tmp/san.txt)"
    done
  done
done
for bin in f16_T_r1 h_T_r1 bf_T_r1 tf_T_r1; do for lim in 0 99K 64K; do for s in "1 1 1" "17 33 65" "1000 999 1001" "256 128 96"; do
 a=""; [ $lim != 0 ] && a="--shared-limit=$lim"; ./$bin $a --verify=gpu --alpha=1.5 --beta=-0.5 --iterations=1 --warmup=0 $s >/dev/null 2>&1; echo -n "$bin/$lim/${s// /x}:$? "; done; done; done; echo
