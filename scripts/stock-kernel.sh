#!/usr/bin/env bash
# Prepare (once) Debian's stock kernel for the guest: the linux-image package
# that matches the installed linux-headers-amd64, unpacked into the cache with
# its module index, plus a small busybox initramfs that loads the 9p modules
# and mounts the host root (the stock kernel has 9p as modules, not built in).
# Prints the directory; it holds vmlinuz, initrd.img and root/lib/modules.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$UB_TOP/scripts/deps.sh"
kdir=$(ub_stock_kdir)
rel=$(ub_kernel_release "$kdir")
dir=$UB_CACHE/stock-$rel

mkdir -p "$UB_CACHE"
exec 9>"$UB_CACHE/stock.lock"
flock 9
if [ -e "$dir/.done" ]; then
	echo "$dir"
	exit 0
fi

ub_log "preparing stock kernel $rel"
rm -rf "$dir"
mkdir -p "$dir/deb" "$dir/root"
(cd "$dir/deb" && apt-get download -q -o APT::Sandbox::User=root "linux-image-$rel" >/dev/null) ||
	ub_die "cannot download linux-image-$rel (apt-get update?)"
dpkg-deb -x "$dir"/deb/*.deb "$dir/root"
rm -rf "$dir/deb"
depmod -b "$dir/root" "$rel"
cp "$dir/root/boot/vmlinuz-$rel" "$dir/vmlinuz"

# The initramfs: busybox, the 9p/virtio modules in load order, and /init.
ird=$dir/initrd
mkdir -p "$ird/bin" "$ird/lib"
cp /bin/busybox "$ird/bin/busybox"
modprobe -d "$dir/root" -S "$rel" --show-depends -a virtio_pci 9pnet_virtio 9p |
	awk '$1 == "insmod" { print $2 }' | awk '!seen[$0]++' |
	while read -r ko; do
		name=${ko##*/}
		case "$name" in
		*.xz) xz -dc "$ko" > "$ird/lib/${name%.xz}"; name=${name%.xz} ;;
		*.zst) zstd -qdc "$ko" > "$ird/lib/${name%.zst}"; name=${name%.zst} ;;
		*) cp "$ko" "$ird/lib/$name" ;;
		esac
		echo "$name" >> "$ird/lib/load-order"
	done
cp "$UB_TOP/tests/guest/initramfs-init" "$ird/init"
chmod +x "$ird/init"
(cd "$ird" && find . | cpio -o -H newc --quiet | gzip -1) > "$dir/initrd.img"
rm -rf "$ird"
touch "$dir/.done"
echo "$dir"
