#!/bin/bash
# The netlink fuzzer (tests/fuzz/ubcore_nl_fuzz.cpp) against the stack on
# lo: the "ubcore" family as user nobody (admin commands refused, devices
# and EIDs unchanged), then as root; every object count back to 0, then
# the stack unloads. The harness judges the kernel log and kmemleak.
# Messages per phase: 1000 in "make check", 20000 in "make check-long"
# (UB_CHECK_LONG); UB_FUZZ_SEED replays a seed.
set -eu
. "$UB_TOP/tests/guest/lib.sh"

iterations=1000
[[ -z ${UB_CHECK_LONG:-} ]] || iterations=20000
args=(--iterations "$iterations" --workers 2)
[[ -z ${UB_FUZZ_SEED:-} ]] || args+=(--seed "$UB_FUZZ_SEED")

ub_load_stack lo || ub_fail "load the stack"
ub_wait_eid || ub_fail "udma0 has no EID"
rc=0
"$UB_TOP/build/tests/fuzz/ubcore_nl_fuzz" "${args[@]}" || rc=$?
ub_unload_stack || ub_fail "unload after the fuzzer"
[ ! -e "$UB_CLASS" ] || ub_fail "$UB_CLASS left behind"
exit $rc
