# The real NetworkManager joins a hidden WPA2-PSK network through wpad's
# fi.w1.wpa_supplicant1 front, the way that works with wpa_supplicant too
# (docs/nm.md; `nmcli device wifi connect ... hidden yes` fails with both,
# nmcli looks the SSID up before the directed scan ends): a profile with
# 802-11-wireless.hidden yes, then `nmcli connection up`. With the profile
# stored, NetworkManager names the SSID in its scans (its hidden-profile
# probe list, after the empty wildcard); a rescan is asked for and the bus
# capture must show a Scan whose SSIDs hold it, as dbus-monitor prints a byte
# array: array of bytes "SSID". AddNetwork sends scan_ssid=1 (asserted).
# Then as in wpad-nm-psk: NetworkManager connected, wpad and the kernel
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

# NetworkManager's scans now probe for the hidden profile's SSID; ask for
# one rather than wait for its periodic scan (a rescan refused because one
# runs is fine: that one carries the SSID too).
scan_named_or_rescan() {
	local t
	monitor_scan_names "$SSID" && return 0
	read -r t _ </proc/uptime
	if awk -v n="$t" -v l="${last_rescan:-0}" 'BEGIN { exit !(n - l > 8) }'; then
		last_rescan=$t
		nmcli_ device wifi rescan ifname "$STA_IF" >/dev/null 2>&1 || true
	fi
	return 1
}
wait_until 30 "a Scan naming $SSID (array of bytes \"$SSID\") in the bus capture" scan_named_or_rescan
log "ok: NetworkManager's Scan named $SSID (directed probe)"

out=$(nmcli_ --wait 120 connection up nmhidden 2>&1) || fail "nmcli connection up exited $?: $out"
log "nmcli: $out"
nm_wpad_connected "$SSID"
[ "$(monitor_addnetwork_values scan_ssid | tail -n1)" = "int32 1" ] ||
	fail "AddNetwork did not carry scan_ssid=1 (got '$(monitor_addnetwork_values scan_ssid | tr '\n' ' ')')"
log "ok: AddNetwork scan_ssid=1"

stop_daemon nm
stop_daemon wpad
stop_daemon hostapd
kill "${HWSIM_PID[udhcpd]}" "${HWSIM_PID[dbus-monitor]}" 2>/dev/null || true
