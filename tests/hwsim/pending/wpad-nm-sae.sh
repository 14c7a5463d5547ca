# The real NetworkManager chooses WPA3-SAE through wpad's
# fi.w1.wpa_supplicant1 front (it offers SAE only when the supplicant reports
# sae, pmf and a BIP group cipher): `nmcli device wifi connect SSID password P`
# against a hostapd SAE AP (ieee80211w=2, sae_pwe=2), then against a WPA2/WPA3
# transition AP (WPA-PSK SAE, ieee80211w=1). Each time: AddNetwork's key_mgmt
# names SAE (from the bus capture), hostapd reports AKM 00-0f-ac-8 and MFP,
# wpad logs SAE, NetworkManager connected, DHCP address, ping both ways.
# radios: 2
# timeout: 600
# needs: wpad-nl80211
SSID_SAE=hwsim-nm-sae
SSID_TR=hwsim-nm-transition
HOSTAPD_KEY_MGMT=SAE nm_wpad_setup "$SSID_SAE" ieee80211w=2 sae_pwe=2

lists() { nmcli_ -t -f SSID,SECURITY device wifi list --rescan auto ifname "$STA_IF" | grep -q "^$1:$2"; } # SSID SECURITY
sae_join() { # SSID KEY_MGMT_REGEX
	local out sta_mac km
	out=$(nmcli_ --wait 90 device wifi connect "$1" password "$PASSPHRASE" ifname "$STA_IF" 2>&1) ||
		fail "nmcli connect $1 exited $?: $out"
	log "nmcli: $out"
	nm_wpad_connected "$1"
	km=$(monitor_addnetwork_values key_mgmt | tail -n1)
	log "AddNetwork key_mgmt for $1: $km; ieee80211w: $(monitor_addnetwork_values ieee80211w | tr '\n' ' ')"
	echo "$km" | grep -Eq "$2" || fail "NetworkManager did not offer SAE for $1 (key_mgmt $km)"
	sta_mac=$(iface_mac sta "$STA_IF")
	hostapd_cli_q ap "$(iface 0)" sta "$sta_mac" -- 'AKMSuiteSelector=00-0f-ac-8' ||
		fail "hostapd does not report AKM SAE for $1"
	hostapd_cli_q ap "$(iface 0)" sta "$sta_mac" -- '^flags=.*\[MFP\]' || fail "no PMF on $1"
	log_has wpad "authenticated with [0-9a-f:]+ \(SAE\)" || fail "wpad did not authenticate with SAE"
	log "ok: $1 joined with SAE"
}

wait_until 40 "nmcli device wifi list: $SSID_SAE, WPA3" lists "$SSID_SAE" WPA3
sae_join "$SSID_SAE" '(^| |")SAE( |"|$)'

# ---- the transition network (WPA-PSK and SAE, PMF optional) ----
nmcli_ connection delete "$SSID_SAE" >/dev/null || fail "nmcli connection delete $SSID_SAE"
wait_until 20 "NetworkManager: $STA_IF disconnected" nm_dev_state_is "$STA_IF" 30
stop_daemon hostapd
HOSTAPD_KEY_MGMT="WPA-PSK SAE" hostapd_start ap "$(iface 0)" "$SSID_TR" psk ieee80211w=1 sae_pwe=2
nsx ap ip addr replace "$IP_AP/24" dev "$(iface 0)"
wait_until 40 "nmcli device wifi list: $SSID_TR" lists "$SSID_TR" 'WPA2 WPA3'
sae_join "$SSID_TR" 'WPA-PSK.*SAE'

stop_daemon nm
stop_daemon wpad
stop_daemon hostapd
kill "${HWSIM_PID[udhcpd]}" "${HWSIM_PID[dbus-monitor]}" 2>/dev/null || true
