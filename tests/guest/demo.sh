#!/bin/bash
# In-guest part of "make demo": what a new user of the stack sees on the
# stock Debian kernel. Runs from the repo top with UB_KMOD set.
set -eu
export UB_TOP=$PWD
. "$UB_TOP/tests/guest/lib.sh"

echo "== kernel: $(uname -r)"
ub_load_stack
echo "== modules loaded"
lsmod | grep -E '^(Module|ubcore)'
echo "== /sys/class/ubcore"
ls -l /sys/class/ubcore/
echo "abi_version: $(cat /sys/class/ubcore/abi_version)"
echo "== kernel log"
dmesg | grep -E 'ubcore' || true
ub_unload_stack
echo "== unloaded: $( [ -e /sys/class/ubcore ] && echo no || echo yes)"
