# The real NetworkManager (Debian's 1.42) drives wpad through its
# fi.w1.wpa_supplicant1 front (issue 19, docs/nm.md): on the system bus, wpad
# (--system --wpa-supplicant-api) owns the name before NetworkManager starts,
# so the bus never activates wpa_supplicant; the owner's PID is checked, and
# the time from wpad's start to owning the name is printed (NetworkManager
# gives an activated supplicant 3 s). Then `nmcli device wifi connect`
# against a hostapd WPA2-PSK AP: NetworkManager says connected, wpad's
# station and the kernel say associated, hostapd says authorized, an address
# from the AP's DHCP server and a ping both ways. Then a wrong passphrase:
# nmcli fails within a bounded time with NetworkManager asking for secrets
# (the 4way_handshake -> disconnected cue). dbus-monitor records the whole
# system bus in dbus-monitor.log.
# radios: 2
# timeout: 600
# needs: wpad-nl80211
WRONG_PASSPHRASE='wrong horse battery'
nm_wpad_setup "$SSID_PSK"
nm_wpad_adopted

nm_lists_ssid() { nmcli_ -t -f SSID,SECURITY device wifi list ifname "$STA_IF" | grep -q "^$SSID_PSK:WPA2"; }
wait_until 40 "nmcli device wifi list: $SSID_PSK, WPA2" nm_lists_ssid
log "wifi list: $(nmcli_ -t -f SSID,SECURITY,SIGNAL,CHAN device wifi list ifname "$STA_IF" | tr '\n' ' ')"

# ---- the right passphrase ----
out=$(nmcli_ --wait 90 device wifi connect "$SSID_PSK" password "$PASSPHRASE" ifname "$STA_IF" 2>&1) ||
	fail "nmcli connect exited $?: $out"
log "nmcli: $out"
nm_wpad_connected "$SSID_PSK"

# ---- a wrong passphrase: NetworkManager asks for secrets ----
nmcli_ connection delete "$SSID_PSK" >/dev/null || fail "nmcli connection delete $SSID_PSK"
wait_until 20 "NetworkManager: $STA_IF disconnected" nm_dev_state_is "$STA_IF" 30
read -r t0 _ </proc/uptime
rc=0
out=$(timeout 150 ip netns exec sta nmcli --wait 120 device wifi connect "$SSID_PSK" password "$WRONG_PASSPHRASE" \
	ifname "$STA_IF" 2>&1) || rc=$?
read -r t1 _ </proc/uptime
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
log "nmcli (wrong passphrase) exited $rc after $secs s: $out"
[ "$rc" -ne 0 ] || fail "nmcli connected with a wrong passphrase"
[ "$rc" -ne 124 ] || fail "nmcli did not give up within 150 s"
echo "$out" | grep -q 'Secrets were required' || fail "nmcli did not say secrets were required"
wait_until 10 "NetworkManager: failed with reason no-secrets" log_has nm "reason 'no-secrets'"
awk -v s="$secs" 'BEGIN { exit !(s < 90) }' || fail "the wrong passphrase took $secs s to fail (bound 90 s)"
log "measure: wrong passphrase -> nmcli failed in $secs s"
alive wpad || fail "wpad died"

stop_daemon nm
stop_daemon wpad
nm_wpad_gave_back
stop_daemon hostapd
kill "${HWSIM_PID[udhcpd]}" "${HWSIM_PID[dbus-monitor]}" 2>/dev/null || true
