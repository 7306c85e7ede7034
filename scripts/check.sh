#!/usr/bin/env bash
# "make check": every test of the project.
#   1. dependencies, userspace build, host GoogleTest suites;
#   2. the test kernel (built once, cached), the modules against it;
#   3. a QEMU guest with that kernel runs the KUnit suites, the in-guest cases
#      and the GoogleTest integration binaries;
#   4. scripts/summarize.py judges it all: per-suite lines, then
#      "N passed, N failed". Exits non-zero on any failure.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

build=$UB_TOP/build
res=$build/results
failures=()
# step WHAT LOG COMMAND...: run a set-up step, its output to LOG; on failure
# show the end of LOG and count the step as failed.
step() {
	local what=$1 log=$2
	shift 2
	ub_log "$what"
	"$@" > "$log" 2>&1 && return 0
	tail -30 "$log"
	failures+=("$what (log: $log)")
	return 1
}
finish() {
	python3 "$UB_TOP/scripts/summarize.py" "$@" \
		"${failures[@]/#/--extra-failure=}"
	exit $?
}

# One run at a time per checkout: a second would delete this one's results.
mkdir -p "$build"
exec 8>"$build/.check.lock"
flock -n 8 || ub_die "another make check is running in $UB_TOP"

rm -rf "$res"
mkdir -p "$res/host"
step "install dependencies" "$res/deps.log" "$UB_TOP/scripts/deps.sh" || finish
step "configure userspace" "$res/cmake.log" \
	cmake -S "$UB_TOP" -B "$build" -DCMAKE_BUILD_TYPE=Debug || finish
step "build userspace" "$res/build.log" \
	cmake --build "$build" -j"$(nproc)" || finish

for t in "$build"/tests/unit/*_test; do
	[ -x "$t" ] || continue
	n=$(basename "$t")
	"$t" --gtest_output="json:$res/host/$n.json" > "$res/host/$n.log" 2>&1 ||
		ub_log "host suite $n failed (log: $res/host/$n.log)"
done

ub_log "build or reuse the test kernel"
kdir=$("$UB_TOP/scripts/test-kernel.sh") || {
	failures+=("build the test kernel")
	finish --host "$res/host"
}
step "build modules for the test kernel" "$res/kmod.log" \
	"$UB_TOP/scripts/build-modules.sh" "$kdir" "$build/kmod/test" ||
	finish --host "$res/host"
if grep -E 'warning:|error:' "$res/kmod.log"; then
	failures+=("modules build without warnings (W=1)")
fi

# "make check-long" (UB_CHECK_LONG=1): the fuzzers and fault injection
# run their long counts; the guest gets more time.
[ -z "${UB_CHECK_LONG:-}" ] || export UB_GUEST_TIMEOUT=${UB_GUEST_TIMEOUT:-7200}
ub_log "running the guest (timeout ${UB_GUEST_TIMEOUT:-1800}s)"
"$UB_TOP/scripts/guest-run.sh" --kernel test "$res/guest" \
	"$UB_TOP/tests/guest/check-guest.sh" ||
	ub_log "guest run incomplete; console: $res/guest/console.log"
finish --host "$res/host" --guest "$res/guest"
