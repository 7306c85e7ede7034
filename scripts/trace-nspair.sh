#!/usr/bin/env bash
# Where the time of a round trip goes on a namespace pair: a 14-byte TCP
# ping-pong (tests/guest/pingpong.py) over the veth and over ipourma0 in
# UM and RM (tests/guest/bench-ipourma.sh's pair), and over TCP and UMS
# (bench-ums.sh's pair), in one stock-kernel guest, each traced with
# ftrace: the scheduler's wake-ups and switches, the softirqs, and the
# calls on a packet's way through TCP, ipourma or UMS, udma and the veth
# (UB_BENCH_TRACE of those scripts). scripts/rtt_timeline.py then prints,
# for each, the median round trip and the path a typical one takes: every
# step with its median time since the client's send.
#   usage: scripts/trace-nspair.sh [-h]
# Environment: UB_BENCH_TRACE_PP (round trips traced, 300),
# UB_BENCH_TRACE_PROBES (more probes, e.g. ":mod:udma"), UB_TRACE_TIMEOUT
# (guest timeout, s, 1800). Raw outputs: build/trace-nspair/bench/trace/
# (NAME.trace); the figures as JSON: build/trace-nspair/NAME.json. The
# tracer slows every traced call: compare the paths within one run.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case "${1:-}" in
-h|--help) sed -n '2,16s/^# \{0,1\}//p' "$0"; exit 0 ;;
"") ;;
*) ub_die "unknown argument $1 (see --help)" ;;
esac

ub_bench_build urma_admin ums_run ums_preload
out=$UB_TOP/build/trace-nspair
extra="${UB_KERNEL_EXTRA:-}"
[ -z "${UB_BENCH_TRACE_PP:-}" ] || extra+=" UB_BENCH_TRACE_PP=$UB_BENCH_TRACE_PP"
# (the kernel command line separates words by spaces: commas in there)
[ -z "${UB_BENCH_TRACE_PROBES:-}" ] ||
	extra+=" UB_BENCH_TRACE_PROBES=${UB_BENCH_TRACE_PROBES// /,}"
ub_log "booting the stock kernel in QEMU (takes some minutes under TCG)"
rc=0
UB_KERNEL_EXTRA=$extra "$UB_TOP/scripts/guest-run.sh" --kernel stock \
	--timeout "${UB_TRACE_TIMEOUT:-1800}" "$out" \
	"$UB_TOP/tests/guest/trace-nspair.sh" || rc=$?
if [ $rc -ne 0 ] || [ "$(cat "$out/script.rc" 2>/dev/null)" != 0 ]; then
	tail -30 "$out/script.log" 2>/dev/null || :
	ub_die "the traced run failed; log $out/script.log, console $out/console.log"
fi
# NAME ANCHOR LABEL: the client's send is ANCHOR
while read -r name anchor label; do
	python3 "$UB_TOP/scripts/rtt_timeline.py" --anchor "$anchor" \
		--label "$label" --json "$out/$name.json" \
		"$out/bench/trace/$name.trace" || rc=1
	echo
done <<'LIST'
ipourma.veth tcp_sendmsg TCP over the veth (IPoURMA's pair)
ipourma.um tcp_sendmsg TCP over ipourma0, UM
ipourma.rm tcp_sendmsg TCP over ipourma0, RM
ums.tcp tcp_sendmsg TCP over the veth (UMS's pair)
ums.ums ums_sendmsg UMS (ums_run)
LIST
exit $rc
