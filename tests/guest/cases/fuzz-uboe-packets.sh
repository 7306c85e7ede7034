#!/bin/bash
# The UBoE packet fuzzer (tests/fuzz/uboe_pkt_fuzz.cpp): two namespaces
# joined by a veth pair (as udma-uboe-wire.sh), udmaA on vA in uboeA and
# udmaB on vB in uboeB; the fuzzer reads udmaB's counters in uboeB and
# sends from uboeA, over IPv4 and IPv6. It checks that every datagram is
# accounted and that the TP table and object counts come back; then both
# devices' TP tables and objects are checked here, and the stack unloads.
# The harness judges the kernel log (KASAN, lockdep, WARN) and kmemleak.
# Steps: 600 in "make check", 8000 in "make check-long" (UB_CHECK_LONG);
# UB_FUZZ_SEED replays a seed.
set -eu
. "$UB_TOP/tests/guest/lib.sh"

admin=$UB_TOP/build/tools/urma_admin/urma_admin
fuzz=$UB_TOP/build/tests/fuzz/uboe_pkt_fuzz

iterations=600
[[ -z ${UB_CHECK_LONG:-} ]] || iterations=20000
args=(--iterations "$iterations" --dev udmaB --peer-ns uboeA)
[[ -z ${UB_FUZZ_SEED:-} ]] || args+=(--seed "$UB_FUZZ_SEED")

cleanup() {
	ub_unload_stack || true
	ip -batch - <<'IP' 2>/dev/null || true
netns del uboeA
netns del uboeB
IP
}
trap cleanup EXIT

# One ip per namespace: every exec of ip costs seconds under the test kernel.
ip -batch - <<'IP'
netns add uboeA
netns add uboeB
link add vA type veth peer name vB
link set vA netns uboeA
link set vB netns uboeB
IP
ip -n uboeA -batch - <<'IP'
link set lo up
link set vA up
addr add 10.77.0.1/24 dev vA
addr add fd77::1/64 dev vA nodad
IP
ip -n uboeB -batch - <<'IP'
link set lo up
link set vB up
addr add 10.77.0.2/24 dev vB
addr add fd77::2/64 dev vB nodad
IP

ub_load_stack || ub_fail "load the stack"
ip netns exec uboeA "$admin" dev add udmaA netdev vA
ip netns exec uboeB "$admin" dev add udmaB netdev vB

rc=0
ip netns exec uboeB "$fuzz" "${args[@]}" || rc=$?

# udmaA only got what udmaB's connection manager sent: nothing left there
# either (the fuzzer waited for the timeouts). ip netns exec mounts the
# namespace's sysfs.
# shellcheck disable=SC2016
ip netns exec uboeA /bin/bash -c '
	d=/sys/class/ubcore/udmaA
	[[ -z $(< $d/cm/tp) ]] || { echo "FAIL: udmaA TPs left:"; cat $d/cm/tp; exit 1; }
	for f in $d/objects/*; do
		[[ $(< $f) == 0 ]] || { echo "FAIL: udmaA ${f##*/} = $(< $f)"; exit 1; }
	done' || rc=1

ub_unload_stack || ub_fail "unload after the fuzzer"
[ ! -e /proc/net/udma_uboe ] || ub_fail "/proc/net/udma_uboe left behind"
exit $rc
