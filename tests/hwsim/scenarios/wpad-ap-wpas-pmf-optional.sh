# wpad access point with PMF optional (its default) <-> wpa_supplicant with
# PMF disabled (ieee80211w=0): the station joins without PMF.
# radios: 2
# timeout: 240
# needs: wpad-nl80211
WPAS_EXTRA='ieee80211w=0'
wpad_ap_connected wpas psk
log_has wpad "$STA_MAC: AKM psk, pairwise ccmp-128, PMF off" ||
	fail "wpad's AP did not accept the station without PMF"
if nsx sta wpa_cli -p "$HWSIM_WORK/wpas" -i "$STA_IF" status | grep -q '^mgmt_group_cipher='; then
	fail "wpa_supplicant uses PMF although it was disabled"
fi
stop_daemon wpa_supplicant
stop_daemon wpad
