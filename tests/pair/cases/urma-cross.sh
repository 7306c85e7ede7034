#!/bin/bash
# URMA between two kernels (issue 10, "two guests"): urma_perftest's
# server in guest a, its client in guest b (-S over the link), each on its
# udma0 bound to the link and on its IPv4 EID (::ffff:10.77.0.1 for a,
# ::ffff:10.77.0.2 for b, scripts/pair-run.sh's addresses): the imports
# and binds open TPs through the two connection managers and every request
# and response is a UBoE packet between the guests. Latency runs with the
# tool's --check (the data that arrived is verified) at 64 bytes: SEND,
# WRITE, READ and an atomic in RM, SEND and WRITE in RC (bound jetties),
# SEND in UM; then the four bandwidth commands with --check in RM, the
# messages of READ, WRITE and SEND segmented to the link's MTU (64 KiB
# WRITEs, 4 KiB READs and SENDs, FETCH_AND_ADDs: the eight commands of
# urma_perftest between two kernels). Then, while a timed WRITE bandwidth run goes on,
# "urma_admin show dev udma0 tp" on each side lists the TP with the
# other guest's EID, and --stats shows packets both ways.
set -eu
. "$UB_TOP/tests/guest/lib.sh"
. "$UB_TOP/tests/pair/lib.sh"
tmp=$(mktemp -d)
trap 'ub_unload_stack || true; rm -rf "$tmp"' EXIT

admin=$UB_TOP/build/tools/urma_admin/urma_admin
perf=$UB_TOP/build/tools/urma_perftest/urma_perftest
[[ -x $admin && -x $perf ]] || ub_fail "urma_admin or urma_perftest is not built"
mine=::ffff:$UB_PAIR_ADDR
theirs=::ffff:$UB_PAIR_PEER

ub_load_stack "$UB_PAIR_DEV"
# ubcore fills the EID table from the netdev's addresses in a work item:
# the index of this guest's IPv4 EID, for --eid_idx.
idx=
for ((i = 0; i < 100; i++)); do
	for f in "$UB_CLASS"/udma0/eids/eid*; do
		[[ -e $f ]] || continue
		read -r e < "$f"
		# sysfs shows an IPv4-mapped EID as the IPv4 address
		[[ $e == "$UB_PAIR_ADDR" ]] && idx=${f##*/eid}
	done
	[[ -n $idx ]] && break
	ub_sleep 0.1
done
[[ -n $idx ]] || ub_fail "udma0 has no EID $mine"
echo "$UB_PAIR_ROLE: udma0 on $UB_PAIR_DEV, EID $mine at index $idx"

# perf N ARGS...: one urma_perftest run between the guests on port
# 21300 + N: a starts the server and, once it listens, meets b, which runs
# the client; both must exit 0. The client's --json result is printed.
perf() {
	local port=$((21300 + $1)) pid rc=0
	shift
	local args=("$@" -d udma0 --eid_idx "$idx" -P "$port")
	echo "== $*"
	if [[ $UB_PAIR_ROLE == a ]]; then
		"$perf" "${args[@]}" > "$tmp/out" 2>&1 &
		pid=$!
		ub_wait_listen "$port" || { kill "$pid"; cat "$tmp/out"; return 1; }
		ub_pair_sync "listen-$port"
		wait "$pid" || rc=$?
	else
		ub_pair_sync "listen-$port"
		"$perf" "${args[@]}" -S "$UB_PAIR_PEER" --json > "$tmp/out" 2>&1 || rc=$?
	fi
	cat "$tmp/out"
	ub_pair_sync "done-$port" "$rc"
	((rc == 0)) || ub_fail "urma_perftest $* exited $rc on $UB_PAIR_ROLE"
	[[ $UB_PAIR_PEER_VALUE == 0 ]] ||
		ub_fail "urma_perftest $* exited $UB_PAIR_PEER_VALUE on the peer"
}

perf 1 send_lat -p 0 -s 64 -n 50 --check
perf 2 write_lat -p 0 -s 64 -n 50 --check
perf 3 read_lat -p 0 -s 64 -n 50 --check
perf 4 atomic_lat -p 0 -n 50 --check
perf 5 send_lat -p 1 -s 64 -n 50 --check
perf 6 write_lat -p 1 -s 64 -n 50 --check
perf 7 send_lat -p 2 -s 64 -n 50 --check
perf 8 read_bw -p 0 -s 4096 -n 32 --check
perf 9 write_bw -p 0 -s 65536 -n 16 --check
perf 10 send_bw -p 0 -s 4096 -n 32 --check
perf 11 atomic_bw -p 0 -A faa -n 100 --check

# The TP while a run goes on: a WRITE bandwidth run for 8 s in the
# background on both sides (the client once the server listens), at most
# 8 WRITEs in flight; each side waits for its end of the TP in sysfs, then asks urma_admin.
port=21310
echo "== write_bw -p 0 -s 64 -T 8 -D 8, the TP tables meanwhile"
args=(write_bw -p 0 -s 64 -T 8 -D 8 -d udma0 --eid_idx "$idx" -P "$port")
if [[ $UB_PAIR_ROLE == a ]]; then
	"$perf" "${args[@]}" > "$tmp/bw" 2>&1 &
	pid=$!
	ub_wait_listen "$port" || { kill "$pid"; cat "$tmp/bw"; ub_fail "no server"; }
	ub_pair_sync "listen-$port"
else
	ub_pair_sync "listen-$port"
	"$perf" "${args[@]}" -S "$UB_PAIR_PEER" > "$tmp/bw" 2>&1 &
	pid=$!
fi
row=
for ((i = 0; i < 100 && ${#row} == 0; i++)); do
	while read -r tpn peer rest; do
		[[ $peer == "$theirs" ]] && row="$tpn $peer $rest"
	done <<< "$(< "$UB_CLASS/udma0/cm/tp")"
	[[ -n $row ]] || ub_sleep 0.2
done
[[ -n $row ]] || ub_fail "no TP to $theirs in udma0/cm/tp"
out=$("$admin" show dev udma0 tp)
echo "$out"
found=0
while read -r tpn peer _ mode state _; do
	[[ $tpn == tpn ]] && continue
	[[ $peer == "$theirs" && $mode == RM ]] || continue
	case $state in
	Initiator_established | Target_established | reused) found=1 ;;
	*) ub_fail "the TP to $theirs is in state $state" ;;
	esac
done <<< "$out"
((found)) || ub_fail "urma_admin lists no RM TP to $theirs"
stats=$("$admin" show dev udma0 --stats)
echo "$stats"
for c in tx_packets rx_packets mgmt_rx; do
	v=
	while read -r name val; do
		[[ $name == "$c:" ]] && v=$val
	done <<< "$stats"
	[[ -n $v && $v -gt 0 ]] || ub_fail "$c is '$v'"
done
rc=0
wait "$pid" || rc=$?
cat "$tmp/bw"
ub_pair_sync "done-$port" "$rc"
((rc == 0)) || ub_fail "write_bw exited $rc on $UB_PAIR_ROLE"
[[ $UB_PAIR_PEER_VALUE == 0 ]] || ub_fail "write_bw exited $UB_PAIR_PEER_VALUE on the peer"

ub_unload_stack || ub_fail "module unload failed"
ub_pair_sync finished
echo "$UB_PAIR_ROLE: SEND, WRITE, READ and atomics across two kernels; the TP on both sides"
