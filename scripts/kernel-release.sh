#!/usr/bin/env bash
# Print the kernel release (uname -r) a kernel build directory builds for.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -eq 1 ] || ub_die "usage: ${0##*/} KDIR"
ub_kernel_release "$1"
