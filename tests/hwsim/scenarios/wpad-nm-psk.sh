# The real NetworkManager (Debian's 1.42) drives wpad through its
# fi.w1.wpa_supplicant1 front (issue 19, docs/nm.md): on the system bus, wpad
# (--system --wpa-supplicant-api) owns the name before NetworkManager starts,
# so the bus never activates wpa_supplicant; the owner's PID is checked, and
# the time from wpad's start to owning the name is printed (NetworkManager
# gives an activated supplicant 3 s). dbus-monitor records the whole system
# bus in dbus-monitor.log. One NetworkManager and one wpad for every
# station case (hostapd restarted between them, on the same BSSID):
# - WPA2-PSK: `nmcli device wifi connect`: NetworkManager says connected,
#   wpad's station and the kernel say associated, hostapd says authorized,
#   an address from the AP's DHCP server and a ping both ways. Then a wrong
#   passphrase: nmcli fails within a bounded time with NetworkManager asking
#   for secrets (the 4way_handshake -> disconnected cue).
# - WPA3-SAE (ieee80211w=2, sae_pwe=2), then a WPA2/WPA3 transition AP
#   (WPA-PSK SAE, ieee80211w=1): NetworkManager offers SAE only when the
#   supplicant reports sae, pmf and a BIP group cipher; each time
#   AddNetwork's key_mgmt names SAE (bus capture), hostapd reports AKM
#   00-0f-ac-8 and MFP, wpad logs SAE, connected, DHCP, ping both ways. The
#   transition AP has the SAE AP's BSSID: it must be listed under its own
#   SSID (a new BSS object).
# - A hidden WPA2-PSK network, the way that works with wpa_supplicant too
#   (`nmcli device wifi connect ... hidden yes` fails with both: nmcli looks
#   the SSID up before the directed scan ends): a profile with
#   802-11-wireless.hidden yes, whose SSID NetworkManager then names in its
#   Scans (the bus shows array of bytes "SSID"), then `nmcli connection up`;
#   AddNetwork carries scan_ssid=1.
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
nmcli_ connection delete "$SSID_PSK" >/dev/null || fail "nmcli connection delete $SSID_PSK"
wait_until 20 "NetworkManager: $STA_IF disconnected" nm_dev_state_is "$STA_IF" 30

# ---- WPA3-SAE, then WPA2/WPA3 transition ----
SSID_SAE=hwsim-nm-sae
SSID_TR=hwsim-nm-transition
SSID_HIDDEN=hwsim-nm-hidden
ap_restart() { # SSID KEY_MGMT [HOSTAPD_LINE...]
	stop_daemon hostapd
	HOSTAPD_KEY_MGMT=$2 hostapd_start ap "$(iface 0)" "$1" psk "${@:3}"
	nsx ap ip addr replace "$IP_AP/24" dev "$(iface 0)"
}
lists() { nmcli_ -t -f SSID,SECURITY device wifi list --rescan auto ifname "$STA_IF" | grep -q "^$1:$2"; } # SSID SECURITY
sae_join() { # SSID KEY_MGMT_REGEX
	local out sta_mac km
	out=$(nmcli_ --wait 90 device wifi connect "$1" password "$PASSPHRASE" ifname "$STA_IF" 2>&1) ||
		fail "nmcli connect $1 exited $?: $out"
	log "nmcli: $out"
	nm_wpad_connected "$1"
	km=$(monitor_addnetwork_values key_mgmt | tail -n1)
	log "AddNetwork key_mgmt for $1: $km"
	echo "$km" | grep -Eq "$2" || fail "NetworkManager did not offer SAE for $1 (key_mgmt $km)"
	sta_mac=$(iface_mac sta "$STA_IF")
	hostapd_cli_q ap "$(iface 0)" sta "$sta_mac" -- 'AKMSuiteSelector=00-0f-ac-8' ||
		fail "hostapd does not report AKM SAE for $1"
	hostapd_cli_q ap "$(iface 0)" sta "$sta_mac" -- '^flags=.*\[MFP\]' || fail "no PMF on $1"
	[ "$(grep -Ec "authenticated with [0-9a-f:]+ \(SAE\)" "$HWSIM_OUT/wpad.log")" -gt "$sae_seen" ] ||
		fail "wpad did not authenticate with SAE to $1"
	sae_seen=$(grep -Ec "authenticated with [0-9a-f:]+ \(SAE\)" "$HWSIM_OUT/wpad.log")
	nmcli_ connection delete "$1" >/dev/null || fail "nmcli connection delete $1"
	wait_until 20 "NetworkManager: $STA_IF disconnected" nm_dev_state_is "$STA_IF" 30
	log "ok: $1 joined with SAE"
}
sae_seen=0
ap_restart "$SSID_SAE" SAE ieee80211w=2 sae_pwe=2
wait_until 40 "nmcli device wifi list: $SSID_SAE, WPA3" lists "$SSID_SAE" WPA3
sae_join "$SSID_SAE" '(^| |")SAE( |"|$)'
log "AddNetwork ieee80211w for $SSID_SAE: $(monitor_addnetwork_values ieee80211w | tail -n1)"
ap_restart "$SSID_TR" "WPA-PSK SAE" ieee80211w=1 sae_pwe=2
wait_until 40 "nmcli device wifi list: $SSID_TR, WPA2 WPA3" lists "$SSID_TR" 'WPA2 WPA3'
sae_join "$SSID_TR" 'WPA-PSK.*SAE'

# ---- a hidden network ----
ap_restart "$SSID_HIDDEN" WPA-PSK ignore_broadcast_ssid=1
nmcli_ connection add type wifi con-name nmhidden ifname "$STA_IF" ssid "$SSID_HIDDEN" \
	802-11-wireless.hidden yes connection.autoconnect no \
	wifi-sec.key-mgmt wpa-psk wifi-sec.psk "$PASSPHRASE" >/dev/null ||
	fail "nmcli connection add exited $?"
# NetworkManager's scans now probe for the hidden profile's SSID; ask for
# one rather than wait for its periodic scan (a rescan refused because one
# runs is fine: that one carries the SSID too).
scan_named_or_rescan() {
	local t
	monitor_scan_names "$SSID_HIDDEN" && return 0
	read -r t _ </proc/uptime
	if awk -v n="$t" -v l="${last_rescan:-0}" 'BEGIN { exit !(n - l > 8) }'; then
		last_rescan=$t
		nmcli_ device wifi rescan ifname "$STA_IF" >/dev/null 2>&1 || true
	fi
	return 1
}
wait_until 30 "a Scan naming $SSID_HIDDEN (array of bytes \"$SSID_HIDDEN\") in the bus capture" \
	scan_named_or_rescan
out=$(nmcli_ --wait 120 connection up nmhidden 2>&1) || fail "nmcli connection up exited $?: $out"
log "nmcli: $out"
nm_wpad_connected "$SSID_HIDDEN"
[ "$(monitor_addnetwork_values scan_ssid | tail -n1)" = "int32 1" ] ||
	fail "AddNetwork did not carry scan_ssid=1 (got '$(monitor_addnetwork_values scan_ssid | tr '\n' ' ')')"
log "ok: AddNetwork scan_ssid=1"

stop_daemon nm
stop_daemon wpad
nm_wpad_gave_back
stop_daemon hostapd
kill "${HWSIM_PID[udhcpd]}" "${HWSIM_PID[dbus-monitor]}" 2>/dev/null || true
