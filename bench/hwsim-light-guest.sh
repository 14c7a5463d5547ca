# The guest half of bench/hwsim-sae.sh, run by tests/hwsim/vm.sh like a
# scenario (lib.sh helpers, set -euo pipefail).
#
# Station side: hostapd on radio 0 (wpa_key_mgmt=SAE, ieee80211w=2, group
# 19, started with -t -d: its log dates each line and names each
# Authentication frame's algorithm); wpad, wpa_supplicant and iwd in turn
# on radio 1, each started once per AP set-up and first joined untimed. A
# measured connect: the daemon is told to disconnect; for a "full" row its
# PMKSA is dropped (wpad: `wpactl station s1 flush-pmksa`, the D-Bus
# Station.FlushPMKSA; wpa_supplicant: `pmksa_flush`; iwd keeps none); the
# passphrase stays known to each daemon; 1 s later the CPU sample
# is taken, the clock read and the connect command started (wpactl, wpa_cli
# reconnect, iwctl). Wall time: to the date of hostapd's AP-STA-CONNECTED.
# CPU: the daemon's threads' on-CPU time (first field of
# /proc/PID/task/*/schedstat, summed) from just before the command to 1 s
# after that AP-STA-CONNECTED. SAE frames: the Authentication frames with
# algorithm 3 (SAE) hostapd received in the window, to prove each row ran
# what it says (full: commit + confirm = 2; PMKSA: 0).
#   full H&P   hostapd sae_pwe=0
#   full H2E   hostapd sae_pwe=1 (the PT: derived at the first join, cached)
#   PMKSA      the same AP, no flush: wpad and wpa_supplicant associate with
#              the PMKID after Open System; iwd 2.3 has no SAE PMKSA
#              caching, so its row is a full SAE H2E again
# AP side: wpa_supplicant (sae_pwe=0, then 1; pmksa_flush before each
# connect: full SAE) on radio 1 against hostapd (sae_pwe=2, -t, no -d) and
# then wpad's AP (AKMs=sae, H&P and H2E offered, no -d) on radio 0; the AP
# daemon's CPU over the same window, the wall time to wpa_supplicant's
# CTRL-EVENT-CONNECTED. Daemons run without debug logging except hostapd in
# the station part (the same for every station). wpa_supplicant is told to
# scan channel 6 only (scan_freq): a full scan takes ~8 s under TCG and
# would hide the SAE figures. Writes bench.txt and samples.txt.
# radios: 2
# timeout: 3600
RUNS=${BENCH_RUNS:-10}
B=$HWSIM_WORK/bench
mkdir -p "$B"
SSID=$SSID_PSK

ns_new ap
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta

cpu_ns() { # PID: on-CPU nanoseconds of all its threads
	# %.0f: mawk's %d stops at 2^31 - 1 (2.1 s of CPU), then every sample is equal.
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f", s }'
}
count() { # FILE REGEX: 0 for a file not written yet
	[ -e "$1" ] || { echo 0; return; }
	grep -cE -- "$2" "$1" || true
}
# The date (-t prefix) of the Nth line matching REGEX in FILE.
nth_date() { grep -E -- "$2" "$1" | sed -n "${3}p" | cut -d: -f1; } # FILE REGEX N
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

stop_pid() {
	local i
	kill -TERM "$1" 2>/dev/null || return 0
	for i in $(seq 50); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.2
	done
	kill -KILL "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

# Waits up to 60 s for FILE to hold more than N lines matching REGEX.
wait_more() { # FILE REGEX N
	local i
	for i in $(seq 1200); do
		[ "$(count "$1" "$2")" -gt "$3" ] && return 0
		sleep 0.05
	done
	return 1
}

# ---- the hostapd SAE AP of the station part ----

HAPD_PID="" HAPD_LOG=""
hostapd_sae() { # NAME PWE [-d]
	local conf=$B/hostapd-$1.conf
	{
		echo "interface=$(iface 0)"
		echo "driver=nl80211"
		echo "ctrl_interface=$B/hostapd"
		echo "ssid=$SSID"
		echo "hw_mode=g"
		echo "channel=$CHANNEL"
		echo "wpa=2"
		echo "wpa_key_mgmt=SAE"
		echo "rsn_pairwise=CCMP"
		echo "ieee80211w=2"
		echo "sae_groups=19"
		echo "sae_pwe=$2"
		echo "wpa_passphrase=$PASSPHRASE"
	} >"$conf"
	HAPD_LOG=$B/hostapd-$1.log
	# shellcheck disable=SC2086 # $3: -d or nothing
	ip netns exec ap hostapd -t ${3:-} "$conf" >"$HAPD_LOG" 2>&1 &
	HAPD_PID=$!
	wait_until 20 "hostapd enabled ($1)" hostapd_cli_q_ status -- "state=ENABLED"
}
hostapd_cli_q_() { # COMMAND... -- REGEX
	local args=()
	while [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	nsx ap hostapd_cli -p "$B/hostapd" -i "$(iface 0)" "${args[@]}" | grep -Eq -- "$2"
}

radio_reset() { # no interface left on radio 1
	local d
	for d in $(radio_ifaces 1 sta); do nsx sta iw dev "$d" del; done
}

# ---- station daemons: start (sets PID), disconnect, drop_pmksa, connect ----

WPAD_BUS=unix:path=$B/wpad.bus
wpactl_() { "$HWSIM_BUILD/wpactl" --bus "$WPAD_BUS" "$@"; }
start_wpad() {
	radio_reset
	rm -rf "$B/wpad-state"
	wpad_conf_begin "$B/wpad.conf" "$B/wpad-state"
	printf '[Radio r1]\nDriver=nl80211\n\n[Station s1]\nRadio=r1\nAutoConnect=true\n' >>"$B/wpad.conf"
	known_network "$B/wpad-state" "$SSID" psk
	ip netns exec sta "$HWSIM_BUILD/wpad" --bus-address "$WPAD_BUS" -c "$B/wpad.conf" \
		>>"$B/wpad.log" 2>&1 &
	PID=$!
}
disconnect_wpad() { wpactl_ station s1 disconnect >/dev/null; }
# Fails (and so the run) unless it removed the PMKSA the last connect made.
drop_pmksa_wpad() { wpactl_ --json station s1 flush-pmksa | grep -qx '{"removed":[1-9][0-9]*}'; }
connect_wpad() { wpactl_ station s1 connect "$SSID" >/dev/null 2>&1 & CMD=$!; } # full|pmksa

WPAS_CTRL=$B/wpas
wpas_conf() { # FILE PWE
	cat >"$1" <<-EOF
		ctrl_interface=$WPAS_CTRL
		sae_pwe=$2
		network={
			ssid="$SSID"
			scan_freq=$FREQ
			key_mgmt=SAE
			ieee80211w=2
			psk="$PASSPHRASE"
		}
	EOF
}
start_wpa_supplicant() {
	radio_reset
	nsx sta iw phy "$(phy 1)" interface add wlanb type managed
	wpas_conf "$B/wpas.conf" 2
	ip netns exec sta wpa_supplicant -t -D nl80211 -i wlanb -c "$B/wpas.conf" \
		>>"$B/wpa_supplicant.log" 2>&1 &
	PID=$!
}
wpa_cli_() { wpa_cli -p "$WPAS_CTRL" -i wlanb "$@" >/dev/null; }
disconnect_wpa_supplicant() { # returns once wpa_state says so (up to 30 s)
	local i
	wpa_cli_ disconnect
	for i in $(seq 150); do
		wpa_cli -p "$WPAS_CTRL" -i wlanb status | grep -qx 'wpa_state=DISCONNECTED' && return 0
		sleep 0.2
	done
	return 1
}
drop_pmksa_wpa_supplicant() { wpa_cli_ pmksa_flush; }
connect_wpa_supplicant() { wpa_cli_ reconnect & CMD=$!; }

start_iwd() {
	radio_reset
	rm -rf "$B/iwd-state" "$B/iwd-conf"
	mkdir -p "$B/iwd-state" "$B/iwd-conf"
	printf '[General]\nEnableNetworkConfiguration=false\n' >"$B/iwd-conf/main.conf"
	printf '[Security]\nPassphrase=%s\n' "$PASSPHRASE" >"$B/iwd-state/$SSID.psk"
	ip netns exec sta env STATE_DIRECTORY="$B/iwd-state" CONFIGURATION_DIRECTORY="$B/iwd-conf" \
		/usr/libexec/iwd >>"$B/iwd.log" 2>&1 &
	PID=$!
}
disconnect_iwd() {
	sta_iface sta 1 || return 1
	iwctl station "$STA_IF" disconnect >/dev/null
}
drop_pmksa_iwd() { :; }
connect_iwd() { iwctl station "$STA_IF" connect "$SSID" >/dev/null & CMD=$!; }

# ---- one measured connect ----

# Sets WALL (s), CPU (ms) and FRAMES, or returns 1. The daemon (PID) is
# connected to LOG's end; DONE_RE marks "connected" in LOG; CPU_PID is
# the process whose CPU counts.
measure_once() { # DAEMON full|pmksa LOG DONE_RE CPU_PID
	local d=$1 mode=$2 log=$3 re=$4 cpu_pid=$5 n lines c0 c1 t0 t1 now rest
	"disconnect_$d" || return 1
	if [ "$mode" != pmksa ]; then "drop_pmksa_$d" || return 1; fi
	sleep 1
	n=$(count "$log" "$re")
	lines=$(wc -l <"$HAPD_LOG")
	c0=$(cpu_ns "$cpu_pid")
	t0=$EPOCHREALTIME
	"connect_$d" "$mode"
	wait_more "$log" "$re" "$n" || { wait "$CMD" 2>/dev/null || true; return 1; }
	t1=$(nth_date "$log" "$re" $((n + 1)))
	now=$EPOCHREALTIME
	# (parenthesised: a bare "> 0" after printf's arguments redirects to a file "0")
	rest=$(awk -v a="$t1" -v b="$now" 'BEGIN { r = a + 1 - b; printf "%.3f", (r > 0 ? r : 0) }')
	sleep "$rest"
	c1=$(cpu_ns "$cpu_pid")
	wait "$CMD" 2>/dev/null || true
	WALL=$(elapsed "$t0" "$t1")
	CPU=$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.1f", (b - a) / 1e6 }')
	FRAMES=$(tail -n +$((lines + 1)) "$HAPD_LOG" | grep -c 'auth_alg=3' || true)
}

declare -A WALLS CPUS FRAMESS NA
STA_RE='AP-STA-CONNECTED'
# RUNS connects of DAEMON for each ROW (full-hnp | full-h2e | pmksa) named,
# against the running hostapd; the daemon is started here and stopped at
# the end.
station_rows() { # DAEMON ROW...
	local d=$1 row mode r k n
	shift
	n=$(count "$HAPD_LOG" "$STA_RE")
	"start_$d"
	if ! wait_more "$HAPD_LOG" "$STA_RE" "$n"; then
		for row in "$@"; do NA[$d,$row]="$d did not join at start"; done
		log "$d: did not join at start"
		stop_pid "$PID"
		return 0
	fi
	sleep 1
	for row in "$@"; do
		mode=full
		[ "$row" = pmksa ] && mode=pmksa
		k=$d,$row
		WALLS[$k]="" CPUS[$k]="" FRAMESS[$k]=""
		for r in $(seq "$RUNS"); do
			if ! measure_once "$d" "$mode" "$HAPD_LOG" "$STA_RE" "$PID"; then
				NA[$k]="run $r did not connect within 60 s"
				log "$d $row #$r: no connection"
				break
			fi
			WALLS[$k]+=" $WALL" CPUS[$k]+=" $CPU" FRAMESS[$k]+=" $FRAMES"
			log "$d $row #$r: $WALL s, $CPU ms CPU, $FRAMES SAE frames"
		done
	done
	stop_pid "$PID"
	sleep 0.5
}

dbus_start
dbus-daemon --session --fork --nopidfile --address="$WPAD_BUS"

hostapd_sae hnp 0 -d
for d in wpad wpa_supplicant iwd; do station_rows "$d" full-hnp; done
stop_pid "$HAPD_PID"
hostapd_sae h2e 1 -d
for d in wpad wpa_supplicant iwd; do station_rows "$d" full-h2e pmksa; done
stop_pid "$HAPD_PID"

# ---- AP side: the AP daemon's CPU per SAE association ----

AP_STA_LOG=$B/wpas-ap.log
start_ap_station() { # PWE
	radio_reset
	nsx sta iw phy "$(phy 1)" interface add wlanb type managed
	wpas_conf "$B/wpas-ap.conf" "$1"
	ip netns exec sta wpa_supplicant -t -D nl80211 -i wlanb -c "$B/wpas-ap.conf" \
		>>"$AP_STA_LOG" 2>&1 &
	PID=$!
}
ap_rows() { # AP_NAME AP_PID
	local ap=$1 ap_pid=$2 pwe row r k n
	for pwe in 0 1; do
		row=full-hnp
		[ "$pwe" = 1 ] && row=full-h2e
		k=AP-$ap,$row # not the station rows' keys
		WALLS[$k]="" CPUS[$k]=""
		n=$(count "$AP_STA_LOG" 'CTRL-EVENT-CONNECTED')
		start_ap_station "$pwe"
		if ! wait_more "$AP_STA_LOG" 'CTRL-EVENT-CONNECTED' "$n"; then
			NA[$k]="wpa_supplicant did not join at start"
			stop_pid "$PID"
			continue
		fi
		sleep 1
		for r in $(seq "$RUNS"); do
			if ! measure_once wpa_supplicant full "$AP_STA_LOG" 'CTRL-EVENT-CONNECTED' "$ap_pid"; then
				NA[$k]="run $r did not connect within 60 s"
				break
			fi
			WALLS[$k]+=" $WALL" CPUS[$k]+=" $CPU"
			log "AP $ap $row #$r: $WALL s, AP CPU $CPU ms"
		done
		stop_pid "$PID"
		sleep 0.5
	done
}

HAPD_LOG=$B/hostapd-ap.log
hostapd_sae ap 2
# The log of measure_once's frame count: none without -d (not reported).
ap_rows hostapd "$HAPD_PID"
stop_pid "$HAPD_PID"

radio_bare 0 ap
wpad_conf_begin "$B/wpad-ap.conf" "$B/wpad-ap-state"
printf '[Radio r0]\nDriver=nl80211\n\n' >>"$B/wpad-ap.conf"
WPAD_AP_EXTRA='AKMs=sae' wpad_conf_ap "$B/wpad-ap.conf" lab r0 psk
ip netns exec ap "$HWSIM_BUILD/wpad" -c "$B/wpad-ap.conf" >"$B/wpad-ap.log" 2>&1 &
WPAD_AP_PID=$!
wait_until 20 "wpad: access point beaconing" wpad_ap_up ap 0
ap_rows wpad "$WPAD_AP_PID"
stop_pid "$WPAD_AP_PID"

# ---- the tables ----

spread() { # NUMBERS...: "median (min..max)", or n/a
	[ $# -gt 0 ] || { echo n/a; return; }
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.3g (%.3g..%.3g)", m, v[1], v[NR] }'
}
med() { # NUMBERS...: the median, or n/a
	[ $# -gt 0 ] || { echo n/a; return; }
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
		printf "%.4g", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() { # A B: A/B, or n/a
	if [ "$1" = n/a ] || [ "$2" = n/a ]; then echo n/a; else awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; fi
}
# A cell's samples, "" when it has none or failed.
samples() { # ARRAY KEY
	local -n arr=$1
	if [ -z "${NA[$2]:-}" ]; then echo "${arr[$2]:-}"; fi
}

declare -A MW MC
row_name() { case $1 in full-hnp) echo "full SAE H&P" ;; full-h2e) echo "full SAE H2E" ;; pmksa) echo "PMKSA cached" ;; esac; }
{
	echo "SAE connect, station side: wpad / wpa_supplicant / iwd -> hostapd (SAE, group 19,"
	echo "ieee80211w=2) on hwsim (qemu TCG), $RUNS connects per cell: median (min..max)"
	printf '%-13s %-15s %-22s %-22s %6s  %9s %8s\n' row daemon "wall s" "CPU ms" "SAE fr" \
		"wall/wpad" "CPU/wpad"
	for row in full-hnp full-h2e pmksa; do
		for d in wpad wpa_supplicant iwd; do
			k=$d,$row
			# shellcheck disable=SC2046
			MW[$k]=$(med $(samples WALLS "$k"))
			# shellcheck disable=SC2046
			MC[$k]=$(med $(samples CPUS "$k"))
			# shellcheck disable=SC2046
			printf '%-13s %-15s %-22s %-22s %6s  %9s %8s\n' "$(row_name "$row")" "$d" \
				"$(spread $(samples WALLS "$k"))" "$(spread $(samples CPUS "$k"))" \
				"$(med $(samples FRAMESS "$k"))" "$(ratio "${MW[$k]}" "${MW[wpad,$row]}")" \
				"$(ratio "${MC[$k]}" "${MC[wpad,$row]}")"
		done
	done
	echo "(wall: the connect command to hostapd's AP-STA-CONNECTED; CPU: the station daemon's"
	echo " threads on CPU from the command to 1 s after; SAE fr: SAE Authentication frames"
	echo " hostapd received per connect, median; iwd 2.3 has no SAE PMKSA caching: its"
	echo " \"PMKSA cached\" row is a full SAE H2E; full rows: wpad's PMKSA dropped with"
	echo " \`wpactl station s1 flush-pmksa\`, wpa_supplicant's with pmksa_flush)"
	best_peer() { # ROW ARRAY: the smaller of the peers' medians
		local -n a=$2
		local x=${a[wpa_supplicant,$1]} y=${a[iwd,$1]}
		if [ "$x" = n/a ]; then echo "$y"; elif [ "$y" = n/a ]; then echo "$x"; else
			awk -v a="$x" -v b="$y" 'BEGIN { print (a < b) ? a : b }'; fi
	}
	verdict() { # A OP B
		if [ "$1" = n/a ] || [ "$3" = n/a ]; then echo "n/a"; else
			awk -v a="$1" -v b="$3" -v op="$2" 'BEGIN { ok = (op == "<=") ? a <= b : 0; print ok ? "met" : "NOT met" }'
		fi
	}
	half=n/a
	[ "${MW[iwd,pmksa]}" = n/a ] || half=$(awk -v a="${MW[iwd,pmksa]}" 'BEGIN { printf "%.4g", a / 2 }')
	echo "target: wpad PMKSA reconnect wall <= half of iwd's warm SAE reconnect:" \
		"${MW[wpad,pmksa]} s vs $half s: $(verdict "${MW[wpad,pmksa]}" '<=' "$half")"
	for row in full-hnp full-h2e pmksa; do
		bp=$(best_peer "$row" MC)
		echo "target: wpad CPU <= best peer's, $(row_name "$row"): ${MC[wpad,$row]} ms vs $bp ms:" \
			"$(verdict "${MC[wpad,$row]}" '<=' "$bp")"
	done
	echo
	echo "SAE connect, AP side: wpa_supplicant (pmksa_flush before each connect: full SAE)"
	echo "-> hostapd AP (sae_pwe=2) / wpad AP (AKMs=sae), $RUNS connects per cell"
	printf '%-13s %-9s %-22s %-22s  %9s %8s\n' row AP "wall s" "AP CPU ms" "wall/wpad" "CPU/wpad"
	for row in full-hnp full-h2e; do
		for ap in wpad hostapd; do
			k=AP-$ap,$row
			# shellcheck disable=SC2046
			MW[$k]=$(med $(samples WALLS "$k"))
			# shellcheck disable=SC2046
			MC[$k]=$(med $(samples CPUS "$k"))
			# shellcheck disable=SC2046
			printf '%-13s %-9s %-22s %-22s  %9s %8s\n' "$(row_name "$row")" "$ap" \
				"$(spread $(samples WALLS "$k"))" "$(spread $(samples CPUS "$k"))" \
				"$(ratio "${MW[$k]}" "${MW[AP-wpad,$row]}")" "$(ratio "${MC[$k]}" "${MC[AP-wpad,$row]}")"
		done
	done
	echo "(wall: wpa_cli reconnect to wpa_supplicant's CTRL-EVENT-CONNECTED; AP CPU: the AP"
	echo " daemon's threads on CPU from the command to 1 s after)"
	for k in "${!NA[@]}"; do echo "$k: n/a: ${NA[$k]}"; done
	echo "versions: $("$HWSIM_BUILD/wpad" --version), $(wpa_supplicant -v | head -n1)," \
		"$(hostapd -v 2>&1 | head -n1), iwd $(/usr/libexec/iwd --version)"
} >"$HWSIM_OUT/bench.txt"
for k in "${!WALLS[@]}"; do
	echo "$k wall s:${WALLS[$k]}"
	echo "$k CPU ms:${CPUS[$k]}"
	echo "$k SAE frames:${FRAMESS[$k]:-}"
done | sort >"$HWSIM_OUT/samples.txt"
cp "$B"/*.log "$HWSIM_OUT/" 2>/dev/null || true
cat "$HWSIM_OUT/bench.txt"
