#!/usr/bin/env bash
# Host test of "make install" and "make uninstall" into a DESTDIR: the
# files a distribution expects (liburma with its soname, liburma.pc, the
# headers, the tools and their manual pages, the udev rules and the
# modprobe.d sample, and the modules with depmod's index when KDIR and
# KMOD_BUILD are given); a sample application (examples/urma_devices.c)
# built against the installed copy with nothing but "pkg-config --cflags
# --libs liburma", linked to liburma.so.0 and run; then uninstall leaves
# none of it behind.
#   usage: install.sh BUILD [KDIR KMOD_BUILD]
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
build=$(realpath "$1") kdir=${2:-} kmod=${3:+$(realpath "$3")}
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mk() { make -s -C "$UB_TOP" BUILD="$build" DESTDIR="$dest" "$@"; }

echo "== make userspace_install DESTDIR=$dest"
mk userspace_install > "$dest.log" 2>&1 || { cat "$dest.log"; fail "install"; }
rm -f "$dest.log"
p=$dest/usr/local
for f in lib/liburma.so.0.1.0 lib/libums-preload.so include/ub/umdk/urma/urma_api.h \
	include/ub/umdk/urma/urma_types.h include/ub/umdk/urma/urma_opcode.h \
	lib/pkgconfig/liburma.pc; do
	[ -f "$p/$f" ] || fail "$p/$f not installed"
done
[ "$(readlink "$p/lib/liburma.so.0")" = liburma.so.0.1.0 ] || fail "liburma.so.0 -> liburma.so.0.1.0"
[ "$(readlink "$p/lib/liburma.so")" = liburma.so.0 ] || fail "liburma.so -> liburma.so.0"
readelf -d "$p/lib/liburma.so.0.1.0" | grep 'SONAME.*\[liburma\.so\.0\]' ||
	fail "liburma's SONAME is not liburma.so.0"
# The manual pages are roff with a title and a NAME, every @VARIABLE@
# filled in, and render without a warning (when groff is here: it is
# not one of scripts/deps.sh's packages).
for f in man1/urma_perftest.1 man1/ums_run.1 man7/liburma.7 man8/urma_admin.8; do
	f=$p/share/man/$f
	[ -f "$f" ] || fail "$f not installed"
	grep -q '^\.TH ' "$f" || fail "$f has no .TH"
	grep -q '^\.SH NAME$' "$f" || fail "$f has no .SH NAME"
	! grep -q '@[A-Z_]*@' "$f" || fail "$f has a @VARIABLE@ not filled in"
	if command -v groff > /dev/null; then
		out=$(groff -man -Tutf8 -ww -z "$f" 2>&1) || fail "groff $f"
		[ -z "$out" ] || fail "groff warns about $f: $out"
	fi
done
# Each tool's manual page names every long option of its --help, so that
# the two stay in step.
for t in urma_admin:man8/urma_admin.8 urma_perftest:man1/urma_perftest.1 \
	ums_run:man1/ums_run.1; do
	page=$p/share/man/${t#*:} t=${t%%:*}
	[ -x "$p/bin/$t" ] || fail "$t not installed"
	out=$(LD_LIBRARY_PATH=$p/lib "$p/bin/$t" --help) || fail "$t --help"
	[[ $out == *"$t"* ]] || fail "$t --help does not name it"
	while read -r o; do
		grep -qF -- "\\-\\-${o#--}" "$page" || fail "$page lacks $o of $t --help"
	done < <(grep -o -- '--[a-z][a-z0-9_]*' <<< "$out" | sort -u)
done
grep -q '^SUBSYSTEM=="uburma".*MODE="0666"' "$dest/etc/udev/rules.d/90-uburma.rules" ||
	fail "udev rule for /dev/uburma/*"
grep -q '^softdep udma post: uburma' "$dest/etc/modprobe.d/ub-urma.conf" ||
	fail "modprobe.d sample"
# libroub: the provider where the driver file says (libibverbs dlopen()s
# "<path>-rdmav34.so"), needing the installed liburma.so.0
[ -f "$p/lib/libroub-rdmav34.so" ] || fail "libroub-rdmav34.so not installed"
drv=$(sed -n 's/^driver //p' "$dest/etc/libibverbs.d/roub.driver") ||
	fail "no /etc/libibverbs.d/roub.driver"
[ -f "$dest$drv-rdmav34.so" ] || fail "roub.driver names $drv, not the installed provider"
readelf -d "$p/lib/libroub-rdmav34.so" | grep -q 'NEEDED.*\[liburma\.so\.0\]' ||
	fail "libroub does not need liburma.so.0"
echo "== installed: $(cd "$dest" && find . -type f | sort | tr '\n' ' ')"

echo "== a sample application through pkg-config"
export PKG_CONFIG_PATH=$p/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest
flags=$(pkg-config --cflags --libs liburma)
echo "pkg-config --cflags --libs liburma: $flags"
[ "$(pkg-config --modversion liburma)" = 0.1.0 ] || fail "liburma.pc version"
# shellcheck disable=SC2086 # flags are words
cc -Wall -Wextra -Werror -o "$dest/app" "$UB_TOP/examples/urma_devices.c" $flags
readelf -d "$dest/app" | grep 'NEEDED.*\[liburma\.so\.0\]' || fail "app does not need liburma.so.0"
out=$(LD_LIBRARY_PATH=$p/lib ldd "$dest/app")
[[ $out == *"=> $p/lib/liburma.so.0 "* ]] || fail "app does not load the installed liburma"
# The host has no uburma.ko loaded: the sample gets as far as liburma's
# urma_init(), which finds no /dev/uburma, and says so.
[ ! -e /sys/class/uburma ] || fail "uburma is loaded on this host; the run below assumes not"
rc=0
out=$(LD_LIBRARY_PATH=$p/lib "$dest/app" 2>&1) || rc=$?
echo "$out"
[[ $rc -ne 0 && $out == *"urma_init failed"* ]] || fail "the sample did not reach urma_init"

if [ -n "$kdir" ]; then
	rel=$(ub_kernel_release "$kdir")
	echo "== make modules_install for $rel"
	mk modules_install KDIR="$kdir" KMOD_BUILD="$kmod" > "$dest.log" 2>&1 ||
		{ cat "$dest.log"; fail "modules_install"; }
	rm -f "$dest.log"
	md=$dest/lib/modules/$rel
	for m in ubcore/ubcore udma/udma uburma/uburma; do
		[ -f "$md/extra/ub-urma/$m.ko" ] || fail "$m.ko not installed"
	done
	grep -q '^extra/ub-urma/udma/udma.ko: extra/ub-urma/ubcore/ubcore.ko' "$md/modules.dep" ||
		fail "depmod: udma does not depend on ubcore"
	mk modules_uninstall KDIR="$kdir" > /dev/null
	[ ! -e "$md/extra/ub-urma" ] || fail "modules left after modules_uninstall"
	! grep -q ub-urma "$md/modules.dep" || fail "modules.dep still names them"
fi

echo "== make userspace_uninstall"
mk userspace_uninstall > /dev/null
left=$(cd "$dest" && find . -type f ! -name app ! -path './lib/modules/*')
[ -z "$left" ] || fail "left after uninstall: $left"
[ ! -e "$p/include/ub" ] || fail "include/ub left after uninstall"
echo "install test: ok"
