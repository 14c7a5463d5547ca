# The guest half of bench/hwsim-eap.sh, run by tests/hwsim/vm.sh like a
# scenario (lib.sh + lib-eap.sh helpers). hostapd WPA2-Enterprise (its
# internal EAP server, P-256 certificates) on radio 0, one wpad station on
# radio 1 joined by EAP-TLS; then RUNS times each, the station told to
# disconnect (wpactl) and, once hostapd has dropped it, to connect again:
#   full    hostapd's PMKSA cache flushed (hostapd_cli pmksa_flush) and no
#           TLS session kept by hostapd (tls_session_lifetime=0): the offered
#           PMKID is refused by silence, EAP-TLS runs in full;
#   pmksa   nothing flushed: the PMKID is accepted, no EAP;
#   resume  hostapd restarted with tls_session_lifetime=3600, its PMKSA cache
#           flushed before each try: EAP-TLS runs, the TLS session resumed.
# Measured per try: wpad's own figure (its "connected to ... (N ms)" line:
# from the Connect call to connected), the wall time of `wpactl station s1
# connect` (returns when connected), wpad's CPU (utime+stime from /proc, in
# clock ticks) over the try, and EAP packets hostapd handled (its
# "RX EAPOL" count of EAP type). Writes bench.txt and samples.txt.
# radios: 2
# timeout: 1500
# needs: wpad-nl80211
. "$HWSIM_TOP/tests/hwsim/lib-eap.sh"
RUNS=${BENCH_RUNS:-5}
HZ=$(getconf CLK_TCK)

ns_new ap
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta
radio_bare 1 sta
eap_certs
wpad_bus_start
hostapd_eap_start internal tls_session_lifetime=0
wpad_eap_sta_start tls
WPAD_PID=${HWSIM_PID[wpad]}
STA_MAC=$(iface_mac sta "$STA_IF")

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
n_connected() { grep -c "connected to '$EAP_SSID'" "$HWSIM_OUT/wpad.log" || true; }
n_eap_rx() { grep -c 'IEEE 802.1X: received EAP packet' "$HWSIM_OUT/hostapd.log" || true; }
hapd() { nsx ap hostapd_cli -p "$HWSIM_WORK/hostapd" -i "$(iface 0)" "$@"; }

declare -A OWN WALL CPU EAPN
try() { # MODE
	local mode=$1 before t0 t1 c0 c1 e0 own
	wpactl_ station s1 disconnect >/dev/null || fail "disconnect"
	wait_until 10 "hostapd dropped the station" hostapd_sta_gone ap "$(iface 0)" "$STA_MAC"
	[ "$mode" = pmksa ] || hapd pmksa_flush >/dev/null
	sleep 0.5
	before=$(n_connected)
	e0=$(n_eap_rx)
	c0=$(cpu_ticks "$WPAD_PID")
	t0=$(date +%s.%N)
	wpactl_ station s1 connect "$EAP_SSID" >/dev/null || fail "connect ($mode)"
	t1=$(date +%s.%N)
	c1=$(cpu_ticks "$WPAD_PID")
	[ "$(n_connected)" -gt "$before" ] || fail "wpad did not log the connection ($mode)"
	own=$(grep "connected to '$EAP_SSID'" "$HWSIM_OUT/wpad.log" | tail -n 1 | sed -n 's/.*(\([0-9]*\) ms).*/\1/p')
	OWN[$mode]+=" $own"
	WALL[$mode]+=" $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", (b - a) * 1000 }')"
	CPU[$mode]+=" $(awk -v c="$((c1 - c0))" -v hz="$HZ" 'BEGIN { printf "%d", c * 1000 / hz }')"
	EAPN[$mode]+=" $(($(n_eap_rx) - e0))"
	log "$mode: own $own ms"
}

median() { # NUMBERS...
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) { print "n/a"; exit } printf "%g\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

for ((i = 0; i < RUNS; i++)); do try full; try pmksa; done
keep_log hostapd nosessions
stop_daemon hostapd
hostapd_eap_start internal tls_session_lifetime=3600
for ((i = 0; i < 90; i++)); do # autoconnect, else told once
	hostapd_sta_authorized ap "$(iface 0)" "$STA_MAC" && break
	[ "$i" = 30 ] && { wpactl_ station s1 connect "$EAP_SSID" >/dev/null || true; }
	sleep 1
done
hostapd_sta_authorized ap "$(iface 0)" "$STA_MAC" || fail "wpad did not rejoin the restarted AP"
try resume # the first one fills hostapd's session cache
OWN[resume]='' WALL[resume]='' CPU[resume]='' EAPN[resume]=''
for ((i = 0; i < RUNS; i++)); do try resume; done
n_res=$(grep -c ", resumed" "$HWSIM_OUT/wpad.log" || true)
log "wpad logged $n_res resumed TLS sessions"

{
	echo "wpad station <-> hostapd WPA2-Enterprise (internal EAP server, EAP-TLS, P-256) on hwsim (qemu TCG)"
	echo "median of $RUNS tries; host load average at the VM's start: ${BENCH_LOAD:-?}; wpad logged $n_res resumed TLS sessions"
	printf '%-8s %12s %12s %14s %12s\n' mode "wpad ms" "wall ms" "wpad CPU ms" "EAP rx"
	for m in full pmksa resume; do
		# shellcheck disable=SC2086 # lists of numbers
		printf '%-8s %12s %12s %14s %12s\n' "$m" "$(median ${OWN[$m]})" "$(median ${WALL[$m]})" \
			"$(median ${CPU[$m]})" "$(median ${EAPN[$m]})"
	done
	# shellcheck disable=SC2086 # lists of numbers
	f=$(median ${OWN[full]}) p=$(median ${OWN[pmksa]}) r=$(median ${OWN[resume]})
	awk -v f="$f" -v p="$p" -v r="$r" 'BEGIN {
		printf "pmksa/full %.2f (target <= 0.33), resume/full %.2f\n", p / f, r / f }'
	echo "(wpad ms: wpad's own Connect -> connected; CPU in clock ticks of 1/$HZ s)"
} >"$HWSIM_OUT/bench.txt"
for m in full pmksa resume; do
	echo "$m wpad ms:${OWN[$m]} | wall ms:${WALL[$m]} | cpu ms:${CPU[$m]} | eap rx:${EAPN[$m]}"
done >"$HWSIM_OUT/samples.txt"
cat "$HWSIM_OUT/bench.txt"
stop_daemon wpad
stop_daemon hostapd
