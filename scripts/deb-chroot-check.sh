#!/usr/bin/env bash
# Installs the tilec .deb into a fresh Debian 12 (bookworm, minbase) chroot with
# nothing but its declared dependencies, runs `tilec --version` and compiles a
# kernel, then adds cmake, ninja, gcc and make and builds test/install/project
# there against the installed package (find_package(Tilec), tilec_add_kernel()):
# runs the host programs and checks the rebuild after an edit of the .tile.
# A CUDA toolkit on this machine (CUDA_PATH or /usr/local/cuda) is bind-mounted
# so the sm_90a kernel builds too. Needs root, debootstrap and network access to
# the Debian mirror; takes a few minutes. Not a ctest (it changes /tmp and mounts).
# Usage: scripts/deb-chroot-check.sh path/to/tilec_*.deb [CHROOT_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
deb=$(readlink -f "$1")
chroot_dir=${2:-$(mktemp -d /tmp/tilec-chroot.XXXXXX)}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
cuda=$(readlink -f "${CUDA_PATH:-/usr/local/cuda}" 2>/dev/null || true)

[ -f "$chroot_dir/etc/debian_version" ] || debootstrap --variant=minbase bookworm "$chroot_dir" "$mirror" >/dev/null
cat >"$chroot_dir/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${mirror%/debian}/debian-security bookworm-security main
SOURCES
cp /etc/resolv.conf "$chroot_dir/etc/"
cp "$deb" "$chroot_dir/tmp/tilec.deb"
rm -rf "$chroot_dir/tmp/project" "$chroot_dir/tmp/pb"
cp -r "$root/test/install/project" "$chroot_dir/tmp/project"
in_chroot() { chroot "$chroot_dir" env DEBIAN_FRONTEND=noninteractive bash -euo pipefail -c "$1"; }

echo "== the package with its declared dependencies only"
in_chroot 'apt-get update -qq && apt-get install -y -qq --no-install-recommends /tmp/tilec.deb >/dev/null
           tilec --version
           cd /tmp/project && tilec saxpy.tile -o /tmp/saxpy.o -MD && test -s /tmp/saxpy.o && test -s /tmp/saxpy.h'

echo "== a CMake project against the installed package"
mounted=
if [ -x "$cuda/bin/ptxas" ]; then
  mkdir -p "$chroot_dir$cuda"
  mount --bind "$cuda" "$chroot_dir$cuda"
  mounted=$chroot_dir$cuda
  ln -sfn "$cuda" "$chroot_dir/usr/local/cuda"
fi
trap '[ -z "$mounted" ] || umount "$mounted"' EXIT
cuda_flag=OFF
[ -n "$mounted" ] && cuda_flag=ON
in_chroot "apt-get install -y -qq --no-install-recommends cmake ninja-build gcc libc6-dev make >/dev/null
           cd /tmp && cmake -G Ninja -S project -B pb -DTILEC_USER_CUDA=$cuda_flag >/dev/null
           ninja -C pb >/dev/null && ./pb/saxpy_host_run && ./pb/saxpy_shared_run
           plan=\$(ninja -C pb -n)
           grep -q 'no work to do' <<<\"\$plan\"
           sleep 1 && echo '# edited' >> project/saxpy.tile
           plan=\$(ninja -C pb -n)
           grep -q 'tilec/saxpy_host/saxpy.o' <<<\"\$plan\"
           ninja -C pb >/dev/null && ./pb/saxpy_host_run"
echo "deb-chroot-check: ok ($chroot_dir; CUDA kernel built: $cuda_flag)"
