# wpad access point requiring PMF <-> wpa_supplicant with ieee80211w=2: the
# AP advertises MFPC/MFPR and BIP-CMAC-128, accepts the MFP station, sends
# the IGTK in message 3; wpa_supplicant runs with a management group cipher.
# radios: 2
# timeout: 240
# needs: wpad-nl80211
WPAD_AP_EXTRA='ManagementFrameProtection=required\nAKMs=psk psk-sha256'
WPAS_KEY_MGMT='WPA-PSK WPA-PSK-SHA256'
WPAS_EXTRA='ieee80211w=2'
wpad_ap_connected wpas psk
log_has wpad "$STA_MAC: AKM psk-sha256, pairwise ccmp-128, PMF on" ||
	fail "wpad's AP did not negotiate PMF with PSK-SHA256"
nsx sta wpa_cli -p "$HWSIM_WORK/wpas" -i "$STA_IF" status | grep -q '^mgmt_group_cipher=BIP' ||
	fail "wpa_supplicant has no management group cipher (PMF not in use)"
nsx sta wpa_cli -p "$HWSIM_WORK/wpas" -i "$STA_IF" status | grep -q '^key_mgmt=WPA2-PSK-SHA256' ||
	fail "wpa_supplicant did not use WPA2-PSK-SHA256"
stop_daemon wpa_supplicant
stop_daemon wpad
