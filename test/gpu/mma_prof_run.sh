#!/usr/bin/env bash
# Device half of mma_prof.sh (see there). Writes to ${OUT:-.}.
cd "$(dirname "$0")"
o=${OUT:-.}
tags=$(ls *.so | sed 's/\.so$//')
for t in $tags; do
  cuobjdump -sass "$t.cubin" >"$o/$t.sass" 2>&1
done
for t in $tags cublas; do
  python3 mma_prof.py soak "$t" 6 &
  pid=$!
  sleep 3; nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
  wait $pid
done
for t in $tags cublas; do
  ncu --clock-control none --set full -k regex:'gemm|nvjet|xmma|cutlass' -c 1 -o "$o/$t" -f python3 mma_prof.py once "$t" >/dev/null 2>&1 || echo "ncu $t failed"
  ncu -i "$o/$t.ncu-rep" --page details >"$o/$t.details.txt" 2>&1
  ncu -i "$o/$t.ncu-rep" --page source --csv --print-source sass >"$o/$t.source.csv" 2>&1
  ncu -i "$o/$t.ncu-rep" --page raw --csv >"$o/$t.raw.csv" 2>&1
  grep -E "Duration|SM Frequency|Compute \(SM\) Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Shared Memory|Issue Slots|Warp Cycles Per Issued|Bank" "$o/$t.details.txt" | head -30
done
ls -la "$o"
