#!/usr/bin/env bash
# Boot a guest kernel in QEMU (TCG) with the host root over 9p, run a script
# in it, and collect the results in OUTDIR: script.log, script.rc, dmesg.txt,
# kmemleak.txt, lockdep.txt (from the guest) and console.log, and "timeout"
# if the guest had to be killed.
#   usage: guest-run.sh [--kernel test|stock] [--timeout SECONDS] OUTDIR SCRIPT
# SCRIPT runs in the guest as "bash SCRIPT /run/out" from the repo top, with
# UB_KMOD (the module build for that kernel) in its environment. The guest's
# /tmp is its own tmpfs, with the host paths under /tmp it needs (UB_TOP,
# SCRIPT, UB_KMOD, the modules) bound back (a checkout in /tmp works).
# Environment: UB_GUEST_TIMEOUT (s), UB_GUEST_MEM (MiB), UB_QEMU_CPU,
# UB_KERNEL_EXTRA (more kernel command line), UB_ONLY (a shell pattern: the
# in-guest test runner runs only the cases whose names match; for development,
# a filtered run is never a passing "make check"), UB_CHECK_LONG (set by
# "make check-long": the fuzzers and fault injection run long),
# UB_FUZZ_SEED (the fuzzers' seed, to replay a run), UB_GUEST_NET (QEMU's
# network options, default "-nic none"; scripts/pair-run.sh gives each guest
# of a pair its link), UB_GUEST_SMP (vCPUs, default 2), UB_GUEST_CLAIMS (a
# host directory shared by guests that run side by side and share the cases
# out: the guest sees it as UB_CLAIMS; tests/guest/check-guest.sh). OUTDIR/
# qemu.pid holds the PID that, signalled, stops the guest (scripts/pair-run.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=test
timeout=${UB_GUEST_TIMEOUT:-1800}
usage() {
	sed -n '2,19s/^# \{0,1\}//p' "$0"
	exit "${1:-0}"
}
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	-h|--help) usage ;;
	--) shift; break ;;
	-*) ub_log "unknown option $1"; usage 2 ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || usage 2
out=$1 script=$(realpath "$2")

case "$kernel" in
test)
	kdir=$("$UB_TOP/scripts/test-kernel.sh")
	image=$kdir/arch/x86/boot/bzImage
	initrd=()
	modroot=$kdir/modroot
	root="root=hostroot rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose ro init=$UB_TOP/tests/guest/init.sh"
	;;
stock)
	kdir=$(ub_stock_kdir)
	sdir=$("$UB_TOP/scripts/stock-kernel.sh")
	image=$sdir/vmlinuz
	initrd=(-initrd "$sdir/initrd.img")
	modroot=$sdir/root
	root="ub_init=$UB_TOP/tests/guest/init.sh"
	;;
*) ub_die "--kernel must be test or stock" ;;
esac

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
kmod=$UB_TOP/build/kmod/$kernel

# pci=noacpi: under TCG the debug kernel's ACPI interpreter hits two 30 s AML
# loop timeouts evaluating PCI routing (_PRT); ACPI itself stays, so that the
# timers (HPET, PM timer) can calibrate the TSC. no_timer_check: a TCG guest
# on a busy host fails the APIC timer check and then hangs at boot.
# clocksource=tsc tsc=reliable: without them the guest picks the HPET, whose
# every read QEMU emulates, and clock_gettime() falls back from the vDSO to a
# syscall that reads it: 10% of a latency benchmark's samples sat in
# read_hpet, and boot took 3 times as long. TCG's TSC follows the host clock.
#
# tsc_early_khz: the guest's TSC is the host's (TCG reads it with rdtsc), so
# its rate is the host's, and the guest need not measure it against the
# emulated PIT and HPET. On a loaded host that measurement fails: stuck at
# "Unable to calibrate against PIT" (a silent hang), or a TSC of 41 MHz
# taken for the 2096 MHz one, whose guest clock then ran 50 times too fast
# (RCU stalls, every timeout short). lpj likewise (the delay loop counts
# TSC cycles: the rate over the kernel's HZ) spares the delay calibration,
# which went on for over a minute at load 13. UB_GUEST_TSC_KHZ overrides
# the rate; neither is passed when the host's rate is not known
# (ub_host_tsc_khz).
append="console=ttyS0 $root panic=-1 loglevel=6"
append+=" ${UB_GUEST_BOOT_OPTS-pci=noacpi no_timer_check clocksource=tsc tsc=reliable}"
tsc_khz=${UB_GUEST_TSC_KHZ:-$(ub_host_tsc_khz)}
hz=$(sed -n 's/^CONFIG_HZ=//p' "$kdir/.config" 2>/dev/null || :)
if [ -n "$tsc_khz" ]; then
	append+=" tsc_early_khz=$tsc_khz"
	[ -z "$hz" ] || append+=" lpj=$((tsc_khz * 1000 / hz))"
fi
append+=" ${UB_KERNEL_EXTRA:-}"
append+=" ub_top=$UB_TOP ub_script=$script ub_modroot=$modroot UB_KMOD=$kmod"
[ -z "${UB_ONLY:-}" ] || append+=" UB_ONLY=$UB_ONLY"
[ -z "${UB_CHECK_LONG:-}" ] || append+=" UB_CHECK_LONG=1"
[ -z "${UB_FUZZ_SEED:-}" ] || append+=" UB_FUZZ_SEED=$UB_FUZZ_SEED"
claims=()
if [ -n "${UB_GUEST_CLAIMS:-}" ]; then
	append+=" ub_claims=1"
	claims=(-virtfs "local,path=$(realpath "$UB_GUEST_CLAIMS"),mount_tag=claims,security_model=none")
fi

# 1024 MiB: kmemleak scans all of RAM's struct pages and KASAN shadow, so a
# scan takes about half as long as with 2048 MiB (15 s instead of 25 s); the
# integration tests need room to pin their segments (64 MiB).
# shellcheck disable=SC2054,SC2206 # the commas are QEMU's; UB_GUEST_NET splits into words
qemu=(qemu-system-x86_64 -accel tcg -cpu "${UB_QEMU_CPU:-qemu64}" -m "${UB_GUEST_MEM:-1024}"
	-smp "${UB_GUEST_SMP:-2}"
	-kernel "$image" "${initrd[@]}" -append "$append"
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap
	-virtfs "local,path=$out,mount_tag=out,security_model=none" "${claims[@]}"
	${UB_GUEST_NET:--nic none} -nographic -no-reboot -monitor none -serial stdio)

# Now and then (2 boots in 12 with the test kernel, loaded host or not; 3 in
# 8 on one busy afternoon) the TCG guest stops for good early in its boot,
# before its init: the console's last line "ACPI: setting ELCR" at
# loglevel 6; with ignore_loglevel, always "Running RCU-tasks wait API self
# tests" (PROVE_RCU's synchronize_rcu_tasks(), which waits for timer
# ticks). QEMU's monitor showed the one vCPU halted in the idle loop with
# interrupts on, its LAPIC timer periodic and unmasked, and no interrupt
# pending in the LAPIC, the IOAPIC or the PIC: the ticks stop coming, a
# fault of the emulation that no boot option here avoided (noapictimer
# did not). A guest whose console stays silent for UB_GUEST_BOOT_STALL
# seconds (default 25) before its init script starts (init.sh's
# "ub-guest: running") is killed and booted again, up to 3 times in all.
# A silence, not a total: on a loaded host (other guests, builds) a
# healthy boot takes minutes (7 to 15 s on a quiet host with the TSC
# clocksource), with silences of over a minute at load 13; a deadline of
# 90 s on the total killed such boots. At make check's load (its guests
# on the 2 cores) the longest silence of a healthy boot is about 8 s (the
# initcalls after that self test, at loglevel 6); a stall lasts for ever.
# A stalled guest is also idle (its one vCPU halted), while a healthy one
# starved by other guests and builds on the host is not: with a third
# guest booting beside make check's two, healthy boots were silent for
# over 25 s before the kernel's first line. So a silence counts as a stall
# only while QEMU's threads wanted a CPU (ran, or waited on a run queue:
# schedstat) for under a quarter of it, or once it lasts
# UB_GUEST_BOOT_STALL_MAX seconds (default 150) whatever QEMU did.
boot_stall=${UB_GUEST_BOOT_STALL:-25}
boot_stall_max=${UB_GUEST_BOOT_STALL_MAX:-150}
attempts=3

# qemu_busy_ms PID: how long the threads of the QEMU that PID (its
# timeout(1)) runs have run or waited to run, in ms, in $busy.
qemu_busy_ms() {
	local child f run wait
	busy=0
	read -r child _ < "/proc/$1/task/$1/children" 2>/dev/null || return 0
	for f in /proc/"$child"/task/*/schedstat; do
		read -r run wait _ < "$f" 2>/dev/null || continue
		busy=$((busy + (run + wait) / 1000000))
	done
}
rc=0
for ((attempt = 1; attempt <= attempts; attempt++)); do
	: > "$out/console.log"
	timeout --foreground -k 10 "$timeout" "${qemu[@]}" \
		< /dev/null > "$out/console.log" 2>&1 &
	pid=$!
	echo $pid > "$out/qemu.pid"
	silent=0 size=0 hung='' busy=0 quiet_from=0
	while kill -0 $pid 2>/dev/null &&
		! grep -q 'ub-guest: running' "$out/console.log"; do
		now=$(stat -c %s "$out/console.log")
		if [ "$now" -ne "$size" ]; then
			qemu_busy_ms $pid
			size=$now silent=0 quiet_from=$busy
		elif [ $silent -ge "$boot_stall" ]; then
			qemu_busy_ms $pid
			if [ $((busy - quiet_from)) -lt $((silent * 250)) ] ||
			   [ $silent -ge "$boot_stall_max" ]; then
				hung=1
				kill $pid 2>/dev/null || :
				break
			fi
		fi
		sleep 1
		silent=$((silent + 1))
	done
	rc=0
	wait $pid || rc=$?
	if [ -z "$hung" ] || [ $attempt -eq $attempts ]; then
		break
	fi
	mv "$out/console.log" "$out/console.hung-boot$attempt.log"
	ub_log "guest hung at boot (console.hung-boot$attempt.log: silent for" \
		"${silent} s, QEMU busy $((busy - quiet_from)) ms of it);" \
		"booting it again"
done
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	touch "$out/timeout"
	ub_log "guest timed out after ${timeout}s (console: $out/console.log)"
	exit 1
fi
[ -e "$out/script.rc" ] || {
	ub_log "guest stopped before its script finished (console: $out/console.log)"
	exit 1
}
exit 0
