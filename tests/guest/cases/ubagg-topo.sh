#!/bin/bash
# ubagg.ko on lib.sh's namespace pair (udmaA in uboeA, udmaB in uboeB): each
# namespace is a host (a node) and sets the same two-node topology, its own
# node marked current, with urma_admin topo set; node 1's primary EID is
# udmaA's IPv4 EID, node 2's udmaB's.
#
# Checked: urma_admin show topo (the current node, another by ID, one not
# there) in each namespace, and as nobody (reading is open to all); no
# topology in the initial namespace (each namespace has its own); setting
# refused to nobody; ubagg_topo_probe's checks of the ABI (GET_TOPO over
# UBAGG_GENL against /dev/ubagg's GET_TOPO_INFO, the refusals: index, no
# attribute, bad addresses, sizes, node counts, unbuilt commands, SET
# without CAP_NET_ADMIN on a descriptor root opened); the urma_ping
# responder: jetty 5 exists on both devices, answers SEND_IMMs sent across
# the veth with the same immediate data and payload (ubagg_topo_probe
# ping, what UMDK's urma_ping sends), is made anew when its answers to a
# sender that left fail (the jetty may be in ERROR), goes when its
# namespace's topology is cleared and comes back when it is set again; ubagg.ko unloads with
# the responders alive and leaves no object on the devices.
set -eu
. "$UB_TOP/tests/guest/lib.sh"

A=$UB_NS_A B=$UB_NS_B
probe=$UB_TOP/build/tests/integration/ubagg_topo_probe
tmp=/tmp/ubagg-topo
max_nodes=4

cleanup() {
	ub_unload_stack || true
	ub_nspair_destroy
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp"

ub_load_stack "" || ub_fail "cannot load the stack"
ub_nspair_create || ub_fail "cannot create the namespace pair"
ub_nspair_add_devs || ub_fail "cannot add $UB_DEV_A and $UB_DEV_B"
ub_insmod "$UB_KMOD/ubagg/ubagg.ko" "max_nodes=$max_nodes" ||
	ub_fail "cannot load ubagg.ko"
[[ -c /dev/ubagg ]] || ub_fail "no /dev/ubagg"

# topo CURRENT: the pair's topology with node CURRENT marked current.
topo() {
	cat <<-EOF
	# the namespace pair: node 1 is uboeA, node 2 is uboeB
	node 1 super 7 $([[ $1 == 1 ]] && echo current)
	  dev 0 fd77::a1
	    ue 0 chip 0 die 0 entity 3 primary $UB_IP4_A
	    port 0 4 $UB_IP6_A cna $UB_IP4_A
	  link 0:4 0:4
	node 2 super 7 $([[ $1 == 2 ]] && echo current)
	  dev 0 fd77::b2
	    ue 0 chip 0 die 0 entity 3 primary $UB_IP4_B
	    port 0 4 $UB_IP6_B
	  link 0:4 0:4
	EOF
}
topo 1 > "$tmp/a.topo"
topo 2 > "$tmp/b.topo"
chmod 0644 "$tmp"/*.topo

echo "== no topology yet, and none in the initial namespace"
if "$UB_ADMIN" show topo > "$tmp/out" 2>&1; then
	ub_fail "show topo without a topology: $(< "$tmp/out")"
fi
grep -q "no topology is set in this network namespace" "$tmp/out" ||
	ub_fail "show topo without a topology: $(< "$tmp/out")"

echo "== set in each namespace"
ub_ns "$A" "$UB_ADMIN" topo set "$tmp/a.topo" || ub_fail "topo set in $A"
ub_ns "$B" "$UB_ADMIN" topo set "$tmp/b.topo" || ub_fail "topo set in $B"
if "$UB_ADMIN" show topo > "$tmp/out" 2>&1; then
	ub_fail "the initial namespace sees a topology: $(< "$tmp/out")"
fi

echo "== show topo"
ub_ns "$A" "$UB_ADMIN" show topo > "$tmp/a.out" || ub_fail "show topo in $A"
cat "$tmp/a.out"
# expect FILE LINE...: each LINE is a whole line of FILE.
expect() {
	local f=$1 l
	shift
	for l in "$@"; do
		grep -qxF -- "$l" "$f" || ub_fail "no line '$l' in $f"
	done
}
tab=$'\t'
expect "$tmp/a.out" \
	"===================== show node 1 topo info =======================" \
	"Port 4: Connected to IODie 0, Port 4" "Port 3: Not connected" \
	"Dev 0: fd77::a1" "$tab UE 0:" "$tab$tab Entity id: 3" \
	"$tab$tab$tab ::ffff:$UB_IP4_A" "$tab$tab$tab Port 4: $UB_IP6_A" \
	"$tab$tab$tab Port 4: ::ffff:$UB_IP4_A" "$tab$tab$tab Port 0: Invalid CNA"
ub_ns "$B" "$UB_ADMIN" show topo > "$tmp/b.out" || ub_fail "show topo in $B"
expect "$tmp/b.out" "===================== show node 2 topo info =======================" \
	"Dev 0: fd77::b2"
ub_ns "$A" "$UB_ADMIN" show topo 2 > "$tmp/a2.out" || ub_fail "show topo 2 in $A"
cmp "$tmp/a2.out" "$tmp/b.out" || ub_fail "node 2 differs between $A and $B"
if ub_ns "$A" "$UB_ADMIN" show topo 3 > "$tmp/out" 2>&1; then
	ub_fail "show topo 3 (no such node) succeeded"
fi
expect "$tmp/out" "urma_admin: show topo 3: No such file or directory: node 3 is not in the topology"

echo "== as nobody: reading is open, setting is not"
nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
ub_ns "$A" "${nobody[@]}" "$UB_ADMIN" show topo > "$tmp/n.out" ||
	ub_fail "show topo as nobody"
cmp "$tmp/n.out" "$tmp/a.out" || ub_fail "nobody sees another topology"
if ub_ns "$A" "${nobody[@]}" "$UB_ADMIN" topo set "$tmp/b.topo" > "$tmp/out" 2>&1; then
	ub_fail "topo set as nobody succeeded"
fi
cat "$tmp/out"
ub_ns "$A" "$UB_ADMIN" show topo > "$tmp/out" && cmp "$tmp/out" "$tmp/a.out" ||
	ub_fail "the topology changed"

echo "== the ABI (ubagg_topo_probe)"
ub_ns "$A" "$probe" check 2 "$max_nodes" || ub_fail "ubagg_topo_probe check"

echo "== the urma_ping responder"
# wait_jetty5 NS DEV WANT: until DEV has WANT jetties (the responder's
# jetty 5 is its only one), at most 10 s; one exec: the loop runs in NS.
wait_jetty5() {
	# shellcheck disable=SC2016
	ub_ns "$1" /bin/bash -c '
		exec 9<> <(:)
		for ((i = 0; i < 100; i++)); do
			[[ $(< /sys/class/ubcore/$1/objects/jetty) == "$2" ]] && exit 0
			read -r -t 0.1 -u 9 || :
		done
		echo "FAIL: $1 has $(< /sys/class/ubcore/$1/objects/jetty) jetties, not $2"
		exit 1' bash "$2" "$3" || ub_fail "the responder of $2"
	if [[ $3 == 1 ]]; then
		ub_ns "$1" "$UB_ADMIN" show dev "$2" jetty 5 || ub_fail "$2 has no jetty 5"
	fi
}
wait_jetty5 "$A" "$UB_DEV_A" 1
wait_jetty5 "$B" "$UB_DEV_B" 1
ub_ns "$A" "$probe" ping "$UB_DEV_A" "::ffff:$UB_IP4_B" 3 || ub_fail "ping A to B"
ub_ns "$B" "$probe" ping "$UB_DEV_B" "::ffff:$UB_IP4_A" 2 || ub_fail "ping B to A"
echo "== a sender that leaves: its answers fail, the responder is made anew"
ub_dmesg_mark
# one request: the answer to it meets no receive buffer (RNR, then no
# jetty), which puts jetty 5 in ERROR; a second request could arrive after
# that and be refused (REM_OPERATION_ERR), depending on the host's load.
# On a loaded host the sender may be gone before the responder imports it:
# the import fails (its jetty is not found), no answer is sent at all
# and jetty 5 stays as it is; its answer fails either way.
ub_ns "$A" "$probe" leave "$UB_DEV_A" "::ffff:$UB_IP4_B" 1 || ub_fail "leave A to B"
for ((i = 0; i < 90; i++)); do
	msgs=$(ub_dmesg_since)
	[[ $msgs == *"$UB_DEV_B: a ping reply failed: jetty 5 made anew"* ||
	   $msgs == *"$UB_DEV_B: cannot import ping sender ::ffff:$UB_IP4_A "* ]] && break
	ub_sleep 1
done
((i < 90)) || ub_fail "no failed reply on $UB_DEV_B after 90 s: $(ub_dmesg_since)"
wait_jetty5 "$B" "$UB_DEV_B" 1
ub_ns "$A" "$probe" ping "$UB_DEV_A" "::ffff:$UB_IP4_B" 1 || ub_fail "ping A to B after"
ub_ns "$B" "$UB_ADMIN" topo clear || ub_fail "topo clear in $B"
wait_jetty5 "$B" "$UB_DEV_B" 0
wait_jetty5 "$A" "$UB_DEV_A" 1
ub_ns "$B" "$UB_ADMIN" topo set "$tmp/b.topo" || ub_fail "topo set again in $B"
wait_jetty5 "$B" "$UB_DEV_B" 1
ub_ns "$A" "$probe" ping "$UB_DEV_A" "::ffff:$UB_IP4_B" 1 || ub_fail "ping A to B again"

echo "== unload with the responders alive"
ub_rmmod ubagg || ub_fail "rmmod ubagg"
[[ ! -e /dev/ubagg ]] || ub_fail "/dev/ubagg left behind"
for d in "$A $UB_DEV_A" "$B $UB_DEV_B"; do
	read -r ns dev <<< "$d"
	# shellcheck disable=SC2016
	ub_ns "$ns" /bin/bash -c '
		for f in /sys/class/ubcore/$1/objects/*; do
			[[ $(< $f) == 0 ]] || { echo "FAIL: $1 ${f##*/} = $(< $f)"; exit 1; }
		done' bash "$dev" || ub_fail "objects left on $dev"
done
echo "ubagg-topo: all checks passed"
