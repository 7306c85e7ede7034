#!/bin/bash
# The ioctl fuzzer (tests/fuzz/uburma_ioctl_fuzz.cpp) against the stack on
# lo: workers as root and as nobody, forks and SIGKILLs; every object count
# back to 0 afterwards (the fuzzer checks), then the stack unloads. The
# harness judges the kernel log (KASAN, lockdep, WARN) and kmemleak.
# Operations: 6000 in "make check", 240000 in "make check-long"
# (UB_CHECK_LONG); UB_FUZZ_SEED replays a seed.
# A stuck round is the fuzzer's own finding (its watchdog dumps the stuck
# tasks' kernel stacks and sysrq w, then SIGKILLs them). As a backstop the
# fuzzer runs in its own process group, all of which is SIGKILLed 120 s
# before the harness would kill this case; then the stack unloads, or the
# case fails naming the processes that still hold the device.
set -eu
. "$UB_TOP/tests/guest/lib.sh"

iterations=6000
case_timeout=900
if [[ -n ${UB_CHECK_LONG:-} ]]; then
	iterations=240000
	case_timeout=3600
fi
limit=$((${UB_CASE_TIMEOUT:-$case_timeout} - 120))
args=(--iterations "$iterations" --workers 4)
[[ -z ${UB_FUZZ_SEED:-} ]] || args+=(--seed "$UB_FUZZ_SEED")

# The tasks that have a /dev/uburma file open: state, wait channel, stack.
holders() {
	local fd p
	for fd in /proc/[0-9]*/fd/*; do
		[[ $(readlink "$fd" 2> /dev/null) == /dev/uburma/* ]] || continue
		p=${fd%/fd/*}
		echo "${p#/proc/} $(< "$p/comm") $(grep State "$p/status") wchan $(< "$p/wchan")"
		cat "$p/stack" 2> /dev/null
	done | uniq
}

ub_load_stack lo || ub_fail "load the stack"
ub_wait_eid || ub_fail "udma0 has no EID"
rc=0
set -m # the fuzzer and everything it forks: process group $fpid
"$UB_TOP/build/tests/fuzz/uburma_ioctl_fuzz" "${args[@]}" &
fpid=$!
set +m
if ! ub_wait_pid "$fpid" "$limit"; then
	echo "FAIL: the fuzzer still runs after ${limit} s; its processes:"
	holders
	echo w > /proc/sysrq-trigger
	rc=1
fi
kill -KILL -- "-$fpid" 2> /dev/null || :
wait "$fpid" || { r=$?; ((rc)) || rc=$r; }
# The files go with their last process: a few tries before giving up.
for ((try = 0; try < 20; try++)); do
	if ub_unload_stack 2> /dev/null; then
		break
	fi
	ub_sleep 1
done
for m in "${UB_MODULES[@]}"; do
	m=${m##*/}
	if ub_module_loaded "${m%.ko}"; then
		holders
		ub_fail "${m%.ko} does not unload after the fuzzer"
	fi
done
[ ! -e "$UB_CLASS" ] || ub_fail "$UB_CLASS left behind"
exit $rc
