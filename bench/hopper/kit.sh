#!/usr/bin/env bash
# Issue #6 device kit (GPU machine, repository root), after bench/hopper/kit_build.sh here:
#   bash bench/hopper/kit.sh [LIBDIR]            (default build/hopper-kit; carry it)
#   KIT_DTYPES="fp8" bash bench/hopper/kit.sh    times only these dtypes (float16 bfloat16 fp8);
#                                                default: those whose configs the kit holds
#                                                (a kit built with ONLY=fp8 holds fp8 and fp8p)
# 1. GPU state, HGMMA / QGMMA / HMMA counts and registers / stack (spills) of every
#    configuration's cubin (cuobjdump);
# 2. numerics of every configuration (kit.py check) under a timeout; after a hang, the
#    configurations without a verdict again one by one, each under its own timeout;
# 3. sweep + rotated final timing + tables (kit.py bench) over the configurations that passed.
# Everything goes to stdout and to $OUT/kit-log.txt; $OUT/kit-results-<dtype>.json hold the
# final rows, $OUT/kit-pass.txt the numerics verdicts. Expected wall time ~60-120 s
# (all families, split-K included), ~30-50 s for a kit built with ONLY=fp8 or ONLY=fp16.
set -u
libs=${1:-build/hopper-kit}
out=${OUT:-/tmp/hopper-kit-out}
mkdir -p "$out"
export OUT=$out KIT_PASS=$out/kit-pass.txt
here=$(dirname "$0")

dtypes=${KIT_DTYPES:-}
if [ -z "$dtypes" ]; then
  grep -q '^fp16 ' "$libs/configs.txt" && dtypes="float16 bfloat16"
  grep -q '^fp8 ' "$libs/configs.txt" && dtypes="$dtypes fp8"
fi

main() {
  local t0=$SECONDS
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu,driver_version --format=csv
  echo "kit: $(cat "$libs/built-from.txt" 2>/dev/null), $(ls "$libs"/*.so | wc -l) .so"
  echo "== SASS (cuobjdump --dump-sass, instruction lines per cubin)"
  for f in "$libs"/*.cubin; do
    sass=$(cuobjdump --dump-sass "$f")
    use=$(cuobjdump --dump-resource-usage "$f" 2>/dev/null | grep -o 'REG:[0-9]* STACK:[0-9]*' | head -1)
    printf '%-32s HGMMA %3d  QGMMA %3d  HMMA %3d  %s\n' "$(basename "$f" .cubin)" \
      "$(grep -c HGMMA <<<"$sass")" "$(grep -c QGMMA <<<"$sass")" "$(grep -c 'HMMA\.' <<<"$sass")" "$use"
  done
  echo "== numerics"
  : >"$KIT_PASS"
  KIT_DTYPES="$dtypes" timeout 180 python3 "$here/kit.py" "$libs" check
  echo "check rc $?"
  while read -r fam spec; do
    cfg=${spec%%:*}
    case " $dtypes " in *" fp8 "*) ;; *) [[ $fam == fp8* ]] && continue ;; esac
    case " $dtypes " in *" float16 "* | *" bfloat16 "*) ;; *) [[ $fam == fp16 ]] && continue ;; esac
    grep -q "^$fam $cfg " "$KIT_PASS" && continue
    echo "re-checking $fam $cfg alone (no verdict yet: the run above hung or died)"
    timeout 40 python3 "$here/kit.py" "$libs" check "$fam:$cfg" || { echo "check $cfg rc $?"; grep -q "^$fam $cfg " "$KIT_PASS" || echo "$fam $cfg FAIL" >>"$KIT_PASS"; }
  done <"$libs/configs.txt"
  cat "$KIT_PASS"
  echo "== timing (one process per dtype: a broken CUDA context cannot take the others along)"
  for dt in $dtypes; do
    timeout 200 python3 "$here/kit.py" "$libs" bench $dt
    echo "bench $dt rc $?"
  done
  nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv
  echo "kit wall time $((SECONDS - t0)) s"
}

main 2>&1 | tee "$out/kit-log.txt"
# The reply carries only the end of the output: repeat what matters there.
echo
echo "==================== SUMMARY (full log: \$OUT/kit-log.txt)"
grep -E 'GMMA|HMMA' "$out/kit-log.txt" | grep -v '^check' | sed 's/^/sass: /'
echo "numerics: $(grep -c ' PASS$' "$KIT_PASS") configs PASS, failed: $(grep ' FAIL$' "$KIT_PASS" | cut -d' ' -f1,2 | tr '\n' ' ')"
grep -E '^(###|\||geomean|  |bench .* rc|kit wall)' "$out/kit-log.txt" | grep -v '^  sweep'
