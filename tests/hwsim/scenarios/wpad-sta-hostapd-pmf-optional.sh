# wpad station <-> hostapd offering PMF (ieee80211w=1) with WPA-PSK and WPA-PSK-SHA256
# (issue 13 item 5): wpad's default policy (PMF optional) uses PMF whenever the AP
# offers it, and then prefers PSK-SHA256.
# radios: 2
# timeout: 240
# needs: wpad-nl80211
HOSTAPD_KEY_MGMT='WPA-PSK WPA-PSK-SHA256'
HOSTAPD_EXTRA='ieee80211w=1'
wpad_sta_hostapd_connected psk
log_has wpad 'AKM psk-sha256, pairwise ccmp-128, group ccmp-128, PMF on' ||
	fail "wpad did not use PMF and PSK-SHA256 against an AP offering both"
sta_mac=$(iface_mac sta "$STA_IF")
hostapd_cli_q ap "$(iface 0)" sta "$sta_mac" -- '^flags=.*\[MFP\]' ||
	fail "hostapd does not see PMF in use"
hostapd_cli_q ap "$(iface 0)" sta "$sta_mac" -- 'AKMSuiteSelector=00-0f-ac-6' ||
	fail "hostapd does not report AKM PSK-SHA256"
stop_daemon wpad
stop_daemon hostapd
