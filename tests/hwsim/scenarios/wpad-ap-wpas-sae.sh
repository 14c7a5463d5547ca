# wpad access point WPA3-Personal (AKMs=sae: PMF required, SAE H2E offered
# in the RSNXE) <-> wpa_supplicant key_mgmt=SAE ieee80211w=2, first with
# hunting-and-pecking (sae_pwe=0), then with hash-to-element (sae_pwe=1).
# Both sides must say connected with AKM SAE and PMF, and data crosses both
# ways.
# radios: 2
# timeout: 300
# needs: wpad-nl80211
# smoke: yes
WPAD_AP_EXTRA='AKMs=sae'
WPAS_KEY_MGMT='SAE'
WPAS_EXTRA='ieee80211w=2'
wpad_ap_connected wpas psk
log_has wpad "$STA_MAC authenticated \(SAE\)" || fail "wpad's AP did not run SAE"
log_has wpad "$STA_MAC: AKM sae, pairwise ccmp-128, PMF on" ||
	fail "wpad's AP did not negotiate SAE with PMF"
nsx sta wpa_cli -p "$HWSIM_WORK/wpas" -i "$STA_IF" status | grep -q '^key_mgmt=SAE' ||
	fail "wpa_supplicant did not use SAE"
log_has wpad "$STA_MAC: SAE accepted \(group 19, hunting-and-pecking\)" ||
	fail "wpad's AP did not run hunting-and-pecking with wpa_supplicant (sae_pwe=0)"
stop_daemon wpa_supplicant

# Hash-to-element: wpa_supplicant with sae_pwe=1 (H2E only) rejoins.
conf=$HWSIM_WORK/wpas-h2e.conf
{
	echo "ctrl_interface=$HWSIM_WORK/wpas"
	echo "sae_pwe=1"
	echo "network={"
	echo "	ssid=\"$SSID_PSK\""
	echo "	scan_freq=$FREQ"
	echo "	key_mgmt=SAE"
	echo "	psk=\"$PASSPHRASE\""
	echo "	ieee80211w=2"
	echo "}"
} >"$conf"
start_bg wpa_supplicant-h2e sta wpa_supplicant -t -d -D nl80211 -i "$STA_IF" -c "$conf"
wait_until 30 "wpa_supplicant (H2E) COMPLETED" wpas_completed sta "$STA_IF"
wait_until 10 "wpad: SAE with hash-to-element" \
	log_has wpad "$STA_MAC: SAE accepted \(group 19, hash-to-element\)"
wait_until 10 "wpad: $STA_MAC authorized again" \
	test "$(grep -c "$STA_MAC authorized" "$HWSIM_OUT/wpad.log")" -ge 2
check_ping_both ap sta
stop_daemon wpa_supplicant-h2e
stop_daemon wpad
