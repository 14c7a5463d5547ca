# Station control on the kernel stack: wpad's open AP with ClientIsolation=true
# and MaxStations=2. Two wpa_supplicant stations join and reach the AP, but not
# each other (mac80211 forwards nothing between them); a third is refused with
# IEEE status 17 until one leaves, then gets in; wpactl's per-station
# disconnect (ApStation.Disconnect) deauthenticates it with reason 2.
# radios: 4
# timeout: 420
# needs: wpad-nl80211
conf=$HWSIM_WORK/wpad.conf
ns_new ap
for i in 1 2 3; do
	ns_new "sta$i"
	radio_to_ns "$i" "sta$i"
done
radio_to_ns 0 ap
radio_bare 0 ap
wpad_bus_start
wpad_conf_begin "$conf" "$HWSIM_WORK/wpad-state"
printf '[Radio r0]\nDriver=nl80211\n\n' >>"$conf"
WPAD_AP_EXTRA='ClientIsolation=true\nMaxStations=2'
wpad_conf_ap "$conf" lab r0 open
# shellcheck disable=SC2046 # the bus options are two words
wpad_start wpad ap "$conf" $(wpad_bus_opts)
wait_until 20 "wpad: access point beaconing" wpad_ap_up ap 0
ip_add ap "$AP_IF" 10.11.0.1
wpas_start_as wpas1 sta1 "$(iface 1)" "$SSID_OPEN" open
wait_until 30 "station 1 COMPLETED" wpas_completed_as wpas1 sta1 "$(iface 1)"
wpas_start_as wpas2 sta2 "$(iface 2)" "$SSID_OPEN" open
wait_until 30 "station 2 COMPLETED" wpas_completed_as wpas2 sta2 "$(iface 2)"
ip_add sta1 "$(iface 1)" 10.11.0.2
ip_add sta2 "$(iface 2)" 10.11.0.3
wait_until 25 "ping station 1 -> AP" ping_ok sta1 10.11.0.1
wait_until 25 "ping station 2 -> AP" ping_ok sta2 10.11.0.1
! nsx sta1 ping -n -q -c 3 -i 0.3 -w 4 10.11.0.3 >/dev/null 2>&1 ||
	fail "station 1 reached station 2 through an isolating AP"
log "ok: station 1 cannot reach station 2 (client isolation)"

# The third: refused with 17 while two are in.
M3=$(iface_mac sta3 "$(iface 3)")
wpas_start_as wpas3 sta3 "$(iface 3)" "$SSID_OPEN" open
wait_until 30 "station 3 refused with status 17" \
	log_has wpas3 "CTRL-EVENT-ASSOC-REJECT bssid=[0-9a-f:]+ status_code=17"
log_has wpad "$M3: (re)?association refused, status 17" || fail "wpad did not log status 17 for $M3"
wpas_completed_as wpas3 sta3 "$(iface 3)" && fail "a third station got in"
# One leaves: the third gets in.
wpas_cli_as wpas1 sta1 "$(iface 1)" disconnect >/dev/null
wait_until 40 "station 3 COMPLETED once station 1 left" wpas_completed_as wpas3 sta3 "$(iface 3)"
wait_until 10 "kernel: $M3 authorized" kernel_ap_authorized ap "$AP_IF" "$M3"
# Disconnect over D-Bus.
wpactl_ ap lab disconnect "$M3" || fail "wpactl ap lab disconnect $M3 failed"
wait_until 10 "station 3 deauthenticated with reason 2" \
	log_has wpas3 "CTRL-EVENT-DISCONNECTED bssid=[0-9a-f:]+ reason=2"
stop_daemon wpas1
stop_daemon wpas2
stop_daemon wpas3
stop_daemon wpad
