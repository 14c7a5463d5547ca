# Two [AccessPoint] sections on one radio: wpad creates two AP interfaces on
# radio 0 (the second with an address of its own), one open SSID and one
# WPA2-PSK SSID; wpa_supplicant on radio 1 joins the open one, another on
# radio 2 the PSK one. Each station is on its own BSSID, authorized on that
# interface only, and exchanges pings with it.
# radios: 3
# timeout: 360
# needs: wpad-nl80211
conf=$HWSIM_WORK/wpad.conf
ns_new ap
ns_new sta1
ns_new sta2
radio_to_ns 0 ap
radio_to_ns 1 sta1
radio_to_ns 2 sta2
radio_bare 0 ap
wpad_conf_begin "$conf" "$HWSIM_WORK/wpad-state"
printf '[Radio r0]\nDriver=nl80211\n\n' >>"$conf"
printf '[AccessPoint open]\nRadio=r0\nSSID=%s\nChannel=%s\nSecurity=open\n\n' \
	"$SSID_OPEN" "$CHANNEL" >>"$conf"
printf '[AccessPoint psk]\nRadio=r0\nSSID=%s\nChannel=%s\nPassphrase=%s\n\n' \
	"$SSID_PSK" "$CHANNEL" "$PASSPHRASE" >>"$conf"
wpad_start wpad ap "$conf"
wait_until 20 "wpad: $SSID_OPEN beaconing" ap_iface_of_ssid ap 0 "$SSID_OPEN"
wait_until 20 "wpad: $SSID_PSK beaconing" ap_iface_of_ssid ap 0 "$SSID_PSK"
AP_A=$(ap_iface_of_ssid ap 0 "$SSID_OPEN")
AP_B=$(ap_iface_of_ssid ap 0 "$SSID_PSK")
[ "$AP_A" != "$AP_B" ] || fail "one interface for two SSIDs"
MAC_A=$(iface_mac ap "$AP_A")
MAC_B=$(iface_mac ap "$AP_B")
[ "$MAC_A" != "$MAC_B" ] || fail "both BSSs use $MAC_A"
log "BSS $SSID_OPEN on $AP_A ($MAC_A), $SSID_PSK on $AP_B ($MAC_B)"
wpas_start_as wpas1 sta1 "$(iface 1)" "$SSID_OPEN" open
wpas_start_as wpas2 sta2 "$(iface 2)" "$SSID_PSK" psk
wait_until 30 "station 1 COMPLETED" wpas_completed_as wpas1 sta1 "$(iface 1)"
wait_until 30 "station 2 COMPLETED" wpas_completed_as wpas2 sta2 "$(iface 2)"
wpas_cli_as wpas1 sta1 "$(iface 1)" status | grep -qx "bssid=$MAC_A" || fail "station 1 is not on $MAC_A"
wpas_cli_as wpas2 sta2 "$(iface 2)" status | grep -qx "bssid=$MAC_B" || fail "station 2 is not on $MAC_B"
M1=$(iface_mac sta1 "$(iface 1)")
M2=$(iface_mac sta2 "$(iface 2)")
wait_until 10 "kernel: $M1 authorized on $AP_A" kernel_ap_authorized ap "$AP_A" "$M1"
wait_until 10 "kernel: $M2 authorized on $AP_B" kernel_ap_authorized ap "$AP_B" "$M2"
! nsx ap iw dev "$AP_B" station get "$M1" >/dev/null 2>&1 || fail "$M1 is known to $AP_B"
! nsx ap iw dev "$AP_A" station get "$M2" >/dev/null 2>&1 || fail "$M2 is known to $AP_A"
ip_add ap "$AP_A" 10.11.0.1
ip_add sta1 "$(iface 1)" 10.11.0.2
ip_add ap "$AP_B" 10.12.0.1
ip_add sta2 "$(iface 2)" 10.12.0.2
wait_until 25 "ping station 1 -> $SSID_OPEN" ping_ok sta1 10.11.0.1
wait_until 25 "ping station 2 -> $SSID_PSK" ping_ok sta2 10.12.0.1
wait_until 25 "ping $SSID_OPEN -> station 1" ping_ok ap 10.11.0.2
wait_until 25 "ping $SSID_PSK -> station 2" ping_ok ap 10.12.0.2
stop_daemon wpas1
stop_daemon wpas2
stop_daemon wpad
