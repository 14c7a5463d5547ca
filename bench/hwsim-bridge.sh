#!/bin/bash
# Benchmark (not a test): wpad's access point against hostapd's on the same
# mac80211_hwsim radios, in the issue-17 LAN set-up (the AP's interface in a
# Linux bridge with a veth to the wired side): time from daemon start to
# beaconing, time until wpa_supplicant is connected, and the AP daemon's
# resident memory. One VM run (tests/hwsim/vm.sh, under the suite's lock);
# each figure is the median of RUNS tries. Prints a table.
#
#   bench/hwsim-bridge.sh [--build DIR] [--runs N]
#
# The guest half, bench/hwsim-bridge-guest.sh, says exactly what is
# measured. Figures come from software emulation (qemu TCG) on a shared
# machine: compare the daemons within one run, not runs with each other.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=build
runs=3
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	*) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
done
case $build in /*) ;; *) build=$top/$build ;; esac
case $runs in '' | *[!0-9]* | 0) echo "hwsim-bridge: --runs takes a positive number" >&2; exit 2 ;; esac
out=$build/hwsim-bench-bridge

flock /tmp/wpad-hwsim.lock "$top/tests/hwsim/vm.sh" --build "$build" --out "$out" \
	--env "BENCH_RUNS=$runs" "$top/bench/hwsim-bridge-guest.sh" >"$build/hwsim-bench-bridge.log" 2>&1
rc=$?
echo
if [ -f "$out/hwsim-bridge-guest/bench.txt" ]; then
	cat "$out/hwsim-bridge-guest/bench.txt"
	echo "samples: $out/hwsim-bridge-guest/samples.txt; logs: $out/hwsim-bridge-guest/"
else
	cat "$build/hwsim-bench-bridge.log"
	echo "hwsim-bridge: no figures (exit $rc); see above"
fi
exit $rc
