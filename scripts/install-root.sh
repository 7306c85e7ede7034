#!/usr/bin/env bash
# What "make install" puts on a machine that runs the test kernel, as a
# root directory that the guest case installed-stack mounts over its own
# (tests/guest/cases/installed-stack.sh): the kernel's own modules (its
# modroot), then make install's module part (modules_install with depmod)
# and userspace part (cmake --install of an already built BUILD) with
# DESTDIR=OUT. make check stages it before its guests boot; for a focused
# run of that case, run it by hand first.
#   usage: install-root.sh BUILD KDIR KMOD_BUILD OUT
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -eq 4 ] || ub_die "usage: ${0##*/} BUILD KDIR KMOD_BUILD OUT"
build=$(realpath "$1") kdir=$2 kmod=$(realpath "$3") out=$4
rel=$(ub_kernel_release "$kdir")
rm -rf "$out"
mkdir -p "$out/lib/modules"
out=$(realpath "$out")
cp -a "$kdir/modroot/lib/modules/$rel" "$out/lib/modules/"
# (make userspace_install would first make sure BUILD is built: seconds
# of cmake for nothing right after make check's build.)
make -s -C "$UB_TOP" KDIR="$kdir" KMOD_BUILD="$kmod" DESTDIR="$out" modules_install
DESTDIR=$out cmake --install "$build" > /dev/null
# make install's ldconfig, which finds liburma.so.0 in /usr/local/lib (in
# Debian's /etc/ld.so.conf.d/libc.conf). Here, not in the guest: there it
# reads every library of /usr/lib over 9p, 50 s. This cache holds liburma
# alone; the loader finds the system's libraries in its default
# directories without one.
echo /usr/local/lib > "$out/etc/ld.so.conf"
ldconfig -r "$out"
