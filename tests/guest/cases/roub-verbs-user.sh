#!/bin/bash
# libroub: unmodified verbs applications (Debian's ibverbs-utils and
# perftest, through Debian's libibverbs) on the RoUB devices of lib.sh's
# namespace pair: roub_udmaA in uboeA, roub_udmaB in uboeB, every URMA
# message a UBoE packet on the veth. The RDMA subsystem is in its shared
# namespace mode, so both namespaces see both ib_devices; each side uses
# the one over its own UB device (libroub opens that UB device with
# liburma, which only its namespace has). libibverbs loads the provider
# of the build tree through RDMAV_DRIVERS (libibverbs' own variable).
#
# Checked: ibv_devices lists both devices, rdma link shows their ports
# active, ibv_devinfo shows the port
# active with its LID and GID 0 the device's first EID (vA's IPv4 address); ibv_rc_pingpong with
# buffer validation; perftest's ib_write_bw, ib_send_bw, ib_read_lat and
# ib_write_lat (GRH addressing: -x 0; perftest uses no inline data on a
# device it does not know); roub_verbs_user_check
# (tests/integration): SEND, WRITE_WITH_IMM and READ between two QPs of
# roub_udmaA with the data checked, the refused objects and requests, QP
# error and flush, and a run that exits with its objects live; a server killed with its QP, CQs and MRs live leaves no UB
# object and no PD behind; nothing left when roub.ko goes (kmemleak runs
# after every case).
set -eu
. "$UB_TOP/tests/guest/lib.sh"

A=$UB_NS_A B=$UB_NS_B
DA=roub_$UB_DEV_A DB=roub_$UB_DEV_B
export RDMAV_DRIVERS=$UB_TOP/build/libroub/libroub
[[ -e $RDMAV_DRIVERS-rdmav34.so ]] || ub_fail "no $RDMAV_DRIVERS-rdmav34.so (make userspace)"
tmp=$(mktemp -d)
srv=

cleanup() {
	[[ -z $srv ]] || kill -9 "$srv" 2> /dev/null || true
	ub_module_loaded roub && ub_rmmod roub
	ub_unload_stack || true
	ub_nspair_destroy
	rm -rf "$tmp"
}
trap cleanup EXIT

# listening PID PORT: the process PID listens on TCP PORT (its namespace's
# /proc/net, read without an exec).
listening() {
	local hex
	printf -v hex '%04X' "$2"
	grep -qs ":$hex [0:]* 0A " "/proc/$1/net/tcp" "/proc/$1/net/tcp6"
}

# alive PID: PID runs (a zombie, not reaped yet, does not).
alive() {
	local st
	{ read -r _ _ st _ < "/proc/$1/stat"; } 2> /dev/null || return 1
	[[ $st != Z ]]
}

# stuck PID...: what each process does (state, kernel stack) and the
# devices' TPs and counters, for a run that does not end.
stuck() {
	local p
	for p in "$@"; do
		echo "-- process $p: $(cat "/proc/$p/cmdline" 2> /dev/null | tr '\0' ' ')"
		grep -s '^State' "/proc/$p/status" || true
		cat "/proc/$p/stack" 2> /dev/null || true
	done
	ub_ns "$A" "$UB_ADMIN" show dev "$UB_DEV_A" tp || true
	ub_ns "$A" "$UB_ADMIN" show dev "$UB_DEV_A" --stats || true
	ub_ns "$B" "$UB_ADMIN" show dev "$UB_DEV_B" --stats || true
	dmesg | tail -40
}

# pair NAME SERVER_ARGS -- CLIENT_ARGS: the server (uboeB, device DB) in
# the background, then the client (uboeA, DA) to it; both must succeed
# within 120 s of wall time (SECONDS: the tools busy-poll, so a loop that
# counts its sleeps would take far longer). The port is the tools'
# default, 18515.
pair() {
	local name=$1 end rc=0 cli
	shift
	local -a s=() c=()
	while [[ $1 != -- ]]; do s+=("$1"); shift; done
	shift
	c=("$@")
	echo "== $name: ${s[*]}"
	# ip netns exec, not ub_ns: $! is the tool (kill -9 must reach it)
	ip netns exec "$B" "${s[@]}" > "$tmp/$name.server" 2>&1 &
	srv=$!
	end=$((SECONDS + 60))
	while ((SECONDS < end)); do
		listening "$srv" 18515 && break
		alive "$srv" || break
		ub_sleep 0.1
	done
	ip netns exec "$A" "${c[@]}" "$UB_IP4_B" > "$tmp/$name.client" 2>&1 &
	cli=$!
	end=$((SECONDS + 120))
	while ((SECONDS < end)); do
		alive "$srv" || alive "$cli" || break
		ub_sleep 0.1
	done
	if alive "$srv" || alive "$cli"; then
		echo "-- $name did not end in 120 s"
		stuck "$srv" "$cli"
		kill -9 "$srv" "$cli" 2> /dev/null || true
		rc=124
	fi
	wait "$cli" || { local e=$?; ((rc)) || rc=$e; }
	wait "$srv" || { local e=$?; ((rc)) || rc=$e; }
	srv=
	echo "-- server"; cat "$tmp/$name.server"
	echo "-- client"; cat "$tmp/$name.client"
	((rc == 0)) || ub_fail "$name failed ($rc)"
}

[[ -d /sys/module/ib_core ]] || modprobe ib_core
[[ -d /sys/module/ib_uverbs ]] || modprobe ib_uverbs
ub_nspair_create
ub_load_stack
ub_nspair_add_devs
ub_insmod "$UB_KMOD/roub/roub.ko"

echo "ibv_devices"
ub_ns "$A" ibv_devices | tee "$tmp/devices"
grep -q "^ *$DA " "$tmp/devices" || ub_fail "ibv_devices has no $DA"
grep -q "^ *$DB " "$tmp/devices" || ub_fail "ibv_devices has no $DB"

echo "rdma link"
rdma link show | tee "$tmp/links"
for d in "$DA" "$DB"; do
	grep -q "^link $d/1 .* state ACTIVE physical_state LINK_UP" "$tmp/links" ||
		ub_fail "rdma link: $d/1 not ACTIVE and LINK_UP"
done

echo "ibv_devinfo"
ub_ns "$A" ibv_devinfo -v -d "$DA" > "$tmp/devinfo" || { cat "$tmp/devinfo"; ub_fail "ibv_devinfo -d $DA"; }
cat "$tmp/devinfo"
grep -q "hca_id:[[:space:]]*$DA\$" "$tmp/devinfo" || ub_fail "no hca_id $DA"
grep -q "state:[[:space:]]*PORT_ACTIVE" "$tmp/devinfo" || ub_fail "port not active"
grep -q "port_lid:[[:space:]]*[1-9]" "$tmp/devinfo" || ub_fail "port LID 0"
grep -q "max_qp_rd_atom:[[:space:]]*16" "$tmp/devinfo" || ub_fail "max_qp_rd_atom"
gid=$(python3 -c 'import ipaddress, sys
e = ipaddress.ip_address(sys.argv[1]).exploded.replace(":", "")
print(":".join(e[i:i + 4] for i in range(0, 32, 4)))' "::ffff:$UB_IP4_A")
grep -q "GID\[  0\]:[[:space:]]*$gid" "$tmp/devinfo" || ub_fail "GID 0 is not $gid"

# ibv_rc_pingpong: SEND/RECV both ways, every buffer checked (-c)
pair rc_pingpong ibv_rc_pingpong -d "$DB" -g 0 -n 200 -c -- \
	ibv_rc_pingpong -d "$DA" -g 0 -n 200 -c
grep -q "200 iters" "$tmp/rc_pingpong.client" || ub_fail "rc_pingpong: no 200 iterations"

# perftest (-F: no CPU frequency check; --report_gbits); the wire path
# under TCG moves about 10 MB/s: small counts
pt=(-x 0 -F)
pair ib_write_bw ib_write_bw -d "$DB" "${pt[@]}" -s 65536 -n 200 -- \
	ib_write_bw -d "$DA" "${pt[@]}" -s 65536 -n 200
pair ib_send_bw ib_send_bw -d "$DB" "${pt[@]}" -s 4096 -n 200 -- \
	ib_send_bw -d "$DA" "${pt[@]}" -s 4096 -n 200
pair ib_read_lat ib_read_lat -d "$DB" "${pt[@]}" -s 64 -n 200 -- \
	ib_read_lat -d "$DA" "${pt[@]}" -s 64 -n 200
pair ib_write_lat ib_write_lat -d "$DB" "${pt[@]}" -s 8 -n 200 -- \
	ib_write_lat -d "$DA" "${pt[@]}" -s 8 -n 200
for t in ib_write_bw ib_send_bw ib_read_lat ib_write_lat; do
	grep -Eq '^ +(65536|4096|64|8) +200 ' "$tmp/$t.client" || ub_fail "$t: no result line"
done

echo "roub_verbs_user_check: data, refusals, QP error and flush"
check=$UB_TOP/build/tests/integration/roub_verbs_user_check
ub_ns "$A" env ROUB_DEV="$DA" timeout 300 "$check" || ub_fail "roub_verbs_user_check"
ub_dev_clean "$A" "$UB_DEV_A" || ub_fail "$UB_DEV_A has objects left"
echo "a process that ends with its objects live"
ub_ns "$A" env ROUB_DEV="$DA" ROUB_LEAVE_OBJECTS=1 timeout 300 "$check" \
	--gtest_filter=RoubVerbs.DataBothWays || ub_fail "roub_verbs_user_check (objects left)"
ub_dev_clean "$A" "$UB_DEV_A" || ub_fail "$UB_DEV_A has objects left"

echo "a server killed with live objects"
# ip netns exec, not ub_ns: $! is then the tool itself (a function would
# run in a subshell, and kill -9 would leave the tool running)
ip netns exec "$B" ib_write_bw -d "$DB" "${pt[@]}" -s 65536 -n 100000 > "$tmp/kill.server" 2>&1 &
srv=$!
for ((i = 0; i < 600; i++)); do
	listening "$srv" 18515 && break
	ub_sleep 0.1
done
ip netns exec "$A" ib_write_bw -d "$DA" "${pt[@]}" -s 65536 -n 100000 "$UB_IP4_B" > "$tmp/kill.client" 2>&1 &
cli=$!
ub_sleep 3
kill -9 "$srv" "$cli"
wait "$srv" "$cli" 2> /dev/null || true
srv=
cat "$tmp/kill.server" "$tmp/kill.client"
for ((i = 0; i < 100; i++)); do
	ub_dev_clean "$A" "$UB_DEV_A" > /dev/null && ub_dev_clean "$B" "$UB_DEV_B" > /dev/null && break
	ub_sleep 0.1
done
ub_dev_clean "$A" "$UB_DEV_A" || ub_fail "$UB_DEV_A has objects left"
ub_dev_clean "$B" "$UB_DEV_B" || ub_fail "$UB_DEV_B has objects left"
if rdma resource show pd 2> /dev/null | grep -q roub_; then
	rdma resource show pd
	ub_fail "PDs left on the RoUB devices"
fi

ub_rmmod roub
echo "roub-verbs-user: ok"
