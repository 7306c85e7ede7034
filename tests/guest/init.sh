#!/bin/bash
# PID 1 of the test guest. The root is the host's file system over 9p,
# read-only; the results share is mounted at /run/out. Runs $ub_script (set on
# the kernel command line), then records what the run needs judging: the
# script's log and exit status, dmesg, kmemleak and lockdep state. Powers off.
#
# Under the test kernel an exec of a dynamically linked program costs seconds
# (tests/guest/lib.sh): the set-up uses the static busybox and builtins.
# shellcheck disable=SC2154 # ub_top, ub_script, ub_modroot: from the kernel command line
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp LANG=C
bb=/bin/busybox

$bb mount -t proc proc /proc
$bb mount -t sysfs sys /sys
$bb mount -t devtmpfs dev /dev
$bb mkdir -p /dev/pts /dev/shm
# What udev would make: bash's process substitution needs /dev/fd.
$bb ln -sfn /proc/self/fd /dev/fd
$bb mount -t devpts devpts /dev/pts
$bb mount -t tmpfs shm /dev/shm
$bb mount -t tmpfs run /run
# The guest's /tmp is its own tmpfs, which would hide the host's /tmp: a
# checkout, a cache or a script under it (a fresh clone in /tmp) is bound
# back at its own path from the host's /tmp, kept at /run/host-tmp.
$bb mkdir -p /run/host-tmp
$bb mount -o bind /tmp /run/host-tmp
$bb mount -t tmpfs tmp /tmp
bound=()
# Shortest first: a path inside one bound already needs nothing more.
while read -r _ p; do
	for b in "${bound[@]}"; do
		[[ $p == "$b" || $p == "$b"/* ]] && continue 2
	done
	$bb mkdir -p "$p"
	if $bb mount -o bind "/run/host-tmp/${p#/tmp/}" "$p"; then
		bound+=("$p")
	else
		echo "ub-guest: cannot bind the host's $p" > /dev/kmsg
	fi
done < <(for p in "$ub_top" "$ub_modroot" "${ub_script%/*}" "${UB_KMOD:-}"; do
	[[ $p == /tmp/* ]] && echo "${#p} $p"
done | $bb sort -n)
$bb mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
$bb mkdir -p /run/out
$bb mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 out /run/out
OUT=/run/out
# Guests that share the cases out (scripts/guest-run.sh's UB_GUEST_CLAIMS):
# uncached 9p, so that creating a claim is one create on the host.
if [[ -n ${ub_claims:-} ]]; then
	$bb mkdir -p /run/claims
	$bb mount -t 9p -o trans=virtio,version=9p2000.L claims /run/claims &&
		export UB_CLAIMS=/run/claims
fi

# Hide the host's /lib/modules behind the guest kernel's own modules.
read -r rel < /proc/sys/kernel/osrelease
$bb mount -t tmpfs mods /lib/modules
$bb mkdir -p "/lib/modules/$rel"
if [ -d "$ub_modroot/lib/modules/$rel" ]; then
	$bb mount -o bind "$ub_modroot/lib/modules/$rel" "/lib/modules/$rel"
fi
# The kernel's modules that udma.ko needs (its UBoE sockets); the tests load
# the stack with insmod, which, unlike modprobe, does not load them itself.
$bb modprobe -a udp_tunnel ip6_udp_tunnel ||
	echo "ub-guest: cannot load udp_tunnel, ip6_udp_tunnel" > /dev/kmsg

echo ubguest > /proc/sys/kernel/hostname
# ip link set lo up, as lib.sh's ub_link_up does it: flags |= IFF_UP.
read -r flags < /sys/class/net/lo/flags
printf '%#x\n' $((flags | 1)) > /sys/class/net/lo/flags
kmemleak=/sys/kernel/debug/kmemleak

echo "ub-guest: running $ub_script" > /dev/kmsg
(cd "$ub_top" && bash "$ub_script" "$OUT") > $OUT/script.log 2>&1
echo $? > $OUT/script.rc
read -r done_at _ < /proc/uptime
echo "ub-guest: script finished" > /dev/kmsg

if [ -w $kmemleak ]; then
	# kmemleak reports an object only when a scan finds it unreferenced
	# and unchanged since the scan before (checksum), and at least 5 s
	# old at the start of the scan (MSECS_MIN_AGE of mm/kmemleak.c): two
	# scans, the second starting 6 s or more after the script finished.
	# The kernel stacks of dead tasks wait in a per-CPU cache (2 a CPU,
	# NR_CACHED_STACKS of kernel/fork.c) with their old contents, which
	# kmemleak scans like any vmalloc area: a pointer that the last cases
	# left on a stack would hide their leak. A fork takes a cached stack
	# and zeroes it: three forks at once on each CPU empty its cache.
	for cpu in /sys/devices/system/cpu/cpu[0-9]*; do
		$bb taskset -c "${cpu##*/cpu}" $bb sh -c 'sleep 0.2 & sleep 0.2 & sleep 0.2 & wait'
	done
	echo "ub-guest: kmemleak scan" > /dev/kmsg
	echo scan > $kmemleak
	read -r now _ < /proc/uptime
	wait_cs=$((10#${done_at/./} + 600 - 10#${now/./}))
	if ((wait_cs > 0)); then
		printf -v wait_s '%d.%02d' $((wait_cs / 100)) $((wait_cs % 100))
		exec {never}<> <(:)
		read -r -t "$wait_s" -u "$never" _ || :
	fi
	echo "ub-guest: kmemleak scan 2" > /dev/kmsg
	echo scan > $kmemleak
	# busybox cat, not bash's read: that seeks back after each line, and
	# each seek makes kmemleak's seq_file walk all objects again.
	$bb cat $kmemleak > $OUT/kmemleak.txt
fi
if [ -r /proc/lockdep_stats ]; then
	$bb grep -E '^ *debug_locks:' /proc/lockdep_stats > $OUT/lockdep.txt
fi
dmesg > $OUT/dmesg.txt
$bb sync
echo "ub-guest: done" > /dev/kmsg
$bb reboot -f
