# Helpers for in-guest scripts; sourced. UB_KMOD is the module build dir.
# shellcheck shell=bash
#
# Speed: under the test kernel (KASAN, lockdep and kmemleak, emulated by TCG)
# every fork costs about 0.25 s and every exec of a dynamically linked
# program 1 to 4 s (ip, kmod's insmod with libcrypto), the static busybox
# 0.2 to 0.5 s. So the helpers use bash builtins (globs, read, [[ ]]) and
# return results in variables rather than through $(...); insmod and rmmod
# are busybox's (the same init_module() and delete_module() calls).

UB_BUSYBOX=/bin/busybox

# The stack's modules in load order, relative to UB_KMOD.
UB_MODULES=()
while read -r _ub_m; do
	[[ -z $_ub_m || $_ub_m == '#'* ]] || UB_MODULES+=("$_ub_m")
done < "$UB_TOP/tests/guest/modules.list"
unset _ub_m

ub_insmod() { "$UB_BUSYBOX" insmod "$@"; }
ub_rmmod() { "$UB_BUSYBOX" rmmod "$@"; }

# ub_module_loaded NAME: whether module NAME is loaded.
ub_module_loaded() {
	local name rest
	while read -r name rest; do
		[[ $name == "$1" ]] && return 0
	done < /proc/modules
	return 1
}

# ub_load_stack [NETDEVS]: load the stack; udma binds to NETDEVS ("lo",
# "lo,veth0"), or to nothing when NETDEVS is empty.
ub_load_stack() {
	local m args
	for m in "${UB_MODULES[@]}"; do
		args=()
		if [[ ${m##*/} == udma.ko && -n ${1:-} ]]; then
			args=("netdev=$1")
		fi
		ub_insmod "$UB_KMOD/$m" "${args[@]}" || { ub_unload_stack; return 1; }
	done
}

ub_unload_stack() {
	local i m rc=0
	# ipourma.ko is loaded by the cases that use it, not with the stack
	# (it holds objects on every UB device); it goes first.
	if ub_module_loaded ipourma; then
		ub_rmmod ipourma || rc=1
	fi
	for ((i = ${#UB_MODULES[@]} - 1; i >= 0; i--)); do
		m=${UB_MODULES[i]##*/}
		m=${m%.ko}
		if ub_module_loaded "$m"; then
			ub_rmmod "$m" || rc=1
		fi
	done
	return $rc
}

ub_fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# ub_sleep SECONDS: sleep without the fork and exec of sleep(1): wait for
# input that never comes on a pipe this shell holds both ends of.
ub_sleep() {
	if [[ -z ${_ub_sleep_fd:-} ]]; then
		exec {_ub_sleep_fd}<> <(:)
	fi
	read -r -t "$1" -u "$_ub_sleep_fd" _ || :
}

UB_CLASS=/sys/class/ubcore

# ub_wait_eid [DEV]: until DEV (udma0) has its first EID (the EID table is
# filled by a work item after registration), at most 5 s.
ub_wait_eid() {
	local i
	for ((i = 0; i < 50; i++)); do
		[[ -e $UB_CLASS/${1:-udma0}/eids/eid0 ]] && return 0
		ub_sleep 0.1
	done
	echo "${1:-udma0} has no EID" >&2
	return 1
}

# ub_devs: the UB devices' names, sorted, space-separated, in UB_DEVS.
ub_devs() {
	local d
	UB_DEVS=
	for d in "$UB_CLASS"/*; do
		[[ -L $d ]] && UB_DEVS+=" ${d##*/}"
	done
	UB_DEVS=${UB_DEVS# }
}

# expect_devs "NAME...": the UB devices are exactly these.
expect_devs() {
	ub_devs
	[[ $UB_DEVS == "$1" ]] || ub_fail "devices are '$UB_DEVS', want '$1'"
}

# expect_attr DEV ATTR VALUE: a sysfs attribute of a UB device.
expect_attr() {
	local v
	read -r v < "$UB_CLASS/$1/$2"
	[[ $v == "$3" ]] || ub_fail "$1/$2 is '$v', want '$3'"
}

# ub_link_up DEV / ub_link_down DEV / ub_link_mtu DEV MTU: what "ip link set"
# does, written to the netdev's sysfs attributes "flags" and "mtu": the same
# dev_change_flags() and dev_set_mtu() in the kernel, with no exec of ip.
ub_link_up() {
	local flags
	read -r flags < "/sys/class/net/$1/flags"
	printf '%#x\n' $((flags | 1)) > "/sys/class/net/$1/flags" # IFF_UP
}
ub_link_down() {
	local flags
	read -r flags < "/sys/class/net/$1/flags"
	printf '%#x\n' $((flags & ~1)) > "/sys/class/net/$1/flags"
}
ub_link_mtu() {
	echo "$2" > "/sys/class/net/$1/mtu"
}
