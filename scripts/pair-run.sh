#!/usr/bin/env bash
# Boot two guests of one kernel joined by one link, run the same case
# scripts in both, and give one result for the pair.
#   usage: pair-run.sh [--kernel test|stock] OUTDIR CASE...
# Each CASE is a script under the checkout (tests/pair/cases/*.sh); both
# guests run each one, with UB_PAIR_ROLE (a or b), UB_PAIR_DEV, UB_PAIR_ADDR
# and UB_PAIR_PEER in its environment and tests/pair/lib.sh to meet the peer
# (ub_pair_sync). --kernel: the guests' kernel, as for guest-run.sh
# (default test; scripts/bench-pair.sh runs the stock one). A case passes
# only if it passes in both guests; the run passes only if every case
# does and neither kernel reported anything
# (scripts/summarize.py --pair: the single guest's oops, KASAN, lockdep,
# kmemleak and WARN checks, for each guest). Exits 0 when the run passed.
# OUTDIR: a/ and b/ (each guest's results as scripts/guest-run.sh leaves
# them, with results.txt and cases/NAME.log from tests/pair/pair-guest.sh),
# a.log and b.log (guest-run.sh's messages), manifest.json, summary.txt.
# Environment: UB_PAIR_TIMEOUT (s, each guest's whole run, default 900),
# UB_PAIR_CASE_TIMEOUT (s, each case in a guest, default 300), UB_PAIR_MEM
# (MiB a guest, default 768), UB_PAIR_SMP (vCPUs a guest, default 1),
# UB_ONLY (as for make check: only the matching cases run, the run fails).
#
# How it is built (design notes):
# - The link: QEMU's "-netdev dgram" (UDP datagrams between two loopback
#   ports of this machine, one per guest) and a virtio-net NIC in each guest.
#   Neither guest waits for the other to start, unlike socket's
#   listen/connect, and a guest booted again after a boot hang
#   (guest-run.sh) rejoins the same link. The two ports are free ones the
#   kernel picks (bound to port 0 and released), so parallel runs and
#   checkouts do not collide. The guests' MACs, addresses (10.77.0.1 for a,
#   10.77.0.2 for b, /24) and so their EIDs are fixed, so cases can assert
#   them.
# - Each guest is scripts/guest-run.sh with tests/pair/pair-guest.sh as its
#   script: the same kernel, 9p root, modules, kmemleak scans, dmesg and
#   lockdep state as the single guest of make check. The role, addresses
#   and case list reach it on the kernel command line.
# - Synchronisation is in the guests, over the link (tests/pair/lib.sh): the
#   runner meets the peer before the first case and before each case; a
#   case meets it at its own barriers.
# - A case (hook for the cross-kernel tests: import, bind, SEND, WRITE over
#   UBoE) is one script tests/pair/cases/NAME.sh, run by both guests: it
#   sources tests/guest/lib.sh and tests/pair/lib.sh, branches on
#   UB_PAIR_ROLE where the sides differ, meets the peer with ub_pair_sync
#   NAME [VALUE] before each step that needs the other side ready (and to
#   trade EIDs, jetty IDs, tokens), exits non-zero on failure and leaves
#   the modules unloaded. make check picks it up by itself (suites.py lists
#   it in the manifest as a pair case); udma-link.sh is the model.
# - A guest that stops without finishing its script (panic, timeout) stops
#   its peer too, which would otherwise wait at barriers until they time out.
# - 1 vCPU and 768 MiB a guest: two guests then take the 2 vCPUs and less
#   memory than the single guest; kmemleak's scans are quicker with less RAM.
#   Two guests booting at once boot more slowly than one; guest-run.sh
#   takes a guest for hung at boot only when its console stays silent
#   (UB_GUEST_BOOT_STALL), however long the boot takes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

timeout=${UB_PAIR_TIMEOUT:-900}
kernel="test"
if [ "${1:-}" = --kernel ] && [ $# -ge 2 ]; then
	kernel=$2
	shift 2
fi
if [ $# -lt 2 ] || [[ $1 == -* ]]; then
	sed -n '2,20s/^# \{0,1\}//p' "$0"
	[[ ${1:-} == -h || ${1:-} == --help ]] && exit 0
	exit 2
fi
out=$1
shift

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)

names=() run=()
for c in "$@"; do
	p=$(realpath "$c")
	[ -f "$p" ] || ub_die "no case script $c"
	# The case list travels on the kernel command line, ':'-separated.
	[[ $p != *[:\ ]* ]] || ub_die "case path $p has a ':' or a space"
	n=${p##*/}
	n=${n%.sh}
	names+=("$n")
	# shellcheck disable=SC2053 # a pattern on purpose
	if [[ -z ${UB_ONLY:-} || $n == $UB_ONLY ]]; then
		run+=("$p")
	fi
done
python3 - "$out/manifest.json" "${names[@]}" <<'PY'
import json, sys
with open(sys.argv[1], "w") as f:
    json.dump({"pair_cases": sys.argv[2:]}, f, indent=1)
PY
[ -z "${UB_ONLY:-}" ] || echo "$UB_ONLY" > "$out/ub-only"

judge() {
	local rc=0
	python3 "$UB_TOP/scripts/summarize.py" --manifest "$out/manifest.json" \
		--pair "$out" --expected-skips /dev/null > "$out/summary.txt" || rc=$?
	cat "$out/summary.txt"
	return $rc
}
if [ ${#run[@]} -eq 0 ]; then
	ub_log "no case matches UB_ONLY=$UB_ONLY: no guest booted"
	judge
	exit 1
fi

# Two free UDP ports on the loopback, one for each end of the link.
read -r port_a port_b < <(python3 -c '
import socket
s = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(2)]
for x in s:
    x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

cases=$(IFS=:; echo "${run[*]}")
pids=()
for role in a b; do
	if [ $role = a ]; then
		me=1 peer=2 lport=$port_a rport=$port_b
	else
		me=2 peer=1 lport=$port_b rport=$port_a
	fi
	net="-netdev dgram,id=link,local.type=inet,local.host=127.0.0.1,local.port=$lport"
	net+=",remote.type=inet,remote.host=127.0.0.1,remote.port=$rport"
	# The MACs end in 0a and 0b (tests/pair/cases/udma-link.sh's EIDs).
	net+=" -device virtio-net-pci,netdev=link,mac=52:54:00:75:b0:0$role"
	extra="${UB_KERNEL_EXTRA:-} UB_PAIR_ROLE=$role UB_PAIR_ADDR=10.77.0.$me"
	extra+=" UB_PAIR_PEER=10.77.0.$peer UB_PAIR_CASES=$cases"
	[ -z "${UB_PAIR_CASE_TIMEOUT:-}" ] ||
		extra+=" UB_PAIR_CASE_TIMEOUT=$UB_PAIR_CASE_TIMEOUT"
	UB_ONLY='' UB_GUEST_NET=$net UB_KERNEL_EXTRA=$extra \
		UB_GUEST_MEM=${UB_PAIR_MEM:-768} UB_GUEST_SMP=${UB_PAIR_SMP:-1} \
		"$UB_TOP/scripts/guest-run.sh" --kernel "$kernel" --timeout "$timeout" \
		"$out/$role" "$UB_TOP/tests/pair/pair-guest.sh" > "$out/$role.log" 2>&1 &
	pids+=($!)
done
ub_log "guests a and b running (link: UDP 127.0.0.1:$port_a <-> :$port_b; console: $out/{a,b}/console.log)"

# The first guest to stop: if it did not finish its script, stop the other
# unless that one has finished its own (it is scanning for leaks).
first=
wait -n -p first "${pids[@]}" || :
if [ "$first" = "${pids[0]}" ]; then
	done=a other=b
else
	done=b other=a
fi
if [ ! -e "$out/$done/script.rc" ] && [ ! -e "$out/$other/script.rc" ] &&
	[ -e "$out/$other/qemu.pid" ]; then
	ub_log "guest $done stopped before its script finished: stopping guest $other"
	touch "$out/$other/peer-stopped"
	kill "$(cat "$out/$other/qemu.pid")" 2>/dev/null || :
fi
wait "${pids[@]}" || :
judge
