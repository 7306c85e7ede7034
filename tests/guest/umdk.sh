#!/bin/bash
# In-guest run of UMDK's own tools (scripts/umdk-check.sh --run-only) on
# this stack: between two processes on udma0 (bound to lo), then between
# the two hosts of the namespace pair (udmaA in uboeA, udmaB in uboeB,
# over the veth). Needs an earlier host run of
#   scripts/umdk-check.sh --build-only UMDK_DIR
# (its build/umdk-check is copied: the guest's root is read-only). Not part
# of "make check" (CI has no UMDK checkout). Run it as:
#   UB_QEMU_CPU=max UB_GUEST_SMP=1 scripts/guest-run.sh --kernel test OUT \
#	tests/guest/umdk.sh
# (UMDK's x86 flags, which umdk-check.sh keeps, include -msse4.2: QEMU's
# default CPU model has no SSE4.2 and the tools die with SIGILL)
# and read OUT/script.log; each run's logs are in OUT/umdk-lo and
# OUT/umdk-pair.
set -u
export UB_TOP=$PWD
. "$UB_TOP/tests/guest/lib.sh"
results=${1:-/run/out}
built=$UB_TOP/build/umdk-check
[ -x "$built/urma_perftest" ] || ub_fail "no $built/urma_perftest: run scripts/umdk-check.sh --build-only first"

ub_load_stack lo || ub_fail "cannot load the stack"
# urma_ping's topology and responder
ub_insmod "$UB_KMOD/ubagg/ubagg.ko" || ub_fail "cannot load ubagg.ko"
ub_wait_eid || ub_fail "udma0 has no EID"
rc=0

# run NAME OPTION...: umdk-check.sh --run-only in a copy of the build.
run() {
	local name=$1 t0=$SECONDS
	shift
	cp -a "$built" "/tmp/umdk-$name"
	echo "===== umdk-check on $name"
	"$UB_TOP/scripts/umdk-check.sh" --run-only --out "/tmp/umdk-$name" "$@" || rc=1
	echo "===== umdk-check on $name: $((SECONDS - t0)) s"
	mkdir -p "$results/umdk-$name"
	cp /tmp/umdk-"$name"/*.log "$results/umdk-$name/"
}

run lo --dev udma0

trap ub_nspair_destroy EXIT
ub_nspair_create || ub_fail "cannot create the namespace pair"
ub_nspair_add_devs || ub_fail "cannot add $UB_DEV_A and $UB_DEV_B"
run pair --client-ns "$UB_NS_A" --dev "$UB_DEV_A" --server-ns "$UB_NS_B" \
	--server-dev "$UB_DEV_B" --server-ip "$UB_IP4_B"
exit $rc
