# NetworkManager's hotspot on wpad's access point (issue 19, Deliver 2):
# the real NetworkManager (Debian's 1.42) drives wpad (--system
# --wpa-supplicant-api) on radio 1; `nmcli device wifi hotspot` makes it add
# a mode=2 network, which wpad runs on its AP role. A wpa_supplicant station
# on radio 0 (namespace cli, WPA2-PSK) joins; wpad says it is authorized,
# org.wpad1 shows it in the AP's station table, it gets an address from
# NetworkManager's shared-mode dnsmasq and pings the hotspot (10.42.0.1)
# both ways. `nmcli connection down` stops the AP and gives the interface
# back to a station. Then the same with the real wpa_supplicant (D-Bus
# activated the Debian way: wpa_supplicant -u) in wpad's place, and the two
# printed side by side: time from the nmcli command to the station
# authorized (the station, wpa_supplicant, starts when nmcli returns),
# nmcli's own time, and the supplicant's VmRSS with the hotspot and one
# station. NetworkManager runs with firewall-backend=none (the VM has
# neither iptables nor nft); its shared mode still runs dnsmasq.
# radios: 2
# timeout: 900
# needs: wpad-nl80211
HOT_SSID=hwsim-hotspot
HOT_IP=10.42.0.1
declare -A ROW

ns_new sta
ns_new cli
radio_to_ns 1 sta
radio_to_ns 0 cli
CLI_IF=$(iface 0)
CLI_MAC=$(iface_mac cli "$CLI_IF")
dbus_start "$HWSIM_TOP/dbus/org.wpad1.conf"
start_bg dbus-monitor sta dbus-monitor --system
wait_until 10 "dbus-monitor attached" log_has dbus-monitor 'member=Name(Acquired|Lost)'
mkdir -p "$HWSIM_WORK/nm/conf.d"
printf '[main]\nfirewall-backend=none\n' >"$HWSIM_WORK/nm/conf.d/90-hotspot.conf"

# NetworkManager (started on a supplicant that already owns the name) until
# the device is managed and its supplicant interface ready.
nm_up() {
	sta_iface sta 1 || fail "no station interface on $(phy 1)"
	log "station interface: $STA_IF"
	[ -S /run/udev/control ] || udev_start sta
	nm_start sta
	wait_until 30 "NetworkManager on the bus" bus_has_owner org.freedesktop.NetworkManager
	wait_until 40 "NetworkManager: $STA_IF disconnected (managed, supplicant ready)" \
		nm_dev_state_is "$STA_IF" 30
}

authorized_by() { # wpad|wpas: the hotspot's supplicant says CLI_MAC is authorized
	case $1 in
	wpad) log_has wpad "$CLI_MAC authorized" ;;
	wpas) log_has wpas-nm "AP-STA-CONNECTED $CLI_MAC|$CLI_MAC .*authorized|EAPOL-4WAY-HS-COMPLETED $CLI_MAC" ;;
	esac
}

now() { local t; read -r t _ </proc/uptime; echo "$t"; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

# The hotspot with SUPPLICANT (wpad|wpas, already owning the name, NM up):
# nmcli, the station joins, DHCP from NM's dnsmasq, pings, the numbers.
hotspot_run() { # wpad|wpas SUPPLICANT_PID_NAME
	local who=$1 t0 out lease rss
	t0=$(now)
	out=$(nmcli_ --wait 90 device wifi hotspot ifname "$STA_IF" con-name "hotspot-$who" \
		ssid "$HOT_SSID" password "$PASSPHRASE" band bg channel "$CHANNEL" 2>&1) ||
		fail "nmcli hotspot ($who) exited $?: $out"
	ROW[$who-nmcli]=$(since "$t0")
	log "nmcli ($who, ${ROW[$who-nmcli]} s): $out"
	# The station starts once NetworkManager says the hotspot is up (a
	# station already scanning would add its scan back-off, seconds, to
	# the figure: seen in the first runs).
	wpas_start_as "client-$who" cli "$CLI_IF" "$HOT_SSID" psk
	wait_until 60 "$who: the station $CLI_MAC authorized" authorized_by "$who"
	ROW[$who-auth]=$(since "$t0")
	log "measure: $who hotspot: nmcli -> station authorized ${ROW[$who-auth]} s (nmcli returned after ${ROW[$who-nmcli]} s)"
	wait_until 20 "NetworkManager: $STA_IF connected (hotspot)" nm_dev_state_is "$STA_IF" 100
	wait_until 20 "wpa_supplicant station COMPLETED" wpas_completed_as "client-$who" cli "$CLI_IF"
	nsx cli ip link set "$CLI_IF" up
	dhcp_lease cli "$CLI_IF" >"$HWSIM_OUT/udhcpc-$who.log" 2>&1 ||
		fail "no DHCP lease from NetworkManager's dnsmasq ($who): $(cat "$HWSIM_OUT/udhcpc-$who.log")"
	lease=$(iface_ipv4 cli "$CLI_IF")
	case $lease in 10.42.0.*) ;; *) fail "the station got '$lease', not an address of 10.42.0.0/24" ;; esac
	log "ok: DHCP lease $lease from NetworkManager's shared mode"
	wait_until 25 "ping station -> hotspot ($HOT_IP)" ping_ok cli "$HOT_IP"
	wait_until 25 "ping hotspot -> station ($lease)" ping_ok sta "$lease"
	rss=$(awk '/^VmRSS/ { print $2 }' "/proc/${HWSIM_PID[$2]}/status")
	ROW[$who-rss]=$rss
	log "measure: $who VmRSS with the hotspot and one station: $rss kB"
}

# ---- wpad ----
# [Station] Interface=: wpad takes the kernel's interface over at start
# (rather than when NetworkManager asks, as in wpad-nm-psk), turns it into the
# hotspot's AP and back, and leaves it a station when it stops.
sta_iface sta 1 || fail "no kernel station interface on $(phy 1)"
kernel_if=$STA_IF
conf=$HWSIM_WORK/wpad.conf
wpad_conf_begin "$conf" "$HWSIM_WORK/wpad-state"
printf '[Radio r1]\nDriver=nl80211\n\n[Station s1]\nRadio=r1\nAutoConnect=false\nInterface=%s\n' \
	"$kernel_if" >>"$conf"
start_bg wpad sta "$HWSIM_BUILD/wpad" -d -c "$conf" --system --wpa-supplicant-api
wait_until 10 "wpad owns fi.w1.wpa_supplicant1" bus_has_owner fi.w1.wpa_supplicant1
nm_up
hotspot_run wpad wpad
log_has wpad "hotspot $HOT_SSID started" || fail "wpad did not say it started the hotspot"
nsx sta iw dev "$STA_IF" info | grep -q 'type AP' || fail "the kernel does not see $STA_IF as an AP"
count=$(dbus-send --system --print-reply --dest=org.wpad1 /org/wpad1/device/s1 \
	org.freedesktop.DBus.Properties.Get string:org.wpad1.AccessPoint string:StationCount |
	awk '/uint32/ { print $3 }')
[ "$count" = 1 ] || fail "org.wpad1's AccessPoint.StationCount is '$count', not 1"
log "ok: org.wpad1 AccessPoint.StationCount 1"
wpas_iface_prop "$STA_IF" State | grep -qx 'string "completed"' ||
	fail "wpad's fi.w1.wpa_supplicant1 State is not completed with the hotspot up"
nmcli_ connection down hotspot-wpad >/dev/null || fail "nmcli connection down hotspot-wpad"
wait_until 20 "wpad: the hotspot stopped, a station again" log_has wpad "hotspot stopped, a station again"
wait_until 20 "NetworkManager: $STA_IF disconnected (a station again)" nm_dev_state_is "$STA_IF" 30
nsx sta iw dev "$STA_IF" info | grep -q 'type managed' || fail "$STA_IF is not a station again"
# Both halves use the kernel's interface now, and `nmcli device wifi hotspot`
# reuses an access point profile the interface already has: without this,
# wpa_supplicant's half would run hotspot-wpad again.
nmcli_ connection delete hotspot-wpad >/dev/null || fail "nmcli connection delete hotspot-wpad"
alive wpad || fail "wpad died"
stop_daemon "client-wpad"
stop_daemon nm
stop_daemon wpad
nsx sta iw dev "$kernel_if" info | grep -q 'type managed' ||
	fail "$kernel_if is gone or not a station after wpad stopped"
log "ok: $kernel_if adopted by wpad, given back a station"

# ---- the real wpa_supplicant, as Debian's activation starts it ----
if ! sta_iface sta 1; then
	nsx sta iw phy "$(phy 1)" interface add wlan-nm type managed || fail "cannot add a station interface"
fi
start_bg wpas-nm sta wpa_supplicant -u -t -d
wait_until 10 "wpa_supplicant owns fi.w1.wpa_supplicant1" bus_has_owner fi.w1.wpa_supplicant1
nm_up
hotspot_run wpas wpas-nm
nmcli_ connection down hotspot-wpas >/dev/null || fail "nmcli connection down hotspot-wpas"
stop_daemon "client-wpas"
stop_daemon nm
stop_daemon wpas-nm
kill "${HWSIM_PID[dbus-monitor]}" 2>/dev/null || true

log "measure: hotspot side by side (load $(cut -d' ' -f1-3 /proc/loadavg); emulated VM, wall-clock, noisy):"
log "measure:   row                                   wpad      wpa_supplicant"
log "measure:   nmcli hotspot returned (AP up)        ${ROW[wpad-nmcli]} s    ${ROW[wpas-nmcli]} s"
log "measure:   nmcli hotspot -> station authorized   ${ROW[wpad-auth]} s    ${ROW[wpas-auth]} s"
log "measure:   VmRSS, hotspot + one station          ${ROW[wpad-rss]} kB   ${ROW[wpas-rss]} kB"
