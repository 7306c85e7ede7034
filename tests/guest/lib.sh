# Helpers for in-guest scripts; sourced. UB_KMOD is the module build dir.
# shellcheck shell=bash

ub_modules() {
	grep -v '^#' "$UB_TOP/tests/guest/modules.list"
}

# ub_load_stack [NETDEVS]: load the stack; udma binds to NETDEVS ("lo",
# "lo,veth0"), or to nothing when NETDEVS is empty.
ub_load_stack() {
	local m args
	for m in $(ub_modules); do
		args=()
		if [ "${m##*/}" = udma.ko ] && [ -n "${1:-}" ]; then
			args=("netdev=$1")
		fi
		insmod "$UB_KMOD/$m" "${args[@]}" || { ub_unload_stack; return 1; }
	done
}

ub_unload_stack() {
	local m rc=0
	for m in $(ub_modules | tac); do
		m=${m##*/}
		if grep -q "^${m%.ko} " /proc/modules; then
			rmmod "${m%.ko}" || rc=1
		fi
	done
	return $rc
}

ub_fail() {
	echo "FAIL: $*" >&2
	exit 1
}
