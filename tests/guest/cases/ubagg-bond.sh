#!/bin/bash
# Bonding devices (bonding_dev_0, user guide 6.2) on lib.sh's namespace pair
# with a second veth pair: two members a side, udmaA on vA and udmaA2 on
# vA2 in uboeA, udmaB and udmaB2 in uboeB, each side a node of a two-node
# topology whose aggregated device has its UE 0 on the first device and
# UE 1 on the second (IODie 0 and 1: vA-vB is plane 0, vA2-vB2 plane 1).
#
# Checked: urma_admin agg add's refusals (no topology, no such bonding EID,
# nobody, taken), agg show, sysfs bond/, show topo naming the bonding
# device and its members; ubagg_topo_probe bond (the context's mode,
# URMA_OPT_AGGR_MODE, BONDP_USER_CTL_QUERY_PORT's counts); in each mode a
# urma_perftest run over bonding_dev_0 with --check, the members' packet
# counters saying which member carried it: Standalone member 0 only;
# ActiveBackup member 0, then member 1 while vA is down under a verified
# RC stream, then member 0 again (failback) when it is up, the stream
# complete and checked, then the same with RM; Balance both members
# (RC jetties spread), then member 0 alone while vA2 is down under the
# stream. Then agg del, a member's netdev deleted (its bonding device goes
# with it), ubagg.ko unloaded with a bonding device alive, and no object
# left on any device.
set -eu
. "$UB_TOP/tests/guest/lib.sh"

A=$UB_NS_A B=$UB_NS_B
A2=${UB_DEV_A}2 B2=${UB_DEV_B}2
IP4_A2=10.78.0.1 IP4_B2=10.78.0.2 IP6_A2=fd78::1 IP6_B2=fd78::2
probe=$UB_TOP/build/tests/integration/ubagg_topo_probe
perftest=$UB_TOP/build/tools/urma_perftest/urma_perftest
tmp=/tmp/ubagg-bond
BOND=bonding_dev_0 EID_A=fd77::a1 EID_B=fd77::b2

cleanup() {
	jobs -p | xargs -r kill 2> /dev/null || true
	ub_unload_stack || true
	ub_nspair_destroy
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp"

ub_load_stack "" || ub_fail "cannot load the stack"
ub_nspair_create || ub_fail "cannot create the namespace pair"
ip -batch - <<-IP || ub_fail "cannot create the second veth pair"
	link add vA2 type veth peer name vB2
	link set vA2 netns $A
	link set vB2 netns $B
	IP
ip -n "$A" -batch - <<-IP || ub_fail "vA2"
	link set vA2 up
	addr add $IP4_A2/24 dev vA2
	addr add $IP6_A2/64 dev vA2 nodad
	IP
ip -n "$B" -batch - <<-IP || ub_fail "vB2"
	link set vB2 up
	addr add $IP4_B2/24 dev vB2
	addr add $IP6_B2/64 dev vB2 nodad
	IP
ub_nspair_add_devs || ub_fail "cannot add $UB_DEV_A and $UB_DEV_B"
ub_nspair_add_dev "$A" "$A2" vA2 "$IP4_A2" "$IP6_A2" || ub_fail "cannot add $A2"
ub_nspair_add_dev "$B" "$B2" vB2 "$IP4_B2" "$IP6_B2" || ub_fail "cannot add $B2"
ub_insmod "$UB_KMOD/ubagg/ubagg.ko" || ub_fail "cannot load ubagg.ko"

# topo CURRENT: two nodes, each an aggregated device over its two devices
topo() {
	cat <<-EOF
	node 1 super 7 $([[ $1 == 1 ]] && echo current)
	  dev 0 $EID_A
	    ue 0 chip 0 die 0 entity 3 primary $UB_IP4_A
	    ue 1 chip 0 die 1 entity 3 primary $IP4_A2
	    port 0 4 $UB_IP6_A cna $UB_IP4_A
	    port 1 4 $IP6_A2 cna $IP4_A2
	  link 0:4 0:4
	  link 1:4 1:4
	node 2 super 7 $([[ $1 == 2 ]] && echo current)
	  dev 0 $EID_B
	    ue 0 chip 0 die 0 entity 3 primary $UB_IP4_B
	    ue 1 chip 0 die 1 entity 3 primary $IP4_B2
	    port 0 4 $UB_IP6_B cna $UB_IP4_B
	    port 1 4 $IP6_B2 cna $IP4_B2
	  link 0:4 0:4
	  link 1:4 1:4
	EOF
}
topo 1 > "$tmp/a.topo"
topo 2 > "$tmp/b.topo"
chmod 0755 "$tmp"
chmod 0644 "$tmp"/*.topo

# refused NS WHY CMD...: urma_admin CMD fails in NS and says WHY
refused() {
	local ns=$1 why=$2
	shift 2
	if ub_ns "$ns" "$UB_ADMIN" "$@" > "$tmp/out" 2>&1; then
		ub_fail "urma_admin $* succeeded in $ns"
	fi
	grep -qF -- "$why" "$tmp/out" || ub_fail "urma_admin $*: $(< "$tmp/out"), not '$why'"
}

echo "== agg add's refusals"
refused "$A" "no topology is set" agg add "$EID_A" "$BOND"
ub_ns "$A" "$UB_ADMIN" topo set "$tmp/a.topo" || ub_fail "topo set in $A"
ub_ns "$B" "$UB_ADMIN" topo set "$tmp/b.topo" || ub_fail "topo set in $B"
refused "$A" "no aggregated device with that EID" agg add "$EID_B" "$BOND"
nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if ub_ns "$A" "${nobody[@]}" "$UB_ADMIN" agg add "$EID_A" "$BOND" > "$tmp/out" 2>&1; then
	ub_fail "agg add as nobody succeeded"
fi
grep -q "Permission denied\|Operation not permitted" "$tmp/out" ||
	ub_fail "agg add as nobody: $(< "$tmp/out")"
refused "$A" "no bonding device has that EID" agg del "$EID_A"

# bond_add MODE: bonding_dev_0 in both namespaces, in MODE
bond_add() {
	ub_ns "$A" "$UB_ADMIN" agg add "$EID_A" "$BOND" mode "$1" || ub_fail "agg add in $A"
	ub_ns "$B" "$UB_ADMIN" agg add "$EID_B" "$BOND" mode "$1" || ub_fail "agg add in $B"
}
bond_del() {
	ub_ns "$A" "$UB_ADMIN" agg del "$EID_A" || ub_fail "agg del in $A"
	ub_ns "$B" "$UB_ADMIN" agg del "$EID_B" || ub_fail "agg del in $B"
}

# tx NS MEMBER: packets the bonding device of NS sent through member
# MEMBER (0 or 1), in TX
tx() {
	local line
	line=$(ub_ns "$1" "$UB_BUSYBOX" sed -n "$(($2 + 1))p" "$UB_CLASS/$BOND/bond/members")
	TX=${line##* }
	[[ $TX =~ ^[0-9]+$ ]] || ub_fail "$BOND in $1: member $2: '$line'"
}

echo "== Standalone"
bond_add standalone
ub_ns "$A" "$UB_ADMIN" agg show > "$tmp/show" || ub_fail "agg show"
cat "$tmp/show"
grep -qxF "$BOND  eid $EID_A  mode standalone  peers 1" "$tmp/show" || ub_fail "agg show: $(< "$tmp/show")"
grep -qxF "    member $UB_DEV_A  up  active  tx_packets 0" "$tmp/show" || ub_fail "agg show: member 0"
grep -qxF "    member $A2  up  inactive  tx_packets 0" "$tmp/show" || ub_fail "agg show: member 1"
# (eids/ follows the table in a work item)
for ((i = 0; i < 50; i++)); do
	[[ $(ub_ns "$A" "$UB_BUSYBOX" cat "$UB_CLASS/$BOND/eids/eid0" 2> /dev/null) == *"$EID_A"* ]] && break
	ub_sleep 0.2
done
((i < 50)) || ub_fail "$BOND has not $EID_A at index 0"
refused "$A" "File exists" agg add "$EID_A" "$BOND"
ub_ns "$A" "$UB_ADMIN" show topo > "$tmp/topo" || ub_fail "show topo"
grep -qxF "Dev 0: $EID_A ($BOND over $UB_DEV_A $A2)" "$tmp/topo" || ub_fail "show topo: $(< "$tmp/topo")"
ub_ns "$A" "$UB_ADMIN" show topo 2 > "$tmp/topo" || ub_fail "show topo 2"
grep -qxF "Dev 0: $EID_B" "$tmp/topo" || ub_fail "show topo 2: $(< "$tmp/topo")"
ub_ns "$A" "$probe" bond "$BOND" standalone 2 1 || ub_fail "ubagg_topo_probe bond (standalone)"

# perf NAME CMD SIZE ITERS [OPTION...]: urma_perftest CMD over the bonding
# devices with --check, server in B, client in A, the TCP side channel
# over $SIDE (an address of B); in the background (PERF_PID) when NAME
# ends in '&'
SIDE=$IP4_B2
perf() {
	local name=$1 cmd=$2 size=$3 n=$4
	shift 4
	# ip netns exec, not ub_ns: $! is then perftest (a function would run
	# in a subshell of this namespace)
	ip netns exec "$B" "$perftest" "$cmd" -d "$BOND" -s "$size" -n "$n" --check "$@" \
		> "$tmp/server.log" 2>&1 &
	local srv=$!
	if ! ub_wait_listen 21115 120 "$srv"; then
		kill "$srv" 2> /dev/null || :
		cat "$tmp/server.log"
		ub_fail "$name: the server does not listen"
	fi
	ip netns exec "$A" "$perftest" "$cmd" -d "$BOND" -S "$SIDE" -s "$size" -n "$n" --check "$@" \
		> "$tmp/client.log" 2>&1 &
	PERF_PID=$! PERF_SRV=$srv PERF_NAME=$name
	[[ $name == *'&' ]] || perf_wait
}
perf_wait() {
	local rc=0
	wait "$PERF_PID" || rc=$?
	wait "$PERF_SRV" || rc=$?
	if ((rc)); then
		cat "$tmp/client.log" "$tmp/server.log"
		ub_fail "$PERF_NAME: urma_perftest failed"
	fi
	tail -n 3 "$tmp/client.log"
}
# moving NS MEMBER: until member MEMBER of NS's bonding device sends (its
# counter grows within 30 s while the stream runs)
moving() {
	local before i
	tx "$1" "$2"
	before=$TX
	for ((i = 0; i < 60; i++)); do
		ub_sleep 0.5
		tx "$1" "$2"
		((TX > before)) && return 0
		kill -0 "$PERF_PID" 2> /dev/null || break
	done
	ub_fail "member $2 of $BOND in $1 sent nothing (stream running: $(kill -0 "$PERF_PID" 2>&1 && echo yes || echo no))"
}
# still NS MEMBER: member MEMBER of NS's bonding device sends nothing for 2 s
still() {
	local before
	tx "$1" "$2"
	before=$TX
	ub_sleep 2
	tx "$1" "$2"
	((TX == before)) || ub_fail "member $2 of $BOND in $1 sent $((TX - before)) packets"
}

perf "Standalone write" write_bw 65536 256 -p RC
tx "$A" 0
((TX > 0)) || ub_fail "Standalone: member 0 sent nothing"
tx "$A" 1
((TX == 0)) || ub_fail "Standalone: member 1 sent $TX packets"
tx "$B" 1
((TX == 0)) || ub_fail "Standalone: member 1 of $B sent $TX packets"
bond_del
[[ ! -e /sys/class/ubcore/$BOND ]] || ub_fail "$BOND left after agg del"

# failover NAME LINK NS_ALIVE_MEMBER DOWN_MEMBER CMD...: the stream of
# CMD runs; LINK (vA or vA2, in A) goes down: the other member carries
# it; LINK comes back (after ActiveBackup: member 0 again); the stream
# completes, checked
failover() {
	local name=$1 link=$2 alive=$3 down=$4
	shift 4
	perf "$name &" "$@"
	moving "$A" "$down"
	echo "-- $link down"
	ub_ns "$A" ip link set "$link" down
	moving "$A" "$alive"
	moving "$B" "$alive"
	still "$A" "$down"
	echo "-- $link up"
	ub_ns "$A" ip link set "$link" up
	moving "$A" "$down"
	perf_wait
}

echo "== ActiveBackup"
bond_add active_backup
ub_ns "$A" "$probe" bond "$BOND" active_backup 2 1 || ub_fail "ubagg_topo_probe bond (active_backup)"
perf "ActiveBackup write" write_bw 65536 128 -p RC
tx "$A" 1
((TX == 0)) || ub_fail "ActiveBackup: the backup sent $TX packets"
SIDE=$IP4_B2 failover "ActiveBackup RC stream" vA 1 0 send_bw 4096 30000 -p RC
grep -q "member $UB_DEV_A  up  active" <(ub_ns "$A" "$UB_ADMIN" agg show) ||
	ub_fail "ActiveBackup: member 0 is not active again"
SIDE=$IP4_B2 failover "ActiveBackup RM stream" vA 1 0 send_bw 4096 30000 -p RM
bond_del

echo "== Balance"
bond_add balance
ub_ns "$A" "$probe" bond "$BOND" balance 2 2 || ub_fail "ubagg_topo_probe bond (balance)"
perf "Balance write, 4 RC jetties" write_bw 65536 256 -p RC -J 4
for m in 0 1; do
	tx "$A" "$m"
	((TX > 0)) || ub_fail "Balance: member $m sent nothing"
done
SIDE=$UB_IP4_B failover "Balance RC stream, 4 jetties" vA2 0 1 send_bw 4096 20000 -p RC -J 4
ub_ns "$A" ip link set vA2 down
ub_ns "$A" "$probe" bond "$BOND" balance 2 1 || ub_fail "ubagg_topo_probe bond (balance, one member down)"
ub_ns "$A" ip link set vA2 up
bond_del

echo "== a member's netdev goes: its bonding device with it"
bond_add active_backup
ub_ns "$B" ip link del vB2
for ((i = 0; i < 100; i++)); do
	ub_ns "$B" test -e "$UB_CLASS/$BOND" || break
	ub_sleep 0.1
done
ub_ns "$B" test ! -e "$UB_CLASS/$BOND" || ub_fail "$BOND of $B outlived its member's netdev"
refused "$B" "no bonding device has that EID" agg del "$EID_B"

echo "== unload with a bonding device alive"
ub_ns "$A" test -e "$UB_CLASS/$BOND" || ub_fail "$BOND of $A is gone"
ub_rmmod ubagg || ub_fail "rmmod ubagg"
ub_ns "$A" test ! -e "$UB_CLASS/$BOND" || ub_fail "$BOND of $A outlived ubagg.ko"
for d in "$A $UB_DEV_A" "$A $A2" "$B $UB_DEV_B"; do
	read -r ns dev <<< "$d"
	# shellcheck disable=SC2016
	ub_ns "$ns" /bin/bash -c '
		for f in /sys/class/ubcore/$1/objects/*; do
			[[ $(< $f) == 0 ]] || { echo "FAIL: $1 ${f##*/} = $(< $f)"; exit 1; }
		done' bash "$dev" || ub_fail "objects left on $dev"
done
echo "ubagg-bond: all checks passed"
