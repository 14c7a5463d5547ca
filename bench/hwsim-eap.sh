#!/bin/bash
# Benchmark (not a test): wpad's station, then wpa_supplicant's, against
# hostapd WPA2-Enterprise (internal EAP server, EAP-TLS) on mac80211_hwsim:
# a full EAP-TLS connect, a PMKSA-cached reconnect (no EAP) and a
# TLS-session-resumption reconnect, each daemon asked by a resident client
# (no client start-up timed; one more PMKSA row asks wpad through wpactl);
# wall time to hostapd's AP-STA-CONNECTED cut into its stages, and the
# station's CPU; medians of RUNS tries in one VM run (tests/hwsim/vm.sh).
# Target: cached <= 1/3 of full.
#
#   bench/hwsim-eap.sh [--build DIR] [--runs N]
#
# The guest half is bench/hwsim-eap-guest.sh, which says exactly what is
# measured. Figures come from software emulation (qemu TCG) on a shared
# machine: compare the modes within one run, not runs with each other.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=build
runs=5
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	*) sed -n '2,15s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
done
case $build in /*) ;; *) build=$top/$build ;; esac
case $runs in '' | *[!0-9]* | 0) echo "hwsim-eap: --runs takes a positive number" >&2; exit 2 ;; esac
out=$build/hwsim-bench-eap

# The suite's lock, taken here (not by flock(1) around vm.sh) so that the
# start time and load printed are the VM's, not the queue's.
exec {lock}>>/tmp/wpad-hwsim.lock
flock "$lock"
started=$(date -u +%H:%M:%S)
"$top/tests/hwsim/vm.sh" --build "$build" --out "$out" --env "BENCH_RUNS=$runs" --env "BENCH_LOAD=$(cut -d" " -f1-3 /proc/loadavg | tr " " /)" \
	"$top/bench/hwsim-eap-guest.sh" >"$build/hwsim-bench-eap.log" 2>&1 {lock}>&-
rc=$?
exec {lock}>&-
echo "command: $0 --build $build --runs $runs; load average now: $(cut -d" " -f1-3 /proc/loadavg); VM started $started, ended $(date -u +%H:%M:%S) UTC"
if [ -f "$out/hwsim-eap-guest/bench.txt" ]; then
	cat "$out/hwsim-eap-guest/bench.txt"
	echo "samples: $out/hwsim-eap-guest/samples.txt; logs: $out/hwsim-eap-guest/"
else
	cat "$build/hwsim-bench-eap.log"
	echo "hwsim-eap: no figures (exit $rc); see above"
fi
exit $rc
