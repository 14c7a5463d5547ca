# The guest half of bench/hwsim-connect.sh, run by tests/hwsim/vm.sh like a
# scenario (lib.sh helpers, set -euo pipefail). One hostapd AP (WPA2-PSK,
# channel 6) on radio 0; wpad, wpa_supplicant and iwd in turn on radio 1:
#   cold  from starting the daemon, network provisioned but never joined
#         (wpad: a .psk file, iwd: a .psk file, wpa_supplicant: its config),
#         to the daemon's own "connected";
#   warm  the daemon running; told to disconnect, then 1 s later to connect
#         to the same network (known, seen a second ago): from the connect
#         command (wpactl, wpa_cli reconnect, iwctl) to its "connected";
#   VmRSS of the daemon each time it is connected;
#   both roles: one wpad running an access point (radio 2) with its own
#         station (radio 1) joined to it, against hostapd (the AP above,
#         started with -d as every scenario does) + wpa_supplicant: VmRSS.
# Daemons run as shipped: no debug logging, wpa_supplicant scans every
# channel. The control tools run in the initial namespace (their sockets are
# paths, reachable from any), and the watcher that spots "connected" starts
# before the clock, so neither `ip netns exec` nor the watcher's own start
# is counted. "Connected" is what each daemon says: wpa_supplicant's
# CTRL-EVENT-CONNECTED, iwd's Station.State "connected" on D-Bus, wpad's
# "connected to '...'" log line. Writes bench.txt and samples.txt.
# radios: 3
# timeout: 1500
. "$HWSIM_TOP/bench/guest-lib.sh"
RUNS=${BENCH_RUNS:-5}
B=$HWSIM_WORK/bench # tmpfs: inotify works here (not on the 9p share)
mkdir -p "$B"

ns_new ap
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta
hostapd_start ap "$(iface 0)" "$SSID_PSK" psk

count() { grep -cE -- "$2" "$1" 2>/dev/null || true; } # FILE REGEX
# The daemon's own share of the last warm connect, from a dbus-monitor log:
# the last Connect method call to the first State "connected" after it
# (both stamped by the monitor as it receives them), or n/a.
daemon_share() { # MONITOR_LOG
	awk '
	/^method call time=/ && /member=Connect$/ {
		s = $0; sub(/.*time=/, "", s); split(s, a, " "); t0 = a[1]; t1 = ""; next }
	/^signal time=/ { s = $0; sub(/.*time=/, "", s); split(s, a, " "); sig = a[1]; next }
	/string "connected"/ && t0 != "" && t1 == "" { t1 = sig }
	END { if (t0 != "" && t1 != "") printf "%.3f", t1 - t0; else printf "n/a" }' "$1"
}

# A watcher, started before the clock: it notes the time at which FILE
# holds N lines matching REGEX (tail -F on a tmpfs file wakes on each write,
# no polling), or gives up after 90 s. Starting it (mkfifo, tail, timeout,
# grep: ~0.1 s each under TCG) before T0 keeps its start out of the figure.
watch_begin() { # FILE REGEX N
	local fifo=$B/lines.fifo
	rm -f "$fifo" "$B/watch.out"
	mkfifo "$fifo"
	tail -n +1 -F "$1" >"$fifo" 2>/dev/null &
	WATCH_TAIL=$!
	WATCH_N=$3
	{
		# -c, not >/dev/null: grep given /dev/null as output stops at
		# the first match whatever -m says.
		n=$(timeout 90 grep -m "$3" -cE -- "$2" <"$fifo") || true
		echo "${n:-0} $EPOCHREALTIME" >"$B/watch.out"
	} &
	WATCH_GREP=$!
	sleep 0.5 # both running before the clock starts
}

watch_end() { # [PID]: sets T1 to when the lines came; fails if they did not
	local n
	# Stop waiting once the daemon PID is gone (its last lines still reach
	# grep in the grace before tail is stopped), not after 90 s.
	if [ -n "${1:-}" ]; then
		wait -n "$WATCH_GREP" "$1" 2>/dev/null || true
		if ! kill -0 "$1" 2>/dev/null; then
			sleep 0.3
			kill "$WATCH_TAIL" 2>/dev/null || true
		fi
	fi
	wait "$WATCH_GREP" 2>/dev/null || true
	kill "$WATCH_TAIL" 2>/dev/null || true
	wait "$WATCH_TAIL" 2>/dev/null || true
	rm -f "$B/lines.fifo"
	read -r n T1 <"$B/watch.out" || return 1
	[ "${n:-0}" -ge "$WATCH_N" ]
}

# Waits (up to 90 s, or until PID is gone) for N lines matching REGEX in
# FILE (not timed).
wait_lines() { # FILE REGEX N PID
	watch_begin "$1" "$2" "$3"
	watch_end "$4"
}

radio_reset() { # no interface left on radio 1
	local d
	for d in $(radio_ifaces 1 sta); do nsx sta iw dev "$d" del; done
}


# ---- per daemon: start (sets LOG, RE, BASE), launch (sets T0, PID) ----

start_wpa_supplicant() {
	radio_reset
	nsx sta iw phy "$(phy 1)" interface add wlanb type managed
	cat >"$B/wpas.conf" <<-EOF
		ctrl_interface=$B/wpas
		network={
			ssid="$SSID_PSK"
			key_mgmt=WPA-PSK
			psk="$PASSPHRASE"
		}
	EOF
	LOG=$B/wpa_supplicant.log RE='CTRL-EVENT-CONNECTED'
	: >"$LOG"
	BASE=0
}
launch_wpa_supplicant() {
	T0=$EPOCHREALTIME
	ip netns exec sta wpa_supplicant -D nl80211 -i wlanb -c "$B/wpas.conf" >"$LOG" 2>&1 &
	PID=$!
}

BUS_LOG=$B/iwd-bus.log
WPAD_BUS_LOG=$B/wpad-bus.log
start_iwd() {
	radio_reset
	rm -rf "$B/iwd-state" "$B/iwd-conf"
	mkdir -p "$B/iwd-state" "$B/iwd-conf"
	printf '[General]\nEnableNetworkConfiguration=false\n' >"$B/iwd-conf/main.conf"
	printf '[Security]\nPassphrase=%s\n' "$PASSPHRASE" >"$B/iwd-state/$SSID_PSK.psk"
	LOG=$BUS_LOG RE='string "connected"'
	BASE=$(count "$LOG" "$RE")
}
launch_iwd() {
	T0=$EPOCHREALTIME
	ip netns exec sta env STATE_DIRECTORY="$B/iwd-state" CONFIGURATION_DIRECTORY="$B/iwd-conf" \
		/usr/libexec/iwd >"$B/iwd.log" 2>&1 &
	PID=$!
}

WPAD_BUS=unix:path=$B/wpad.bus # a private bus: the system one has no policy for org.wpad1
start_wpad() {
	radio_reset
	rm -rf "$B/wpad-state"
	wpad_conf_begin "$B/wpad.conf" "$B/wpad-state"
	printf '[Radio r1]\nDriver=nl80211\n\n[Station s1]\nRadio=r1\nAutoConnect=true\n' >>"$B/wpad.conf"
	known_network "$B/wpad-state" "$SSID_PSK" psk
	LOG=$B/wpad.log RE="connected to '$SSID_PSK'"
	: >"$LOG"
	BASE=0
}
launch_wpad() {
	T0=$EPOCHREALTIME
	ip netns exec sta "$HWSIM_BUILD/wpad" --bus-address "$WPAD_BUS" -c "$B/wpad.conf" >"$LOG" 2>&1 &
	PID=$!
}

# ---- per daemon: disconnect (returns once disconnected), connect (async) ----

wpactl_() { "$HWSIM_BUILD/wpactl" --bus "$WPAD_BUS" "$@"; }
disconnect_wpad() { wpactl_ station s1 disconnect >/dev/null; }
connect_wpad() { wpactl_ station s1 connect "$SSID_PSK" >/dev/null & }

wpa_cli_() { wpa_cli -p "$B/wpas" -i wlanb "$@" >/dev/null; }
disconnect_wpa_supplicant() { # returns once wpa_state says so (up to 30 s)
	local i
	wpa_cli_ disconnect
	for i in $(seq 150); do
		wpa_cli -p "$B/wpas" -i wlanb status | grep -qx 'wpa_state=DISCONNECTED' && return 0
		sleep 0.2
	done
	return 1
}
connect_wpa_supplicant() { wpa_cli_ reconnect; }

disconnect_iwd() { iwctl station "$STA_IF" disconnect >/dev/null; }
connect_iwd() { iwctl station "$STA_IF" connect "$SSID_PSK" >/dev/null & }

# Why a daemon gave no figure, from its log.
why_not() { # DAEMON
	if [ "$1" = wpad ] && grep -q 'no such backend' "$B/wpad.log"; then
		echo "this wpad build has no nl80211 backend (drivers/nl80211 not there yet)"
	elif ! kill -0 "$PID" 2>/dev/null; then
		echo "$1 exited: $(grep -v '^$' "$B/$1.log" | tail -n1)"
	else
		echo "$1 did not connect within 90 s"
	fi
}

declare -A COLD WARM SHARE RSS ANON NA
measure() { # DAEMON
	local d=$1 r w n
	COLD[$d]="" WARM[$d]="" SHARE[$d]="" RSS[$d]="" ANON[$d]=""
	for r in $(seq "$RUNS"); do
		"start_$d"
		watch_begin "$LOG" "$RE" $((BASE + 1))
		"launch_$d"
		if ! watch_end "$PID"; then
			NA[$d]=$(why_not "$d")
			log "$d: no figure: ${NA[$d]}"
			stop_pid "$PID"
			return 0
		fi
		COLD[$d]+=" $(elapsed "$T0" "$T1")"
		RSS[$d]+=" $(status_kib "$PID" VmRSS)"
		ANON[$d]+=" $(status_kib "$PID" RssAnon)"
		log "$d cold #$r: $(elapsed "$T0" "$T1") s, VmRSS $(status_kib "$PID" VmRSS) KiB"
		if [ "$r" -eq "$RUNS" ]; then
			sta_iface sta 1 || fail "$d: no station interface"
			for w in $(seq "$RUNS"); do
				sleep 1
				if ! "disconnect_$d"; then
					log "$d: disconnect #$w failed"
					WARM[$d]+=" n/a"
					break
				fi
				n=$(count "$LOG" "$RE")
				watch_begin "$LOG" "$RE" $((n + 1))
				sleep 0.5 # with the watcher's 0.5 s: 1 s after the disconnect
				T0=$EPOCHREALTIME
				"connect_$d"
				if ! watch_end "$PID"; then
					log "$d: no connection after connect #$w"
					WARM[$d]+=" n/a"
					break
				fi
				WARM[$d]+=" $(elapsed "$T0" "$T1")"
				case $d in
				wpad) SHARE[$d]+=" $(daemon_share "$WPAD_BUS_LOG")" ;;
				iwd) SHARE[$d]+=" $(daemon_share "$BUS_LOG")" ;;
				*) SHARE[$d]+=" n/a" ;;
				esac
				RSS[$d]+=" $(status_kib "$PID" VmRSS)"
				ANON[$d]+=" $(status_kib "$PID" RssAnon)"
				log "$d warm #$w: $(elapsed "$T0" "$T1") s (daemon${SHARE[$d]##* } s)"
			done
		fi
		stop_pid "$PID"
		sleep 0.5
	done
}

median() { # FORMAT NUMBERS...: "n/a" when none or any is n/a
	local fmt=$1
	shift
	case " $* " in *" n/a "* | "  ") echo n/a; return ;; esac
	printf '%s\n' "$@" | sort -g | awk -v f="$fmt" '{ v[NR] = $1 } END {
		printf f "\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

ratio() { # A B: A/B, or n/a
	if [ "$1" = n/a ] || [ "$2" = n/a ]; then echo n/a; else awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; fi
}

dbus_start
dbus-daemon --session --fork --nopidfile --address="$WPAD_BUS"
dbus-monitor --system "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path_namespace='/net/connman/iwd'" \
	"type='method_call',interface='net.connman.iwd.Network',member='Connect'" >"$BUS_LOG" 2>&1 &
dbus-monitor --address "$WPAD_BUS" "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path_namespace='/org/wpad1'" \
	"type='method_call',interface='org.wpad1.Network',member='Connect'" >"$WPAD_BUS_LOG" 2>&1 &
sleep 0.5
for d in wpad wpa_supplicant iwd; do measure $d; done

# Both roles in one wpad: AP on radio 2, station on radio 1 joined to it.
BOTH="" BOTH_ANON=""
HOSTAPD_RSS=$(status_kib "${HWSIM_PID[hostapd]}" VmRSS)
HOSTAPD_ANON=$(status_kib "${HWSIM_PID[hostapd]}" RssAnon)
both_roles() {
	local conf=$B/both.conf state=$B/both-state ssid=wpad-both pid i
	radio_reset
	radio_to_ns 2 sta
	radio_bare 2 sta
	wpad_conf_begin "$conf" "$state"
	printf '[Radio r1]\nDriver=nl80211\nOptions=%s\n\n' "$(wpad_radio_options 1)" >>"$conf"
	printf '[Radio r2]\nDriver=nl80211\nOptions=%s\n\n' "$(wpad_radio_options 2)" >>"$conf"
	printf '[AccessPoint both]\nRadio=r2\nSSID=%s\nChannel=%s\nSecurity=wpa2-psk\nPassphrase=%s\n\n' \
		"$ssid" "$CHANNEL" "$PASSPHRASE" >>"$conf"
	printf '[Station s1]\nRadio=r1\nAutoConnect=true\n' >>"$conf"
	known_network "$state" "$ssid" psk
	ip netns exec sta "$HWSIM_BUILD/wpad" --bus-address "$WPAD_BUS" -c "$conf" >"$B/wpad-both.log" 2>&1 &
	pid=$!
	if wait_lines "$B/wpad-both.log" "connected to '$ssid'" 1 "$pid" &&
		wait_lines "$B/wpad-both.log" " authorized" 1 "$pid"; then
		sleep 1
		for i in $(seq "$RUNS"); do
			BOTH+=" $(status_kib "$pid" VmRSS)"
			BOTH_ANON+=" $(status_kib "$pid" RssAnon)"
			sleep 0.2
		done
		log "wpad both roles: VmRSS$BOTH KiB"
	else
		NA[both]="wpad (AP + station) did not connect: $(tail -n1 "$B/wpad-both.log")"
		log "${NA[both]}"
	fi
	stop_pid "$pid"
}
both_roles

declare -A MC MW MS MR MA
for d in wpad wpa_supplicant iwd; do
	# shellcheck disable=SC2086
	MS[$d]=$(median %.3f ${SHARE[$d]})
	# shellcheck disable=SC2086
	MC[$d]=$(median %.2f ${COLD[$d]})
	# shellcheck disable=SC2086
	MW[$d]=$(median %.2f ${WARM[$d]})
	# shellcheck disable=SC2086
	MR[$d]=$(median %d ${RSS[$d]})
	# shellcheck disable=SC2086
	MA[$d]=$(median %d ${ANON[$d]})
done
{
	echo "connect to a WPA2-PSK hostapd AP on hwsim (qemu TCG), median of $RUNS"
	printf '%-16s %7s %7s %8s %9s %8s   %s\n' daemon "cold s" "warm s" "daemon s" "VmRSS KiB" \
		"anon KiB" "cold/wpad warm/wpad daemon/wpad RSS/wpad anon/wpad"
	for d in wpad wpa_supplicant iwd; do
		printf '%-16s %7s %7s %8s %9s %8s   %9s %9s %11s %8s %9s\n' "$d" "${MC[$d]}" "${MW[$d]}" \
			"${MS[$d]}" "${MR[$d]}" "${MA[$d]}" \
			"$(ratio "${MC[$d]}" "${MC[wpad]}")" "$(ratio "${MW[$d]}" "${MW[wpad]}")" \
			"$(ratio "${MS[$d]}" "${MS[wpad]}")" \
			"$(ratio "${MR[$d]}" "${MR[wpad]}")" "$(ratio "${MA[$d]}" "${MA[wpad]}")"
	done
	echo "(warm s: from the control tool's start; daemon s: the daemon's share of it, from the"
	echo " Connect call to State \"connected\" on D-Bus as dbus-monitor saw them; n/a for"
	echo " wpa_supplicant, driven over its control socket here; anon: RssAnon, the daemon's"
	echo " own pages; VmRSS adds the shared libraries' pages it touched)"
	for d in wpad wpa_supplicant iwd both; do
		[ -z "${NA[$d]:-}" ] || echo "$d: n/a: ${NA[$d]}"
	done
	# shellcheck disable=SC2086
	both=$(median %d $BOTH)
	# shellcheck disable=SC2086
	both_anon=$(median %d $BOTH_ANON)
	two=n/a two_anon=n/a
	[ "$HOSTAPD_RSS" = n/a ] || [ "${MR[wpa_supplicant]}" = n/a ] ||
		two=$((HOSTAPD_RSS + MR[wpa_supplicant]))
	[ "$HOSTAPD_ANON" = n/a ] || [ "${MA[wpa_supplicant]}" = n/a ] ||
		two_anon=$((HOSTAPD_ANON + MA[wpa_supplicant]))
	echo
	echo "both roles (an AP and a station joined to it)"
	printf '%-26s %11s %10s   %s\n' "" "VmRSS KiB" "anon KiB" "RSS/wpad anon/wpad"
	printf '%-26s %11s %10s   %8s %9s\n' "wpad, one process" "$both" "$both_anon" 1.00 1.00
	printf '%-26s %11s %10s   %8s %9s\n' "hostapd + wpa_supplicant" "$two" "$two_anon" \
		"$(ratio "$two" "$both")" "$(ratio "$two_anon" "$both_anon")"
	echo "(hostapd alone: VmRSS $HOSTAPD_RSS, anon $HOSTAPD_ANON KiB)"
	echo "versions: $("$HWSIM_BUILD/wpad" --version), $(wpa_supplicant -v | head -n1)," \
		"$(hostapd -v 2>&1 | head -n1), iwd $(/usr/libexec/iwd --version)"
} >"$HWSIM_OUT/bench.txt"
for d in wpad wpa_supplicant iwd; do
	echo "$d cold:${COLD[$d]}"
	echo "$d warm:${WARM[$d]}"
	echo "$d warm, daemon's share:${SHARE[$d]}"
	echo "$d VmRSS KiB:${RSS[$d]}"
	echo "$d RssAnon KiB:${ANON[$d]}"
done >"$HWSIM_OUT/samples.txt"
echo "wpad both roles VmRSS KiB:$BOTH" >>"$HWSIM_OUT/samples.txt"
echo "wpad both roles RssAnon KiB:$BOTH_ANON" >>"$HWSIM_OUT/samples.txt"
echo "hostapd VmRSS KiB: $HOSTAPD_RSS, RssAnon KiB: $HOSTAPD_ANON" >>"$HWSIM_OUT/samples.txt"
cp "$B"/*.log "$HWSIM_OUT/" 2>/dev/null || true
cat "$HWSIM_OUT/bench.txt"
