#!/bin/bash
# Unmodified applications over UMS under ums_run, between the two hosts of
# lib.sh's namespace pair (issue 13): iperf3, sockperf's ping-pong, and
# redis-server with its own redis-benchmark and redis-cli. Every socket of
# theirs must go over UMS: /proc/net/ums_fallback stays 0 in both
# namespaces, and while a connection is open both ends list it in
# /proc/net/ums as not fallen back. Then ums.ko with live sockets: rmmod
# refuses (the sockets hold the module), and unloads once they are gone.
set -eu
# run from the repo top, by guest-run.sh or check-guest.sh
export UB_TOP=${UB_TOP:-$PWD}
. "$UB_TOP/tests/guest/lib.sh"

ums_run=$UB_TOP/build/tools/ums_run/ums_run
A=$UB_NS_A B=$UB_NS_B
tmp=/tmp/ums-apps
srv=
port=5100

cleanup() {
	[[ -z $srv ]] || kill "$srv" 2> /dev/null || true
	wait 2> /dev/null || true
	ub_nspair_destroy
	if ub_module_loaded ums; then ub_rmmod ums || true; fi
	ub_unload_stack || true
	rm -rf "$tmp"
}
trap cleanup EXIT

for t in iperf3 sockperf redis-server redis-benchmark redis-cli; do
	command -v "$t" > /dev/null ||
		ub_fail "$t is not installed (scripts/deps.sh installs it)"
done

# serve NAME CMD...: CMD under ums_run in B on the next port ($port,
# which CMD's arguments name), listening
serve() {
	local name=$1
	shift
	port=$((port + 1))
	ip netns exec "$B" "$ums_run" "${@//@PORT@/$port}" \
		> "$tmp/$name.server" 2>&1 &
	srv=$!
	ub_wait_listen "$port" 120 "$srv" ||
		ub_fail "$name: no server: $(<"$tmp/$name.server")"
}

# stop_server: end the server and reap it
stop_server() {
	kill "$srv" 2> /dev/null || true
	wait "$srv" 2> /dev/null || true
	srv=
}

# no_fallback: every fallback count of both namespaces is 0
no_fallback() {
	local ns code c s
	for ns in "$A" "$B"; do
		while read -r code c s _; do
			[[ $code != 0x* || "$c:$s" == 0:0 ]] ||
				ub_fail "$ns: a socket fell back ($1): $code $c:$s"
		done <<< "$(ub_ns "$ns" "$UB_BUSYBOX" cat /proc/net/ums_fallback)"
	done
}

# ums_lines NS: how many connections of NS's /proc/net/ums are active
# over UMS (not fallen back)
ums_lines() {
	ub_ns "$1" "$UB_BUSYBOX" cat /proc/net/ums |
		grep -cE ' UMS_ACTIVE +False ' || true
}

ub_nspair_create
ub_load_stack
ub_insmod "$UB_KMOD/ums/ums.ko"
ub_nspair_add_devs
mkdir -p "$tmp"

echo "== iperf3 under ums_run, 3 s, both ends over UMS ($SECONDS s)"
serve iperf3 iperf3 -s -1 -B "$UB_IP4_B" -p @PORT@
ub_ns "$A" "$ums_run" iperf3 -c "$UB_IP4_B" -p "$port" -t 3 \
	> "$tmp/iperf3.client" 2>&1 ||
	ub_fail "iperf3 client: $(<"$tmp/iperf3.client")"
wait "$srv" || ub_fail "iperf3 server: $(<"$tmp/iperf3.server")"
srv=
line=$(grep -E 'receiver$' "$tmp/iperf3.client") ||
	ub_fail "iperf3: no receiver line: $(<"$tmp/iperf3.client")"
echo "   $line"
no_fallback iperf3

echo "== sockperf ping-pong under ums_run, 3 s ($SECONDS s)"
serve sockperf sockperf sr --tcp -i "$UB_IP4_B" -p @PORT@
ub_ns "$A" "$ums_run" sockperf pp --tcp -i "$UB_IP4_B" -p "$port" -t 3 \
	> "$tmp/sockperf.client" 2>&1 ||
	ub_fail "sockperf client: $(<"$tmp/sockperf.client")"
line=$(sed 's/\x1b\[[0-9;]*m//g' "$tmp/sockperf.client" | grep -E 'avg-latency=') ||
	ub_fail "sockperf: no latency: $(<"$tmp/sockperf.client")"
echo "   ${line#*] }"
grep -qE 'SentMessages=[1-9]' "$tmp/sockperf.client" ||
	ub_fail "sockperf: no message answered: $(<"$tmp/sockperf.client")"
stop_server
no_fallback sockperf

echo "== redis-server, redis-benchmark and redis-cli under ums_run ($SECONDS s)"
serve redis redis-server --bind "$UB_IP4_B" --port @PORT@ --save '' \
	--appendonly no --protected-mode no --dir "$tmp"
cli() { ub_ns "$A" "$ums_run" redis-cli -h "$UB_IP4_B" -p "$port" "$@"; }
ub_ns "$A" "$ums_run" redis-benchmark -h "$UB_IP4_B" -p "$port" -c 4 \
	-n 200 -t set,get,incr,lpush -d 256 -q > "$tmp/bench.out" 2>&1 ||
	ub_fail "redis-benchmark: $(<"$tmp/bench.out")"
tr '\r' '\n' < "$tmp/bench.out" | grep -E 'requests per second' |
	sed 's/^/   /'
[[ $(tr '\r' '\n' < "$tmp/bench.out" | grep -c 'requests per second') == 4 ]] ||
	ub_fail "redis-benchmark: not every test ran: $(<"$tmp/bench.out")"
# incr ran 200 times on one key: the count is exact
n=$(cli get counter:__rand_int__) || ub_fail "redis-cli get: $n"
[[ $n == 200 ]] || ub_fail "redis: counter:__rand_int__ is $n, want 200"
# a 1 MiB value there and back, byte for byte
head -c 786432 /dev/urandom | base64 -w 0 > "$tmp/value"
cli -x set big < "$tmp/value" > /dev/null || ub_fail "redis-cli set"
cli --raw get big | head -c -1 > "$tmp/value.back" || ub_fail "redis-cli get"
cmp "$tmp/value" "$tmp/value.back" || ub_fail "redis: the 1 MiB value came back changed"
no_fallback redis

echo "== ums.ko with live sockets ($SECONDS s)"
# an idle redis-cli connection held open, and the listener
mkfifo "$tmp/hold"
ub_ns "$A" "$ums_run" redis-cli -h "$UB_IP4_B" -p "$port" < "$tmp/hold" \
	> /dev/null 2>&1 &
cli_pid=$!
exec 7> "$tmp/hold"
echo "ping" >&7
for ((i = 0; i < 300; i++)); do
	(($(ums_lines "$A") >= 1 && $(ums_lines "$B") >= 1)) && break
	ub_sleep 0.1
done
(($(ums_lines "$A") >= 1)) || ub_fail "$A: no UMS connection in /proc/net/ums"
(($(ums_lines "$B") >= 1)) || ub_fail "$B: no UMS connection in /proc/net/ums"
if ub_rmmod ums 2> "$tmp/rmmod.err"; then
	ub_fail "ums.ko unloaded under live sockets"
fi
echo "   rmmod refused: $(<"$tmp/rmmod.err")"
ub_module_loaded ums || ub_fail "ums.ko is gone after a refused rmmod"
echo "ping" >&7
exec 7>&-
wait "$cli_pid" || ub_fail "the idle redis-cli failed after the refused rmmod"
cli shutdown nosave > /dev/null 2>&1 || :
wait "$srv" 2> /dev/null || :
srv=
no_fallback "the last connections"
for ((i = 0; i < 300; i++)); do
	ub_rmmod ums 2> /dev/null && break
	ub_sleep 0.1
done
! ub_module_loaded ums || ub_fail "ums.ko does not unload after its sockets closed"
echo "== done ($SECONDS s)"
