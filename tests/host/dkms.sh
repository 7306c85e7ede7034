#!/usr/bin/env bash
# Host test of the DKMS packaging against Debian's stock kernel: "make dkms
# DESTDIR=..." lays out /usr/src/ub-urma-<version> (module sources and
# dkms.conf); dkms add, build and install it for the stock kernel's release,
# with the DKMS, source and install trees in the build directory (so the
# host's /usr/src, /var/lib/dkms and /lib/modules stay as they are; dkms
# keeps its signing key in /var/lib/dkms as always). The stock-kernel guest
# then loads the modules DKMS installed, binds udma to lo and lists the
# device through liburma. Last, dkms remove takes the modules out again.
#   usage: dkms.sh [--build | --probe] OUTDIR
# --build: the DKMS part only (make check runs it beside its guests);
# --probe OUTDIR: the guest and the removal, after a --build.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
build=1 probe=1
case ${1:-} in
--build) probe= ; shift ;;
--probe) build= ; shift ;;
esac
[[ ($# -eq 1 && -n $probe) || ($# -eq 0 && -z $probe) ]] ||
	ub_die "usage: ${0##*/} [--build | --probe] OUTDIR"
out=${1:-}
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v dkms > /dev/null || fail "dkms is not installed (scripts/deps.sh)"

kdir=$(ub_stock_kdir)
rel=$(ub_kernel_release "$kdir")
ver=$(sed -n 's/^project.* VERSION \([0-9.]*\).*/\1/p' "$UB_TOP/CMakeLists.txt")
t=$UB_TOP/build/dkms-test
trees=(--sourcetree "$t/root/usr/src" --dkmstree "$t/dkms" --installtree "$t/mods")
mods=$t/mods/$rel/updates/dkms

dkms_build() {
	rm -rf "$t"
	mkdir -p "$t/dkms" "$t/mods/$rel"
	echo "== make dkms DESTDIR=$t/root"
	make -s -C "$UB_TOP" dkms DESTDIR="$t/root"
	src=$t/root/usr/src/ub-urma-$ver
	grep -qx "PACKAGE_VERSION=\"$ver\"" "$src/dkms.conf" || fail "dkms.conf has no version $ver"
	grep -qx 'AUTOINSTALL="yes"' "$src/dkms.conf" || fail "dkms.conf does not rebuild on kernel updates"

	echo "== dkms add, build, install ub-urma/$ver for $rel"
	dkms add "ub-urma/$ver" "${trees[@]}"
	dkms build "ub-urma/$ver" -k "$rel" --kernelsourcedir "$kdir" "${trees[@]}" > "$t/build.log" 2>&1 ||
		{ tail -30 "$t/build.log"; fail "dkms build"; }
	dkms install "ub-urma/$ver" -k "$rel" --kernelsourcedir "$kdir" --no-depmod "${trees[@]}" > "$t/install.log" 2>&1 ||
		{ tail -30 "$t/install.log"; fail "dkms install"; }
	status=$(dkms status "ub-urma/$ver" "${trees[@]}")
	echo "$status"
	[[ $status == *"ub-urma/$ver, $rel, x86_64: installed"* ]] || fail "dkms status is not installed"
	for m in ubcore udma uburma ipourma ums; do
		[ -f "$mods/$m.ko" ] || fail "$m.ko not installed by dkms"
	done
}

dkms_probe() {
	[ -d "$mods" ] || fail "nothing built: run dkms.sh --build first"
	echo "== the stock kernel loads what DKMS installed"
	echo "$mods" > "$t/modules.path"
	cat > "$t/probe.sh" <<'PROBE'
#!/bin/bash
# In the stock-kernel guest, from the checkout's top.
set -eu
read -r mods < build/dkms-test/modules.path
echo "kernel $(uname -r)"
insmod "$mods/ubcore.ko"
insmod "$mods/udma.ko" netdev=lo
insmod "$mods/uburma.ko"
for _ in $(seq 50); do [ -e /sys/class/ubcore/udma0/eids/eid0 ] && break; sleep 0.1; done
[ -c /dev/uburma/udma0 ] && echo "char device /dev/uburma/udma0"
build/examples/urma_devices
rmmod uburma udma ubcore
echo "unloaded"
PROBE
	"$UB_TOP/scripts/guest-run.sh" --kernel stock --timeout 600 "$out" "$t/probe.sh" ||
		fail "guest run (console: $out/console.log)"
	log=$(cat "$out/script.log")
	echo "$log"
	[ "$(cat "$out/script.rc")" = 0 ] || fail "probe exit $(cat "$out/script.rc")"
	[[ $log == *"kernel $rel"* ]] || fail "the guest did not run $rel"
	[[ $log == *"char device /dev/uburma/udma0"* ]] || fail "no /dev/uburma/udma0"
	[[ $log == *"udma0 (/"* ]] || fail "liburma did not list udma0"
	[[ $log == *unloaded* ]] || fail "the modules did not unload"

	echo "== dkms remove"
	dkms remove "ub-urma/$ver" --all "${trees[@]}" > /dev/null
	for m in ubcore udma uburma ipourma ums; do
		[ ! -e "$mods/$m.ko" ] || fail "$m.ko left after dkms remove"
	done
	rm -rf "$t"
}

[[ -z $build ]] || dkms_build
[[ -z $probe ]] || dkms_probe
echo "dkms test: ok"
