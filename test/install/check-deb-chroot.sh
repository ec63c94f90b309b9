#!/usr/bin/env bash
# ctest install/deb-chroot: builds the .deb with cpack from BUILD and runs
# scripts/deb-chroot-check.sh on it: the package installed into a fresh Debian
# 12 (bookworm, minbase) chroot with nothing but its declared dependencies,
# `tilec --version` and a compile there, then test/install/project built in the
# chroot with find_package(Tilec) + tilec_add_kernel() (host and, with this
# machine's CUDA toolkit bind-mounted, sm_90a kernels), the host programs run,
# and the rebuild after an edit of the .tile checked.
# Each run starts from a copy of a pristine debootstrap kept in WORK_DIR/base
# (debootstrap takes a few minutes the first time; the copy, seconds). Skipped (exit 77) only where the machine
# cannot do it: not root, no debootstrap, no chroot or bind mounts, no Debian mirror.
# Usage: check-deb-chroot.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 source=$2 work=$3
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root (chroot, mount)"
command -v debootstrap >/dev/null || skip "debootstrap is not installed (scripts/setup.sh installs it)"
chroot / true 2>/dev/null || skip "chroot is not permitted here"
probe=$(mktemp -d)
if ! mount --bind "$probe" "$probe" 2>/dev/null; then rmdir "$probe"; skip "bind mounts are not permitted here"; fi
umount "$probe" && rmdir "$probe"
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
command -v curl >/dev/null && { curl -fsI --max-time 20 "$mirror/dists/bookworm/Release" >/dev/null ||
  skip "the Debian mirror $mirror is not reachable"; }

mkdir -p "$work"
rm -f "$work"/tilec_*_amd64.deb
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" >"$work/cpack.log"
deb=$(ls "$work"/tilec_*_amd64.deb)
if [ ! -f "$work/base/etc/debian_version" ]; then
  rm -rf "$work/base"
  debootstrap --variant=minbase bookworm "$work/base" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log"; echo "FAIL: debootstrap"; exit 1; }
fi
# A run killed before its cleanup can leave the CUDA toolkit bind-mounted in the old
# chroot: unmount before deleting it (rm -rf would go through the mount).
old=$(readlink -f "$work")/chroot
awk -v p="$old" '$2 == p || index($2, p "/") == 1 {print $2}' /proc/mounts | sort -r | while read -r m; do umount "$m"; done
if awk -v p="$old" '$2 == p || index($2, p "/") == 1 {f=1} END {exit !f}' /proc/mounts; then
  echo "FAIL: $old still has mounts"; exit 1
fi
rm -rf "$work/chroot"
cp -a "$work/base" "$work/chroot"
exec bash "$source/scripts/deb-chroot-check.sh" "$deb" "$work/chroot"
