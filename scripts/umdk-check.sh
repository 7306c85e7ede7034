#!/usr/bin/env bash
# UMDK's own tools against this stack: builds urma_perftest and urma_ping
# from a UMDK checkout the user provides (https://gitee.com/openeuler/umdk
# or a mirror; nothing of it is part of this project) against the headers
# and liburma that "make install" installs, then, where the stack is loaded
# (/dev/uburma/<dev>), runs them: every urma_perftest command between two
# processes (a server and a client that meet over TCP), and urma_ping.
#
#   usage: scripts/umdk-check.sh [--out DIR] [--dev DEV] [--server-dev DEV]
#          [--client-ns NS] [--server-ns NS] [--server-ip IP]
#          [--build-only | --run-only] [UMDK_DIR]
#
# --build-only stops before the run; --run-only runs what an earlier run
# built in DIR (DIR may be a copy: it holds the installed liburma too) and
# needs no UMDK_DIR. UMDK_DIR is the top of the checkout (it has src/urma).
# What is built:
#  - liburma from this checkout, installed with "make userspace_install"
#    into DIR/root (PREFIX /usr/local), used through its liburma.pc;
#  - UMDK's internal utility library (src/urma/common, ub_* helpers that
#    urma_perftest calls), from UMDK_DIR, as DIR/libumdk_common.a;
#  - the headers urma_perftest includes besides urma_api.h, urma_types.h
#    and urma_opcode.h (urma_provider.h, urma_types_str.h, urma_ubagg.h,
#    the ub_*.h helpers) are copied from UMDK_DIR to DIR/umdk-include, so
#    that UMDK's own API headers are never used: ours come first;
#  - urma_perftest and urma_ping from UMDK_DIR's sources, unchanged.
# What runs: urma_perftest's eight commands (send, write, read and atomic,
# latency and bandwidth; RM jetties, its defaults), the latency ones also
# in RC (-p 1) and with TP-aware connections (--tp_aware); the server on
# --server-dev (default --dev, udma0) in network namespace --server-ns,
# the client on --dev in --client-ns, meeting at --server-ip (127.0.0.1).
# Two namespaces whose devices are joined by a link make it a run between
# two hosts. Then urma_ping from the client's device to the server's EID
# (ubagg.ko loaded; a namespace without an aggregation topology gets one
# for the run).
# Each step's log is in DIR (default build/umdk-check); the last lines say
# what built and what ran, and list as unsupported, with the reason, what
# this stack does not have (not counted as passed). Exit status 0 only
# when no step failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
usage() {
	sed -n '2,38p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
}
out=$top/build/umdk-check dev=udma0 build_only=0 run_only=0
server_dev='' client_ns='' server_ns='' server_ip=127.0.0.1
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--dev) dev=$2; shift 2 ;;
	--server-dev) server_dev=$2; shift 2 ;;
	--client-ns) client_ns=$2; shift 2 ;;
	--server-ns) server_ns=$2; shift 2 ;;
	--server-ip) server_ip=$2; shift 2 ;;
	--build-only) build_only=1; shift ;;
	--run-only) run_only=1; shift ;;
	-*) usage ;;
	*) break ;;
	esac
done
server_dev=${server_dev:-$dev}
[ $# -eq 1 ] || { [ $# -eq 0 ] && [ $run_only = 1 ]; } || usage
if [ $run_only = 0 ]; then
	umdk=$(cd "$1" && pwd) || exit 2
	src=$umdk/src/urma
	[ -d "$src/tools/urma_perftest" ] ||
		{ echo "umdk-check: $umdk has no src/urma/tools/urma_perftest" >&2; exit 2; }
fi
mkdir -p "$out" && out=$(cd "$out" && pwd)
failed=() passed=() unsupported=()

step() { # step NAME LOG CMD...: runs CMD with its output in LOG
	local name=$1 log=$out/$2
	shift 2
	echo "== $name"
	if "$@" > "$log" 2>&1; then
		passed+=("$name")
		return 0
	fi
	echo "FAIL: $name (log: $log)"
	grep -E 'error|undefined reference|FAIL|Error' "$log" | head -20
	failed+=("$name")
	return 1
}

root=$out/root
prefix=$root/usr/local
perftest_ok=0 ping_ok=0
if [ $run_only = 1 ]; then
	[ -x "$out/urma_perftest" ] && perftest_ok=1
	[ -x "$out/urma_ping" ] && ping_ok=1
	[ -f "$prefix/lib/liburma.so.0" ] || { echo "umdk-check: no liburma in $prefix (build first)" >&2; exit 2; }
else
# 1. liburma, headers and liburma.pc from this checkout, installed.
rm -rf "$root"
build=${BUILD:-$top/build}
step "make userspace_install (DESTDIR=$root)" install.log \
	make -C "$top" BUILD="$build" DESTDIR="$root" userspace_install || exit 1
urma_pc() { PKG_CONFIG_PATH=$prefix/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root pkg-config "$@" liburma; }
urma_cflags=$(urma_pc --cflags) && urma_libs=$(urma_pc --libs) ||
	{ echo "FAIL: pkg-config liburma"; exit 1; }
echo "pkg-config liburma: $urma_cflags $urma_libs"

# 2. The other headers UMDK's tools include, from UMDK; never its API ones.
inc=$out/umdk-include
rm -rf "$inc" && mkdir -p "$inc"
for d in lib/urma/core/include lib/urma/bond/include common/include; do
	for h in "$src/$d"/*.h; do
		case ${h##*/} in
		urma_api.h | urma_types.h | urma_opcode.h) ;;
		*) cp "$h" "$inc/" ;;
		esac
	done
done

# UMDK's compiler flags that matter for these sources (src/urma/CMakeLists.txt).
cflags=(-std=gnu99 -O2 -g -Wall -Wformat -fno-strict-aliasing -D_GNU_SOURCE)
[ "$(uname -m)" = x86_64 ] && cflags+=(-msse4.2 -DUB_ARCH_X86_64)
[ "$(uname -m)" = aarch64 ] && cflags+=(-march=armv8-a+crc -DUB_ARCH_ARM64)

# 3. UMDK's utility library (what its liburma links in for its tools).
common_objs=()
build_common() {
	local c o
	rm -rf "$out/common" && mkdir -p "$out/common"
	for c in "$src"/common/*.c; do
		[ "${c##*/}" = ub_perf_cycle.c ] && continue  # PERF_CYCLE builds only
		o=$out/common/$(basename "$c" .c).o
		# shellcheck disable=SC2086 # pkg-config's words
		gcc "${cflags[@]}" -fPIC $urma_cflags -I"$inc" -c "$c" -o "$o" || return 1
		common_objs+=("$o")
	done
	rm -f "$out/libumdk_common.a"
	ar rcs "$out/libumdk_common.a" "${common_objs[@]}"
}
step "UMDK's utility library (src/urma/common)" common.log build_common

# 4. The tools, unchanged, against the installed liburma.
build_tool() { # build_tool NAME DIR EXTRA_CFLAGS EXTRA_LIBS
	local name=$1 dir=$2
	# shellcheck disable=SC2086 # pkg-config's and the caller's words
	gcc "${cflags[@]}" $urma_cflags -I"$inc" $3 -o "$out/$name" "$dir"/*.c \
		"$out/libumdk_common.a" $urma_libs $4 -lpthread -lm -ldl -lrt
}
[ -f "$out/libumdk_common.a" ] &&
	step "build urma_perftest" perftest-build.log build_tool urma_perftest "$src/tools/urma_perftest" "" "" &&
	perftest_ok=1
step "build urma_ping" ping-build.log \
	build_tool urma_ping "$src/tools/urma_ping" "$(pkg-config --cflags libnl-genl-3.0)" \
	"$(pkg-config --libs libnl-genl-3.0)" &&
	ping_ok=1
fi

# The runs. A tool in another namespace runs under "ip netns exec NS",
# which becomes the tool's process (exec): $! is then in the namespace,
# and its /proc/PID/net shows the server's listening socket.
server_pre=() client_pre=()
[ -z "$server_ns" ] || server_pre=(ip netns exec "$server_ns")
[ -z "$client_ns" ] || client_pre=(ip netns exec "$client_ns")
export UB_TOP=$top
# shellcheck source=tests/guest/lib.sh
. "$top/tests/guest/lib.sh"  # ub_wait_listen

# perftest_run NAME CMD OPTION...: urma_perftest CMD as a server process
# on server_dev and a client process on dev, each with the options; the
# client's result table is printed. UMDK's client retries a refused
# connection for 1.5 s only, so it starts once the server listens.
perftest_run() {
	local name=$1 cmd=$2 lib=$prefix/lib log rc=0 server port
	shift 2
	log=$out/perftest-${name// /-}
	port=$((21000 + 2 * (${#passed[@]} + ${#failed[@]} + ${#unsupported[@]})))
	echo "== urma_perftest $name"
	"${server_pre[@]}" env LD_LIBRARY_PATH="$lib" timeout 300 "$out/urma_perftest" "$cmd" \
		-d "$server_dev" -P "$port" "$@" > "$log-server.log" 2>&1 &
	server=$!
	ub_wait_listen "$port" 60 "$server" 2> /dev/null || rc=1
	[ $rc != 0 ] || "${client_pre[@]}" env LD_LIBRARY_PATH="$lib" timeout 300 "$out/urma_perftest" "$cmd" \
		-d "$dev" -P "$port" -S "$server_ip" "$@" > "$log-client.log" 2>&1 || rc=$?
	wait "$server" || rc=$((rc ? rc : 1))
	if [ $rc = 0 ]; then
		passed+=("perftest $name")
		grep -h -A1 -E '^ bytes +iterations' "$log-client.log"
	else
		failed+=("perftest $name (logs: $log-*.log)")
		echo "FAIL: perftest $name"
		tail -n 8 "$log-server.log" "$log-client.log"
	fi
}

# urma_ping --help: UMDK's urma_ping prints its usage and exits 1 (its
# option parser returns -EINVAL for -h), so the step passes when the usage
# is printed and the tool exits normally (not killed by a signal).
ping_help() {
	local rc=0
	LD_LIBRARY_PATH=$prefix/lib "$out/urma_ping" --help || rc=$?
	echo "urma_ping --help: exit status $rc"
	((rc < 128)) && grep -q '^Usage:' "$out/ping-help.log"
}

# ping_topo SRC DST CURRENT: a topology for urma_ping (the text format of
# "urma_admin topo set"): node 1 has SRC as its primary EID, node 2 DST
# (one node when they are the same), node CURRENT is this host's. This
# stack has no bonding devices: each node's aggregated device has its
# primary EID as its bonding EID.
ping_topo() {
	local n=1 eid
	for eid in "$1" "$2"; do
		echo "node $n$([ "$3" = $n ] && echo " current")"
		echo "  dev 0 $eid"
		echo "    ue 0 chip 0 die 0 entity 0 primary $eid"
		[ "$1" != "$2" ] || break
		n=2
	done
}

# ping_topo_set NS FILE: sets FILE as NS's topology ("" the initial
# namespace) unless it has one already; records what it set in ping_set.
ping_topo_set() {
	local pre=()
	[ -z "$1" ] || pre=(ip netns exec "$1")
	if "${pre[@]}" "${admin[@]}" show topo > /dev/null 2>&1; then
		echo "(namespace ${1:-initial} has a topology: kept)"
		return 0
	fi
	"${pre[@]}" "${admin[@]}" topo set "$2" && ping_set+=("$1")
}

# urma_ping from the client's device to the server device's first EID.
# UMDK's urma_ping finds the destination in the aggregation topology that
# ubagg.ko serves (generic netlink family UBAGG_GENL, GET_TOPO), and its
# SEND_IMMs are answered by the responder ubagg.ko gives each device whose
# EID is a primary EID of its namespace's topology (well-known jetty 5).
# So: ubagg.ko must be loaded (without it the run is listed unsupported,
# with the reason); a namespace without a topology gets one for the run
# (ping_topo: both devices' first EIDs as primary EIDs), removed after.
ping_run() {
	local src dst rc=0 log=$out/ping-run.log ns ping_set=()
	local admin=(env LD_LIBRARY_PATH="$prefix/lib" "$prefix/bin/urma_admin")
	src=$("${client_pre[@]}" cat "/sys/class/ubcore/$dev/eids/eid0" 2> /dev/null)
	dst=$("${server_pre[@]}" cat "/sys/class/ubcore/$server_dev/eids/eid0" 2> /dev/null)
	if [ ! -c /dev/ubagg ]; then
		unsupported+=("urma_ping: ubagg.ko is not loaded (no /dev/ubagg): UMDK's urma_ping needs its topology")
		return 0
	fi
	ping_topo "$src" "$dst" 1 > "$out/ping-client.topo"
	ping_topo "$src" "$dst" 2 > "$out/ping-server.topo"
	chmod 0644 "$out"/ping-*.topo
	echo "== topology for urma_ping"
	if ping_topo_set "$client_ns" "$out/ping-client.topo" &&
		{ [ "$client_ns" = "$server_ns" ] || ping_topo_set "$server_ns" "$out/ping-server.topo"; }; then
		echo "== urma_ping -c 3 -I $src $dst"
		"${client_pre[@]}" env LD_LIBRARY_PATH="$prefix/lib" timeout 60 "$out/urma_ping" -c 3 -i 1 -W 2 \
			-I "$src" "$dst" > "$log" 2>&1 || rc=$?
		cat "$log"
	else
		rc=1
		echo "cannot set the topology" > "$log"
	fi
	for ns in "${ping_set[@]}"; do
		if [ -n "$ns" ]; then ip netns exec "$ns" "${admin[@]}" topo clear; else "${admin[@]}" topo clear; fi
	done
	# urma_ping exits 0 even when no reply came: count the replies
	if [ $rc = 0 ] && [ "$(grep -c "bytes from .*: seq=" "$log")" = 3 ]; then
		passed+=("urma_ping $dst")
	else
		failed+=("urma_ping $dst (log: $log)")
	fi
}

run_tools() {
	if [ $ping_ok = 1 ]; then
		step "urma_ping --help" ping-help.log ping_help
	fi
	if [ ! -e "/dev/uburma/$dev" ] && [ -z "$client_ns" ]; then
		echo "== no /dev/uburma/$dev: the stack is not loaded, nothing run"
		failed+=("run (no /dev/uburma/$dev)")
		return 0
	fi
	if [ $perftest_ok = 1 ]; then
		local c
		for c in send_lat write_lat read_lat; do
			perftest_run "$c" "$c" -n 200 -s 64
		done
		perftest_run atomic_lat atomic_lat -n 200 -s 8
		for c in write_bw read_bw send_bw; do
			perftest_run "$c" "$c" -n 256 -s 16384
		done
		perftest_run atomic_bw atomic_bw -n 256 -s 8
		for c in send_lat write_lat read_lat; do
			perftest_run "$c RC" "$c" -n 200 -s 64 -p 1
			perftest_run "$c tp_aware" "$c" -n 200 -s 64 --tp_aware
		done
	fi
	[ $ping_ok = 0 ] || ping_run
}
[ $build_only = 1 ] || run_tools

echo
echo "umdk-check: ${#passed[@]} passed, ${#failed[@]} failed, ${#unsupported[@]} unsupported"
for p in "${passed[@]}"; do echo "  ok    $p"; done
for f in "${failed[@]}"; do echo "  FAIL  $f"; done
for u in "${unsupported[@]}"; do echo "  UNSUPPORTED  $u"; done
[ ${#failed[@]} -eq 0 ]
