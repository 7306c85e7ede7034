# Common settings for the project's scripts; sourced, never run.
# shellcheck shell=bash

UB_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Caches live outside the checkout so that a fresh clone reuses them.
UB_CACHE=${UB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ub-urma}
UB_KSRC_PKG=linux-source-6.1

ub_log() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
ub_die() { ub_log "error: $*"; exit 1; }

# ub_host_tsc_khz: the host's TSC rate in kHz, if it is constant and known:
# the host kernel's own calibration from its log, else /proc/cpuinfo's
# "cpu MHz" where the CPU says its TSC rate is its known frequency
# (tsc_known_freq, as a VM's vCPUs do). Prints nothing if unknown.
ub_host_tsc_khz() {
	local mhz
	grep -qw constant_tsc /proc/cpuinfo || return 0
	mhz=$(dmesg 2>/dev/null | sed -n \
		-e 's/.*Refined TSC clocksource calibration: \([0-9.]*\) MHz.*/\1/p' \
		-e 's/.*tsc: Detected \([0-9.]*\) MHz processor.*/\1/p' | tail -1)
	if [ -z "$mhz" ] && grep -qw tsc_known_freq /proc/cpuinfo; then
		mhz=$(sed -n 's/^cpu MHz[[:space:]]*: \([0-9.]*\)/\1/p' /proc/cpuinfo | head -1)
	fi
	[ -z "$mhz" ] || awk -v m="$mhz" 'BEGIN { printf "%d\n", m * 1000 }'
}

ub_pkg_version() {
	dpkg-query -W -f='${Version}' "$1" 2>/dev/null
}

# Headers of Debian's stock kernel, as pulled in by linux-headers-amd64.
ub_stock_kdir() {
	local abi
	abi=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
		grep -o 'linux-headers-[0-9][^ ,]*-amd64' | head -1)
	[ -n "$abi" ] || ub_die "linux-headers-amd64 is not installed (scripts/deps.sh)"
	echo "/usr/src/$abi"
}

# ub_build_stock_modules: the stack's modules for the stock kernel into
# build/kmod/stock (make demo, bench, bench-local); dies with the log's end.
ub_build_stock_modules() {
	mkdir -p "$UB_TOP/build"
	"$UB_TOP/scripts/build-modules.sh" "$(ub_stock_kdir)" "$UB_TOP/build/kmod/stock" \
		> "$UB_TOP/build/kmod-stock.log" 2>&1 ||
		{ tail -20 "$UB_TOP/build/kmod-stock.log"; ub_die "module build failed"; }
}

# ub_bench_build TARGET...: what a benchmark or the demo on the stock
# kernel needs (make bench's scripts, make demo): the dependencies, the
# modules for that kernel and the userspace TARGETs.
ub_bench_build() {
	"$UB_TOP/scripts/deps.sh"
	ub_log "building the modules for the stock kernel and the tools"
	ub_build_stock_modules
	cmake -S "$UB_TOP" -B "$UB_TOP/build" > /dev/null
	cmake --build "$UB_TOP/build" -j"$(nproc)" --target "$@" > /dev/null
}

# ub_stock_pair OUT SCRIPT LIMIT: SCRIPT (tests/pair/NAME.sh) in two
# stock-kernel guests joined by one QEMU link (scripts/pair-run.sh),
# each guest's whole run at most LIMIT seconds; its messages in OUT.log.
# 1024 MiB a guest: the bandwidth runs pin their buffers, the stock kernel
# has no kmemleak or KASAN to feed. 2 vCPUs a guest: with one, a latency
# test's busy-polling client and the kernel's receive work (udma's works,
# rxe's tasklets) take turns by the scheduler tick. The pair's judgement
# (scripts/summarize.py) is for make check; here the script's own result
# counts: returns 1, with the tail of its log, unless it passed in both.
ub_stock_pair() {
	local out=$1 script=$2 limit=$3 name role rc=0
	name=$(basename "$script" .sh)
	ub_log "booting two stock-kernel guests (takes some minutes under TCG)"
	UB_PAIR_TIMEOUT=$limit UB_PAIR_CASE_TIMEOUT=$((limit - 300)) \
		UB_PAIR_MEM=${UB_PAIR_MEM:-1024} UB_PAIR_SMP=${UB_PAIR_SMP:-2} \
		"$UB_TOP/scripts/pair-run.sh" --kernel stock "$out" "$script" \
		> "$out.log" 2>&1 || :
	for role in a b; do
		if ! grep -qx "PASS $name" "$out/$role/results.txt" 2>/dev/null; then
			tail -30 "$out/$role/cases/$name.log" 2>/dev/null || :
			ub_log "guest $role: $(cat "$out/$role/results.txt" 2>/dev/null || echo 'no result')"
			ub_log "log $out/$role/cases/$name.log, console $out/$role/console.log"
			rc=1
		fi
	done
	return $rc
}

# Kernel release of a build directory (e.g. 6.1.0-57-amd64).
ub_kernel_release() {
	sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$1/include/generated/utsrelease.h"
}

# Source directories of the kernel modules, relative to the top.
UB_KMOD_DIRS=(include ubcore udma uburma ipourma ums ubagg roub)
