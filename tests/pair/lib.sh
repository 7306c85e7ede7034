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
		line=$(echo "ub-pair $name $value" |
			"$UB_BUSYBOX" nc -l -p "$UB_PAIR_SYNC_PORT" -w "$limit")
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
