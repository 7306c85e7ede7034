#!/bin/bash
# UMS (ums.ko, AF_SMC) between the two hosts of lib.sh's namespace pair and
# over loopback. ums.ko takes net/smc's family, so it loads only where
# SMC is a module that is not loaded (the test kernel and Debian's have
# CONFIG_SMC=m), which the last step checks with smc.ko. It runs on the
# stock kernel as well: scripts/guest-run.sh --kernel stock OUT
# tests/guest/cases/ums-ns-pair.sh.
#
# Each connection moves data checked by SHA-256 (tests/guest/ums_peer.py),
# and both ends check their line of /proc/net/ums{,6} while it is open:
# over UMS (Fallback False, the link's EIDs and jetties) or fallen back
# (Fallback True, the reason and the peer's). The socket API over UMS and
# the fallbacks between AF_SMC and TCP ends are ums_socket_itest's (a
# GoogleTest suite on the same bed); here what needs a shell around the
# sockets. In order:
#  - net.ums.* defaults and ranges, per namespace;
#  - a listener (non-blocking accept: EAGAIN, then poll) closed with a
#    connection in its queue: the client sees it end;
#  - the server's device deleted under a UMS connection: both ends get
#    ECONNRESET; then the server declines NOUMSDEV; the client's gone
#    too: the client declines NOUMSDEV without a proposal;
#  - ums_run's errors, and iperf3 with client and server under ums_run;
#  - /proc/net/ums_fallback of each namespace: every count exact;
#  - no TCP socket left (sockstat), ums.ko unloads; with smc.ko loaded it
#    refuses to load, naming smc.
set -eu
# run from the repo top, by guest-run.sh or check-guest.sh
export UB_TOP=${UB_TOP:-$PWD}
. "$UB_TOP/tests/guest/lib.sh"

PY=/usr/bin/python3
peer=$UB_TOP/tests/guest/ums_peer.py
ums_run=$UB_TOP/build/tools/ums_run/ums_run
A=$UB_NS_A B=$UB_NS_B
NOUMSDEV=0x03030000
PEERDECL=0x05000000
srv=
port=5000
tmp=/tmp/ums-ns-pair

cleanup() {
	[[ -z $srv ]] || kill "$srv" 2> /dev/null || true
	ub_nspair_destroy
	if ub_module_loaded ums; then ub_rmmod ums || true; fi
	if ub_module_loaded smc; then modprobe -r smc || true; fi
	ub_unload_stack || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# pair NAME SRV_NS SRV_KIND ADDR CLI_NS CLI_KIND CMD SRV_EXPECT CLI_EXPECT
# [ROLE]: one connection (tests/guest/ums_peer.py, the server's ROLE
# "server" or "drop"), both ends checked.
pair() {
	local name=$1 sns=$2 skind=$3 addr=$4 cns=$5 ckind=$6 cmd=$7
	local sexp=() cexp=()
	[[ -z $8 ]] || sexp=(--expect "$8")
	[[ -z $9 ]] || cexp=(--expect "$9")
	port=$((port + 1))
	echo "== $name ($SECONDS s)"
	ip netns exec "$sns" "$PY" "$peer" "${10:-server}" "$skind" "$addr" \
		"$port" 1 "${sexp[@]}" &
	srv=$! # ip execs the server: its PID, in its namespace
	ub_wait_listen "$port" 120 "$srv" || ub_fail "$name: no server"
	ub_ns "$cns" "$PY" "$peer" client "$ckind" "$addr" "$port" "$cmd" \
		"${cexp[@]}" || ub_fail "$name: the client failed"
	wait "$srv" || ub_fail "$name: the server failed"
	srv=
}

# serve_ums ROLE COUNT NAME: ums_peer.py ROLE serving COUNT connections
# over UMS in B on the next port, listening
serve_ums() {
	port=$((port + 1))
	ip netns exec "$B" "$PY" "$peer" "$1" smc "$UB_IP4_B" "$port" "$2" \
		--expect UMS &
	srv=$!
	ub_wait_listen "$port" 120 "$srv" || ub_fail "$3: no server"
}

# expect_fb NS "CODE=CLIENT:SERVER...": NS's fallback counts exactly these,
# every other one 0.
expect_fb() {
	local ns=$1 code c s want
	local -A got=()
	while read -r code c s _; do
		[[ $code == 0x* ]] && got[$code]=$c:$s
	done <<< "$(ub_ns "$ns" "$UB_BUSYBOX" cat /proc/net/ums_fallback)"
	((${#got[@]} == 9)) || ub_fail "$ns: /proc/net/ums_fallback: ${!got[*]}"
	for code in "${!got[@]}"; do
		want=0:0
		[[ " $2 " == *" $code="* ]] && { want=${2#*"$code="}; want=${want%% *}; }
		[[ ${got[$code]} == "$want" ]] ||
			ub_fail "$ns: fallbacks $code (client:server) ${got[$code]}, want $want"
	done
}

ub_nspair_create
ub_load_stack
ub_insmod "$UB_KMOD/ums/ums.ko"
ub_nspair_add_devs
mkdir -p "$tmp"
for ns in "$A" "$B"; do
	v=$(ub_ns "$ns" "$UB_BUSYBOX" cat /proc/sys/net/ums/snd_buf \
		/proc/sys/net/ums/rcv_buf /proc/sys/net/ums/autocorking_size)
	[[ $v == $'1048576\n1048576\n524288' ]] ||
		ub_fail "$ns: net.ums snd_buf, rcv_buf, autocorking_size: $v"
done
echo "== net.ums ranges (per namespace)"
ub_ns "$A" "$UB_BUSYBOX" sh -c '
	echo 16384 > /proc/sys/net/ums/snd_buf || exit 1
	echo 16383 > /proc/sys/net/ums/snd_buf 2> /dev/null && exit 1
	echo 2147483648 > /proc/sys/net/ums/rcv_buf 2> /dev/null && exit 1
	echo 0 > /proc/sys/net/ums/autocorking_size 2> /dev/null && exit 1
	echo 1073741825 > /proc/sys/net/ums/autocorking_size 2> /dev/null && exit 1
	echo 1073741824 > /proc/sys/net/ums/autocorking_size || exit 1
	echo 2147483647 > /proc/sys/net/ums/rcv_buf || exit 1
	echo 1048576 > /proc/sys/net/ums/snd_buf' || ub_fail "net.ums ranges"
ub_ns "$B" "$UB_BUSYBOX" grep -qx 1048576 /proc/sys/net/ums/snd_buf ||
	ub_fail "net.ums.snd_buf is not per namespace"

pair "AF_SMC listener closed with a connection not accepted" "$B" smc \
	"$UB_IP4_B" "$A" smc DROPPED "" "" drop
echo "== the server's device deleted under a UMS connection ($SECONDS s)"
serve_ums reset 1 reset
mkfifo "$tmp/hold"
ub_ns "$A" "$PY" "$peer" client smc "$UB_IP4_B" "$port" RESET --expect UMS \
	< "$tmp/hold" > "$tmp/hold.out" &
cli=$!
exec 7> "$tmp/hold"
for ((i = 0; i < 300; i++)); do
	grep -q holding "$tmp/hold.out" && break
	ub_sleep 0.1
done
grep -q holding "$tmp/hold.out" || ub_fail "reset: the client did not connect"
ub_ns "$B" "$UB_ADMIN" dev del "$UB_DEV_B"
exec 7>&-
wait "$cli" || ub_fail "reset: the client failed"
wait "$srv" || ub_fail "reset: the server failed"
srv=
pair "AF_SMC <-> AF_SMC, no device on the server" "$B" smc "$UB_IP4_B" "$A" \
	smc SUM:1048576 "$NOUMSDEV" "$PEERDECL/$NOUMSDEV"
ub_ns "$A" "$UB_ADMIN" dev del "$UB_DEV_A"
pair "AF_SMC <-> AF_SMC, no device on either" "$B" smc "$UB_IP6_B" "$A" smc \
	SUM:1048576 "$PEERDECL/$NOUMSDEV" "$NOUMSDEV"
expect_fb "$A" "$PEERDECL=1:0 $NOUMSDEV=1:0"
expect_fb "$B" "$NOUMSDEV=0:1 $PEERDECL=0:1"
echo "   /proc/net/ums_fallback of $A:"
ub_ns "$A" "$UB_BUSYBOX" cat /proc/net/ums_fallback

echo "== ums_run"
out=$("$ums_run" 2>&1) && ub_fail "ums_run with no command succeeded"
[[ $out == *"ums_run: Error: Missing command param"* ]] || ub_fail "ums_run: $out"
out=$("$ums_run" -x true 2>&1) && ub_fail "ums_run -x succeeded"
[[ $out == *"ums_run: Error: invalid option: -x"* ]] || ub_fail "ums_run -x: $out"
# iperf3 -c over the veth to B, 2 s, its receiver line in IPERF
iperf() {
	port=$((port + 1))
	ip netns exec "$B" "$@" iperf3 -s -1 -B "$UB_IP4_B" -p "$port" \
		> "$tmp/iperf3.server" 2>&1 &
	srv=$!
	ub_wait_listen "$port" 120 "$srv" || ub_fail "no iperf3 server"
	ub_ns "$A" "$@" iperf3 -c "$UB_IP4_B" -p "$port" -t 2 \
		> "$tmp/iperf3.client" 2> "$tmp/iperf3.err" ||
		ub_fail "iperf3 client: $(<"$tmp/iperf3.client") $(<"$tmp/iperf3.err")"
	wait "$srv" || ub_fail "iperf3 server: $(<"$tmp/iperf3.server")"
	srv=
	IPERF=$(grep -E 'receiver$' "$tmp/iperf3.client") ||
		ub_fail "iperf3: no receiver line: $(<"$tmp/iperf3.client")"
}

if command -v iperf3 > /dev/null; then
	echo "== iperf3, 2 s, plain TCP then under ums_run (both ends)"
	iperf
	echo "   TCP:     $IPERF"
	iperf "$ums_run" -d
	echo "   ums_run: $IPERF"
	grep -q "libums-preload: map sock to AF_SMC" "$tmp/iperf3.err" ||
		ub_fail "ums_run -d: no socket mapped: $(<"$tmp/iperf3.err")"
	# iperf3's control and data connections, both AF_SMC on both ends
	# (no device on either: the client declines)
	expect_fb "$A" "$PEERDECL=1:0 $NOUMSDEV=3:0"
	expect_fb "$B" "$NOUMSDEV=0:1 $PEERDECL=0:3"
else
	echo "== iperf3 not installed: not run"
fi

echo "== no TCP socket left in either namespace, ums.ko unloads ($SECONDS s)"
for ns in "$A" "$B"; do
	for ((i = 0; ; i++)); do
		st=$(ub_ns "$ns" "$UB_BUSYBOX" cat /proc/net/sockstat /proc/net/sockstat6)
		[[ $st == *"TCP: inuse 0 "*"TCP6: inuse 0"* ]] && break
		((i < 100)) || ub_fail "$ns: TCP sockets left: $st"
		ub_sleep 0.1
	done
done
ub_rmmod ums
[[ ! -e /proc/net/ums ]] || ub_fail "/proc/net/ums is still there"
echo "== with smc.ko loaded, ums.ko refuses to load"
modprobe smc
if ub_insmod "$UB_KMOD/ums/ums.ko" 2> "$tmp/insmod.err"; then
	ub_fail "ums.ko loaded next to smc.ko"
fi
"$UB_BUSYBOX" dmesg | grep "ums: the AF_SMC socket family is taken" ||
	ub_fail "no message naming smc"
modprobe -r smc
if "$UB_BUSYBOX" dmesg | grep -E "WARNING:|BUG:|Oops|general protection"; then
	ub_fail "the kernel complained"
fi
echo "PASS"
