# Helpers for the scripts of a guest pair (scripts/pair-run.sh); sourced
# after tests/guest/lib.sh (whose helpers and speed notes hold here too).
# shellcheck shell=bash
#
# Each guest of a pair runs the same script with, in its environment:
#   UB_PAIR_ROLE   a or b
#   UB_PAIR_DEV    its netdev on the link (eth0)
#   UB_PAIR_ADDR   its IPv4 address on the link (10.77.0.1 for a, .2 for b)
#   UB_PAIR_PEER   the other guest's address
# The two kernels share nothing but the link, so the two halves of a case
# meet through it: ub_pair_sync is a barrier that also trades one value.

UB_PAIR_SYNC_PORT=${UB_PAIR_SYNC_PORT:-7471}

# ub_pair_sync NAME [VALUE] [TIMEOUT]: wait, at most TIMEOUT seconds (60),
# until the peer reaches its own "ub_pair_sync NAME"; then UB_PAIR_PEER_VALUE
# is the VALUE the peer gave. Fails when the time runs out or the peer is at
# a barrier of another name (the two halves of the case went apart).
# Over TCP on UB_PAIR_SYNC_PORT: b listens (busybox nc, one static exec), a
# connects (bash's /dev/tcp, no exec) and retries until b listens; each
# sends "ub-pair NAME VALUE" and reads the other's line.
ub_pair_sync() {
	local name=$1 value=${2:-} limit=${3:-60} line tag pname fd end
	UB_PAIR_PEER_VALUE=
	case $UB_PAIR_ROLE in
	b)
		# (timeout: busybox nc's -w bounds the wait for a connection,
		# not a connection that sends nothing; pair_test's missing
		# peer outlived its 2 s by 50 s under load)
		line=$(echo "ub-pair $name $value" |
			timeout -k 2 "$limit" "$UB_BUSYBOX" nc -l -p "$UB_PAIR_SYNC_PORT" -w "$limit")
		;;
	a)
		end=$((SECONDS + limit))
		line=
		while ((SECONDS < end)); do
			# The group's redirection hides bash's "connection
			# refused"; the descriptor stays open after it.
			if { exec {fd}<> "/dev/tcp/$UB_PAIR_PEER/$UB_PAIR_SYNC_PORT"; } 2> /dev/null; then
				echo "ub-pair $name $value" >&"$fd"
				read -r -t $((end - SECONDS + 1)) -u "$fd" line || line=
				exec {fd}>&-
				break
			fi
			ub_sleep 0.5
		done
		;;
	*)
		echo "ub_pair_sync: UB_PAIR_ROLE is '$UB_PAIR_ROLE', not a or b" >&2
		return 1
		;;
	esac
	# shellcheck disable=SC2034 # UB_PAIR_PEER_VALUE: for the caller
	read -r tag pname UB_PAIR_PEER_VALUE <<< "$line"
	if [[ $tag != ub-pair ]]; then
		echo "ub_pair_sync $name: no answer from the peer in ${limit}s" >&2
		return 1
	fi
	if [[ $pname != "$name" ]]; then
		echo "ub_pair_sync $name: the peer is at barrier '$pname'" >&2
		return 1
	fi
}

# ub_pair_ping [COUNT]: the peer answers COUNT (3) pings over the link.
ub_pair_ping() {
	"$UB_BUSYBOX" ping -c "${1:-3}" -W 5 "$UB_PAIR_PEER"
}

# ub_pair_wait_peer [TIMEOUT]: until the peer answers a ping, at most
# TIMEOUT seconds (60).
ub_pair_wait_peer() {
	local end=$((SECONDS + ${1:-60}))
	while ((SECONDS < end)); do
		"$UB_BUSYBOX" ping -c 1 -W 1 "$UB_PAIR_PEER" > /dev/null && return 0
		ub_sleep 0.5
	done
	echo "peer $UB_PAIR_PEER does not answer pings" >&2
	return 1
}

# ub_pair_serve NAME PORT OUT SERVER... -- CLIENT...: one client/server run
# between the guests. a runs SERVER in the background, waits until it
# listens on TCP PORT and meets b, which then runs CLIENT; each side's
# stdout goes to OUT, its stderr to OUT.err. A server that does not exit
# by itself when its client is done (sockperf) is stopped if
# UB_PAIR_STOP_SERVER is 1.
# Both sides then trade exit statuses (barrier done-NAME, at most
# UB_PAIR_RUN_LIMIT seconds, 600): returns 1 unless both exited 0, with
# the side that failed on stderr.
ub_pair_serve() {
	local name=$1 port=$2 out=$3 pid rc=0
	shift 3
	local srv=()
	while [[ $1 != -- ]]; do
		srv+=("$1")
		shift
	done
	shift
	if [[ $UB_PAIR_ROLE == a ]]; then
		"${srv[@]}" > "$out" 2> "$out.err" &
		pid=$!
		ub_wait_listen "$port" || rc=1
		ub_pair_sync "listen-$name" "$rc" || rc=1
		if [[ ${UB_PAIR_STOP_SERVER:-0} == 1 ]]; then
			ub_pair_sync "client-$name" "" "${UB_PAIR_RUN_LIMIT:-600}" || rc=1
		fi
		if ((rc)) || [[ ${UB_PAIR_STOP_SERVER:-0} == 1 ]]; then
			kill "$pid" 2> /dev/null
			wait "$pid" 2> /dev/null || :
		else
			wait "$pid" || rc=$?
		fi
	else
		ub_pair_sync "listen-$name" || rc=1
		[[ $UB_PAIR_PEER_VALUE == 0 ]] || rc=1
		((rc)) || "$@" > "$out" 2> "$out.err" || rc=$?
		if [[ ${UB_PAIR_STOP_SERVER:-0} == 1 ]]; then
			ub_pair_sync "client-$name" "" "${UB_PAIR_RUN_LIMIT:-600}" || rc=1
		fi
	fi
	ub_pair_sync "done-$name" "$rc" "${UB_PAIR_RUN_LIMIT:-600}" || return 1
	if ((rc)); then
		echo "$name: exit $rc here ($UB_PAIR_ROLE)" >&2
		return 1
	fi
	if [[ $UB_PAIR_PEER_VALUE != 0 ]]; then
		echo "$name: exit $UB_PAIR_PEER_VALUE on the peer" >&2
		return 1
	fi
}
