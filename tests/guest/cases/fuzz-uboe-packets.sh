#!/bin/bash
# The UBoE packet fuzzer (tests/fuzz/uboe_pkt_fuzz.cpp): two namespaces
# joined by a veth pair (tests/guest/lib.sh's namespace pair: UB_DEV_A in
# UB_NS_A, UB_DEV_B in UB_NS_B); the fuzzer reads UB_DEV_B's counters in
# UB_NS_B and sends from UB_NS_A, over IPv4 and IPv6. It checks that
# every datagram is accounted and that the TP table and object counts come
# back; then both devices' TP tables and objects are checked here, and the
# stack unloads.
# The harness judges the kernel log (KASAN, lockdep, WARN) and kmemleak.
# Steps: 600 in "make check", 20000 in "make check-long" (UB_CHECK_LONG);
# UB_FUZZ_SEED replays a seed.
set -eu
. "$UB_TOP/tests/guest/lib.sh"

fuzz=$UB_TOP/build/tests/fuzz/uboe_pkt_fuzz

iterations=600
[[ -z ${UB_CHECK_LONG:-} ]] || iterations=20000
args=(--iterations "$iterations" --dev "$UB_DEV_B" --peer-ns "$UB_NS_A"
	--peer-dev "$UB_DEV_A" --addr4 "$UB_IP4_B" --addr6 "$UB_IP6_B"
	--peer4 "$UB_IP4_A" --peer6 "$UB_IP6_A")
[[ -z ${UB_FUZZ_SEED:-} ]] || args+=(--seed "$UB_FUZZ_SEED")

cleanup() {
	ub_unload_stack || true
	ub_nspair_destroy
}
trap cleanup EXIT

ub_nspair_create || ub_fail "the namespace pair"
ub_load_stack || ub_fail "load the stack"
ub_nspair_add_devs || ub_fail "a udma device in each namespace"

rc=0
ub_ns "$UB_NS_B" "$fuzz" "${args[@]}" || rc=$?

# UB_DEV_A only got what UB_DEV_B's connection manager sent: nothing left
# there either (the fuzzer waited for the timeouts). ub_ns mounts the
# namespace's sysfs.
# shellcheck disable=SC2016
ub_ns "$UB_NS_A" /bin/bash -c '
	d=/sys/class/ubcore/$1
	[[ -z $(< $d/cm/tp) ]] || { echo "FAIL: $1 TPs left:"; cat $d/cm/tp; exit 1; }
	for f in $d/objects/*; do
		[[ $(< $f) == 0 ]] || { echo "FAIL: $1 ${f##*/} = $(< $f)"; exit 1; }
	done' bash "$UB_DEV_A" || rc=1

ub_unload_stack || ub_fail "unload after the fuzzer"
[ ! -e /proc/net/udma_uboe ] || ub_fail "/proc/net/udma_uboe left behind"
exit $rc
