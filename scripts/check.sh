#!/usr/bin/env bash
# "make check": every test of the project.
#   1. dependencies, userspace build, host GoogleTest suites;
#   2. the test kernel (built once, cached), the modules against it;
#   3. a QEMU guest with that kernel runs the KUnit suites, the in-guest cases
#      and the GoogleTest integration binaries; then two such guests joined
#      by a link run the pair cases (scripts/pair-run.sh, tests/pair/cases);
#   4. host tests as scripts (tests/host): make install into a DESTDIR, a
#      checkout under /tmp in the guest, DKMS against the stock kernel;
#   5. scripts/summarize.py judges it all against the manifest of what must
#      report (scripts/suites.py, from the build: $res/manifest.json; the
#      host scripts add themselves to it as they start):
#      per-suite lines, then "N passed, N failed". Exits non-zero on any
#      failure.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
# with the time since the start: make check has a time budget (README)
ub_log() {
	printf '%s: [%d:%02d] %s\n' "${0##*/}" $((SECONDS / 60)) $((SECONDS % 60)) "$*" >&2
}

build=$UB_TOP/build
res=$build/results
manifest=$res/manifest.json
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
# host_script NAME COMMAND...: a host test written as a script. It joins
# the manifest's host suites (test script.NAME) before it runs, so that it
# must report; its report ($res/host/NAME.json, GoogleTest's shape), log and
# exit status (.rc) are those of a host suite.
host_script() {
	local name=$1 rc=0 fails=
	shift
	ub_log "host test $name"
	[ ! -e "$manifest" ] || python3 - "$manifest" "$name" "$*" <<'PY'
import json, sys
path, name, cmd = sys.argv[1:4]
with open(path) as f:
    m = json.load(f)
m.setdefault("host", []).append({"name": name, "cmd": cmd.split(), "tests": ["script." + name]})
with open(path, "w") as f:
    json.dump(m, f, indent=1)
PY
	"$@" > "$res/host/$name.log" 2>&1 || rc=$?
	echo "$rc" > "$res/host/$name.rc"
	if [ $rc -ne 0 ]; then
		tail -5 "$res/host/$name.log"
		fails=", \"failures\": [{\"failure\": \"exit $rc (log: host/$name.log)\"}]"
	fi
	printf '{"testsuites": [{"name": "script", "testsuite": [{"name": "%s", "status": "RUN", "result": "COMPLETED"%s}]}]}\n' \
		"$name" "$fails" > "$res/host/$name.json"
}
finish() {
	local m=()
	if compgen -G "$res/guest*/times.txt" > /dev/null; then
		ub_log "the slowest guest cases (s):"
		sort -k2 -rn "$res"/guest*/times.txt | head -12 | sed 's/^/  /' >&2
	fi
	[ ! -e "$manifest" ] || m=(--manifest "$manifest")
	python3 "$UB_TOP/scripts/summarize.py" "${m[@]}" "$@" \
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

step "list the suites (manifest)" "$res/manifest.log" \
	python3 "$UB_TOP/scripts/suites.py" host "$UB_TOP" "$build" "$manifest" ||
	finish
ub_log "host suites"
python3 "$UB_TOP/scripts/suites.py" run-host "$manifest" "$res/host"

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
step "list the KUnit suites (manifest)" "$res/manifest-kunit.log" \
	python3 "$UB_TOP/scripts/suites.py" kunit "$UB_TOP" "$build/kmod/test" "$manifest"
host_script install "$UB_TOP/tests/host/install.sh" "$build" "$kdir" "$build/kmod/test"

# "make check-long" (UB_CHECK_LONG=1): the fuzzers and fault injection
# run their long counts; the guest gets more time.
[ -z "${UB_CHECK_LONG:-}" ] || export UB_GUEST_TIMEOUT=${UB_GUEST_TIMEOUT:-7200}
# UB_GUESTS guests (default 2) side by side share the cases out: one
# guest keeps about one of the host's two cores busy (most cases run one
# thing at a time), two keep both (tests/guest/check-guest.sh's claims).
guests=${UB_GUESTS:-2}
guest_dirs=()
ub_log "running $guests guests (timeout ${UB_GUEST_TIMEOUT:-1800}s)"
mkdir -p "$res/claims"
guest_pids=()
for ((g = 1; g <= guests; g++)); do
	dir=$res/guest
	((g == 1)) || dir=$res/guest$g
	guest_dirs+=(--guest "$dir")
	( ((guests == 1)) || export UB_GUEST_CLAIMS=$res/claims
	"$UB_TOP/scripts/guest-run.sh" --kernel test "$dir" \
		"$UB_TOP/tests/guest/check-guest.sh" ||
	ub_log "guest run incomplete; console: $dir/console.log" ) &
	guest_pids+=($!)
done
# Every other guest boots after these: booting while another TCG guest
# keeps the cores busy once hung at the APIC timer's calibration for the
# 150 s a boot may stay silent (tmp-checkout, started as the first of the
# two guests ended, took 3:12 instead of 0:34).
wait "${guest_pids[@]}"
ub_log "guests done"
ub_log "running the guest pair"
"$UB_TOP/scripts/pair-run.sh" "$res/pair" "$UB_TOP"/tests/pair/cases/*.sh \
	> "$res/pair.log" 2>&1 || ub_log "guest pair failed: $res/pair.log"
host_script guest-tmp-checkout "$UB_TOP/tests/host/guest-tmp-checkout.sh" \
	"$res/tmp-checkout" test
host_script dkms "$UB_TOP/tests/host/dkms.sh" "$res/dkms"
finish --host "$res/host" "${guest_dirs[@]}" --pair "$res/pair"
