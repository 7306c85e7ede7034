#!/usr/bin/env bash
# Build the kernel modules against KDIR in a copy of the sources under OUTDIR,
# so that modules for several kernels (test kernel, stock kernel) can exist
# side by side without touching the source tree.
#   usage: build-modules.sh KDIR OUTDIR [make arguments...]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || ub_die "usage: ${0##*/} KDIR OUTDIR [make arguments...]"
kdir=$1 out=$2
shift 2
[ -e "$kdir/Makefile" ] || ub_die "$kdir is not a kernel build directory"

mkdir -p "$out"
out=$(cd "$out" && pwd)
# Object files are excluded, hence kept, so rebuilds stay incremental.
(cd "$UB_TOP" && rsync -a --delete --exclude='*.mod.c' --include='*/' --include='*.[ch]' \
	--include=Kbuild --exclude='*' Kbuild "${UB_KMOD_DIRS[@]}" "$out/")
# ccache when installed (UB_CCACHE=0: not): a rebuild of the same tree for
# the same kernel compiles only what changed. The compiler stays the one
# the kernel names (gcc for ours, gcc-12 for Debian's): kbuild compares its
# version line.
# The compiler's input names the module directory: so that another
# checkout (make check's fresh clones) finds its objects in the cache too,
# the build goes through a fixed path, a symlink in UB_CACHE to OUTDIR,
# one build per kernel at a time (flock).
cc=() m=$out
if [[ ${UB_CCACHE:-1} != 0 ]] && command -v ccache > /dev/null; then
	kcc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\) .*/\1/p' "$kdir/.config")
	cc=(CC="ccache ${kcc:-gcc}")
	m=$UB_CACHE/kmod/$(echo "$kdir" | md5sum | cut -c1-12)
	mkdir -p "${m%/*}"
	exec 9> "$m.lock"
	flock 9
	ln -sfn "$out" "$m"
fi
make -C "$kdir" M="$m" W=1 -j"$(nproc)" "${cc[@]}" "$@" modules
# modules.order and Module.symvers name the modules by that path: OUTDIR's
# own, for make modules_install M=OUTDIR (it installs what lies under M)
if [[ $m != "$out" ]]; then
	sed -i "s|$m/|$out/|g" "$out/modules.order" "$out/Module.symvers"
fi
