#!/usr/bin/env bash
# Build (once) the test kernel from Debian's linux-source-6.1 with the repo's
# config fragment, and print the build directory (usable as KDIR).
# The build is cached outside the checkout, keyed by the fragment, the source
# package version and the compiler, so later runs only print the path.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

frag=$UB_TOP/tests/kernel/test-kernel.config
"$UB_TOP/scripts/deps.sh"

srcver=$(ub_pkg_version "$UB_KSRC_PKG")
key=$( { cat "$frag"; echo "$srcver"; gcc --version | head -1; } |
	sha256sum | cut -c1-16)
out=$UB_CACHE/kernel-$key
src=$UB_CACHE/src-$srcver

# A finished build is never touched again: no need to wait for the lock
# that another build (of another fragment) may hold.
if [ -e "$out/.done" ] && [ -e "$out/modroot/.done" ]; then
	echo "$out"
	exit 0
fi

mkdir -p "$UB_CACHE"
exec 9>"$UB_CACHE/kernel.lock"
flock 9

install_modules() {
	# The guest finds the kernel's own modules (rdma_rxe, ...) here.
	rm -rf "$out/modroot"
	make -s -C "$src" O="$out" INSTALL_MOD_PATH="$out/modroot" \
		modules_install >/dev/null
	touch "$out/modroot/.done"
}

if [ -e "$out/.done" ]; then
	[ -e "$out/modroot/.done" ] || install_modules
	echo "$out"
	exit 0
fi

if [ ! -e "$src/.done" ]; then
	ub_log "unpacking $UB_KSRC_PKG $srcver"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -C "$src.tmp" --strip-components=1 -xf /usr/src/linux-source-6.1.tar.xz
	touch "$src.tmp/.done"
	mv "$src.tmp" "$src"
fi

ub_log "building test kernel $key (this takes a while once)"
rm -rf "$out"
mkdir -p "$out"
make -s -C "$src" O="$out" defconfig kvm_guest.config >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$frag" >/dev/null
make -s -C "$src" O="$out" olddefconfig >/dev/null

# merge_config only warns; a silently dropped option would void the tests.
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=n) opt=${line%=n}
		grep -q "^$opt=" "$out/.config" && { ub_log "config: $opt still set"; bad=1; } ;;
	CONFIG_*=*) grep -qx "$line" "$out/.config" || { ub_log "config: $line did not stick"; bad=1; } ;;
	esac
done < "$frag"
[ $bad -eq 0 ] || ub_die "config fragment does not apply to $srcver"

make -s -C "$src" O="$out" -j"$(nproc)" bzImage modules
install_modules
touch "$out/.done"
echo "$out"
