#!/bin/sh
# Usage: msl-syntax-check.sh CLANGXX FILE.metal
# Checks tilec's MSL for syntax and types with clang++ -fsyntax-only -x c++
# against metal_stdlib.h (no Metal compiler exists on Linux). SPIRV-Cross's
# spvUnsafeArray template overloads operator[] on the address space of
# `this`, which C++ cannot express: it is cut out here and metal_stdlib.h
# declares it instead.
set -eu
clangxx=$1
in=$2
inputs=$(dirname "$0")
out=$in.check.cpp
awk '
  skip && $0 == "};" { skip = 0; next }
  skip { next }
  pending != "" { if ($0 == "struct spvUnsafeArray") { skip = 1; pending = ""; next } print pending; pending = "" }
  $0 == "template<typename T, size_t Num>" { pending = $0; next }
  { print }
  END { if (pending != "") print pending }
' "$in" > "$out"
exec "$clangxx" -fsyntax-only -x c++ -std=c++17 -Werror -Wno-unknown-attributes -I "$inputs" "$out"
