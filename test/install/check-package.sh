#!/usr/bin/env bash
# ctest install/cmake-package: installs tilec from BUILD into a fresh prefix,
# builds test/install/project (a user's project outside the tree) against it
# with find_package(Tilec) + tilec_add_kernel() (host object, host shared
# library, sm_90a object, Vulkan header), runs the host programs, then edits the kernel and
# its imported helper and checks that the kernels rebuild; then the same
# with project/Makefile (plain Make and tilec -MD).
# Usage: check-package.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 source=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
cp -r "$source/test/install/project" "$work/src"
# A plain environment: the project sees only the installed prefix.
cmake -G Ninja -S "$work/src" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DTILEC_USER_CUDA=ON \
  >"$work/configure.log"
# Tilec_VERSION (the project version) is what `tilec --version` starts with.
version=$("$work/prefix/bin/tilec" --version | cut -d' ' -f2)
package=$(sed -n 's/^-- tilec //p' "$work/configure.log")
[ -n "$package" ] && [ "${version#"$package"}" != "$version" ] ||
  { echo "FAIL: the package's Tilec_VERSION '$package' does not begin tilec --version's '$version'"; exit 1; }
ninja -C "$work/build" >"$work/build.log"
"$work/build/saxpy_host_run"
"$work/build/saxpy_shared_run"
"$work/build/saxpy_vulkan_check"
test -f "$work/build/saxpy_cuda_run" || { echo "FAIL: the sm_90a program was not built"; exit 1; }

up_to_date() { local p; p=$(ninja -C "$work/build" -n); grep -q "no work to do" <<<"$p"; }
up_to_date || { echo "FAIL: a second build is not a no-op"; ninja -C "$work/build" -n; exit 1; }

# Editing the kernel rebuilds its four builds (and nothing is skipped).
obj="$work/build/tilec/saxpy_host/saxpy.o"
before=$(date -r "$obj" +%s.%N)
sleep 1
echo "# edited by check-package.sh" >>"$work/src/saxpy.tile"
plan=$(ninja -C "$work/build" -n)
for k in saxpy_host/saxpy.o saxpy_shared/saxpy_so.so saxpy_cuda/saxpy.o saxpy_vulkan/saxpy.spv; do
  grep -q "tilec/$k" <<<"$plan" || { echo "FAIL: editing saxpy.tile does not rebuild $k"; echo "$plan"; exit 1; }
done
ninja -C "$work/build" >>"$work/build.log"
after=$(date -r "$obj" +%s.%N)
[ "$before" != "$after" ] || { echo "FAIL: $obj was not rewritten"; exit 1; }
"$work/build/saxpy_host_run"
up_to_date || { echo "FAIL: the build after the edit is not a no-op"; exit 1; }

# Editing the imported helper rebuilds the kernels too.
sleep 1
echo "# edited by check-package.sh" >>"$work/src/saxpy_helpers.tile"
# (The plan is captured first: `ninja -n | grep -q` under pipefail fails when grep exits before ninja's
# last write, SIGPIPE.)
plan=$(ninja -C "$work/build" -n)
grep -q "tilec/saxpy_host/saxpy.o" <<<"$plan" ||
  { echo "FAIL: editing saxpy_helpers.tile does not rebuild the kernel"; echo "$plan"; exit 1; }
ninja -C "$work/build" >>"$work/build.log"

# Make with the installed tilec: builds, runs, and rebuilds after an edit of the kernel.
make -s -C "$work/src" TILEC="$work/prefix/bin/tilec" make-out/app >>"$work/build.log"
"$work/src/make-out/app"
make -q -C "$work/src" TILEC="$work/prefix/bin/tilec" make-out/app || { echo "FAIL: make rebuilds an up-to-date tree"; exit 1; }
sleep 1
echo "# edited again" >>"$work/src/saxpy.tile"
plan=$(make -n -C "$work/src" TILEC="$work/prefix/bin/tilec" make-out/app)
grep -q "saxpy.tile -target=host" <<<"$plan" ||
  { echo "FAIL: make does not recompile the edited kernel"; exit 1; }
echo "install/cmake-package: ok"
