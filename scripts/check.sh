#!/usr/bin/env bash
# "make check": every test of the project.
#   1. dependencies, userspace build;
#   2. the test kernel (built once, cached), the modules against it, and
#      make install of both into build/install-root (a guest case mounts
#      it);
#   3. two QEMU guests with that kernel share out the KUnit suites, the
#      in-guest cases and the GoogleTest integration binaries; beside them,
#      niced, the host GoogleTest suites, make install into a DESTDIR and
#      the DKMS build for the stock kernel (tests/host);
#   4. two guests joined by a link run the pair cases (scripts/pair-run.sh,
#      tests/pair/cases); then two more boot, a checkout under /tmp and the
#      stock kernel with the modules DKMS built;
#   5. scripts/summarize.py judges it all against the manifest of what must
#      report (scripts/suites.py, from the build: $res/manifest.json; the
#      host scripts join it before the guests start):
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
# A host test written as a script: host_script_join NAME COMMAND... makes
# it one of the manifest's host suites (test script.NAME), so that it must
# report (all join before anything runs in the background: one writer of
# the manifest at a time); host_script_run NAME COMMAND... runs it, its
# report ($res/host/NAME.json, GoogleTest's shape), log and exit status
# (.rc) those of a host suite.
host_script_join() {
	local name=$1
	shift
	[ ! -e "$manifest" ] || python3 - "$manifest" "$name" "$*" <<'PY'
import json, sys
path, name, cmd = sys.argv[1:4]
with open(path) as f:
    m = json.load(f)
m.setdefault("host", []).append({"name": name, "cmd": cmd.split(), "tests": ["script." + name],
                                 "script": True})
with open(path, "w") as f:
    json.dump(m, f, indent=1)
PY
}
host_script_run() {
	local name=$1 rc=0 fails=
	shift
	ub_log "host test $name"
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

host_suites() {
	python3 "$UB_TOP/scripts/suites.py" run-host "$manifest" "$res/host"
}

ub_log "build or reuse the test kernel"
kdir=$("$UB_TOP/scripts/test-kernel.sh") || {
	failures+=("build the test kernel")
	host_suites
	finish --host "$res/host"
}
step "build modules for the test kernel" "$res/kmod.log" \
	"$UB_TOP/scripts/build-modules.sh" "$kdir" "$build/kmod/test" || {
	host_suites
	finish --host "$res/host"
}
if grep -E 'warning:|error:' "$res/kmod.log"; then
	failures+=("modules build without warnings (W=1)")
fi
step "list the KUnit suites (manifest)" "$res/manifest-kunit.log" \
	python3 "$UB_TOP/scripts/suites.py" kunit "$UB_TOP" "$build/kmod/test" "$manifest"
# make install for the test kernel, staged for the guest case
# installed-stack (a few seconds; it must exist before the guests boot).
step "make install into build/install-root (for the guest)" "$res/install-root.log" \
	"$UB_TOP/scripts/install-root.sh" "$build" "$kdir" "$build/kmod/test" \
	"$build/install-root"
host_script_join install "$UB_TOP/tests/host/install.sh" "$build" "$kdir" "$build/kmod/test"
host_script_join dkms-build "$UB_TOP/tests/host/dkms.sh" --build
host_script_join guest-tmp-checkout "$UB_TOP/tests/host/guest-tmp-checkout.sh" \
	"$res/tmp-checkout" test
host_script_join dkms "$UB_TOP/tests/host/dkms.sh" --probe "$res/dkms"

# "make check-long" (UB_CHECK_LONG=1): the fuzzers and fault injection
# run their long counts; the guest gets more time and 2 vCPUs (the cases'
# threads really run at once: races show), where make check gives each
# guest 1 (2 guests of 2 vCPUs on the 2 cores of CI took 12:35 for the
# cases, 2 of 1 took 10:34: a vCPU thread preempted while it holds a
# guest spinlock stalls the other one).
if [ -n "${UB_CHECK_LONG:-}" ]; then
	export UB_GUEST_TIMEOUT=${UB_GUEST_TIMEOUT:-7200} UB_GUEST_SMP=${UB_GUEST_SMP:-2}
else
	# Each guest's cases take 13 to 20 minutes here; CI's machine once
	# took over 30 (one guest killed at 1800 s with all its cases done).
	export UB_GUEST_TIMEOUT=${UB_GUEST_TIMEOUT:-2700} UB_GUEST_SMP=${UB_GUEST_SMP:-1}
fi
# UB_GUESTS guests (default 2) side by side share the cases out
# (tests/guest/check-guest.sh's claims): one a host core.
guests=${UB_GUESTS:-2}
guest_dirs=()
ub_log "running $guests guests (timeout ${UB_GUEST_TIMEOUT}s)"
mkdir -p "$res/claims"
for ((g = 1; g <= guests; g++)); do
	dir=$res/guest
	((g == 1)) || dir=$res/guest$g
	guest_dirs+=(--guest "$dir")
	( ((guests == 1)) || export UB_GUEST_CLAIMS=$res/claims
	"$UB_TOP/scripts/guest-run.sh" --kernel test "$dir" \
		"$UB_TOP/tests/guest/check-guest.sh" ||
	ub_log "guest run incomplete; console: $dir/console.log" ) &
done
# Meanwhile, niced (about a tenth of a core while both guests run, all
# of one once the first guest ends; nice 19 would starve them against the
# 600 s a host suite may take): the host suites, the install test and the
# DKMS build for the stock kernel. The other guests (the pair,
# tmp-checkout, DKMS's) boot after these: booting while another TCG
# guest keeps the cores busy once hung at the APIC timer's calibration
# for the 150 s a boot may stay silent (tmp-checkout, started as the
# first of the two guests ended, took 3:12 instead of 0:34).
(
	renice -n 10 -p "$BASHPID" > /dev/null
	# not while the guests boot: their boots stall more often on a busier
	# host (one hung twice beside the DKMS build's start, after "APIC
	# calibration not consistent with PM-Timer")
	for _ in $(seq 300); do
		booted=0
		for d in "${guest_dirs[@]}"; do
			[[ $d == --guest ]] || ! grep -qs 'ub-guest: running' "$d/console.log" ||
				booted=$((booted + 1))
		done
		((booted < guests)) || break
		sleep 1
	done
	# the longest first: it must not be the last thing make check waits for
	host_script_run dkms-build "$UB_TOP/tests/host/dkms.sh" --build
	ub_log "host suites (niced, beside the guests)"
	host_suites
	host_script_run install "$UB_TOP/tests/host/install.sh" "$build" "$kdir" "$build/kmod/test"
) &
wait
ub_log "guests and host tests done"
ub_log "running the guest pair"
"$UB_TOP/scripts/pair-run.sh" "$res/pair" "$UB_TOP"/tests/pair/cases/*.sh \
	> "$res/pair.log" 2>&1 || ub_log "guest pair failed: $res/pair.log"
# Two guests of 1 vCPU that boot at once, as the pair's.
UB_GUEST_SMP=1 host_script_run guest-tmp-checkout "$UB_TOP/tests/host/guest-tmp-checkout.sh" \
	"$res/tmp-checkout" test &
UB_GUEST_SMP=1 host_script_run dkms "$UB_TOP/tests/host/dkms.sh" --probe "$res/dkms"
wait
finish --host "$res/host" "${guest_dirs[@]}" --pair "$res/pair"
