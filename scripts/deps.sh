#!/usr/bin/env bash
# Install the Debian 12 packages the project needs. Idempotent: packages that
# are already installed are not touched, and apt is not called at all when
# nothing is missing.
set -euo pipefail

PKGS=(
	build-essential bc flex bison libelf-dev libssl-dev dwarves cpio kmod
	rsync xz-utils zstd python3 perl sparse ccache
	linux-source-6.1 linux-headers-amd64
	qemu-system-x86 busybox-static
	cmake g++ pkg-config libgtest-dev googletest libgmock-dev
	libnl-3-dev libnl-genl-3-dev
	iproute2 ethtool dkms
	perftest rdma-core ibverbs-providers ibverbs-utils libibverbs-dev
	iperf3 sockperf linux-perf
	redis-server
)

missing=()
for p in "${PKGS[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done

if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi

echo "deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
