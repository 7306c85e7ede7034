#!/bin/bash
# The stack as "make install" leaves it on a machine, met as an
# administrator and a user meet it. make check stages the install in
# build/install-root (scripts/install-root.sh); its directories are mounted
# at their places over the guest's read-only root: /lib/modules/<release>
# (the kernel's modules and ours, with depmod's index), /usr/local, and
# writable copies of /etc/modprobe.d and /etc/udev/rules.d, and the
# loader's cache that make install's ldconfig writes. Then:
# - systemd-udevd runs with the installed rules and the host's;
# - the administrator names lo in /etc/modprobe.d/ub-urma.conf: a plain
#   "modprobe udma" binds it and loads uburma (the softdep);
# - /dev/uburma/udma0 has mode 0666 (uburma's devnode), and udevd sets it
#   again from the rule after a chmod 600 (udevadm trigger);
# - a sample application built with "pkg-config --cflags --libs liburma"
#   against /usr/local lists udma0, run as user nobody;
# - make demo's URMA exchange with the installed urma_perftest;
# - an administrator's rule in /etc/udev/rules.d narrows the node to 0660,
#   group users: then another user cannot open it.
set -eu
. "$UB_TOP/tests/guest/lib.sh"
. "$UB_TOP/tests/guest/demo-exchange.sh"
bb=$UB_BUSYBOX
root=$UB_TOP/build/install-root
read -r rel < /proc/sys/kernel/osrelease
[[ -d $root/lib/modules/$rel/extra ]] ||
	ub_fail "no install for $rel in $root: run scripts/install-root.sh first (make check does)"

t0=${EPOCHREALTIME/[.,]/}
# step TEXT: what the case does now, with the time since its start
step() {
	local us=$((${EPOCHREALTIME/[.,]/} - t0))
	printf '[%d.%d s] %s\n' $((us / 1000000)) $((us / 100000 % 10)) "$*"
}

mounts=() udevd=
cleanup() {
	local i m=()
	[[ -z $udevd ]] || { kill "$udevd"; wait "$udevd" || :; }
	ub_unload_stack || :
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		m+=("${mounts[i]}")
	done
	((${#m[@]} == 0)) || $bb umount "${m[@]}"
}
trap cleanup EXIT
# on DIR FROM: mount FROM (a directory, or "tmpfs") on DIR until the end
on() {
	if [[ $2 == tmpfs ]]; then
		$bb mount -t tmpfs inst "$1"
	else
		$bb mount -o bind "$2" "$1"
	fi
	mounts+=("$1")
}
# stat_node: mode and group of /dev/uburma/udma0, in NODE ("666 root")
stat_node() {
	NODE=$($bb stat -c '%a %G' /dev/uburma/udma0)
}
# settle_trigger: udevd handles a "change" of the uburma nodes, as after a
# boot or a rules change (udevadm trigger), and the case waits for it.
settle_trigger() {
	udevadm trigger --action=change --subsystem-match=uburma --settle
}
# lists_as USER: whether APP, run as USER, lists udma0 (its output in
# OUT): it opens /dev/uburma/udma0 to query the device.
lists_as() {
	OUT=$($bb su -s "$app" "$1" 2>&1) || return 1
	[[ $OUT == *"udma0 (/sys/class/ubcore/udma0)"*"max_jfc 1024"* ]]
}

step "the install mounted at its places"
on "/lib/modules/$rel" "$root/lib/modules/$rel"
on /usr/local "$root/usr/local"
for d in /etc/modprobe.d /etc/udev/rules.d; do
	on "$d" tmpfs
done
$bb cp "$root/etc/modprobe.d/ub-urma.conf" /etc/modprobe.d/
$bb cp "$root/etc/udev/rules.d/90-uburma.rules" /etc/udev/rules.d/
on /etc/ld.so.cache "$root/etc/ld.so.cache"

step "systemd-udevd; modprobe udma"
/lib/systemd/systemd-udevd &
udevd=$!
echo "options udma netdev=lo" >> /etc/modprobe.d/ub-urma.conf
modprobe udma
ub_module_loaded uburma || ub_fail "modprobe udma did not load uburma (softdep)"
ub_wait_eid udma0
expect_devs udma0
expect_attr udma0 netdev lo
stat_node
[[ $NODE == "666 root" ]] || ub_fail "/dev/uburma/udma0 is $NODE, want 666 root (uburma's devnode)"

step "udevd sets the rule's mode again after a chmod 600"
# A uevent sent before udevd listens is lost: until it answers on its
# control socket (its event loop runs; it listens).
for ((i = 0; i < 100; i++)); do
	[[ -S /run/udev/control ]] && break
	ub_sleep 0.1
done
udevadm control --ping
$bb chmod 600 /dev/uburma/udma0
settle_trigger
stat_node
[[ $NODE == "666 root" ]] || ub_fail "udevd left /dev/uburma/udma0 $NODE, not 666 root (90-uburma.rules)"

step "a sample application through pkg-config"
read -ra flags < <(pkg-config --cflags --libs liburma)
echo "pkg-config --cflags --libs liburma: ${flags[*]}"
[[ ${flags[*]} == "-I/usr/local/include/ub/umdk/urma -L/usr/local/lib -lurma" ]] ||
	ub_fail "pkg-config: ${flags[*]}"
app=/tmp/urma_devices
cc -Wall -Wextra -Werror -o "$app" "$UB_TOP/examples/urma_devices.c" "${flags[@]}"
step "the application as user nobody"
lists_as nobody || ub_fail "nobody could not list udma0: $OUT"
echo "$OUT"

step "the demo's exchange with the installed urma_perftest"
demo_local_exchange /usr/local/bin/urma_perftest 256

step "an administrator's rule: 0660, group users"
echo 'SUBSYSTEM=="uburma", GROUP="users", MODE="0660"' > /etc/udev/rules.d/91-uburma-local.rules
udevadm control --reload
settle_trigger
stat_node
[[ $NODE == "660 users" ]] || ub_fail "/dev/uburma/udma0 is $NODE, want 660 users"
! lists_as nobody || ub_fail "nobody listed udma0 through a node of mode 660 group users"
[[ $OUT == *"urma_query_device(udma0) failed"* ]] || ub_fail "nobody: $OUT"
echo "nobody, not in group users: $OUT"

step "done"
