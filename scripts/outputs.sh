#!/usr/bin/env bash
# Writes what tilec produces for every .tile file in the tree, for every target,
# into OUTDIR: the target's default outputs (object/fatbin/SPIR-V/MSL/WGSL/Ascend C
# plus header), its text stage (LLVM IR, PTX, SPIR-V disassembly, ...), and each
# run's stderr and exit code; once per file, the --emit=ast dump (OUTDIR/FILE.ast/).
# Two trees' OUTDIRs compared with `diff -r` show every change in output,
# diagnostics or exit code (a refactor must show none).
#
# Usage: scripts/outputs.sh OUTDIR [TILEC]     (TILEC defaults to build/bin/tilec)
#        run from anywhere; paths in OUTDIR and in messages are relative to the tree.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: scripts/outputs.sh OUTDIR [TILEC]}
tilec=${2:-$root/build/bin/tilec}
mkdir -p "$out"
out=$(cd "$out" && pwd)
tilec=$(cd "$(dirname "$tilec")" && pwd)/$(basename "$tilec")
cd "$root"

# target:text-stage pairs; the default stage (-o) is always written too.
targets=(host:llvm sm_80:ptx sm_90a:ptx vulkan:spirv metal:msl webgpu:wgsl ascend:ascendc)

one() {
  local f=$1 t=$2 stage=$3 d
  d="$out/$f.$t"
  mkdir -p "$d"
  timeout 120 "$tilec" "$f" -target="$t" -o "$d/out" >"$d/stdout" 2>"$d/stderr"
  echo $? >"$d/rc"
  timeout 120 "$tilec" "$f" -target="$t" --emit="$stage" >"$d/$stage" 2>"$d/$stage.stderr"
  echo $? >"$d/$stage.rc"
  # Messages name the output path; keep them comparable across OUTDIRs.
  sed -i "s|$out|OUT|g" "$d/stderr" "$d/stdout" "$d/$stage.stderr" 2>/dev/null
}
# The AST does not depend on the target: one dump per file.
ast() {
  local f=$1 d
  d="$out/$f.ast"
  mkdir -p "$d"
  timeout 120 "$tilec" "$f" --emit=ast >"$d/ast" 2>"$d/ast.stderr"
  echo $? >"$d/ast.rc"
}
export -f one ast
export out tilec

git ls-files '*.tile' | while read -r f; do
  for ts in "${targets[@]}"; do echo "$f ${ts%%:*} ${ts##*:}"; done
done | xargs -P "${JOBS:-2}" -L 1 bash -c 'one "$0" "$1" "$2"'
git ls-files '*.tile' | xargs -P "${JOBS:-2}" -L 1 bash -c 'ast "$0"'
echo "outputs.sh: $(git ls-files '*.tile' | wc -l) files x ${#targets[@]} targets (and --emit=ast) written to $out"
