#!/bin/bash
# Benchmark (not a test): how light wpad is on mac80211_hwsim against its
# peers (issues 21 and 15). Station side: wpad, wpa_supplicant and iwd
# against one hostapd AP, each asked by a resident client (D-Bus, control
# socket: no client start-up timed), rows WPA2-PSK warm reconnect, full SAE
# hunting-and-pecking, full SAE hash-to-element, SAE with a cached PMKSA (and
# once more asked by a CLI per connect, for comparison) and OWE: per row
# median and min..max over RUNS connects of the daemon's CPU
# (schedstat of all its threads), the wall time to connected and the frames
# on the air, VmRSS and RssAnon, ratios to wpad; each station idle and
# connected for IDLE seconds (wakeups per minute). AP side: wpad's AP
# against hostapd's with wpa_supplicant stations: CPU per association (WPA2,
# SAE H&P, SAE H2E, and 8 stations at once), idle with one station. Then
# the issues' targets, each "met" or "NOT met". One VM run
# (tests/hwsim/vm.sh, under the suite's lock /tmp/wpad-hwsim.lock).
#
#   bench/hwsim-light.sh [--build DIR] [--runs N] [--idle S] [--rows "PART..."]
#
# N: default 10; S: default 300 (5 minutes, as issue 21 asks); PART: any of
# sta-psk sta-sae sta-owe idle ap ap-multi (default all). The guest half,
# bench/hwsim-light-guest.sh, says exactly what is measured. Figures come
# from software emulation (qemu TCG): compare the daemons within one run on
# a quiet machine, not runs with each other.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=build
runs=10
idle=300
rows=""
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--idle) idle=$2; shift 2 ;;
	--rows) rows=$2; shift 2 ;;
	*) sed -n '2,23s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
done
case $build in /*) ;; *) build=$top/$build ;; esac
case $runs in '' | *[!0-9]* | 0) echo "hwsim-light: --runs takes a positive number" >&2; exit 2 ;; esac
case $idle in '' | *[!0-9]* | 0) echo "hwsim-light: --idle takes a positive number of seconds" >&2; exit 2 ;; esac
for r in $rows; do
	case $r in sta-psk | sta-sae | sta-owe | idle | ap | ap-multi) ;;
	*) echo "hwsim-light: unknown part '$r' in --rows" >&2; exit 2 ;; esac
done
out=$build/hwsim-bench-light
env=(--env "BENCH_RUNS=$runs" --env "BENCH_IDLE=$idle")
# vm.sh's --env takes a value without blanks: the parts go comma-separated.
[ -z "$rows" ] || env+=(--env "BENCH_ROWS=$(tr -s ' ' , <<<"$rows")")

echo "bench/hwsim-light.sh --runs $runs --idle $idle${rows:+ --rows \"$rows\"}; queued at $(date -u +%H:%M:%S) UTC"
# The suite's lock, taken here (not by flock(1) around vm.sh) so that the
# start time and load printed are the VM's, not the queue's.
exec {lock}>>/tmp/wpad-hwsim.lock
flock "$lock"
echo "host load average at start ($(date -u +%H:%M:%S) UTC, the VM's start): $(cut -d' ' -f1-3 /proc/loadavg)"
"$top/tests/hwsim/vm.sh" --build "$build" --out "$out" \
	"${env[@]}" "$top/bench/hwsim-light-guest.sh" >"$build/hwsim-bench-light.log" 2>&1 {lock}>&-
rc=$?
exec {lock}>&-
echo "host load average at the end ($(date -u +%H:%M:%S) UTC): $(cut -d' ' -f1-3 /proc/loadavg)"
echo
if [ -f "$out/hwsim-light-guest/bench.txt" ]; then
	cat "$out/hwsim-light-guest/bench.txt"
	echo "samples: $out/hwsim-light-guest/samples.txt; logs: $out/hwsim-light-guest/"
else
	cat "$build/hwsim-bench-light.log"
	echo "hwsim-light: no figures (exit $rc); see above"
fi
exit $rc
