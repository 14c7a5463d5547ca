#!/bin/bash
# Benchmark (not a test): WPA3-Personal (SAE, group 19) connects on
# mac80211_hwsim. Station side: wpad, wpa_supplicant and iwd against one
# hostapd SAE AP, rows full SAE hunting-and-pecking, full SAE hash-to-element
# and a reconnect with a cached PMKSA; AP side: wpad's AP against hostapd's
# with a wpa_supplicant SAE station. Per row: median and min..max over RUNS
# connects of the daemon's CPU (schedstat of all its threads) and of the
# wall time to connected, with ratios to wpad. One VM run
# (tests/hwsim/vm.sh, under the suite's lock /tmp/wpad-hwsim.lock).
#
#   bench/hwsim-sae.sh [--build DIR] [--runs N]      (N: default 10)
#
# The guest half, bench/hwsim-sae-guest.sh, says exactly what is measured.
# Figures come from software emulation (qemu TCG) on a shared machine:
# compare the daemons within one run, not runs with each other.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=build
runs=10
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	*) sed -n '2,15s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
done
case $build in /*) ;; *) build=$top/$build ;; esac
case $runs in '' | *[!0-9]* | 0) echo "hwsim-sae: --runs takes a positive number" >&2; exit 2 ;; esac
out=$build/hwsim-bench-sae

echo "bench/hwsim-sae.sh --runs $runs; host load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
flock /tmp/wpad-hwsim.lock "$top/tests/hwsim/vm.sh" --build "$build" --out "$out" \
	--env "BENCH_RUNS=$runs" "$top/bench/hwsim-sae-guest.sh" >"$build/hwsim-bench-sae.log" 2>&1
rc=$?
echo "host load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
if [ -f "$out/hwsim-sae-guest/bench.txt" ]; then
	cat "$out/hwsim-sae-guest/bench.txt"
	echo "samples: $out/hwsim-sae-guest/samples.txt; logs: $out/hwsim-sae-guest/"
else
	cat "$build/hwsim-bench-sae.log"
	echo "hwsim-sae: no figures (exit $rc); see above"
fi
exit $rc
