# Helpers for in-guest scripts; sourced. UB_KMOD is the module build dir.
# shellcheck shell=bash

ub_modules() {
	grep -v '^#' "$UB_TOP/tests/guest/modules.list"
}

ub_load_stack() {
	local m
	for m in $(ub_modules); do
		insmod "$UB_KMOD/$m" || return 1
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
