#!/bin/bash
# Guest half of the AP's per-association profile on hwsim (issue 21): where
# an AP daemon's CPU goes while a wpa_supplicant station associates to it
# (WPA2-PSK, PMKSA flushed), hostapd 2.10 against wpad, and against a second
# wpad binary when WPAD_BASE names one (the same run: "before" and "after").
# The AP runs as in bench/hwsim-light-guest.sh's AP rows (WPA2-PSK + SAE,
# PMF optional, no debug logging). Per AP daemon, three passes of connects,
# each window from the reconnect command to 1 s after wpa_supplicant's
# CTRL-EVENT-CONNECTED:
#   plain   BENCH_RUNS windows: CPU (schedstat, all threads) and its split
#           into user and system time (/proc/PID/stat utime/stime, summed
#           over the windows: the kernel samples the split at each tick)
#   perf    BENCH_RUNS windows under `perf record -e cpu-clock` (the AP
#           only): the shares of user space, the kernel, and per DSO/symbol
#   strace  BENCH_STRACE windows (default 3), each under `strace -c -f`:
#           syscalls per association
# BENCH_BUS=1: each wpad again with its D-Bus API on a private bus.
# Writes profile.txt (and perf-*.txt, strace-*.txt) to $HWSIM_OUT.
# Run it from the host, under the VM lock:
#   flock /tmp/wpad-hwsim.lock tests/hwsim/vm.sh --build build --out build/hwsim-ap-profile \
#       [--env BENCH_RUNS=N] [--env BENCH_BUS=1] [--env WPAD_BASE=/abs/path/to/wpad] \
#       bench/hwsim-ap-profile-guest.sh
# radios: 2
# timeout: 1800
. "$HWSIM_TOP/bench/guest-lib.sh"
RUNS=${BENCH_RUNS:-10}
STRACE_RUNS=${BENCH_STRACE:-3}
B=$HWSIM_WORK/bench
mkdir -p "$B"
SSID=$SSID_PSK
OUT=$HWSIM_OUT/profile.txt
: >"$OUT"

ns_new ap
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta


WPAD_BUS=unix:path=$B/wpad.bus
wpad_ap() { # NAME BINARY [wpad options...]
	radio_bare 0 ap
	rm -rf "$B/wpad-ap-state"
	wpad_conf_begin "$B/wpad-ap.conf" "$B/wpad-ap-state"
	printf '[Radio r0]\nDriver=nl80211\n\n' >>"$B/wpad-ap.conf"
	WPAD_AP_EXTRA='AKMs=psk sae' wpad_conf_ap "$B/wpad-ap.conf" lab r0 psk
	ip netns exec ap "$2" -c "$B/wpad-ap.conf" "${@:3}" >"$B/ap-$1.log" 2>&1 &
	AP_PID=$!
	wait_until 20 "$1: access point beaconing" wpad_ap_up ap 0
}
# NAME BINARY [wpad options...]: one wpad AP profiled, its interface given
# back after.
wpad_round() {
	wpad_ap "$@"
	profile_ap "$1"
	stop_pid "$AP_PID"
	ap_back_to_default
}
ap_back_to_default() { # the hwsim interface the next AP (hostapd) expects
	local d
	for d in $(radio_ifaces 0 ap); do nsx ap iw dev "$d" del; done
	nsx ap iw phy "$(phy 0)" interface add "$(iface 0)" type managed
}

WPAS_CTRL=$B/wpas
STA_LOG=$B/wpas.log
wpa_cli_() { nsx sta wpa_cli -p "$WPAS_CTRL" -i wlanb "$@"; }
start_station() {
	local d
	for d in $(radio_ifaces 1 sta); do nsx sta iw dev "$d" del; done
	nsx sta iw phy "$(phy 1)" interface add wlanb type managed
	printf 'ctrl_interface=%s\nnetwork={\n\tssid="%s"\n\tscan_freq=%s\n\tkey_mgmt=WPA-PSK\n\tpsk="%s"\n}\n' \
		"$WPAS_CTRL" "$SSID" "$FREQ" "$PASSPHRASE" >"$B/wpas.conf"
	local n
	n=$(count "$STA_LOG" CTRL-EVENT-CONNECTED)
	ip netns exec sta wpa_supplicant -t -D nl80211 -i wlanb -c "$B/wpas.conf" >>"$STA_LOG" 2>&1 &
	STA_PID=$!
	wait_more "$STA_LOG" CTRL-EVENT-CONNECTED "$n" || fail "the station did not join at start"
	sleep 1
}
disconnect() {
	wpa_cli_ disconnect >/dev/null
	for _ in $(seq 150); do
		wpa_cli_ status | grep -qx 'wpa_state=DISCONNECTED' && break
		sleep 0.2
	done
	wpa_cli_ pmksa_flush >/dev/null
	sleep 1
}
# One measured connect, from the reconnect command to 1 s after connected:
# sets D_CPU (ns), D_UT and D_ST (ticks).
window() {
	local n c0 c1 u0 s0 u1 s1
	disconnect
	n=$(count "$STA_LOG" CTRL-EVENT-CONNECTED)
	read -r u0 s0 < <(ticks "$AP_PID")
	c0=$(cpu_ns "$AP_PID")
	wpa_cli_ reconnect >/dev/null
	wait_more "$STA_LOG" CTRL-EVENT-CONNECTED "$n" || fail "no connect within 60 s"
	sleep 1
	c1=$(cpu_ns "$AP_PID")
	read -r u1 s1 < <(ticks "$AP_PID")
	D_CPU=$((c1 - c0)) D_UT=$((u1 - u0)) D_ST=$((s1 - s0))
}

profile_ap() { # NAME
	local name=$1 r cpu=0 ut=0 st=0 samples=""
	start_station
	for r in $(seq "$RUNS"); do
		window
		cpu=$((cpu + D_CPU)) ut=$((ut + D_UT)) st=$((st + D_ST))
		samples+=" $(awk -v c="$D_CPU" 'BEGIN { printf "%.1f", c / 1e6 }')"
	done
	{
		echo "== $name: $RUNS associations (WPA2-PSK), plain"
		echo "CPU ms per association (schedstat):$samples"
		awk -v c="$cpu" -v n="$RUNS" -v u="$ut" -v s="$st" 'BEGIN {
			printf "mean %.2f ms; utime %d ticks, stime %d ticks: system %.0f%% of the ticks\n",
				c / 1e6 / n, u, s, (u + s) ? 100 * s / (u + s) : 0 }'
	} >>"$OUT"
	log "$name plain: ${samples}"

	if command -v perf >/dev/null; then
		perf record -q -e cpu-clock -F 4000 -g -p "$AP_PID" -o "$B/perf-$name.data" \
			>"$B/perf-$name.log" 2>&1 &
		local perf_pid=$!
		sleep 1
		cpu=0
		for r in $(seq "$RUNS"); do
			window
			cpu=$((cpu + D_CPU))
		done
		# TERM, not INT: a background job of a script ignores SIGINT.
		kill -TERM "$perf_pid" 2>/dev/null || true
		wait "$perf_pid" 2>/dev/null || true
		local rep=$HWSIM_OUT/perf-$name.txt
		{
			echo "== perf, $RUNS associations, CPU under perf: $(awk -v c="$cpu" -v n="$RUNS" 'BEGIN { printf "%.2f", c / 1e6 / n }') ms each"
			perf report -i "$B/perf-$name.data" --stdio --no-children --sort dso 2>/dev/null | grep -v '^#' | grep -v '^$' | head -20 || true
			echo "-- symbols"
			perf report -i "$B/perf-$name.data" --stdio --no-children -g none --sort dso,sym 2>/dev/null | grep -v '^#' | grep -v '^$' | head -60 || true
			echo "-- kernel, inclusive (children): which entry points the kernel time is under"
			perf report -i "$B/perf-$name.data" --stdio --children -g none --dsos '[kernel.kallsyms]' \
				--sort sym --percent-limit 1.5 2>/dev/null | grep -v '^#' | grep -v '^$' | head -80 || true
		} >"$rep" 2>&1
		{
			echo "perf: $(grep -m1 'kernel.kallsyms' "$rep" | awk '{ print $1 }') of the samples in the kernel (details: perf-$name.txt)"
		} >>"$OUT"
	fi

	if command -v strace >/dev/null; then
		local files=()
		for r in $(seq "$STRACE_RUNS"); do
			disconnect
			local n
			n=$(count "$STA_LOG" CTRL-EVENT-CONNECTED)
			strace -c -f -p "$AP_PID" -o "$B/strace-$name-$r.txt" 2>/dev/null &
			local spid=$!
			sleep 0.5
			wpa_cli_ reconnect >/dev/null
			wait_more "$STA_LOG" CTRL-EVENT-CONNECTED "$n" || fail "no connect under strace"
			sleep 1
			kill -TERM "$spid" 2>/dev/null || true
			wait "$spid" 2>/dev/null || true
			files+=("$B/strace-$name-$r.txt")
		done
		cat "${files[@]}" >"$HWSIM_OUT/strace-$name.txt"
		{
			echo "syscalls per association (strace -c, mean of $STRACE_RUNS):"
			awk -v n="$STRACE_RUNS" '$NF ~ /^[a-z_0-9]+$/ && $(NF) != "total" && $4 ~ /^[0-9]+$/ { c[$NF] += $4 }
				END { for (k in c) { t += c[k]; printf "  %-22s %6.1f\n", k, c[k] / n } ; printf "  %-22s %6.1f\n", "TOTAL", t / n }' \
				"${files[@]}" | sort -k2 -nr
		} >>"$OUT"
	fi
	echo >>"$OUT"
	stop_pid "$STA_PID"
}

hostapd_ap transition # (bench/guest-lib.sh)
AP_PID=$HAPD_PID
profile_ap hostapd
stop_pid "$AP_PID"
[ -z "${WPAD_BASE:-}" ] || wpad_round wpad-base "$WPAD_BASE"
wpad_round wpad "$HWSIM_BUILD/wpad"
# With the D-Bus API on a private bus (the AP publishes its stations).
if [ -n "${BENCH_BUS:-}" ]; then
	dbus-daemon --session --fork --nopidfile --address="$WPAD_BUS" || fail "no bus for wpad"
	[ -z "${WPAD_BASE:-}" ] || wpad_round wpad-base-bus "$WPAD_BASE" --bus-address "$WPAD_BUS"
	wpad_round wpad-bus "$HWSIM_BUILD/wpad" --bus-address "$WPAD_BUS"
fi
{
	echo "versions: $("$HWSIM_BUILD/wpad" --version), $(hostapd -v 2>&1 | head -n1), $(wpa_supplicant -v | head -n1)"
	echo "kernel: $(uname -r)"
} >>"$OUT"
cp "$B"/*.log "$HWSIM_OUT/" 2>/dev/null || true
cat "$OUT"
