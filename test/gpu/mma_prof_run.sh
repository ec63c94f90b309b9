#!/usr/bin/env bash
# Device half of mma_prof.sh (see there): SASS of every build, a 6 s clock/power
# soak each (nvidia-smi sampled mid-run), ncu --set full of one launch each
# (cuBLAS too unless NO_CUBLAS=1) with details, per-instruction source counters
# (SASS, stall reasons) and raw metrics; everything packed into
# ${OUT:-.}/mma_prof.tar.gz (the device tool brings back few files).
cd "$(dirname "$0")"
o=$(mktemp -d)
tags=$(ls *.so | sed 's/\.so$//')
all="$tags"; [ "${NO_CUBLAS:-0}" = 1 ] || all="$tags cublas"
for t in $tags; do
  cuobjdump -sass "$t.cubin" >"$o/$t.sass" 2>&1
done
for t in $all; do
  python3 mma_prof.py soak "$t" 8 &
  pid=$!
  sleep 6; nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
  wait $pid
done
for t in $all; do
  ncu --clock-control none --set full --import-source no -k regex:'gemm|nvjet|xmma|cutlass' -c 1 -o "$o/$t" -f \
    python3 mma_prof.py once "$t" >/dev/null 2>&1 || echo "ncu $t failed"
  ncu -i "$o/$t.ncu-rep" --page details >"$o/$t.details.txt" 2>&1
  ncu -i "$o/$t.ncu-rep" --page source --csv --print-source sass >"$o/$t.source.csv" 2>&1
  rm -f "$o/$t.ncu-rep"
  echo "== $t"
  grep -E "SM Frequency|Duration|Issue Slots Busy|Warp Cycles Per Issued|highest-utilized" "$o/$t.details.txt" | head -8
done
tar -czf "${OUT:-.}/mma_prof.tar.gz" -C "$o" .
