#!/bin/bash
# Two kernels, one link: each guest loads ubcore, udma and uburma, binds
# udma to its end of the link and sees exactly its own device with its own
# EIDs (its IPv4 address mapped, and the link-local IPv6 address of the MAC
# that scripts/pair-run.sh gives its role), which differ from the peer's;
# pings cross the link both ways (each side pings the other); the modules
# unload cleanly on both sides and leave the link working.
set -eu
. "$UB_TOP/tests/guest/lib.sh"
. "$UB_TOP/tests/pair/lib.sh"
trap 'ub_unload_stack || true' EXIT

admin=$UB_TOP/build/tools/urma_admin/urma_admin

# expected_eids ROLE: the EIDs of ROLE's device, sorted, as urma_admin
# prints them: the addresses and MACs are those of scripts/pair-run.sh.
expected_eids() {
	case $1 in
	a) EIDS="::ffff:10.77.0.1 fe80::5054:ff:fe75:b00a" ;;
	b) EIDS="::ffff:10.77.0.2 fe80::5054:ff:fe75:b00b" ;;
	esac
}
expected_eids "$UB_PAIR_ROLE"
mine=$EIDS
peer_role=a
if [[ $UB_PAIR_ROLE == a ]]; then
	peer_role=b
fi
expected_eids "$peer_role"
theirs=$EIDS

echo "$UB_PAIR_ROLE: load the stack on $UB_PAIR_DEV"
ub_load_stack "$UB_PAIR_DEV"
expect_devs udma0
expect_attr udma0 netdev "$UB_PAIR_DEV"
# ubcore fills the EID table from the netdev's addresses in a work item.
for ((i = 0; i < 100; i++)); do
	n=0
	for e in "$UB_CLASS"/udma0/eids/eid*; do
		[[ -e $e ]] && n=$((n + 1))
	done
	((n == 2)) && break
	ub_sleep 0.1
done

echo "urma_admin show: one device, on $UB_PAIR_DEV, port up"
out=$("$admin" show)
echo "$out"
rows=()
while read -r -a f; do
	[[ ${f[0]:-} == dev_name ]] || rows+=("${f[*]}")
done <<< "$out"
((${#rows[@]} == 1)) || ub_fail "urma_admin show lists ${#rows[@]} devices, want 1"
# dev_name driver netdev eid_mode eid_cnt port_state active_mtu; MTU 1500
# leaves 1404 bytes after UBoE's headers: UB MTU 1024.
[[ ${rows[0]} == "udma0 udma $UB_PAIR_DEV dynamic 2 ACTIVE 1024" ]] ||
	ub_fail "urma_admin show: '${rows[0]}'"

echo "urma_admin show --dev udma0 --whole: its EIDs are its own"
out=$("$admin" show --dev udma0 --whole)
got=()
in_eids=0
while read -r -a f; do
	case ${f[0]:-} in
	eids:) in_eids=1 ;;
	objects:) in_eids=0 ;;
	*) ((in_eids)) && got+=("${f[1]} ${f[2]}") ;;
	esac
done <<< "$out"
want=()
for e in $mine; do
	want+=("$e dynamic")
done
# urma_admin lists them by index; compare as sets.
sorted=$(printf '%s\n' "${got[@]}" | "$UB_BUSYBOX" sort)
[[ $sorted == "$(printf '%s\n' "${want[@]}")" ]] ||
	ub_fail "EIDs are '${got[*]}', want '${want[*]}' (in any order)"
echo "EIDs: ${got[*]}"

echo "the peer's EIDs differ from these"
seen=
while read -r e _; do
	seen+=" $e"
done <<< "$sorted"
ub_pair_sync eids "${seen# }"
read -r -a peer <<< "$UB_PAIR_PEER_VALUE"
[[ ${peer[*]} == "$theirs" ]] ||
	ub_fail "the peer ($peer_role) has EIDs '${peer[*]}', want '$theirs'"
for e in "${peer[@]}"; do
	[[ " $mine " != *" $e "* ]] || ub_fail "EID $e is on both guests"
done

echo "ping $UB_PAIR_PEER across the link (the peer pings this side)"
ub_pair_ping 3 || ub_fail "no answer from $UB_PAIR_PEER"
# Both sides have pinged before either unloads its modules.
ub_pair_sync pinged

echo "unload the stack"
ub_unload_stack || ub_fail "module unload failed"
[[ ! -e $UB_CLASS ]] || ub_fail "$UB_CLASS left behind"
for m in ubcore udma uburma; do
	! ub_module_loaded "$m" || ub_fail "$m still loaded"
done
ub_pair_sync unloaded
ub_pair_ping 1 || ub_fail "the link broke when udma unbound"
ub_pair_sync finished
echo "$UB_PAIR_ROLE: one device each, distinct EIDs, ping both ways, clean unload"
