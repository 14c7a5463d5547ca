# NetworkManager started before wpad, on a bus where nothing can be D-Bus
# activated (no service directories: not even wpa_supplicant). The radio's
# kernel interface is there from the start, so NetworkManager pokes
# fi.w1.wpa_supplicant1: asserted from its log that the poke failed for good
# and that the device is unavailable (20). wpad starts 20 s after
# NetworkManager: the name's NameOwnerChanged makes NetworkManager take the
# supplicant as available and call CreateInterface, wpad adopts the
# interface, and the device becomes disconnected (30) without any
# `nmcli device set ... managed` from the script. Then a WPA2-PSK connect
# works (connected, DHCP, ping both ways).
# radios: 2
# timeout: 600
# needs: wpad-nl80211
LATE_SECS=${NM_LATE_SECS:-20}
NM_BUS_ACTIVATION=0 nm_ap_bus_setup "$SSID_PSK"
sta_iface sta 1 || fail "no kernel station interface on $(phy 1)"
udev_start sta
nm_start sta
t_nm=$(proc_start_wall "${HWSIM_PID[nm]}")
wait_until 30 "NetworkManager on the bus" bus_has_owner org.freedesktop.NetworkManager
wait_until 30 "NetworkManager: $STA_IF unavailable (no supplicant)" nm_dev_state_is "$STA_IF" 20
wait_until 20 "NetworkManager: poking fi.w1.wpa_supplicant1 failed for good" \
	log_has nm 'poke service "fi.w1.wpa_supplicant1" failed for good'
! bus_has_owner fi.w1.wpa_supplicant1 || fail "something owns fi.w1.wpa_supplicant1 before wpad"
now=$(date +%s.%N)
wait_s=$(awk -v a="$t_nm" -v n="$now" -v l="$LATE_SECS" 'BEGIN { w = a + l - n; printf "%.1f", (w > 0 ? w : 0) }')
log "NetworkManager started $(awk -v a="$t_nm" -v n="$now" 'BEGIN { printf "%.1f", n - a }') s ago; wpad in $wait_s s"
# The issue's case is a supplicant that starts late: real seconds, not a poll.
sleep "$wait_s"

nm_wpad_own
t_own=$(date +%s.%N)
wait_until 40 "NetworkManager: $STA_IF disconnected (supplicant ready, not re-managed)" \
	nm_dev_state_is "$STA_IF" 30
log "measure: wpad owns the name -> NetworkManager's device ready: $(awk -v a="$t_own" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
nm_wpad_adopted
log "NetworkManager devices: $(nmcli_ -t -f DEVICE,TYPE,STATE device | tr '\n' ' ')"

out=$(nmcli_ --wait 90 device wifi connect "$SSID_PSK" password "$PASSPHRASE" ifname "$STA_IF" 2>&1) ||
	fail "nmcli connect exited $?: $out"
log "nmcli: $out"
nm_wpad_connected "$SSID_PSK"

stop_daemon nm
stop_daemon wpad
nm_wpad_gave_back
stop_daemon hostapd
kill "${HWSIM_PID[udhcpd]}" "${HWSIM_PID[dbus-monitor]}" 2>/dev/null || true
