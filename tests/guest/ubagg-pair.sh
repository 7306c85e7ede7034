# shellcheck shell=bash
# Sourced after lib.sh by the cases and benchmarks of bonding devices:
# lib.sh's namespace pair with a second veth pair, two members a side,
# $UB_DEV_A on vA and ${UB_DEV_A}2 on vA2 in uboeA, $UB_DEV_B and
# ${UB_DEV_B}2 in uboeB, each side a node of a two-node topology whose
# aggregated device has its UE 0 on the first device and UE 1 on the
# second (IODie 0 and 1: vA-vB is plane 0, vA2-vB2 plane 1).

A=$UB_NS_A B=$UB_NS_B
A2=${UB_DEV_A}2 B2=${UB_DEV_B}2
IP4_A2=10.78.0.1 IP4_B2=10.78.0.2 IP6_A2=fd78::1 IP6_B2=fd78::2
BOND=bonding_dev_0 EID_A=fd77::a1 EID_B=fd77::b2

# ubagg_node N CURRENT EID IP4 IP6 IP4_2 IP6_2: node N of the topology,
# its aggregated device over the UEs on IP4 (plane 0) and IP4_2 (plane 1)
ubagg_node() {
	cat <<-TOPO
	node $1 super 7 $([[ $1 == "$2" ]] && echo current)
	  dev 0 $3
	    ue 0 chip 0 die 0 entity 3 primary $4
	    ue 1 chip 0 die 1 entity 3 primary $6
	    port 0 4 $5 cna $4
	    port 1 4 $7 cna $6
	  link 0:4 0:4
	  link 1:4 1:4
	TOPO
}

# ubagg_topo CURRENT: the topology file of node CURRENT (1: A, 2: B)
ubagg_topo() {
	ubagg_node 1 "$1" "$EID_A" "$UB_IP4_A" "$UB_IP6_A" "$IP4_A2" "$IP6_A2"
	ubagg_node 2 "$1" "$EID_B" "$UB_IP4_B" "$UB_IP6_B" "$IP4_B2" "$IP6_B2"
}

# ubagg_pair_create DIR: the namespace pair, its second veth pair, the
# four devices (the stack loaded), the topology files in DIR (readable by
# anyone: urma_admin reads them as the caller)
ubagg_pair_create() {
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
	ubagg_topo 1 > "$1/a.topo"
	ubagg_topo 2 > "$1/b.topo"
	chmod 0755 "$1"
	chmod 0644 "$1"/*.topo
}

# ubagg_topo_set DIR: each namespace's topology (after ubagg.ko is in)
ubagg_topo_set() {
	ub_ns "$A" "$UB_ADMIN" topo set "$1/a.topo" || ub_fail "topo set in $A"
	ub_ns "$B" "$UB_ADMIN" topo set "$1/b.topo" || ub_fail "topo set in $B"
}

# ubagg_bond_add MODE: bonding_dev_0 in both namespaces, in MODE
ubagg_bond_add() {
	ub_ns "$A" "$UB_ADMIN" agg add "$EID_A" "$BOND" mode "$1" || ub_fail "agg add in $A"
	ub_ns "$B" "$UB_ADMIN" agg add "$EID_B" "$BOND" mode "$1" || ub_fail "agg add in $B"
}
ubagg_bond_del() {
	ub_ns "$A" "$UB_ADMIN" agg del "$EID_A" || ub_fail "agg del in $A"
	ub_ns "$B" "$UB_ADMIN" agg del "$EID_B" || ub_fail "agg del in $B"
}
