#!/usr/bin/env bash
# Host test: a checkout under /tmp runs in the guest. The guest mounts its
# own tmpfs on /tmp; before tests/guest/init.sh bound the host paths back, a
# fresh clone in /tmp was hidden and the run recorded nothing. This copies
# what a guest run needs (scripts/, tests/guest/, tests/kernel/) to a new
# directory under /tmp, boots the guest from there with a probe script and
# checks, from what the probe wrote to the results share, that the guest
# ran it from that path, read a file of the copy, saw the copy's UB_KMOD,
# and still had a /tmp of its own (tmpfs, writable).
#   usage: guest-tmp-checkout.sh OUTDIR [test|stock]
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
[ $# -ge 1 ] || ub_die "usage: ${0##*/} OUTDIR [test|stock]"
out=$1 kernel=${2:-test}
fail() { echo "FAIL: $*" >&2; exit 1; }

copy=$(mktemp -d /tmp/ub-checkout.XXXXXX)
trap 'rm -rf "$copy"' EXIT
mkdir -p "$copy/tests" "$copy/build/kmod/$kernel"
cp -a "$UB_TOP/scripts" "$copy/"
cp -a "$UB_TOP/tests/guest" "$UB_TOP/tests/kernel" "$copy/tests/"
token=$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
echo "$token" > "$copy/token"
echo "$token" > "$copy/build/kmod/$kernel/token"
cat > "$copy/tests/guest/tmp-probe.sh" <<'PROBE'
#!/bin/bash
# Runs in the guest from the copy's top (init.sh's cd "$ub_top").
echo "pwd $PWD"
read -r t < token && echo "token $t"
read -r t < "$UB_KMOD/token" && echo "kmod-token $t"
echo "tmp-fs $(stat -f -c %T /tmp)"
echo probe > /tmp/probe-written && echo "tmp-writable yes"
PROBE
ub_log "booting the $kernel kernel from $copy"
"$copy/scripts/guest-run.sh" --kernel "$kernel" --timeout 600 "$out" \
	"$copy/tests/guest/tmp-probe.sh" || fail "guest run (console: $out/console.log)"
log=$(cat "$out/script.log")
echo "$log"
[[ $log == *"pwd $copy"* ]] || fail "the guest did not run from $copy"
[[ $log == *"token $token"* ]] || fail "the guest did not read the copy's files"
[[ $log == *"kmod-token $token"* ]] || fail "the guest did not see the copy's UB_KMOD"
[[ $log == *"tmp-fs tmpfs"* ]] || fail "the guest's /tmp is not its own tmpfs"
[[ $log == *"tmp-writable yes"* ]] || fail "the guest's /tmp is not writable"
[ "$(cat "$out/script.rc")" = 0 ] || fail "probe exit $(cat "$out/script.rc")"
echo "guest from a checkout under /tmp: ok"
