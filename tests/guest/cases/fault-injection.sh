#!/bin/bash
# The stack under failslab, fail_page_alloc and fail_usercopy
# (tests/fuzz/ub_fault_inject.cpp): every fault point of every step of a
# scenario that walks all allocation paths (fail-nth sweep), DEV_ADD and
# DEV_DEL, then random rounds with make-it-fail on the driver; every failed
# call returns an error and leaves no object, counts back to 0, then the
# stack unloads. The harness judges the kernel log and kmemleak.
# Random rounds: 10 in "make check", 1000 in "make check-long"
# (UB_CHECK_LONG); the sweep every 2nd fault point and the device sweep
# every 4th in "make check" (which ones: the seed's), every one in "make
# check-long". UB_FUZZ_SEED replays a seed.
set -eu
. "$UB_TOP/tests/guest/lib.sh"

rounds=10 stride=4 sweep_stride=2
[[ -z ${UB_CHECK_LONG:-} ]] || rounds=1000 stride=1 sweep_stride=1
args=(--sweep --sweep-stride "$sweep_stride" --device-sweep --device-stride "$stride"
	--random-rounds "$rounds" --probability 3)
[[ -z ${UB_FUZZ_SEED:-} ]] || args+=(--seed "$UB_FUZZ_SEED")

ub_load_stack lo || ub_fail "load the stack"
ub_wait_eid || ub_fail "udma0 has no EID"
echo "ub-check: fault injection on" > /dev/kmsg
rc=0
"$UB_TOP/build/tests/fuzz/ub_fault_inject" "${args[@]}" || rc=$?
echo "ub-check: fault injection off" > /dev/kmsg
ub_unload_stack || ub_fail "unload after fault injection"
[ ! -e "$UB_CLASS" ] || ub_fail "$UB_CLASS left behind"
exit $rc
