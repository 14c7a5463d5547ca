# The real NetworkManager joins a hidden WPA2-PSK network through wpad's
# fi.w1.wpa_supplicant1 front, the way that works with wpa_supplicant too
# (docs/nm.md; `nmcli device wifi connect ... hidden yes` fails with both,
# nmcli looks the SSID up before the directed scan ends): a profile with
# 802-11-wireless.hidden yes, then `nmcli connection up`. NetworkManager's
# Scan then names the SSID (directed probe) and AddNetwork sends scan_ssid=1;
# asserted as in wpad-nm-psk: NetworkManager connected, wpad and the kernel
# associated, hostapd authorized, DHCP address, ping both ways.
# radios: 2
# timeout: 600
# needs: wpad-nl80211
SSID=hwsim-nm-hidden
nm_wpad_setup "$SSID" ignore_broadcast_ssid=1

nmcli_ connection add type wifi con-name nmhidden ifname "$STA_IF" ssid "$SSID" \
	802-11-wireless.hidden yes connection.autoconnect no \
	wifi-sec.key-mgmt wpa-psk wifi-sec.psk "$PASSPHRASE" >/dev/null ||
	fail "nmcli connection add exited $?"
out=$(nmcli_ --wait 120 connection up nmhidden 2>&1) || fail "nmcli connection up exited $?: $out"
log "nmcli: $out"
nm_wpad_connected "$SSID"
# The directed probe went through the front: a Scan whose SSIDs name it.
grep -A30 'member=Scan$' "$HWSIM_OUT/dbus-monitor.log" | grep -q "\"$SSID\"" ||
	fail "no Scan naming $SSID in the bus capture"
log "ok: NetworkManager's Scan named $SSID (directed probe)"

stop_daemon nm
stop_daemon wpad
stop_daemon hostapd
kill "${HWSIM_PID[udhcpd]}" "${HWSIM_PID[dbus-monitor]}" 2>/dev/null || true
