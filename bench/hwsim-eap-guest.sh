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
#   wpactl  (wpad only) pmksa again, asked by `wpactl station s1 connect`,
#           a client started for the command, as a person at a shell would;
#   resume  hostapd restarted with tls_session_lifetime=3600, its PMKSA
#           cache flushed before each try: EAP-TLS runs, the TLS session
#           resumed (one untimed try first fills hostapd's session cache).
# Each daemon is driven by a resident client started with it
# (bench/hwsim-client.py: wpad over D-Bus, Network.Connect;
# wpa_supplicant over its control socket, RECONNECT, as wpa_cli would), so
# no client start-up is in the timed path of either (until 2026-12-06 the
# commands were wpactl and wpa_cli, started per try: ~200 ms of wpad's
# PMKSA reconnect under TCG was wpactl starting, more than wpa_cli's).
# Both daemons without debug logging, with timestamps (wpad -t: monotonic,
# put on the realtime clock with the client's reading of both; wpa_supplicant
# -t: realtime). Per try, on hostapd's clock (-t: the same realtime clock
# as the client's and the script's):
#   wall    from the request (the resident client's clock just before it
#           sends it; for wpactl, the script's before starting it) to
#           hostapd's AP-STA-CONNECTED;
#   ->req   (wpad) the request to wpad's "asked over D-Bus" log line: the
#           bus and the client (for wpactl: its start, GetManagedObjects);
#   ->tx    the request to the daemon's own log line as it sends the
#           Authentication frame (wpad "authenticating with", wpa_supplicant
#           "SME: Trying to authenticate"): the daemon's work, its scan if any;
#   where   the wall cut at hostapd's "authenticated", "associated" and
#           CTRL-EVENT-EAP-SUCCESS lines: request -> Authentication,
#           -> Association, EAP (full and resume only), 4-way handshake
#           (-> AP-STA-CONNECTED);
#   CPU     the station daemon's on-CPU time (schedstat, all threads) from
#           just before the request to 1 s after AP-STA-CONNECTED;
#   EAP rx  EAP packets hostapd received in the try (0: no EAP ran).
# A disconnect the daemon answers with "not connected" (wpad's NotConnected:
# under load hostapd sometimes drops the station after the 4-way handshake,
# a late TX status taken for a new association) counts as done: the try
# goes on, and the table says how many there were per daemon.
# Writes bench.txt (medians) and samples.txt (every try).
# radios: 2
# timeout: 1500
# needs: wpad-nl80211
. "$HWSIM_TOP/tests/hwsim/lib-eap.sh"
. "$HWSIM_TOP/bench/guest-lib.sh"
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
	ip netns exec sta "$HWSIM_BUILD/wpad" -t --bus-address "$WPAD_BUS" -c "$B/wpad.conf" \
		>>"$HWSIM_OUT/wpad.log" 2>&1 &
	PID=$!
	DLOG=$HWSIM_OUT/wpad.log
	wait_connected "$1" || fail "wpad did not join at start"
	sta_iface sta 1 || fail "no station interface on $(phy 1)"
	STA_MAC=$(iface_mac sta "$STA_IF")
	client_start wpad "$WPAD_BUS" s1
	client_prepare "$EAP_SSID" || fail "bench client: no network $EAP_SSID"
}
# The daemons' own log lines: the request taken, the Authentication frame
# sent. wpad -t: "SECONDS.MICROS TAG: text" on CLOCK_MONOTONIC;
# wpa_supplicant -t: "SECONDS.MICROS: text" on the realtime clock.
declare -A REQ_LINE=([wpad]="asked over D-Bus" [wpa_supplicant]="")
declare -A TX_LINE=([wpad]="sme: authenticating with" [wpa_supplicant]="SME: Trying to authenticate")
disconnect_wpad() { client_disconnect; }
connect_wpad() { # MODE
	if [ "$1" = wpactl ]; then
		T0=$EPOCHREALTIME
		wpactl_ station s1 connect "$EAP_SSID" >/dev/null 2>&1 &
		CMD=$!
	else
		client_connect "$EAP_SSID"
		CMD=""
	fi
}

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
	DLOG=$HWSIM_OUT/wpa_supplicant.log
	wait_connected "$1" || fail "wpa_supplicant did not join at start"
	STA_MAC=$(iface_mac sta wlanb)
	client_start wpa_supplicant "$WPAS_CTRL/wlanb"
	client_prepare "$EAP_SSID" || fail "bench client: no network $EAP_SSID"
}
disconnect_wpa_supplicant() { client_disconnect; }
connect_wpa_supplicant() { client_connect "$EAP_SSID"; CMD=""; }

# ---- the resident client (bench/guest-lib.sh, bench/hwsim-client.py) ----

finish_connect() { # the client's answer; wpactl's exit
	if [ -n "$CMD" ]; then wait "$CMD" 2>/dev/null || true; else client_ok || fail "the connect failed"; fi
}

# ---- one measured try ----

# The date of the first line after line L of hostapd's log matching RE.
date_after() { tail -n +$(($1 + 1)) "$HAPD_LOG" | grep -m1 -E -- "$2" | cut -d: -f1 || true; } # L RE
# The same in the station daemon's log, on the realtime clock (wpad's
# monotonic stamps moved by CLOCK_OFF; "" when RE is empty).
dlog_after() { # L RE
	[ -n "$2" ] || return 0
	tail -n +$(($1 + 1)) "$DLOG" | grep -m1 -E -- "$2" |
		awk -v off="$CLOCK_OFF" '{ t = $1; sub(/:$/, "", t); printf "%.6f", (t > 1e9 ? t : t + off) }' || true
}
ms() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "") print "-"; else printf "%.0f", (b - a) * 1000 }'; }

declare -A WALL CPU EAPN REQ TX PRE ASSOC EAP HS
CLOCK_OFF=0 T0="" CMD=""
try() { # DAEMON MODE
	local d=$1 mode=$2 k=$1,$2 n l lw c0 c1 ta tb te tc rest
	"disconnect_$d" || fail "$d: disconnect"
	wait_until 10 "hostapd dropped the station" hostapd_sta_gone ap "$(iface 0)" "$STA_MAC"
	case $mode in pmksa | wpactl) ;; *) hapd pmksa_flush >/dev/null ;; esac
	client_prepare "$EAP_SSID" || fail "bench client: no network $EAP_SSID"
	sleep 0.5
	n=$(count "$HAPD_LOG" AP-STA-CONNECTED)
	l=$(wc -l <"$HAPD_LOG")
	lw=$(wc -l <"$DLOG")
	c0=$(cpu_ns "$PID")
	"connect_$d" "$mode"
	wait_connected "$n" || fail "$d did not connect ($mode)"
	tc=$(date_after "$l" AP-STA-CONNECTED)
	rest=$(awk -v a="$tc" -v b="$EPOCHREALTIME" 'BEGIN { r = a + 1 - b; printf "%.3f", (r > 0 ? r : 0) }')
	sleep "$rest"
	c1=$(cpu_ns "$PID")
	finish_connect
	ta=$(date_after "$l" "IEEE 802.11: authenticated")
	tb=$(date_after "$l" "IEEE 802.11: associated")
	te=$(date_after "$l" CTRL-EVENT-EAP-SUCCESS)
	WALL[$k]+=" $(ms "$T0" "$tc")"
	CPU[$k]+=" $(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.1f", (b - a) / 1e6 }')"
	EAPN[$k]+=" $(tail -n +$((l + 1)) "$HAPD_LOG" | grep -c 'IEEE 802.1X: received EAP packet' || true)"
	REQ[$k]+=" $(ms "$T0" "$(dlog_after "$lw" "${REQ_LINE[$d]}")")"
	TX[$k]+=" $(ms "$T0" "$(dlog_after "$lw" "${TX_LINE[$d]}")")"
	PRE[$k]+=" $(ms "$T0" "$ta")"
	ASSOC[$k]+=" $(ms "$ta" "$tb")"
	if [ -n "$te" ]; then
		EAP[$k]+=" $(ms "$tb" "$te")"
		HS[$k]+=" $(ms "$te" "$tc")"
	else
		EAP[$k]+=" 0"
		HS[$k]+=" $(ms "$tb" "$tc")"
	fi
	log "$d $mode: $(ms "$T0" "$tc") ms"
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

# What starting a client costs before it does anything: median of 5 (ms).
startup_ms() { # COMMAND...
	local i t0 v=()
	for ((i = 0; i < 5; i++)); do
		t0=$EPOCHREALTIME
		"$@" >/dev/null 2>&1 || true
		v+=("$(ms "$t0" "$EPOCHREALTIME")")
	done
	median "${v[@]}"
}

stop_station() {
	client_stop
	kill "$PID"
	wait "$PID" 2>/dev/null || true
	sleep 0.5
}

STARTUP="wpactl --version $(startup_ms "$HWSIM_BUILD/wpactl" --version) ms, wpa_cli -v $(startup_ms wpa_cli -v) ms"
hostapd_eap_start internal tls_session_lifetime=0
for d in wpad wpa_supplicant; do
	"start_$d" "$(count "$HAPD_LOG" AP-STA-CONNECTED)"
	for ((i = 0; i < RUNS; i++)); do
		try "$d" full
		try "$d" pmksa
		if [ "$d" = wpad ]; then try "$d" wpactl; fi
	done
	stop_station
done
keep_log hostapd nosessions
stop_daemon hostapd
hostapd_eap_start internal tls_session_lifetime=3600
for d in wpad wpa_supplicant; do
	"start_$d" "$(count "$HAPD_LOG" AP-STA-CONNECTED)"
	try "$d" resume # fills hostapd's session cache
	WALL[$d,resume]='' CPU[$d,resume]='' EAPN[$d,resume]='' REQ[$d,resume]='' TX[$d,resume]=''
	PRE[$d,resume]='' ASSOC[$d,resume]='' EAP[$d,resume]='' HS[$d,resume]=''
	for ((i = 0; i < RUNS; i++)); do try "$d" resume; done
	stop_station
done
n_res=$(grep -c ", resumed" "$HWSIM_OUT/wpad.log" || true)
n_res_hapd=$(grep -c "Resuming previous session" "$HAPD_LOG" || true)

row() { printf '%-15s %-7s %-18s %-16s %-6s | %-6s %-6s %-6s %-7s %-6s %-6s\n' "$@"; }
{
	echo "station <-> hostapd WPA2-Enterprise (internal EAP server, EAP-TLS, P-256) on hwsim (qemu TCG)"
	echo "median (min..max) of $RUNS tries; host load average at the VM's start: ${BENCH_LOAD:-?}"
	echo "versions: $("$HWSIM_BUILD/wpad" --version 2>/dev/null | head -n1), $(wpa_supplicant -v | head -n1), $(hostapd -v 2>&1 | grep -m1 '^hostapd')"
	row station mode "wall ms" "CPU ms" "EAP rx" "->req" "->tx" "->auth" "->assoc" EAP 4-way
	for d in wpad wpa_supplicant; do
		for m in full pmksa wpactl resume; do
			k=$d,$m
			[ -n "${WALL[$k]:-}" ] || continue
			# shellcheck disable=SC2086 # lists of numbers
			row "$d" "$m" "$(span ${WALL[$k]})" "$(span ${CPU[$k]})" "$(median ${EAPN[$k]})" \
				"$(median ${REQ[$k]})" "$(median ${TX[$k]})" "$(median ${PRE[$k]})" \
				"$(median ${ASSOC[$k]})" "$(median ${EAP[$k]})" "$(median ${HS[$k]})"
		done
	done
	for d in wpad wpa_supplicant; do
		# shellcheck disable=SC2086 # lists of numbers
		f=$(median ${WALL[$d,full]}) p=$(median ${WALL[$d,pmksa]}) r=$(median ${WALL[$d,resume]})
		awk -v d="$d" -v f="$f" -v p="$p" -v r="$r" 'BEGIN {
			printf "%s: pmksa/full %.2f (target <= 0.33), resume/full %.2f\n", d, p / f, r / f }'
	done
	# shellcheck disable=SC2086 # lists of numbers
	awk -v f="$(median ${WALL[wpad,full]})" -v w="$(median ${WALL[wpad,wpactl]})" 'BEGIN {
		printf "wpad, pmksa asked by wpactl started for it: /full %.2f\n", w / f }'
	# shellcheck disable=SC2086 # lists of numbers
	awk -v a="$(median ${CPU[wpad,full]})" -v b="$(median ${CPU[wpa_supplicant,full]})" 'BEGIN {
		printf "CPU per full EAP-TLS connect, wpad/wpa_supplicant: %.2f\n", a / b }'
	echo "client start-up alone (exec, libraries, no bus): $STARTUP"
	echo "resumed TLS sessions: wpad logged $n_res, hostapd $n_res_hapd (both daemons' resume tries)"
	echo "disconnects that found the link already gone (hostapd dropped it): wpad ${GONE[wpad]:-0}, wpa_supplicant ${GONE[wpa_supplicant]:-0}"
	echo "(wall: the request (resident client; wpactl: its start) -> hostapd's AP-STA-CONNECTED;"
	echo " ->req: to wpad's 'asked over D-Bus'; ->tx: to the daemon's own 'authenticating' line;"
	echo " ->auth: to hostapd's 'authenticated' (the station's scan or probe first, if any);"
	echo " ->assoc: from there to 'associated'; EAP: to CTRL-EVENT-EAP-SUCCESS; 4-way: to"
	echo " AP-STA-CONNECTED; ms, medians)"
} >"$HWSIM_OUT/bench.txt"
for k in "${!WALL[@]}"; do
	echo "$k wall:${WALL[$k]} | cpu:${CPU[$k]} | eap rx:${EAPN[$k]} | ->req:${REQ[$k]} | ->tx:${TX[$k]} | ->auth:${PRE[$k]} | ->assoc:${ASSOC[$k]} | eap:${EAP[$k]} | 4-way:${HS[$k]}"
done | sort >"$HWSIM_OUT/samples.txt"
cat "$HWSIM_OUT/bench.txt"
stop_daemon hostapd
