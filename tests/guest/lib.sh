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
	# so is ums.ko (tests/guest/cases/ums-ns-pair.sh), a client of ubcore
	if ub_module_loaded ums; then
		ub_rmmod ums || rc=1
	fi
	# and ubagg.ko (tests/guest/cases/ubagg-topo.sh, tests/guest/umdk.sh)
	if ub_module_loaded ubagg; then
		ub_rmmod ubagg || rc=1
	fi
	# and roub.ko with its test module (cases/roub-ns-pair.sh)
	for m in roub_ktest roub; do
		if ub_module_loaded $m; then
			ub_rmmod $m || rc=1
		fi
	done
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

# The namespace pair: two "hosts" in one guest. Two network namespaces,
# UB_NS_A and UB_NS_B, joined by a veth pair (UB_VETH_A in A, UB_VETH_B in
# B) with IPv4 and IPv6 addresses (UB_IP4_A/B, UB_IP6_A/B, no DAD), and,
# once the stack is loaded, one udma device in each (UB_DEV_A on
# UB_VETH_A, UB_DEV_B on UB_VETH_B). Override the names before
# ub_nspair_create to run two pairs.
UB_NS_A=${UB_NS_A:-uboeA} UB_NS_B=${UB_NS_B:-uboeB}
UB_VETH_A=${UB_VETH_A:-vA} UB_VETH_B=${UB_VETH_B:-vB}
UB_IP4_A=${UB_IP4_A:-10.77.0.1} UB_IP4_B=${UB_IP4_B:-10.77.0.2}
UB_IP6_A=${UB_IP6_A:-fd77::1} UB_IP6_B=${UB_IP6_B:-fd77::2}
UB_DEV_A=${UB_DEV_A:-udmaA} UB_DEV_B=${UB_DEV_B:-udmaB}
UB_ADMIN=${UB_ADMIN:-$UB_TOP/build/tools/urma_admin/urma_admin}

# ub_dev_clean NS DEV: DEV, in namespace NS, holds no UB object (every
# counter of its sysfs objects/ is 0, pinned_pages aside); else prints the
# first that is not and returns 1.
ub_dev_clean() {
	# shellcheck disable=SC2016
	ub_ns "$1" bash -c 'for f in "$1"/objects/*; do
		read -r v < "$f"
		[[ $f == */pinned_pages || $v == 0 ]] || { echo "$f is $v"; exit 1; }
	done' sh "$UB_CLASS/$2"
}

# ub_ns NS CMD...: run CMD in namespace NS, with NS's /sys (so sysfs and
# /sys/class/ubcore show NS's devices).
ub_ns() {
	local ns=$1
	shift
	ip netns exec "$ns" "$@"
}

# ub_nspair_create: the two namespaces, the veth pair, the addresses. One
# ip per namespace: every exec of ip costs seconds under the test kernel.
ub_nspair_create() {
	ip -batch - <<-IP || return 1
	netns add $UB_NS_A
	netns add $UB_NS_B
	link add $UB_VETH_A type veth peer name $UB_VETH_B
	link set $UB_VETH_A netns $UB_NS_A
	link set $UB_VETH_B netns $UB_NS_B
	IP
	ip -n "$UB_NS_A" -batch - <<-IP || return 1
	link set lo up
	link set $UB_VETH_A up
	addr add $UB_IP4_A/24 dev $UB_VETH_A
	addr add $UB_IP6_A/64 dev $UB_VETH_A nodad
	IP
	ip -n "$UB_NS_B" -batch - <<-IP || return 1
	link set lo up
	link set $UB_VETH_B up
	addr add $UB_IP4_B/24 dev $UB_VETH_B
	addr add $UB_IP6_B/64 dev $UB_VETH_B nodad
	IP
}

# ub_veth_rx_cpu NS DEV CPU: DEV (in namespace NS) does its receive
# processing on CPU alone (RPS), if the guest has that CPU. The benchmarks
# give each end of their namespace pair its own CPU this way: on a veth the
# receiving end's softirq otherwise runs on the CPU that sent, so that one
# vCPU does both hosts' kernel work while the other idles, where two hosts
# each have their own. It holds for the TCP rows and the URMA rows alike.
ub_veth_rx_cpu() {
	local cpus
	cpus=$(nproc)
	((cpus > $3)) || return 0
	ip netns exec "$1" sh -c \
		"printf %x $((1 << $3)) > /sys/class/net/$2/queues/rx-0/rps_cpus"
}

# ub_pin CPU: the words that pin a command to CPU ("taskset -c CPU"), or
# "env" when the guest has no such CPU; read into an array and put in
# front of the command, so that a command started with & keeps its PID
# (ub_wait_listen reads the listener's namespace through it). Benchmarks
# put each end's application on the CPU that receives its namespace's
# packets (ub_nspair_rx_split): unpinned, a TCG guest's scheduler put both
# ends of a ping-pong on one CPU or not, and the same run's medians went
# from 200 to 700 us.
ub_pin() {
	if (($(nproc) > $1)); then
		echo "taskset -c $1"
	else
		echo env
	fi
}

# ub_nspair_rx_split: UB_VETH_A receives on CPU 0, UB_VETH_B on CPU 1
# (ub_veth_rx_cpu); for benchmarks.
ub_nspair_rx_split() {
	ub_veth_rx_cpu "$UB_NS_A" "$UB_VETH_A" 0 &&
	ub_veth_rx_cpu "$UB_NS_B" "$UB_VETH_B" 1
}

# ub_nspair_add_devs: UB_DEV_A and UB_DEV_B, each created from inside its
# namespace (urma_admin dev add), each waited for until its IPv4 and IPv6
# addresses are EIDs (the EID table is filled by a work item; at most
# 10 s). The stack must be loaded.
ub_nspair_add_devs() {
	ub_nspair_add_dev "$UB_NS_A" "$UB_DEV_A" "$UB_VETH_A" "$UB_IP4_A" \
		"$UB_IP6_A" &&
	ub_nspair_add_dev "$UB_NS_B" "$UB_DEV_B" "$UB_VETH_B" "$UB_IP4_B" \
		"$UB_IP6_B"
}

# ub_nspair_add_dev NS DEV NETDEV IP4 IP6 (ub_nspair_add_devs)
ub_nspair_add_dev() {
	ub_ns "$1" "$UB_ADMIN" dev add "$2" netdev "$3" || return 1
	# shellcheck disable=SC2016
	ub_ns "$1" "$UB_BUSYBOX" sh -c '
		for i in $(seq 100); do
			e=$(cat "$1"/eids/* 2>/dev/null)
			case "$e" in *"$2"*) case "$e" in *"$3"*) exit 0;; esac;; esac
			sleep 0.1
		done
		echo "$1 has not $2 and $3 as EIDs: $e" >&2
		exit 1' sh "$UB_CLASS/$2" "$4" "$5"
}

# ub_wait_listen PORT [TIMEOUT [PID]]: until a TCP socket listens on PORT
# (a server's side channel) in the network namespace of process PID (this
# shell's), at most TIMEOUT seconds (60). Reads /proc/PID/net/tcp{,6}
# with builtins: no exec.
ub_wait_listen() {
	local hex f addr st end=$((SECONDS + ${2:-60}))
	printf -v hex '%04X' "$1"
	while ((SECONDS < end)); do
		for f in "/proc/${3:-self}/net/tcp" "/proc/${3:-self}/net/tcp6"; do
			while read -r _ addr _ st _; do
				[[ $addr == *":$hex" && $st == 0A ]] && return 0
			done 2> /dev/null < "$f" # (PID's /proc is gone when it exited)
		done
		ub_sleep 0.2
	done
	echo "nothing listens on port $1" >&2
	return 1
}

# ub_wait_pid PID SECONDS: until PID exits, at most SECONDS; fails if it
# still runs then (the caller shows why and stops it).
ub_wait_pid() {
	local end=$((SECONDS + $2))
	while kill -0 "$1" 2> /dev/null; do
		((SECONDS < end)) || return 1
		ub_sleep 1
	done
}

# ub_dmesg_mark: a line in the kernel log from which ub_dmesg_since prints
# it (in DMESG_SINCE's file). The log is never cleared: the harness judges
# all of it (KASAN, lockdep, WARN of any case).
ub_dmesg_mark() {
	UB_DMESG_MARK="ub-check: mark $$ $RANDOM$RANDOM"
	echo "$UB_DMESG_MARK" > /dev/kmsg
}
ub_dmesg_since() {
	"$UB_BUSYBOX" dmesg | sed -n "/$UB_DMESG_MARK/,\$p"
}

# ub_nspair_netem: tc netem with issue 11's bad network on both ends of
# the veth: 5% loss, 10% reordering, 1% duplication, 5 ms +- 2 ms delay.
# ub_nspair_netem_off takes it away again.
ub_nspair_netem() {
	ub_ns "$UB_NS_A" tc qdisc add dev "$UB_VETH_A" root netem loss 5% \
		reorder 10% duplicate 1% delay 5ms 2ms &&
	ub_ns "$UB_NS_B" tc qdisc add dev "$UB_VETH_B" root netem loss 5% \
		reorder 10% duplicate 1% delay 5ms 2ms
}
ub_nspair_netem_off() {
	ub_ns "$UB_NS_A" tc qdisc del dev "$UB_VETH_A" root &&
	ub_ns "$UB_NS_B" tc qdisc del dev "$UB_VETH_B" root
}

# ub_wire_cnt NS DEV COUNTER: the UBoE counter COUNTER of DEV (its wire/
# attribute), which is in namespace NS, in WIRE_CNT.
ub_wire_cnt() {
	# shellcheck disable=SC2034 # the caller's
	WIRE_CNT=$(ub_ns "$1" "$UB_BUSYBOX" cat "$UB_CLASS/$2/wire/$3")
}

# ub_dump_stall PROGRAM FILES...: what a transfer between the pair's
# namespaces that stopped moving waits for: the non-zero wire counters
# and ubcore TPs of every UB device with a wire in them, their
# neighbours, qdiscs and UDP and UBoE drop counters, udma's TPs and send
# queues and UMS's connections (debugfs), the last lines of FILES (the
# transfer's outputs), and the kernel stacks of every thread of the
# processes running PROGRAM (none if it is empty).
ub_dump_stall() {
	local prog=$1 ns dev
	shift
	mountpoint -q /sys/kernel/debug ||
		mount -t debugfs none /sys/kernel/debug || true
	for ns in "$UB_NS_A" "$UB_NS_B"; do
		[[ -e /run/netns/$ns ]] || continue
		for dev in $(ub_ns "$ns" "$UB_BUSYBOX" ls "$UB_CLASS"); do
			ub_ns "$ns" test -d "$UB_CLASS/$dev/wire" || continue
			echo "$ns $dev: counters not 0:"
			ub_ns "$ns" grep -v '^0$' -r "$UB_CLASS/$dev/wire/" |
				sed "s|.*/wire/| |" || true
			echo "$ns $dev: TPs:"
			ub_ns "$ns" "$UB_BUSYBOX" cat "$UB_CLASS/$dev/cm/tp" || true
		done
		echo "$ns: neighbours, qdiscs, UDP and UBoE drops:"
		ub_ns "$ns" ip -s neigh show || true
		ub_ns "$ns" tc -s qdisc show || true
		ub_ns "$ns" grep '^Udp:' /proc/net/snmp || true
		ub_ns "$ns" grep -v ' 0$' /proc/net/udma_uboe || true
	done
	if [[ -r /sys/kernel/debug/udma/rtp ]]; then
		echo "TPs (/sys/kernel/debug/udma/rtp):"
		cat /sys/kernel/debug/udma/rtp || true
		echo "send queues (/sys/kernel/debug/udma/sqs):"
		cat /sys/kernel/debug/udma/sqs || true
	fi
	if [[ -r /sys/kernel/debug/ums/links ]]; then
		echo "UMS links and connections (/sys/kernel/debug/ums/links):"
		cat /sys/kernel/debug/ums/links || true
	fi
	if (($#)); then
		echo "the transfer's last lines:"
		tail -n 3 "$@" || true
	fi
	[[ -z $prog ]] && return 0
	# shellcheck disable=SC2046 # one PID a word
	ub_dump_threads $(pgrep -f "$prog")
}

# ub_dump_threads PID...: the command line, state and every thread's
# wait channel and kernel stack of each process PID.
ub_dump_threads() {
	local p t
	for p; do
		[[ -d /proc/$p ]] || continue
		echo "process $p: $(tr '\0' ' ' < "/proc/$p/cmdline" 2> /dev/null)"
		grep -E '^(State|Threads):' "/proc/$p/status" 2> /dev/null || true
		for t in /proc/"$p"/task/*; do
			echo " thread ${t##*/}: $(cat "$t/wchan" 2> /dev/null)"
			sed 's/^/  /' "$t/stack" 2> /dev/null || true
		done
	done
}

# ub_dump_hung PGID: what a case about to be killed at its time limit
# waits for: ub_dump_stall's view of the stack and the threads of every
# process of the case's process group PGID (timeout's), for the case's
# log; blocked tasks go to dmesg (sysrq w).
ub_dump_hung() {
	echo "--- $(date +%T): the case is near its time limit; what it waits for:"
	ub_dump_stall "" || true
	# shellcheck disable=SC2046 # one PID a word
	ub_dump_threads $(pgrep -g "$1")
	echo w > /proc/sysrq-trigger 2> /dev/null || true
	echo "--- end of the dump"
}

# ub_nspair_destroy: the namespaces, whatever is in them (their devices
# and the veth pair go with them); quiet, never fails.
ub_nspair_destroy() {
	ip -batch - <<-IP 2>/dev/null || true
	netns del $UB_NS_A
	netns del $UB_NS_B
	IP
}

# ub_ftrace_start EVENTS PROBE...: ftrace's function tracer on the
# PROBEs (one the kernel does not have, inlined or renamed, is named on
# stderr) and the trace events EVENTS (a space-separated list, e.g.
# "sched/sched_switch irq/softirq_entry"), the buffer emptied
# (UB_FTRACE_KB a CPU, default 32768), tracing on. ub_ftrace_stop ends it.
ub_ftrace_start() {
	local T=/sys/kernel/tracing e f
	[[ -d $T/events ]] || mount -t tracefs none $T
	echo 0 > $T/tracing_on
	echo "${UB_FTRACE_KB:-32768}" > $T/buffer_size_kb
	: > $T/set_ftrace_filter
	for e in $1; do echo 1 > "$T/events/$e/enable"; done
	shift
	for f in "$@"; do
		echo "$f" >> $T/set_ftrace_filter 2> /dev/null ||
			echo "ftrace: no probe $f" >&2
	done
	echo function > $T/current_tracer
	: > $T/trace
	echo 1 > $T/tracing_on
}

# ub_ftrace_stop FILE: tracing off, the buffer into FILE, the tracer and
# its events off. Returns 1 (and says so) if the buffer overran.
ub_ftrace_stop() {
	local T=/sys/kernel/tracing
	echo 0 > $T/tracing_on
	cat $T/trace > "$1"
	echo nop > $T/current_tracer
	echo 0 > $T/events/enable
	: > $T/set_ftrace_filter
	if grep -q "overrun: [1-9]" $T/per_cpu/cpu*/stats; then
		echo "ftrace: the buffer overran ($1): raise UB_FTRACE_KB or trace less" >&2
		return 1
	fi
}
