# The guest half of bench/hwsim-eap.sh, run by tests/hwsim/vm.sh like a
# scenario (lib.sh + lib-eap.sh helpers). hostapd WPA2-Enterprise (its
# internal EAP server, EAP-TLS, P-256 certificates, -t -d) on radio 0; on
# radio 1 the station: wpad, then wpa_supplicant (scan_freq: channel 6
# only, as the other benches), each started once per AP set-up, joined
# untimed, then RUNS times each: told to disconnect, and once hostapd has
# dropped it (and 0.5 s more), told to connect again:
#   full    hostapd's PMKSA cache flushed (hostapd_cli pmksa_flush) and no
#           TLS session kept by hostapd (tls_session_lifetime=0): the
#           PMKID the station offers is refused by silence, EAP-TLS in full;
#   pmksa   nothing flushed: the PMKID is accepted, no EAP;
#   resume  hostapd restarted with tls_session_lifetime=3600, its PMKSA
#           cache flushed before each try: EAP-TLS runs, the TLS session
#           resumed (one untimed try first fills hostapd's session cache).
# Both daemons without debug logging. Per try, on hostapd's clock (-t:
# the same realtime clock as the script's EPOCHREALTIME):
#   wall    from the connect command (wpactl station s1 connect / wpa_cli
#           reconnect) to hostapd's AP-STA-CONNECTED;
#   where   that wall cut at hostapd's "authenticated", "associated" and
#           CTRL-EVENT-EAP-SUCCESS lines: command -> Authentication (the
#           station's scan or probe, if any), -> Association, EAP (full and
#           resume only), 4-way handshake (-> AP-STA-CONNECTED);
#   CPU     the station daemon's on-CPU time (schedstat, all threads) from
#           just before the command to 1 s after AP-STA-CONNECTED;
#   EAP rx  EAP packets hostapd received in the try (0: no EAP ran).
# Writes bench.txt (medians) and samples.txt (every try).
# radios: 2
# timeout: 1500
# needs: wpad-nl80211
. "$HWSIM_TOP/tests/hwsim/lib-eap.sh"
RUNS=${BENCH_RUNS:-5}
B=$HWSIM_WORK/bench
mkdir -p "$B"

ns_new ap
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta
radio_bare 1 sta
eap_certs
wpad_bus_start
HAPD_LOG=$HWSIM_OUT/hostapd.log

cpu_ns() { # PID: on-CPU nanoseconds of all its threads (%.0f: mawk's %d stops at 2^31)
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f", s }'
}
count() { grep -cE -- "$2" "$1" 2>/dev/null || true; } # FILE REGEX
hapd() { nsx ap hostapd_cli -p "$HWSIM_WORK/hostapd" -i "$(iface 0)" "$@"; }
# Waits up to 60 s for hostapd's log to hold more than N AP-STA-CONNECTED.
wait_connected() { # N
	local i
	for ((i = 0; i < 1200; i++)); do
		[ "$(count "$HAPD_LOG" AP-STA-CONNECTED)" -gt "$1" ] && return 0
		sleep 0.05
	done
	return 1
}
radio_reset() { # no interface left on radio 1
	local d
	for d in $(radio_ifaces 1 sta); do nsx sta iw dev "$d" del; done
}

# ---- the stations: start (sets PID, STA_MAC), disconnect, connect ----

start_wpad() {
	local state=$B/wpad-state
	radio_reset
	rm -rf "$state"
	wpad_conf_begin "$B/wpad.conf" "$state"
	printf '[Radio r1]\nDriver=nl80211\n\n[Station s1]\nRadio=r1\nAutoConnect=true\n' >>"$B/wpad.conf"
	eap_known_network "$state" tls
	ip netns exec sta "$HWSIM_BUILD/wpad" --bus-address "$WPAD_BUS" -c "$B/wpad.conf" \
		>>"$HWSIM_OUT/wpad.log" 2>&1 &
	PID=$!
	wait_connected "$1" || fail "wpad did not join at start"
	sta_iface sta 1 || fail "no station interface on $(phy 1)"
	STA_MAC=$(iface_mac sta "$STA_IF")
}
disconnect_wpad() { wpactl_ station s1 disconnect >/dev/null; }
connect_wpad() { wpactl_ station s1 connect "$EAP_SSID" >/dev/null 2>&1 & CMD=$!; }

WPAS_CTRL=$B/wpas
start_wpa_supplicant() {
	radio_reset
	nsx sta iw phy "$(phy 1)" interface add wlanb type managed
	cat >"$B/wpas.conf" <<-EOF
		ctrl_interface=$WPAS_CTRL
		network={
			ssid="$EAP_SSID"
			scan_freq=$FREQ
			key_mgmt=WPA-EAP
			eap=TLS
			identity="tlsuser"
			ca_cert="$EAP_PKI/ca.pem"
			client_cert="$EAP_PKI/client.pem"
			private_key="$EAP_PKI/client.key"
			domain_match="$EAP_SERVER_NAME"
		}
	EOF
	ip netns exec sta wpa_supplicant -t -D nl80211 -i wlanb -c "$B/wpas.conf" \
		>>"$HWSIM_OUT/wpa_supplicant.log" 2>&1 &
	PID=$!
	wait_connected "$1" || fail "wpa_supplicant did not join at start"
	STA_MAC=$(iface_mac sta wlanb)
}
disconnect_wpa_supplicant() { wpa_cli -p "$WPAS_CTRL" -i wlanb disconnect >/dev/null; }
connect_wpa_supplicant() { wpa_cli -p "$WPAS_CTRL" -i wlanb reconnect >/dev/null & CMD=$!; }

# ---- one measured try ----

# The date of the first line after line L of hostapd's log matching RE.
date_after() { tail -n +$(($1 + 1)) "$HAPD_LOG" | grep -m1 -E -- "$2" | cut -d: -f1 || true; } # L RE
ms() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "") print "-"; else printf "%.0f", (b - a) * 1000 }'; }

declare -A WALL CPU EAPN PRE ASSOC EAP HS
try() { # DAEMON MODE
	local d=$1 mode=$2 k=$1,$2 n l t0 c0 c1 ta tb te tc rest
	"disconnect_$d" || fail "$d: disconnect"
	wait_until 10 "hostapd dropped the station" hostapd_sta_gone ap "$(iface 0)" "$STA_MAC"
	[ "$mode" = pmksa ] || hapd pmksa_flush >/dev/null
	sleep 0.5
	n=$(count "$HAPD_LOG" AP-STA-CONNECTED)
	l=$(wc -l <"$HAPD_LOG")
	c0=$(cpu_ns "$PID")
	t0=$EPOCHREALTIME
	"connect_$d"
	wait_connected "$n" || fail "$d did not connect ($mode)"
	tc=$(date_after "$l" AP-STA-CONNECTED)
	rest=$(awk -v a="$tc" -v b="$EPOCHREALTIME" 'BEGIN { r = a + 1 - b; printf "%.3f", (r > 0 ? r : 0) }')
	sleep "$rest"
	c1=$(cpu_ns "$PID")
	wait "$CMD" 2>/dev/null || true
	ta=$(date_after "$l" "IEEE 802.11: authenticated")
	tb=$(date_after "$l" "IEEE 802.11: associated")
	te=$(date_after "$l" CTRL-EVENT-EAP-SUCCESS)
	WALL[$k]+=" $(ms "$t0" "$tc")"
	CPU[$k]+=" $(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.1f", (b - a) / 1e6 }')"
	EAPN[$k]+=" $(tail -n +$((l + 1)) "$HAPD_LOG" | grep -c 'IEEE 802.1X: received EAP packet' || true)"
	PRE[$k]+=" $(ms "$t0" "$ta")"
	ASSOC[$k]+=" $(ms "$ta" "$tb")"
	if [ -n "$te" ]; then
		EAP[$k]+=" $(ms "$tb" "$te")"
		HS[$k]+=" $(ms "$te" "$tc")"
	else
		EAP[$k]+=" 0"
		HS[$k]+=" $(ms "$tb" "$tc")"
	fi
	log "$d $mode: $(ms "$t0" "$tc") ms"
}

median() { # NUMBERS... ("-" ignored)
	printf '%s\n' "$@" | { grep -v '^-$' || true; } | sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) { print "n/a"; exit } printf "%g\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
span() { # NUMBERS...: "median (min..max)"
	local s
	s=$(printf '%s\n' "$@" | { grep -v '^-$' || true; } | sort -g | awk 'NR == 1 { a = $1 } { b = $1 } END { if (NR) printf "%g..%g", a, b }')
	echo "$(median "$@") ($s)"
}

hostapd_eap_start internal tls_session_lifetime=0
for d in wpad wpa_supplicant; do
	"start_$d" "$(count "$HAPD_LOG" AP-STA-CONNECTED)"
	for ((i = 0; i < RUNS; i++)); do try "$d" full; try "$d" pmksa; done
	kill "$PID"
	wait "$PID" 2>/dev/null || true
	sleep 0.5
done
keep_log hostapd nosessions
stop_daemon hostapd
hostapd_eap_start internal tls_session_lifetime=3600
for d in wpad wpa_supplicant; do
	"start_$d" "$(count "$HAPD_LOG" AP-STA-CONNECTED)"
	try "$d" resume # fills hostapd's session cache
	WALL[$d,resume]='' CPU[$d,resume]='' EAPN[$d,resume]='' PRE[$d,resume]='' ASSOC[$d,resume]=''
	EAP[$d,resume]='' HS[$d,resume]=''
	for ((i = 0; i < RUNS; i++)); do try "$d" resume; done
	kill "$PID"
	wait "$PID" 2>/dev/null || true
	sleep 0.5
done
n_res=$(grep -c ", resumed" "$HWSIM_OUT/wpad.log" || true)
n_res_hapd=$(grep -c "Resuming previous session" "$HAPD_LOG" || true)

{
	echo "station <-> hostapd WPA2-Enterprise (internal EAP server, EAP-TLS, P-256) on hwsim (qemu TCG)"
	echo "median (min..max) of $RUNS tries; host load average at the VM's start: ${BENCH_LOAD:-?}"
	echo "versions: $("$HWSIM_BUILD/wpad" --version 2>/dev/null | head -n1), $(wpa_supplicant -v | head -n1), $(hostapd -v 2>&1 | grep -m1 '^hostapd')"
	printf '%-15s %-7s %-22s %-20s %-7s | %-8s %-8s %-8s %-8s\n' station mode "wall ms" "CPU ms" "EAP rx" \
		"->auth" "->assoc" EAP 4-way
	for d in wpad wpa_supplicant; do
		for m in full pmksa resume; do
			k=$d,$m
			# shellcheck disable=SC2086 # lists of numbers
			printf '%-15s %-7s %-22s %-20s %-7s | %-8s %-8s %-8s %-8s\n' "$d" "$m" \
				"$(span ${WALL[$k]})" "$(span ${CPU[$k]})" "$(median ${EAPN[$k]})" \
				"$(median ${PRE[$k]})" "$(median ${ASSOC[$k]})" "$(median ${EAP[$k]})" \
				"$(median ${HS[$k]})"
		done
	done
	for d in wpad wpa_supplicant; do
		# shellcheck disable=SC2086 # lists of numbers
		f=$(median ${WALL[$d,full]}) p=$(median ${WALL[$d,pmksa]}) r=$(median ${WALL[$d,resume]})
		awk -v d="$d" -v f="$f" -v p="$p" -v r="$r" 'BEGIN {
			printf "%s: pmksa/full %.2f (target <= 0.33), resume/full %.2f\n", d, p / f, r / f }'
	done
	# shellcheck disable=SC2086 # lists of numbers
	awk -v a="$(median ${CPU[wpad,full]})" -v b="$(median ${CPU[wpa_supplicant,full]})" 'BEGIN {
		printf "CPU per full EAP-TLS connect, wpad/wpa_supplicant: %.2f\n", a / b }'
	echo "resumed TLS sessions: wpad logged $n_res, hostapd $n_res_hapd (both daemons' resume tries)"
	echo "(wall: connect command -> hostapd's AP-STA-CONNECTED; ->auth: the command to hostapd's"
	echo " 'authenticated' (the station's scan or probe first, if any); ->assoc: to 'associated';"
	echo " EAP: to CTRL-EVENT-EAP-SUCCESS; 4-way: to AP-STA-CONNECTED; ms, medians)"
} >"$HWSIM_OUT/bench.txt"
for k in "${!WALL[@]}"; do
	echo "$k wall:${WALL[$k]} | cpu:${CPU[$k]} | eap rx:${EAPN[$k]} | ->auth:${PRE[$k]} | ->assoc:${ASSOC[$k]} | eap:${EAP[$k]} | 4-way:${HS[$k]}"
done | sort >"$HWSIM_OUT/samples.txt"
cat "$HWSIM_OUT/bench.txt"
stop_daemon hostapd
