#!/bin/bash
# ubcore's connection manager between two network namespaces over UBoE
# (lib.sh's namespace pair): the KUnit suite ubcore_cm_nspair
# (ubcore/kunit/cm_nspair_ktest.c) opens TPs from udmaA to udmaB in RM and
# RC, shares one, tears them down, takes each reject, an unanswered and an
# unroutable peer and a link going down; every message is a UBoE packet,
# which both devices' wire/ counters must show, with no management drop.
set -eu
. "$UB_TOP/tests/guest/lib.sh"

ko=$UB_KMOD/ubcore/ubcore_cm_nspair.ko
cleanup() {
	ub_unload_stack || true
	ub_nspair_destroy
}
trap cleanup EXIT

[[ -e $ko ]] || ub_fail "no $ko"
ub_nspair_create
ub_load_stack
ub_nspair_add_devs

ub_dmesg_mark
ub_insmod "$ko"
ub_rmmod ubcore_cm_nspair
log=$(ub_dmesg_since)
echo "$log" | "$UB_BUSYBOX" grep -E "ubcore_cm_nspair|    (not )?ok " || true
[[ $log == *"# ubcore_cm_nspair: pass:7 fail:0 skip:0 total:7"* ]] ||
	ub_fail "ubcore_cm_nspair did not pass its 7 cases"

for side in "$UB_NS_A $UB_DEV_A" "$UB_NS_B $UB_DEV_B"; do
	read -r ns dev <<< "$side"
	for c in mgmt_tx mgmt_rx; do
		ub_wire_cnt "$ns" "$dev" "$c"
		((WIRE_CNT > 0)) || ub_fail "$dev: $c is $WIRE_CNT"
		echo "$dev $c $WIRE_CNT"
	done
	for c in mgmt_body_len mgmt_body_version mgmt_eid_mismatch \
		mgmt_refused; do
		ub_wire_cnt "$ns" "$dev" "$c"
		[[ $WIRE_CNT == 0 ]] || ub_fail "$dev: $c is $WIRE_CNT"
	done
done
# Every message one side sent the other received, but the three CONN_REQs
# (first and two retries) to 10.77.0.99, which nobody has.
ub_wire_cnt "$UB_NS_A" "$UB_DEV_A" mgmt_tx; a_tx=$WIRE_CNT
ub_wire_cnt "$UB_NS_A" "$UB_DEV_A" mgmt_rx; a_rx=$WIRE_CNT
ub_wire_cnt "$UB_NS_B" "$UB_DEV_B" mgmt_tx; b_tx=$WIRE_CNT
ub_wire_cnt "$UB_NS_B" "$UB_DEV_B" mgmt_rx; b_rx=$WIRE_CNT
((b_rx == a_tx - 3)) || ub_fail "udmaB received $b_rx of udmaA's $a_tx - 3"
((a_rx == b_tx)) || ub_fail "udmaA received $a_rx of udmaB's $b_tx"
# One send failed: the CONN_REQ while udmaA's own link was down.
ub_wire_cnt "$UB_NS_A" "$UB_DEV_A" tx_errors
[[ $WIRE_CNT == 1 ]] || ub_fail "$UB_DEV_A: tx_errors is $WIRE_CNT, want 1"
ub_wire_cnt "$UB_NS_B" "$UB_DEV_B" tx_errors
[[ $WIRE_CNT == 0 ]] || ub_fail "$UB_DEV_B: tx_errors is $WIRE_CNT, want 0"
echo "TPs set up and torn down across the namespaces, over UBoE"
