#!/bin/bash
# In-guest part of "make check": KUnit suites, shell cases and GoogleTest
# integration binaries against the freshly built modules. Writes one line per
# case to $OUT/results.txt ("PASS name" / "FAIL name"); KUnit's KTAP goes to
# dmesg, GoogleTest's JSON to $OUT/gtest/. The host judges all of it.
# "check-guest.sh --list" prints the names of the cases it would run, one a
# line, and runs nothing (scripts/suites.py: the manifest of make check).
set -u
OUT=$1
export UB_TOP=$PWD
. "$UB_TOP/tests/guest/lib.sh"
# "make check-long": the fuzzers' long runs take up to 40 minutes each.
[[ -z ${UB_CHECK_LONG:-} ]] || UB_CASE_TIMEOUT=${UB_CASE_TIMEOUT:-3600}
if [[ $OUT != --list ]]; then
	results=$OUT/results.txt
	mkdir -p "$OUT/cases" "$OUT/gtest"
	: > "$results"
	# A filtered run is never a passing run: summarize.py fails it.
	[[ -z ${UB_ONLY:-} ]] || echo "$UB_ONLY" > "$OUT/ub-only"
fi

record() {
	local name=$1 rc=$2
	if [ "$rc" -eq 0 ]; then
		echo "PASS $name" >> "$results"
	else
		echo "FAIL $name (exit $rc, log: cases/$name.log)" >> "$results"
	fi
	echo "ub-check: $name exit $rc" > /dev/kmsg
}

# cpu_ticks: the guest's CPU time so far, all and idle (CPU_ALL, CPU_IDLE),
# in USER_HZ ticks of /proc/stat.
cpu_ticks() {
	local _cpu us ni sy id wa hi si st
	read -r _cpu us ni sy id wa hi si st _ < /proc/stat
	CPU_IDLE=$((id + wa))
	CPU_ALL=$((us + ni + sy + id + wa + hi + si + st))
}

# claim NAME: whether this guest runs case NAME. make check runs two
# guests side by side (scripts/check.sh) that share the cases out through a
# host directory (UB_CLAIMS, tests/guest/init.sh): the first to create
# NAME there (O_EXCL, bash's noclobber) runs it. Without it, every case.
claim() {
	[[ -n ${UB_CLAIMS:-} ]] || return 0
	local rc=0
	set -C
	{ : > "$UB_CLAIMS/$1"; } 2> /dev/null || rc=1
	set +C
	return $rc
}

# run_case NAME COMMAND...: COMMAND may be a shell function of this script.
# RAN: whether this guest ran it. STUCK: why this guest runs no more cases
# (empty: it does); UNLOAD_LIMIT: seconds the unload after a killed case
# may take; DUMP_BEFORE: seconds before a case's time limit that what it
# waits for is dumped into its log.
STUCK=
UNLOAD_LIMIT=120
DUMP_BEFORE=20
run_case() {
	local name=$1 rc=0
	shift
	RAN=
	if [[ $OUT == --list ]]; then
		echo "$name"
		return
	fi
	# UB_ONLY (development): a pattern of the cases to run; the others are
	# recorded as not run, which fails the run.
	# shellcheck disable=SC2053 # a pattern on purpose
	if [[ -n ${UB_ONLY:-} && $name != $UB_ONLY ]]; then
		echo "FAIL $name (not run: UB_ONLY=$UB_ONLY)" >> "$results"
		return
	fi
	[[ -z $STUCK ]] || return 0
	[[ -n ${EVERY_GUEST:-} ]] || claim "$name" || return 0
	RAN=1
	echo "ub-check: $name" > /dev/kmsg
	local t0=$EPOCHREALTIME c0 i0 c1 i1
	cpu_ticks
	c0=$CPU_ALL i0=$CPU_IDLE
	if declare -F "$1" > /dev/null; then
		# A new bash (under timeout): lib.sh for its variables, then the
		# functions of this script.
		set -- bash -c ". \"\$UB_TOP/tests/guest/lib.sh\"; $(declare -f); $*"
	fi
	# timeout runs the case in a process group of its own (its PID):
	# DUMP_BEFORE s before the limit, what the group waits for goes to
	# the log (ub_dump_hung), while it still waits.
	local limit=${UB_CASE_TIMEOUT:-900} tpid wpid
	timeout -k 5 "$limit" "$@" > "$OUT/cases/$name.log" 2>&1 < /dev/null &
	tpid=$!
	(
		s=
		trap '[[ -z $s ]] || kill $s 2> /dev/null; exit 0' TERM
		sleep $((limit > 2 * DUMP_BEFORE ? limit - DUMP_BEFORE : limit)) &
		s=$!
		wait $s
		# shellcheck disable=SC2016 # expanded by the new bash
		timeout -k 2 $((DUMP_BEFORE / 2)) bash -c \
			'. "$UB_TOP/tests/guest/lib.sh"; ub_dump_hung "$1"' _ "$tpid" \
			>> "$OUT/cases/$name.log" 2>&1
	) &
	wpid=$!
	wait $tpid || rc=$?
	kill $wpid 2> /dev/null
	wait $wpid 2> /dev/null
	record "$name" $rc
	# A case killed at its time limit cleaned nothing up: what it left
	# (the stack loaded, the namespace pair) would fail the cases after it.
	# A process it left in D state can hold the stack for ever (an
	# rmmod that waits for its device): then this guest takes no more
	# cases (the other guest of make check runs them; without one they
	# are missing from the manifest), and goes on to its end, where the
	# harness judges the kernel.
	if ((rc == 124 || rc == 137)); then
		echo "killed at ${UB_CASE_TIMEOUT:-900} s: unloading what it left" \
			>> "$OUT/cases/$name.log"
		ub_nspair_destroy
		# shellcheck disable=SC2016 # expanded by the new bash
		if ! timeout -k 5 "$UNLOAD_LIMIT" bash -c \
		     '. "$UB_TOP/tests/guest/lib.sh"; ub_unload_stack' \
		     >> "$OUT/cases/$name.log" 2>&1; then
			STUCK="the stack did not unload in $UNLOAD_LIMIT s after $name was killed"
			echo "$STUCK: this guest runs no more cases; processes in D state:" \
				>> "$OUT/cases/$name.log"
			ps -eo pid,stat,wchan:32,args | awk '$2 ~ /D/' >> "$OUT/cases/$name.log"
			echo "ub-check: $STUCK" > /dev/kmsg
		fi
	fi
	# the time budget of make check (scripts/check.sh lists the slowest):
	# seconds (microseconds from EPOCHREALTIME without its decimal point)
	# and how much of it the vCPUs were idle (waits: timers, sleeps)
	local us=$((${EPOCHREALTIME/[.,]/} - ${t0/[.,]/}))
	cpu_ticks
	c1=$((CPU_ALL - c0)) i1=$((CPU_IDLE - i0))
	printf '%s %d.%d idle %d%%\n' "$name" $((us / 1000000)) $((us / 100000 % 10)) \
		$((c1 ? 100 * i1 / c1 : 0)) >> "$OUT/times.txt"
}

# KUnit: each *_kunit.ko runs its suites when loaded, with the stack loaded
# and no UB device (the suites count the devices they make), except the
# modules of kunit_on_lo, which need udma0 on lo (the kernel data path on a
# real device) and must leave none of its objects behind (sysfs objects/).
# (run_case passes functions to a new bash, not variables: the list is local.)
kunit_load() {
	local m ko=$1 rc=0
	echo "loading $ko"
	# ipourma's suites need ipourma.ko, which the stack does not load
	if [[ ${ko##*/} == ipourma_kunit.ko ]]; then
		ub_insmod "$UB_KMOD/ipourma/ipourma.ko" || return 1
	fi
	ub_insmod "$ko" || rc=1
	m=${ko##*/}
	((rc)) || ub_rmmod "${m%.ko}" || rc=1
	if ub_module_loaded ipourma; then
		ub_rmmod ipourma || rc=1
	fi
	return $rc
}
kunit_run() {
	local ko f v kos lo=() rc=0
	local kunit_on_lo=(udma/udma_kapi_kunit.ko)
	ub_load_stack || return 1
	# fail-nth, used by ubcore_device's eids/ retry case, reaches the
	# GFP_KERNEL slab allocations; quietly (no stack per injected fault).
	# The probability stays 0: nothing fails unless a thread sets fail-nth.
	local fs=/sys/kernel/debug/failslab
	echo N > "$fs/ignore-gfp-wait" && echo 0 > "$fs/verbose" || return 1
	shopt -s globstar nullglob
	kos=("$UB_KMOD"/**/*_kunit.ko)
	if ((${#kos[@]} == 0)); then
		echo "no *_kunit.ko in $UB_KMOD"
		rc=1
	fi
	for ko in "${kos[@]}"; do
		if [[ " ${kunit_on_lo[*]} " == *" ${ko#"$UB_KMOD"/} "* ]]; then
			lo+=("$ko")
			continue
		fi
		kunit_load "$ko" || rc=1
	done
	ub_unload_stack || rc=1
	((${#lo[@]} == ${#kunit_on_lo[@]})) || { echo "missing: ${kunit_on_lo[*]}"; rc=1; }
	ub_load_stack lo || return 1
	ub_wait_eid udma0 || rc=1
	for ko in "${lo[@]}"; do
		kunit_load "$ko" || rc=1
		for f in "$UB_CLASS"/udma0/objects/*; do
			read -r v < "$f"
			[[ $v == 0 ]] || { echo "${ko##*/}: $f is $v after unload"; rc=1; }
		done
	done
	ub_unload_stack || rc=1
	return $rc
}
if [[ $OUT != --list && -n ${ub_claims:-} && -z ${UB_CLAIMS:-} ]]; then
	echo "FAIL claims (the share of scripts/guest-run.sh's UB_GUEST_CLAIMS is not mounted)" >> "$results"
fi
run_case kunit-modules kunit_run
# KUnit's KTAP, before the later cases' messages can push it out of the
# kernel's ring buffer (summarize.py reads it from here).
[[ -z $RAN ]] || "$UB_BUSYBOX" dmesg > "$OUT/kunit-dmesg.txt"

# The shell cases and the GoogleTest integration binaries, by name.
declare -A kind path
names=()
for c in "$UB_TOP"/tests/guest/cases/*.sh; do
	[ -e "$c" ] || continue
	n=${c##*/}
	n=${n%.sh}
	kind[$n]=case path[$n]=$c
	names+=("$n")
done
for t in "$UB_TOP"/build/tests/integration/*_itest; do
	[ -x "$t" ] || continue
	n=${t##*/}
	kind[$n]=itest path[$n]=$t
	names+=("$n")
done
run_named() {
	if [[ ${kind[$1]} == case ]]; then
		run_case "$1" bash "${path[$1]}"
	else
		run_case "$1" "${path[$1]}" --gtest_output="json:$OUT/gtest/$1.json"
	fi
}
# The slowest first (times.txt of a run): guests that share the cases out
# then end at about the same time.
slow=(urma_nspair_itest ums-ns-pair ums-apps ums_socket_itest netns-logical
	ipourma-ns-pair ubagg-bond ubagg-topo urma_wire_ops_itest urma_perftest_itest udma-rtp-netem udma-force-wire-dp fault-injection
	fuzz-uboe-flood liburma_object_itest urma_dp_ops_itest udma-uboe-wire
	urma_admin_itest fuzz-uburma-ioctl fuzz-uboe-packets roub-ns-pair roub-verbs-user cm-peer-loss)
declare -A started
for n in "${slow[@]}" "${names[@]}"; do
	[[ -n ${kind[$n]:-} && -z ${started[$n]:-} ]] || continue
	started[$n]=1
	run_named "$n"
done

# Nothing may be left loaded after the cases: each cleans up after itself.
leftover() {
	local m rc=0
	for m in "${UB_MODULES[@]}"; do
		m=${m##*/}
		if ub_module_loaded "${m%.ko}"; then
			echo "module ${m%.ko} still loaded"
			rc=1
		fi
	done
	return $rc
}
# every guest: its own modules
EVERY_GUEST=1 run_case no-leftover-modules leftover
