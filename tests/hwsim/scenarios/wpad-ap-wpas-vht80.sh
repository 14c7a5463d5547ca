# wpad access point on an 80 MHz channel at 5 GHz (Band=5, Channel=36,
# Width=80, country US) <-> wpa_supplicant, WPA2-PSK: the kernel's AP
# interface is 80 MHz wide (iw dev), the station's link carries VHT rates
# (iw station dump), pings cross both ways.
# radios: 2
# timeout: 240
# needs: wpad-nl80211
CHANNEL=36
WPAD_AP_EXTRA='Band=5\nWidth=80'
WPAS_SCAN_FREQ=5180
# The regulatory domain is the kernel's (one for every namespace): US lets
# an AP beacon on 36-48 at 80 MHz; the world domain does not (no-IR).
wpad_conf_begin() { # FILE STATE_DIR
	mkdir -p "$2"
	chmod 700 "$2"
	printf '[General]\nStateDirectory=%s\nCountry=US\n\n' "$2" >"$1"
}
iw reg set US || fail "iw reg set US"
wait_until 10 "regulatory domain US" sh -c 'iw reg get | grep -q "country US"'
wpad_ap_connected wpas psk
log "AP: $(nsx ap iw dev "$AP_IF" info | grep channel)"
nsx ap iw dev "$AP_IF" info | grep -q 'channel 36 (5180 MHz), width: 80 MHz, center1: 5210 MHz' ||
	fail "the AP interface is not on 36 at 80 MHz: $(nsx ap iw dev "$AP_IF" info | grep channel)"
log_has wpad 'channel 36: 80 MHz \(center 5210 MHz\)' || fail "wpad did not log the 80 MHz choice"
# The station follows the AP's operation elements: 80 MHz on its side too.
nsx sta iw dev "$STA_IF" info | grep -q 'width: 80 MHz, center1: 5210 MHz' ||
	fail "the station is not at 80 MHz: $(nsx sta iw dev "$STA_IF" info | grep channel)"
# Traffic, then the rates the station uses with the AP: VHT MCS (which
# MCS and width minstrel settles on varies; VHT at all needs the VHT
# elements on both sides and the AP's NEW_STATION with VHT_CAPABILITY).
ping_ok sta "$IP_AP" -c 20 -i 0.2 >/dev/null || true
dump=$(nsx sta iw dev "$STA_IF" station dump)
log "station dump: $(echo "$dump" | grep -E 'bitrate')"
echo "$dump" | grep -Eq 'tx bitrate:.*VHT-MCS' || fail "no VHT rate in the station's station dump"
nsx ap iw dev "$AP_IF" station dump | grep -Eq 'bitrate:.*VHT-MCS' ||
	fail "no VHT rate in the AP's station dump"
# HE: wpad advertises HE Capabilities/Operation from the radio's iftype
# data; say which PHY the link settled on (a remark, not a verdict).
if echo "$dump" | grep -q 'HE-MCS'; then
	echo "link rates HE" >"$HWSIM_OUT/note"
else
	echo "link rates VHT (no HE-MCS in the station dump)" >"$HWSIM_OUT/note"
fi
stop_daemon wpa_supplicant
stop_daemon wpad
