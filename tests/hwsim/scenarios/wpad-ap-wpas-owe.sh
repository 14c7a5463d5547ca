# wpad access point offering OWE (an open profile with AKMs=owe; PMF
# required) <-> wpa_supplicant with key_mgmt=OWE: the DH exchange in the
# association frames, the 4-way handshake from the OWE PMK, data both ways;
# wpa_supplicant reports key_mgmt OWE and a management group cipher.
# radios: 2
# timeout: 240
# needs: wpad-nl80211
WPAD_AP_EXTRA='AKMs=owe'
WPAS_EXTRA=$'key_mgmt=OWE\n\tieee80211w=2'
wpad_ap_connected wpas open
log_has wpad "$STA_MAC: AKM owe, pairwise ccmp-128, PMF on" ||
	fail "wpad's AP did not negotiate OWE with PMF"
log_has wpad "$STA_MAC: 4-way handshake started \(OWE\)" ||
	fail "wpad's AP did not key the handshake from the OWE exchange"
nsx sta wpa_cli -p "$HWSIM_WORK/wpas" -i "$STA_IF" status | grep -q '^key_mgmt=OWE' ||
	fail "wpa_supplicant did not use OWE"
nsx sta wpa_cli -p "$HWSIM_WORK/wpas" -i "$STA_IF" status | grep -q '^mgmt_group_cipher=BIP' ||
	fail "wpa_supplicant has no management group cipher (PMF not in use)"
stop_daemon wpa_supplicant
stop_daemon wpad
