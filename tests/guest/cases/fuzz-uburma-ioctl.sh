#!/bin/bash
# The ioctl fuzzer (tests/fuzz/uburma_ioctl_fuzz.cpp) against the stack on
# lo: workers as root and as nobody, forks and SIGKILLs; every object count
# back to 0 afterwards (the fuzzer checks), then the stack unloads. The
# harness judges the kernel log (KASAN, lockdep, WARN) and kmemleak.
# Operations: 8000 in "make check", 240000 in "make check-long"
# (UB_CHECK_LONG); UB_FUZZ_SEED replays a seed.
set -eu
. "$UB_TOP/tests/guest/lib.sh"

iterations=8000
[[ -z ${UB_CHECK_LONG:-} ]] || iterations=240000
args=(--iterations "$iterations" --workers 4)
[[ -z ${UB_FUZZ_SEED:-} ]] || args+=(--seed "$UB_FUZZ_SEED")

ub_load_stack lo || ub_fail "load the stack"
ub_wait_eid || ub_fail "udma0 has no EID"
rc=0
"$UB_TOP/build/tests/fuzz/uburma_ioctl_fuzz" "${args[@]}" || rc=$?
ub_unload_stack || ub_fail "unload after the fuzzer"
[ ! -e "$UB_CLASS" ] || ub_fail "$UB_CLASS left behind"
exit $rc
