# wpad station <-> hostapd requiring PMF (ieee80211w=2): the link uses
# management frame protection (both kernels say MFP), and a deauthentication
# hostapd sends with reason 7 -- CCMP-protected, since PMF is on -- is
# reported with reason 7 (wpad's log and Device.LastError), not 0.
# radios: 2
# timeout: 240
# needs: wpad-nl80211
ssid=$SSID_PSK
state=$HWSIM_WORK/wpad-state
conf=$HWSIM_WORK/wpad.conf
ns_new ap
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta
hostapd_start ap "$(iface 0)" "$ssid" psk ieee80211w=2
radio_bare 1 sta
wpad_bus_start
wpad_conf_begin "$conf" "$state"
printf '[Radio r1]\nDriver=nl80211\n\n[Station s1]\nRadio=r1\nAutoConnect=true\n' >>"$conf"
known_network "$state" "$ssid" psk
# shellcheck disable=SC2046 # the options are words
wpad_start wpad sta "$conf" $(wpad_bus_opts)
wait_until 40 "wpad: connected to '$ssid'" log_has wpad "connected to '$ssid'"
sta_iface sta 1 || fail "no station interface on $(phy 1)"
sta_mac=$(iface_mac sta "$STA_IF")
wait_until 10 "kernel: $STA_IF associated" kernel_sta_linked sta "$STA_IF"
wait_until 10 "hostapd: station authorized" hostapd_sta_authorized ap "$(iface 0)" "$sta_mac"
nsx ap iw dev "$(iface 0)" station get "$sta_mac" | grep -Eq 'MFP:[[:space:]]+yes' ||
	fail "the AP's kernel does not use MFP with $sta_mac"
log "ok: AP kernel: MFP with $sta_mac"
ip_add ap "$(iface 0)" "$IP_AP"
ip_add sta "$STA_IF" "$IP_STA"
check_ping_both ap sta

wpactl_ monitor >"$HWSIM_OUT/monitor.log" 2>&1 &
monitor=$!
wait_until 10 "wpactl monitor running" grep -q monitoring "$HWSIM_OUT/monitor.log"
nsx ap hostapd_cli -p "$HWSIM_WORK/hostapd" -i "$(iface 0)" deauthenticate "$sta_mac" reason=7 |
	grep -qx OK || fail "hostapd_cli deauthenticate refused"
log "hostapd: sent deauthenticate reason 7 to $sta_mac"
wait_until 10 "wpad: deauthenticated, reason 7" log_has wpad "deauthenticated by .*: reason 7 "
log_has wpad "deauthenticated by .*: reason 0 " && fail "wpad also logged reason 0"
wait_until 10 "Device.LastError with reason 7 (wpactl monitor)" \
	grep -Eq 'LastError=.*ended the connection: reason 7 ' "$HWSIM_OUT/monitor.log"
kill "$monitor"
# It comes back by itself (known network, autoconnect).
wait_until 40 "wpad: connected again" test "$(grep -c "connected to '$ssid'" "$HWSIM_OUT/wpad.log")" -ge 2
wait_until 10 "hostapd: station authorized again" hostapd_sta_authorized ap "$(iface 0)" "$sta_mac"
stop_daemon wpad
stop_daemon hostapd
