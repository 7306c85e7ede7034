#!/usr/bin/env bash
# Print the kernel build directory to build the modules against: $KDIR if
# set, else the running kernel's build directory, else the installed Debian
# linux-headers (the stock kernel that "make demo" boots).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if [ -n "${KDIR:-}" ]; then
	echo "$KDIR"
	exit 0
fi
running=/lib/modules/$(uname -r)/build
if [ -d "$running" ]; then
	echo "$running"
	exit 0
fi
stock=$(ub_stock_kdir)
ub_log "no build directory for the running kernel $(uname -r); using $stock"
echo "$stock"
