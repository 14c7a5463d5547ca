# wpad access point requiring PMF <-> wpa_supplicant with ieee80211w=2: the
# AP advertises MFPC/MFPR and BIP-CMAC-128, accepts the MFP station, sends
# the IGTK in message 3; wpa_supplicant runs with a management group cipher.
# Then wpad deauthenticates the station (wpactl ap DEV disconnect, D-Bus
# ApStation.Disconnect, reason 2) and wpa_supplicant accepts it with that
# reason: with ieee80211w=2 mac80211 drops an unprotected deauthentication
# (wpa_supplicant would start SA Query and keep the link), so this proves the
# frame left protected.
# radios: 2
# timeout: 240
# needs: wpad-nl80211
WPAD_AP_EXTRA='ManagementFrameProtection=required\nAKMs=psk psk-sha256'
WPAS_KEY_MGMT='WPA-PSK WPA-PSK-SHA256'
WPAS_EXTRA='ieee80211w=2'
wpad_bus_start
WPAD_AP_OPTS=$(wpad_bus_opts)
wpad_ap_connected wpas psk
log_has wpad "$STA_MAC: AKM psk-sha256, pairwise ccmp-128, PMF on" ||
	fail "wpad's AP did not negotiate PMF with PSK-SHA256"
nsx sta wpa_cli -p "$HWSIM_WORK/wpas" -i "$STA_IF" status | grep -q '^mgmt_group_cipher=BIP' ||
	fail "wpa_supplicant has no management group cipher (PMF not in use)"
nsx sta wpa_cli -p "$HWSIM_WORK/wpas" -i "$STA_IF" status | grep -q '^key_mgmt=WPA2-PSK-SHA256' ||
	fail "wpa_supplicant did not use WPA2-PSK-SHA256"
wpactl_ ap lab disconnect "$STA_MAC" || fail "wpactl ap lab disconnect $STA_MAC failed"
log_has wpad "$STA_MAC: disconnecting, reason 2" || fail "wpad did not deauthenticate with reason 2"
wait_until 10 "wpa_supplicant: deauthenticated by the AP, reason 2" \
	log_has wpa_supplicant "CTRL-EVENT-DISCONNECTED bssid=[0-9a-f:]+ reason=2$"
# The kernel passed it up as a (protected) deauthentication, never as the
# unprotected one it reports on an MFP link.
log_has wpa_supplicant "nl80211: Deauthenticate event" ||
	fail "wpa_supplicant saw no deauthentication from the kernel"
! log_has wpa_supplicant "Unprot Deauthenticate event" ||
	fail "the deauthentication reached wpa_supplicant unprotected"
stop_daemon wpa_supplicant
stop_daemon wpad
