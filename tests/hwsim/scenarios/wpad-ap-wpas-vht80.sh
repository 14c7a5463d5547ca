# wpad access point on an 80 MHz channel at 5 GHz (Band=5, Channel=36,
# Width=80, country US) <-> wpa_supplicant, WPA2-PSK: the kernel's AP
# interface is 80 MHz wide (iw dev), the station's link carries VHT rates
# (iw station dump), pings cross both ways. HE (802.11ax) on the same
# link, hwsim's radios reporting it: HE Capabilities and HE Operation in
# wpad's beacon and HE Capabilities in its Association Response (a capture
# of hwsim0, read by tools/ext-elements.py), and wpa_supplicant negotiated
# HE (wifi_generation=6).
# hwsim's rate control (minstrel_ht) has no HE rates: the data rates stay
# VHT. (One scenario for both: the set-up is the same.)
# radios: 2
# timeout: 240
# needs: wpad-nl80211
CHANNEL=36
WPAD_AP_EXTRA='Band=5\nWidth=80'
WPAS_SCAN_FREQ=5180
reg_country US
ip link set hwsim0 up || fail "no hwsim0 monitor"
tcpdump -i hwsim0 -U -w "$HWSIM_OUT/air.pcap" >/dev/null 2>&1 &
HWSIM_PID[tcpdump]=$!
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
# HE: wpa_supplicant's view of the link, then the elements on the air.
gen=$(nsx sta wpa_cli -p "$HWSIM_WORK/wpas" -i "$STA_IF" status 2>/dev/null |
	sed -n 's/^wifi_generation=//p')
log "wpa_supplicant wifi_generation=$gen"
kill "${HWSIM_PID[tcpdump]}"
wait "${HWSIM_PID[tcpdump]}" 2>/dev/null || true
# The elements on the air (tools/ext-elements.py: tshark takes tens of
# seconds to start in the emulated VM).
ap_mac=$(nsx ap cat "/sys/class/net/$AP_IF/address")
ext=$(python3 "$HWSIM_TOP/tests/hwsim/tools/ext-elements.py" "$HWSIM_OUT/air.pcap" "$ap_mac") ||
	fail "cannot read the capture"
log "extension elements: $(echo "$ext" | tr '\n' ';')"
has_ext() { echo "$ext" | awk -v t="$1" -v e="$2" '$1 == t { for (i = 2; i <= NF; i++) if ($i == e) f = 1 }
	END { exit !f }'; }
has_ext beacon 35 || fail "no HE Capabilities in wpad's beacon"
has_ext beacon 36 || fail "no HE Operation in wpad's beacon"
has_ext assoc_resp 35 || fail "no HE Capabilities in wpad's Association Response"
[ "$gen" = 6 ] || fail "wpa_supplicant did not negotiate HE (wifi_generation=$gen)"
echo "HE link (wifi_generation 6); data rate $(echo "$dump" | grep -E 'tx bitrate' | head -n1 |
	sed 's/^[[:space:]]*//')" >"$HWSIM_OUT/note"
stop_daemon wpa_supplicant
stop_daemon wpad
