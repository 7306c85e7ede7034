# The URMA exchange of "make demo" (tests/guest/demo.sh), also run by make
# check on the installed stack (tests/guest/cases/installed-stack.sh);
# sourced. Needs lib.sh (ub_wait_listen).
# shellcheck shell=bash

# demo_op TITLE COMMAND SIZE ITERS [OPTION...]: the same urma_perftest
# command ($DEMO_PERFTEST) as a server process and a client process, with
# --check: the client's table says what moved and how fast. The caller
# says where they run: DEMO_SERVER and DEMO_CLIENT (what runs perftest:
# nothing, or ip netns exec and the namespace) and DEMO_SERVER_OPTS and
# DEMO_CLIENT_OPTS (the device, and -S, the server's address for the TCP
# exchange of EIDs, segments and jetty IDs).
demo_op() {
	local title=$1 cmd=$2 size=$3 iters=$4 srv rc=0
	shift 4
	echo "== $title: $iters x $size bytes = $((iters * size / 1024)) KiB" \
		"($cmd${*:+ $*}, two processes, the data checked)"
	"${DEMO_SERVER[@]}" "$DEMO_PERFTEST" "$cmd" "${DEMO_SERVER_OPTS[@]}" -s "$size" \
		-n "$iters" --check "$@" > /tmp/server.log 2>&1 &
	srv=$!
	# The client retries a refused connection for only 2 s and a server in
	# a namespace starts later: until it listens, in its namespace (ip netns
	# exec becomes perftest in the same process, $srv). A server that never
	# listens would wait for its client for ever.
	ub_wait_listen 21115 60 "$srv" || { rc=$?; kill "$srv"; }
	[ $rc -ne 0 ] || "${DEMO_CLIENT[@]}" "$DEMO_PERFTEST" "$cmd" "${DEMO_CLIENT_OPTS[@]}" \
		-s "$size" -n "$iters" --check "$@" || rc=$?
	wait $srv || rc=$?
	[ $rc -eq 0 ] || { cat /tmp/server.log; echo "FAIL: $cmd"; exit 1; }
}

# demo_local_exchange PERFTEST [ITERS]: a WRITE, a READ, a SEND/RECV and
# an atomic between two processes on udma0, ITERS WRs each (2000; the
# atomic half as many).
demo_local_exchange() {
	local n=${2:-2000}
	DEMO_PERFTEST=$1
	echo "== a URMA exchange between two processes on udma0 ($DEMO_PERFTEST)"
	DEMO_SERVER=() DEMO_CLIENT=()
	DEMO_SERVER_OPTS=(-d udma0) DEMO_CLIENT_OPTS=(-d udma0 -S 127.0.0.1)
	demo_op "WRITE" write_bw 65536 "$n"
	demo_op "READ" read_bw 65536 "$n"
	demo_op "SEND/RECV" send_bw 4096 "$n"
	demo_op "atomic (compare-and-swap, 8 bytes)" atomic_lat 8 $((n / 2))
}
