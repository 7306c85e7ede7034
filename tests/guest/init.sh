#!/bin/bash
# PID 1 of the test guest. The root is the host's file system over 9p,
# read-only; the results share is mounted at /run/out. Runs $ub_script (set on
# the kernel command line), then records what the run needs judging: the
# script's log and exit status, dmesg, kmemleak and lockdep state. Powers off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp LANG=C

mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs shm /dev/shm
mount -t tmpfs tmp /tmp
mount -t tmpfs run /run
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mkdir -p /run/out
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 out /run/out
OUT=/run/out

# Hide the host's /lib/modules behind the guest kernel's own modules.
rel=$(uname -r)
mount -t tmpfs mods /lib/modules
mkdir -p "/lib/modules/$rel"
if [ -d "$ub_modroot/lib/modules/$rel" ]; then
	mount --bind "$ub_modroot/lib/modules/$rel" "/lib/modules/$rel"
fi

hostname ubguest
ip link set lo up
kmemleak=/sys/kernel/debug/kmemleak

echo "ub-guest: running $ub_script" > /dev/kmsg
(cd "$ub_top" && bash "$ub_script" "$OUT") > $OUT/script.log 2>&1
echo $? > $OUT/script.rc
echo "ub-guest: script finished" > /dev/kmsg

if [ -w $kmemleak ]; then
	# An object is reported only once it has been unreferenced through
	# two scans some seconds apart.
	echo "ub-guest: kmemleak scan" > /dev/kmsg
	echo scan > $kmemleak
	echo "ub-guest: kmemleak scan 2" > /dev/kmsg
	sleep 6
	echo scan > $kmemleak
	cat $kmemleak > $OUT/kmemleak.txt
fi
if [ -r /proc/lockdep_stats ]; then
	grep -E '^ *debug_locks:' /proc/lockdep_stats > $OUT/lockdep.txt
fi
dmesg > $OUT/dmesg.txt
sync
echo "ub-guest: done" > /dev/kmsg
/bin/busybox reboot -f
