# wpad station <-> hostapd requiring PMF (ieee80211w=2) with WPA-PSK-SHA256 only:
# wpad negotiates PSK-SHA256 with MFPC/MFPR, installs the IGTK, and hostapd
# sees an MFP station.
# radios: 2
# timeout: 240
# needs: wpad-nl80211
HOSTAPD_KEY_MGMT=WPA-PSK-SHA256
HOSTAPD_EXTRA='ieee80211w=2'
wpad_sta_hostapd_connected psk
log_has wpad 'AKM psk-sha256, pairwise ccmp-128, group ccmp-128, PMF (on|required)' ||
	fail "wpad did not negotiate PSK-SHA256 with PMF"
sta_mac=$(iface_mac sta "$STA_IF")
hostapd_cli_q ap "$(iface 0)" sta "$sta_mac" -- '^flags=.*\[MFP\]' ||
	fail "hostapd does not see PMF in use"
hostapd_cli_q ap "$(iface 0)" sta "$sta_mac" -- 'AKMSuiteSelector=00-0f-ac-6' ||
	fail "hostapd does not report AKM PSK-SHA256"
stop_daemon wpad
stop_daemon hostapd
