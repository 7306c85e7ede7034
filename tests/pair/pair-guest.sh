#!/bin/bash
# In-guest runner of a guest pair (scripts/pair-run.sh boots two guests with
# it): puts this guest's address on the link, meets the peer, then runs the
# case scripts of UB_PAIR_CASES (colon-separated paths from the repo top),
# each after a barrier that both guests must reach. Writes one line per case
# to $OUT/results.txt ("PASS name" / "FAIL name (why)") and each case's
# output to $OUT/cases/NAME.log; the host combines the two guests' results
# (scripts/summarize.py --pair).
# Environment (kernel command line): UB_PAIR_ROLE, UB_PAIR_ADDR,
# UB_PAIR_PEER, UB_PAIR_CASES; UB_PAIR_CASE_TIMEOUT (s, default 300).
set -u
OUT=$1
export UB_TOP=$PWD
. "$UB_TOP/tests/guest/lib.sh"
. "$UB_TOP/tests/pair/lib.sh"
# UB_PAIR_OUT: this guest's results directory, for cases that leave
# files there (tests/pair/bench-pair.sh).
UB_PAIR_OUT=$OUT
export UB_PAIR_ROLE UB_PAIR_ADDR UB_PAIR_PEER UB_PAIR_DEV UB_KMOD UB_PAIR_OUT
results=$OUT/results.txt
mkdir -p "$OUT/cases"
: > "$results"
IFS=: read -r -a cases <<< "${UB_PAIR_CASES:-}"

# The runner's barriers use their own port: a case that failed half-way
# on one side leaves the other waiting at one of the case's barriers (port
# UB_PAIR_SYNC_PORT) until it times out, never at the next case's start.
runner_sync() {
	UB_PAIR_SYNC_PORT=7470 ub_pair_sync "$@"
}

# fail_all WHY: every case fails for WHY (the link or the peer is missing).
fail_all() {
	local c
	echo "ub-pair: $1" >&2
	for c in "${cases[@]}"; do
		c=${c##*/}
		echo "FAIL ${c%.sh} ($1)" >> "$results"
	done
	exit 1
}

# The link: the one netdev on a device (virtio-net, eth0); lo and the
# kernel's tunnels (sit0) have none. The stock kernel (scripts/pair-run.sh
# --kernel stock) has virtio-net as a module and no udev to load it.
[[ -e /sys/module/virtio_net ]] || "$UB_BUSYBOX" modprobe virtio_net ||
	echo "ub-pair: cannot load virtio_net" > /dev/kmsg
UB_PAIR_DEV=
for d in /sys/class/net/*; do
	[[ -e $d/device ]] || continue
	[[ -z $UB_PAIR_DEV ]] || fail_all "more than one netdev: $UB_PAIR_DEV ${d##*/}"
	UB_PAIR_DEV=${d##*/}
done
[[ -n $UB_PAIR_DEV ]] || fail_all "no netdev for the link"
"$UB_BUSYBOX" ip addr add "$UB_PAIR_ADDR/24" dev "$UB_PAIR_DEV" ||
	fail_all "cannot give $UB_PAIR_DEV address $UB_PAIR_ADDR"
ub_link_up "$UB_PAIR_DEV"
echo "ub-pair: role $UB_PAIR_ROLE, $UB_PAIR_DEV $UB_PAIR_ADDR, peer $UB_PAIR_PEER" > /dev/kmsg

# The peer may boot late: a guest hung at boot is booted again after 180 s
# (scripts/pair-run.sh, guest-run.sh).
runner_sync boot "" 540 || fail_all "the peer never met this guest on the link"

case_timeout=${UB_PAIR_CASE_TIMEOUT:-300}
for c in "${cases[@]}"; do
	name=${c##*/}
	name=${name%.sh}
	# The peer may still be in the case before, until its time-out.
	if ! runner_sync "case-$name" "" $((case_timeout + 60)); then
		echo "FAIL $name (the peer did not start it)" >> "$results"
		continue
	fi
	echo "ub-pair: $name" > /dev/kmsg
	rc=0
	timeout -k 5 "$case_timeout" bash "$c" > "$OUT/cases/$name.log" 2>&1 || rc=$?
	if [ $rc -eq 0 ]; then
		echo "PASS $name" >> "$results"
	else
		echo "FAIL $name (exit $rc, log: cases/$name.log)" >> "$results"
	fi
	echo "ub-pair: $name exit $rc" > /dev/kmsg
done
# Neither guest powers off while the other may still need it.
runner_sync finished "" $((case_timeout + 60)) || :
