#!/bin/bash
# Benchmark (not a test): the same NetworkManager steps with wpad and with
# wpa_supplicant as NetworkManager's supplicant (issue 19's comparison), in
# one VM run: `nmcli device wifi connect` time to connected against a
# hostapd WPA2-PSK AP and a hostapd SAE AP (median of RUNS), the
# supplicant's VmRSS under NetworkManager (idle, after a PSK connect), and
# the hotspot's time until a station is authorized (only where `nmcli device
# wifi hotspot` works with the daemon under test; otherwise the reason).
# Prints a table with ratios wpa_supplicant/wpad, the command and the load.
#
#   bench/hwsim-nm.sh [--build DIR] [--runs N]
#
# The guest half is bench/hwsim-nm-guest.sh. Figures come from software
# emulation (qemu TCG) on a shared machine: compare within one run.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=build
runs=3
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	*) sed -n '2,14s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
done
case $build in /*) ;; *) build=$top/$build ;; esac
case $runs in '' | *[!0-9]* | 0) echo "hwsim-nm: --runs takes a positive number" >&2; exit 2 ;; esac
out=$build/hwsim-bench-nm
load0=$(cut -d' ' -f1-3 /proc/loadavg)
flock /tmp/wpad-hwsim.lock "$top/tests/hwsim/vm.sh" --build "$build" --out "$out" --env "BENCH_RUNS=$runs" \
	"$top/bench/hwsim-nm-guest.sh" >"$build/hwsim-bench-nm.log" 2>&1
rc=$?
echo
echo "command: $0 --build $build --runs $runs"
echo "host load average: before $load0, after $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -f "$out/hwsim-nm-guest/bench.txt" ]; then
	cat "$out/hwsim-nm-guest/bench.txt"
	echo "logs: $out/hwsim-nm-guest/"
else
	tail -n 40 "$build/hwsim-bench-nm.log"
	echo "hwsim-nm: no figures (exit $rc); see above"
fi
exit $rc
