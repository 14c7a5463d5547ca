# wpad station <-> a mixed-mode WPA/WPA2 hostapd (wpa=3, wpa_pairwise=TKIP CCMP,
# rsn_pairwise=CCMP; issue 13 item 1): the RSN element offers group TKIP and
# pairwise CCMP; wpad joins with CCMP pairwise and a TKIP group key (the
# kernel has TKIP) and data flows both ways.
# radios: 2
# timeout: 240
# needs: wpad-nl80211
HOSTAPD_EXTRA='wpa=3\nwpa_pairwise=TKIP CCMP'
wpad_sta_hostapd_connected psk
log_has wpad 'AKM psk, pairwise ccmp-128, group tkip' ||
	fail "wpad did not negotiate CCMP pairwise with a TKIP group cipher"
log_has wpad 'group key [12] installed' || fail "wpad installed no group key"
stop_daemon wpad
stop_daemon hostapd
