#!/bin/bash
# Benchmark: how often an idle wpad wakes up. One wpad runs an access point,
# another a station connected to it (WPA2-PSK), each in its own process on
# the simulated radio (wpad-medium in a third); after the connect both are
# left alone for SECONDS and the script prints, per process and per minute,
# the context switches (/proc/PID/status) and the times it was scheduled
# (/proc/PID/schedstat). Prints a table; asserts nothing.
#
#   bench/idle.sh [--build DIR] [--seconds N] [--timers]
# --timers (root, perf with uprobes, a build with -g): also counts, over the
#   same interval, every loop callback that ran (timers and fd handlers), by
#   function name: which of them are wpad's own and which the simulated
#   radio's (beacons sent by the AP, heard by the station).
# The sim radio does in the process what firmware does on real hardware
# (beacon transmission, beacon-loss watch): on nl80211 those wakeups are
# not wpad's.
set -eu
build=build
seconds=60
timers=0
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--seconds) seconds=$2; shift 2 ;;
	--timers) timers=1; shift ;;
	*) echo "usage: $0 [--build DIR] [--seconds N] [--timers]" >&2; exit 2 ;;
	esac
done
wpad="$build/wpad"
medium="$build/wpad-medium"
for b in "$wpad" "$medium"; do
	[ -x "$b" ] || { echo "idle: no $b (run make)" >&2; exit 1; }
done
source "$(dirname "$0")/lib.sh"
bench_init idle
probes=0
bench_on_exit() {
	[ $probes = 0 ] || perf probe -q -d 'probe_wpadidle:*' 2>/dev/null || true
}
bench_sim_pair "$build" idlebench "idle bench 1"
sleep 1 # let the connect's last frames pass before counting

if [ $timers = 1 ]; then
	command -v perf >/dev/null || { echo "idle: --timers needs perf" >&2; exit 1; }
	probes=1
	# On the line of daemon/core/loop.c that calls the callback (a lazy
	# pattern, so edits elsewhere in the file do not move it).
	perf probe -q -x "$wpad" --add 'probe_wpadidle:timer=run_timers;t->fn(* fn=t->fn:x64'
	perf probe -q -x "$wpad" --add 'probe_wpadidle:io=dispatch;io->fn(* fn=io->fn:x64'
fi

# status field value; schedstat's third field: times the task was scheduled in.
field() { sed -nE "s/^$2:[[:space:]]+([0-9]+)/\1/p" "/proc/$1/status"; }
slices() { cut -d' ' -f3 "/proc/$1/schedstat"; }
snap() { echo "$(field "$1" voluntary_ctxt_switches) $(field "$1" nonvoluntary_ctxt_switches) $(slices "$1")"; }
declare -A before
for p in "$ap_pid" "$sta_pid" "$medium_pid"; do before[$p]=$(snap "$p"); done
if [ $timers = 1 ]; then
	perf record -q -o "$tmp/perf.data" -e 'probe_wpadidle:*' -p "$ap_pid,$sta_pid" -- sleep "$seconds" 2>/dev/null
else
	sleep "$seconds"
fi

echo
echo "Idle wakeups per minute over $seconds s (connected, WPA2-PSK, simulated radio)"
echo
printf '| %-36s | %10s | %10s | %10s |\n' process voluntary nonvolunt. scheduled
printf '|%s|------------|------------|------------|\n' "--------------------------------------"
row() { # label pid
	read -r v0 n0 s0 <<<"${before[$2]}"
	read -r v1 n1 s1 <<<"$(snap "$2")"
	awk -v l="$1" -v v=$((v1 - v0)) -v n=$((n1 - n0)) -v s=$((s1 - s0)) -v t="$seconds" \
		'BEGIN { printf "| %-36s | %10.0f | %10.0f | %10.0f |\n", l, v * 60 / t, n * 60 / t, s * 60 / t }'
}
row "wpad AP (one station)" "$ap_pid"
row "wpad station (connected)" "$sta_pid"
row "wpad-medium (the air, not wpad)" "$medium_pid"

if [ $timers = 1 ]; then
	echo
	echo "Loop callbacks that ran, per minute (timer: a loop timer; io: an fd was readable)"
	echo
	ap_base=$((16#$(head -n1 "/proc/$ap_pid/maps" | cut -d- -f1)))
	sta_base=$((16#$(head -n1 "/proc/$sta_pid/maps" | cut -d- -f1)))
	perf script -i "$tmp/perf.data" -F pid,event,trace 2>/dev/null |
		while read -r pid event trace; do
			fn=${trace##*fn=0x}
			if [ "$pid" = "$ap_pid" ]; then role=AP base=$ap_base; else role=station base=$sta_base; fi
			case $event in *:io:) kind=io ;; *) kind=timer ;; esac
			printf '%s %s %x\n' "$role" "$kind" $((16#$fn - base))
		done | sort | uniq -c >"$tmp/calls"
	printf '| %-8s | %-5s | %-28s | %8s |\n' role kind callback "per min"
	printf '|----------|-------|------------------------------|----------|\n'
	while read -r n role kind off; do
		name=$(addr2line -f -e "$wpad" "0x$off" | head -n1)
		awk -v r="$role" -v k="$kind" -v f="$name" -v n="$n" -v t="$seconds" \
			'BEGIN { printf "| %-8s | %-5s | %-28s | %8.1f |\n", r, k, f, n * 60 / t }'
	done <"$tmp/calls"
fi
