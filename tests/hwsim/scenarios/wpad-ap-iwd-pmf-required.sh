# wpad access point requiring PMF <-> iwd (which uses PMF whenever offered).
# radios: 2
# timeout: 240
# needs: wpad-nl80211
WPAD_AP_EXTRA='ManagementFrameProtection=required\nAKMs=psk psk-sha256'
wpad_ap_connected iwd psk
log_has wpad "$STA_MAC: AKM psk(-sha256)?, pairwise ccmp-128, PMF on" ||
	fail "wpad's AP did not negotiate PMF with iwd"
stop_daemon iwd
stop_daemon wpad
