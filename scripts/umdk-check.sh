#!/usr/bin/env bash
# UMDK's own tools against this stack: builds urma_perftest and urma_ping
# from a UMDK checkout the user provides (https://gitee.com/openeuler/umdk
# or a mirror; nothing of it is part of this project) against the headers
# and liburma that "make install" installs, then, where the stack is loaded
# (/dev/uburma/<dev>), runs a short smoke test: urma_perftest between two
# processes on this host (a server and a client over TCP on 127.0.0.1), and
# urma_ping's --help.
#
#   usage: scripts/umdk-check.sh [--out DIR] [--dev DEV] [--build-only | --run-only] UMDK_DIR
#
# --build-only stops before the run; --run-only runs what an earlier run
# built in DIR (DIR may be a copy: it holds the installed liburma too).
# UMDK_DIR is the top of the checkout (it has src/urma). What is built:
#  - liburma from this checkout, installed with "make userspace_install"
#    into DIR/root (PREFIX /usr/local), used through its liburma.pc;
#  - UMDK's internal utility library (src/urma/common, ub_* helpers that
#    urma_perftest calls), from UMDK_DIR, as DIR/libumdk_common.a;
#  - the headers urma_perftest includes besides urma_api.h, urma_types.h
#    and urma_opcode.h (urma_provider.h, urma_types_str.h, urma_ubagg.h,
#    the ub_*.h helpers) are copied from UMDK_DIR to DIR/umdk-include, so
#    that UMDK's own API headers are never used: ours come first;
#  - urma_perftest and urma_ping from UMDK_DIR's sources, unchanged.
# Each step's log is in DIR (default build/umdk-check); the last lines say
# what built and what ran. Exit status 0 only when every step passed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/umdk-check dev=udma0 build_only=0 run_only=0
while [ $# -gt 1 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--dev) dev=$2; shift 2 ;;
	--build-only) build_only=1; shift ;;
	--run-only) run_only=1; shift ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
umdk=$(cd "$1" && pwd) || exit 2
src=$umdk/src/urma
[ -d "$src/tools/urma_perftest" ] || { echo "umdk-check: $umdk has no src/urma/tools/urma_perftest" >&2; exit 2; }
mkdir -p "$out" && out=$(cd "$out" && pwd)
failed=() passed=()

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

# urma_ping --help: UMDK's urma_ping prints its usage and exits 1 (its
# option parser returns -EINVAL for -h), so the step passes when the usage
# is printed and the tool exits normally (not killed by a signal).
ping_help() {
	local rc=0
	LD_LIBRARY_PATH=$1 "$out/urma_ping" --help || rc=$?
	echo "urma_ping --help: exit status $rc"
	((rc < 128)) && grep -q '^Usage:' "$out/ping-help.log"
}

run_tools() {
	local lib=$prefix/lib
	if [ $ping_ok = 1 ]; then
		step "urma_ping --help" ping-help.log ping_help "$lib"
	fi
	[ $perftest_ok = 1 ] || return 0
	if [ ! -e "/dev/uburma/$dev" ]; then
		echo "== no /dev/uburma/$dev: the stack is not loaded, perftest not run"
		failed+=("perftest run (no /dev/uburma/$dev)")
		return 0
	fi
	local t port=21000 rc
	for t in send_lat write_lat read_lat write_bw; do
		port=$((port + 1))
		echo "== urma_perftest $t between two processes"
		LD_LIBRARY_PATH=$lib timeout 60 "$out/urma_perftest" "$t" -d "$dev" -n 200 -s 64 -P "$port" \
			> "$out/perftest-$t-server.log" 2>&1 &
		local server=$!
		sleep 1
		rc=0
		LD_LIBRARY_PATH=$lib timeout 60 "$out/urma_perftest" "$t" -d "$dev" -n 200 -s 64 -P "$port" \
			-S 127.0.0.1 > "$out/perftest-$t-client.log" 2>&1 || rc=$?
		wait "$server" || rc=$((rc ? rc : 1))
		if [ $rc = 0 ]; then
			passed+=("perftest $t")
			tail -n 4 "$out/perftest-$t-client.log"
		else
			failed+=("perftest $t (logs: $out/perftest-$t-*.log)")
			echo "FAIL: perftest $t"
			tail -n 8 "$out/perftest-$t-server.log" "$out/perftest-$t-client.log"
		fi
	done
}
[ $build_only = 1 ] || run_tools

echo
echo "umdk-check: ${#passed[@]} passed, ${#failed[@]} failed"
for p in "${passed[@]}"; do echo "  ok    $p"; done
for f in "${failed[@]}"; do echo "  FAIL  $f"; done
[ ${#failed[@]} -eq 0 ]
