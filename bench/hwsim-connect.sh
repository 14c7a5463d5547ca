#!/bin/bash
# Benchmark (not a test): how long wpad, wpa_supplicant and iwd take from
# "connect" to "connected" against one hostapd AP on mac80211_hwsim, cold
# (daemon just started) and warm (daemon running, network known and just
# seen: the AP deauthenticates it and it joins again), and each daemon's
# resident memory (VmRSS) when connected. One VM run (tests/hwsim/vm.sh);
# each figure is the median of RUNS tries. Prints a table with ratios to wpad.
#
#   bench/hwsim-connect.sh [--build DIR] [--runs N]
#
# The guest half is bench/hwsim-connect-guest.sh, which says exactly what is
# measured. Figures come from software emulation (qemu TCG) on a shared
# machine: compare the daemons within one run, not runs with each other.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=build
runs=5
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	*) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
done
case $build in /*) ;; *) build=$top/$build ;; esac
case $runs in '' | *[!0-9]* | 0) echo "hwsim-connect: --runs takes a positive number" >&2; exit 2 ;; esac
out=$build/hwsim-bench

flock /tmp/wpad-hwsim.lock "$top/tests/hwsim/vm.sh" --build "$build" --out "$out" --env "BENCH_RUNS=$runs" \
	"$top/bench/hwsim-connect-guest.sh" >"$build/hwsim-bench.log" 2>&1
rc=$?
echo
if [ -f "$out/hwsim-connect-guest/bench.txt" ]; then
	cat "$out/hwsim-connect-guest/bench.txt"
	echo "samples: $out/hwsim-connect-guest/samples.txt; logs: $out/hwsim-connect-guest/"
else
	cat "$build/hwsim-bench.log"
	echo "hwsim-connect: no figures (exit $rc); see above"
fi
exit $rc
