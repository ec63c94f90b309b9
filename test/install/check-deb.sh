#!/usr/bin/env bash
# ctest install/deb: builds the .deb with cpack from BUILD and checks with
# dpkg-deb that it holds the executables, the CMake package and the docs,
# installs under /usr, and declares the Debian packages of the shared
# libraries tilec loads (each library's package found with dpkg -S here).
# It does not install the package (a test must not change the system).
# Usage: check-deb.sh BUILD_DIR WORK_DIR
set -euo pipefail
build=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" >"$work/cpack.log"
deb=$(ls "$work"/tilec_*_amd64.deb)
info=$(dpkg-deb -I "$deb")
contents=$(dpkg-deb -c "$deb")
fail() { echo "FAIL: $*"; exit 1; }
field() { dpkg-deb -f "$deb" "$1"; }

[ "$(field Package)" = tilec ] || fail "Package is '$(field Package)'"
version=$("$build/bin/tilec" --version | cut -d' ' -f2)
# The Debian form of the built tilec's version: 0.1.0-gabc -> 0.1.0~gabc, 0.1.0-5-gabc -> 0.1.0+5.gabc.
want=$(sed -E 's/^([0-9][^-]*)-([0-9]+)-g/\1+\2.g/; s/^([0-9][^-+]*)-g/\1~g/; s/-dirty$/.dirty/' <<<"$version")
[ "$(field Version)" = "$want" ] || fail "Version is '$(field Version)', want '$want' (tilec --version: $version)"
[ -n "$(field Maintainer)" ] && [ -n "$(field Description)" ] || fail "no Maintainer or Description"
echo "package $(field Package) $(field Version) (tilec --version: $version)"

for path in ./usr/bin/tilec ./usr/bin/tilec-opt ./usr/lib/cmake/Tilec/TilecConfig.cmake \
            ./usr/lib/cmake/Tilec/TilecConfigVersion.cmake ./usr/lib/cmake/Tilec/TilecTargets.cmake \
            ./usr/lib/cmake/Tilec/TilecAddKernel.cmake ./usr/share/doc/tilec/LICENSE \
            ./usr/share/doc/tilec/CHANGELOG.md; do
  grep -q " $path\$" <<<"$contents" || fail "$path is not in the package"
done

# Every shared library the executable needs comes from a package named in Depends.
depends=$(field Depends)
echo "Depends: $depends"
for lib in $(ldd "$build/bin/tilec" | awk '$3 ~ /^\// {print $3}'); do
  real=$(readlink -f "$lib") # the file itself: a symbolic link may belong to a -dev package
  pkg=$( (dpkg -S "$real" 2>/dev/null || dpkg -S "$lib" 2>/dev/null || dpkg -S "/usr$lib" 2>/dev/null) |
         head -1 | cut -d: -f1)
  [ -n "$pkg" ] || fail "no Debian package holds $lib"
  # Only the libraries tilec itself names (NEEDED), not what they pull in.
  if readelf -d "$build/bin/tilec" | grep -q "NEEDED.*\[$(basename "$lib")\]"; then
    sed 's/ *([^)]*)//g; s/ *| */\n/g; s/, */\n/g' <<<"$depends" | grep -qxF "$pkg" || fail "$(basename "$lib") comes from $pkg, which Depends lacks"
  fi
done
# The installed executable finds libMLIR.so through RUNPATH.
dpkg-deb -x "$deb" "$work/root"
readelf -d "$work/root/usr/bin/tilec" | grep -q "RUNPATH.*/usr/lib/llvm-" || fail "no RUNPATH to LLVM's lib directory"
"$work/root/usr/bin/tilec" --version | grep -q "^tilec $version " || fail "the packaged tilec is not version $version"
echo "install/deb: ok"
