#!/bin/bash
# The UBoE receive path flooded (tests/fuzz/uboe_pkt_fuzz.cpp --flood):
# random, truncated, bit-flipped and otherwise mutated datagrams, and valid
# ones for TPs that do not exist, from UB_NS_A to UB_DEV_B as fast as they
# go (5,000 in "make check", 150,000 in "make check-long": about 600 a
# second in a guest of 1 vCPU, about 150 beside the transfers under
# check-long's load, where 1,000,000 would outlast its hour a case), while
# urma_perftest write_bw --check moves 1 MiB from UB_DEV_A to UB_DEV_B over
# the wire again and again, a few seconds apart. Every transfer must complete and
# verify, the device must count the drops and account every datagram, and
# nothing may be left (TPs, objects) once it is over; the harness judges
# the kernel log (KASAN, lockdep, WARN) and kmemleak. UB_FUZZ_SEED replays
# a seed.
set -eu
. "$UB_TOP/tests/guest/lib.sh"

fuzz=$UB_TOP/build/tests/fuzz/uboe_pkt_fuzz
perftest=$UB_TOP/build/tools/urma_perftest/urma_perftest
[[ -x $fuzz && -x $perftest ]] || ub_fail "uboe_pkt_fuzz or urma_perftest is not built"
datagrams=5000
[[ -z ${UB_CHECK_LONG:-} ]] || datagrams=150000
args=(--flood "$datagrams" --dev "$UB_DEV_B" --peer-ns "$UB_NS_A"
	--peer-dev "$UB_DEV_A" --addr4 "$UB_IP4_B" --addr6 "$UB_IP6_B"
	--peer4 "$UB_IP4_A" --peer6 "$UB_IP6_A")
[[ -z ${UB_FUZZ_SEED:-} ]] || args+=(--seed "$UB_FUZZ_SEED")
tmp=$(mktemp -d)
loop=
cleanup() {
	[[ -z $loop ]] || { touch "$tmp/stop"; wait "$loop" || true; }
	ub_unload_stack || true
	ub_nspair_destroy
	rm -rf "$tmp"
}
trap cleanup EXIT

ub_nspair_create || ub_fail "the namespace pair"
ub_load_stack || ub_fail "load the stack"
ub_nspair_add_devs || ub_fail "a udma device in each namespace"
# No force_wire: a device of another namespace is another host to udma
# (udma_local_peer() looks only in the sender's namespace), so the
# requests travel as UBoE packets on the veth.

# transfers: 1 MiB WRITE streams (64 KiB messages), each verified by the
# server, one after the other until $tmp/stop; one line each in
# $tmp/transfers ("ok N" or "FAIL N"), $tmp/started once the first began
# (a completion every 4 WRs: perftest gives up after 30 s without one, and
# the flood slows a transfer down)
transfers() {
	local i=0 port srv cli rc
	while [[ ! -e $tmp/stop ]]; do
		i=$((i + 1)) port=$((21200 + i % 100)) rc=0
		ub_ns "$UB_NS_B" "$perftest" write_bw -d "$UB_DEV_B" -s 65536 -n 16 -Q 4 \
			-P "$port" --check > "$tmp/server.$i" 2>&1 &
		srv=$!
		sleep 1
		touch "$tmp/started"
		ub_ns "$UB_NS_A" "$perftest" write_bw -d "$UB_DEV_A" -s 65536 \
			-n 16 -Q 4 -P "$port" --check -S "$UB_IP4_B" > "$tmp/client.$i" 2>&1 &
		cli=$!
		# 300 s for 1 MiB: a transfer still running then is stuck;
		# what it waits for is shown before it is killed
		if ! ub_wait_pid $cli 300; then
			echo "transfer $i stuck for 300 s:"
			ub_dump_stall "$perftest" "$tmp/client.$i" "$tmp/server.$i"
			pkill -f "$perftest" || true
		fi
		wait $cli || rc=$?
		wait "$srv" || rc=1
		if ((rc == 0)); then
			echo "ok $i" >> "$tmp/transfers"
		else
			echo "FAIL $i" >> "$tmp/transfers"
			tail -n 5 "$tmp/client.$i" "$tmp/server.$i"
		fi
		# (a pause: the flood, not the transfers, is what is measured)
		[[ -e $tmp/stop ]] || sleep 2
	done
}
transfers &
loop=$!
for _ in $(seq 300); do
	[[ -e $tmp/started ]] && break
	sleep 0.1
done
[[ -e $tmp/started ]] || ub_fail "no transfer started in 30 s"

rc=0
ub_ns "$UB_NS_B" "$fuzz" "${args[@]}" || rc=$?
touch "$tmp/stop"
wait "$loop" || true
loop=
ok=$(grep -c '^ok' "$tmp/transfers" || true)
bad=$(grep -c '^FAIL' "$tmp/transfers" || true)
echo "transfers during the flood: $ok verified, $bad failed"
((bad == 0)) || ub_fail "$bad transfers failed during the flood"
((ok > 0)) || ub_fail "no transfer completed during the flood"

# Nothing left once the connection manager's timeouts passed (a TP goes
# with its last user; CONN_REQs of the flood time out).
for side in "$UB_NS_A $UB_DEV_A" "$UB_NS_B $UB_DEV_B"; do
	read -r ns dev <<< "$side"
	# shellcheck disable=SC2016
	ub_ns "$ns" /bin/bash -c '
		d=/sys/class/ubcore/$1
		for i in $(seq 600); do [[ -z $(< $d/cm/tp) ]] && break; sleep 0.1; done
		[[ -z $(< $d/cm/tp) ]] || { echo "FAIL: $1 TPs left:"; cat $d/cm/tp; exit 1; }
		for f in $d/objects/*; do
			[[ $(< $f) == 0 ]] || { echo "FAIL: $1 ${f##*/} = $(< $f)"; exit 1; }
		done' bash "$dev" || rc=1
done
ub_unload_stack || ub_fail "unload after the flood"
exit $rc
