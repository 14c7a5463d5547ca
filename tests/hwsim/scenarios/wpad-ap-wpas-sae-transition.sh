# wpad transition access point (AKMs=psk sae, PMF optional) with two
# wpa_supplicant stations at once on two radios: a WPA2-only one
# (key_mgmt=WPA-PSK, no PMF) and a WPA3 one (key_mgmt=SAE, ieee80211w=2).
# wpad negotiates PSK with the first and SAE with PMF with the second; both
# are authorized, and data crosses from the AP to each.
# radios: 3
# timeout: 300
# needs: wpad-nl80211
WPAD_AP_EXTRA='AKMs=psk sae\nManagementFrameProtection=optional'
WPAS_KEY_MGMT='WPA-PSK'
wpad_ap_connected wpas psk
psk_mac=$STA_MAC
log_has wpad "$psk_mac: AKM psk, pairwise ccmp-128, PMF off" ||
	fail "wpad's AP did not negotiate PSK with the WPA2-only station"
log_has wpad "transition|WPA2/WPA3-Personal" || fail "wpad's AP is not in transition mode"

# The WPA3 station on radio 2, in its own namespace.
ns_new sta3
radio_to_ns 2 sta3
sta3_if=$(iface 2)
conf=$HWSIM_WORK/wpas-sae.conf
{
	echo "ctrl_interface=$HWSIM_WORK/wpas3"
	echo "network={"
	echo "	ssid=\"$SSID_PSK\""
	echo "	scan_freq=$FREQ"
	echo "	key_mgmt=SAE"
	echo "	psk=\"$PASSPHRASE\""
	echo "	ieee80211w=2"
	echo "}"
} >"$conf"
start_bg wpa_supplicant-sae sta3 wpa_supplicant -t -d -D nl80211 -i "$sta3_if" -c "$conf"
wait_until 30 "wpa_supplicant (SAE) COMPLETED" \
	sh -c "ip netns exec sta3 wpa_cli -p '$HWSIM_WORK/wpas3' -i '$sta3_if' status | grep -qx 'wpa_state=COMPLETED'"
sae_mac=$(iface_mac sta3 "$sta3_if")
wait_until 10 "wpad: $sae_mac authorized" log_has wpad "$sae_mac authorized"
log_has wpad "$sae_mac authenticated \(SAE\)" || fail "wpad's AP did not run SAE with the WPA3 station"
log_has wpad "$sae_mac: AKM sae, pairwise ccmp-128, PMF on" ||
	fail "wpad's AP did not negotiate SAE with PMF with the WPA3 station"
nsx sta3 ip addr add "10.11.0.3/24" dev "$sta3_if"
nsx sta3 ip link set "$sta3_if" up
wait_until 25 "ping AP -> WPA3 station" ping_ok ap 10.11.0.3
wait_until 25 "ping AP -> WPA2 station" ping_ok ap "$IP_STA"
stop_daemon wpa_supplicant-sae
stop_daemon wpa_supplicant
stop_daemon wpad
