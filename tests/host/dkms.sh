#!/usr/bin/env bash
# Host test of the DKMS packaging against Debian's stock kernel: "make dkms
# DESTDIR=..." lays out /usr/src/ub-urma-<version> (module sources and
# dkms.conf); dkms add, build and install it for the stock kernel's release,
# with the DKMS, source and install trees of its own (so the
# host's /usr/src, /var/lib/dkms and /lib/modules stay as they are; dkms
# keeps its signing key in /var/lib/dkms as always). The stock-kernel guest
# then loads the modules DKMS installed, binds udma to lo and lists the
# device through liburma. A kernel update (the test kernel as the new one)
# has Debian's postinst hook rebuild them for it. Last, dkms remove takes
# the modules of both kernels out again.
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
# DKMS builds in its tree (<dkms tree>/ub-urma/<version>/build), a path
# that the compiler's input names: so that another checkout's make check
# (a fresh clone) compiles nothing that has not changed, for either
# kernel, the tree is at a fixed path in UB_CACHE and the kernels' gcc
# is ccache's when it is installed (UB_CCACHE=0: not); one checkout's
# DKMS test at a time (flock).
dtree=$UB_CACHE/dkms-tree
mkdir -p "$UB_CACHE"
exec 9> "$dtree.lock"
flock 9
if [[ ${UB_CCACHE:-1} != 0 && -d /usr/lib/ccache ]]; then
	export PATH=/usr/lib/ccache:$PATH
fi
trees=(--sourcetree "$t/root/usr/src" --dkmstree "$dtree" --installtree "$t/mods")
mods=$t/mods/$rel/updates/dkms
# the modules of dist/dkms.conf.in
dkms_modules=(ubcore udma uburma ipourma ums)

dkms_build() {
	rm -rf "$t" "$dtree"
	mkdir -p "$dtree" "$t/mods/$rel"
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
	for m in "${dkms_modules[@]}"; do
		[ -f "$mods/$m.ko" ] || fail "$m.ko not installed by dkms"
	done
	dkms_kernel_update
}

# A kernel update: a new kernel's package runs the kernel's postinst hooks,
# Debian's /etc/kernel/postinst.d/dkms among them, which has DKMS build and
# install every AUTOINSTALL module for the new release. The hook runs as
# it is, for the test kernel as the new kernel, in a mount namespace of
# its own where the host's trees are out of reach: /lib/modules is a
# tmpfs holding only the new release's build link (what its headers
# package installs), and a framework.conf.d file points DKMS at this
# test's trees.
dkms_kernel_update() {
	local new_kdir new_rel new_mods status
	new_kdir=$("$UB_TOP/scripts/test-kernel.sh")
	new_rel=$(ub_kernel_release "$new_kdir")
	new_mods=$t/mods/$new_rel/updates/dkms
	[ "$new_rel" != "$rel" ] || fail "the test kernel's release is the stock one's ($rel)"
	# the new kernel's package has made its modules' directory
	mkdir -p "$t/framework.conf.d" "$t/mods/$new_rel"
	printf '%s\n' "source_tree=$t/root/usr/src" "dkms_tree=$dtree" \
		"install_tree=$t/mods" > "$t/framework.conf.d/ub-urma-test.conf"
	echo "== a kernel update to $new_rel: /etc/kernel/postinst.d/dkms $new_rel"
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private bash -euc '
		mount -t tmpfs ub-urma-test /lib/modules
		mkdir -p "/lib/modules/$2"
		ln -s "$3" "/lib/modules/$2/build"
		mount --bind "$1/framework.conf.d" /etc/dkms/framework.conf.d
		/etc/kernel/postinst.d/dkms "$2"' sh "$t" "$new_rel" "$new_kdir" \
		> "$t/update.log" 2>&1 || { tail -30 "$t/update.log"; fail "the postinst hook"; }
	status=$(dkms status "ub-urma/$ver" "${trees[@]}")
	echo "$status"
	[[ $status == *"ub-urma/$ver, $new_rel, x86_64: installed"* ]] ||
		{ tail -30 "$t/update.log"; fail "the hook did not install for $new_rel"; }
	[[ $status == *"ub-urma/$ver, $rel, x86_64: installed"* ]] ||
		fail "the modules of $rel are gone"
	for m in "${dkms_modules[@]}"; do
		[ -f "$new_mods/$m.ko" ] || fail "$m.ko not installed for $new_rel"
		[[ $(modinfo -F vermagic "$new_mods/$m.ko") == "$new_rel "* ]] ||
			fail "$m.ko of $new_rel is not built for it"
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
	for m in "${dkms_modules[@]}"; do
		for f in "$t"/mods/*/updates/dkms/"$m".ko; do
			[ ! -e "$f" ] || fail "$f left after dkms remove"
		done
	done
	rm -rf "$t"
}

[[ -z $build ]] || dkms_build
[[ -z $probe ]] || dkms_probe
echo "dkms test: ok"
