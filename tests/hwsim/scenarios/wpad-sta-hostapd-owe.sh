# wpad station <-> hostapd OWE AP (wpa_key_mgmt=OWE, ieee80211w=2,
# rsn_pairwise=CCMP): the known network is stored open (OWE needs no
# credential); wpad joins with AKM OWE, the DH exchange in the association
# frames, PMF, the 4-way handshake from the OWE PMK, and data crosses both
# ways. hostapd sees AKM 00-0f-ac:18 and an MFP station.
# radios: 2
# timeout: 240
# needs: wpad-nl80211
HOSTAPD_EXTRA='wpa=2\nwpa_key_mgmt=OWE\nrsn_pairwise=CCMP\nieee80211w=2'
wpad_sta_hostapd_connected open
log_has wpad 'AKM owe, pairwise ccmp-128, group ccmp-128, PMF (on|required)' ||
	fail "wpad did not negotiate OWE with PMF"
log_has wpad 'authenticated with [0-9a-f:]+ \(OWE\)' || fail "wpad did not run the OWE protocol"
sta_mac=$(iface_mac sta "$STA_IF")
hostapd_cli_q ap "$(iface 0)" sta "$sta_mac" -- '^flags=.*\[MFP\]' ||
	fail "hostapd does not see PMF in use"
hostapd_cli_q ap "$(iface 0)" sta "$sta_mac" -- 'AKMSuiteSelector=00-0f-ac-18' ||
	fail "hostapd does not report AKM OWE"
stop_daemon wpad
stop_daemon hostapd
