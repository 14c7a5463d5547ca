# wpad access point with HE (802.11ax) on an 80 MHz 5 GHz channel (Band=5,
# Channel=36, Width=80, country US) <-> wpa_supplicant: the beacon carries
# HE Capabilities and HE Operation (tshark's decode of hwsim0), the station
# negotiated HE (wpa_supplicant's wifi_generation=6: HE Capabilities in its
# Association Request, built by its kernel from wpad's beacon, and in
# wpad's Association Response), and pings cross.
# hwsim's rate control (minstrel_ht) has no HE rates: the data rates stay
# VHT, recorded in the note.
# radios: 2
# timeout: 240
# needs: wpad-nl80211
CHANNEL=36
WPAD_AP_EXTRA='Band=5\nWidth=80'
WPAS_SCAN_FREQ=5180
wpad_conf_begin() { # FILE STATE_DIR
	mkdir -p "$2"
	chmod 700 "$2"
	printf '[General]\nStateDirectory=%s\nCountry=US\n\n' "$2" >"$1"
}
iw reg set US || fail "iw reg set US"
wait_until 10 "regulatory domain US" sh -c 'iw reg get | grep -q "country US"'
[ -d /sys/kernel/debug/ieee80211 ] || mount -t debugfs debugfs /sys/kernel/debug ||
	fail "cannot mount debugfs"
ip link set hwsim0 up || fail "no hwsim0 monitor"
tcpdump -i hwsim0 -U -w "$HWSIM_OUT/air.pcap" >/dev/null 2>&1 &
HWSIM_PID[tcpdump]=$!
wpad_ap_connected wpas psk
ping_ok sta "$IP_AP" -c 10 -i 0.2 >/dev/null || true
gen=$(nsx sta wpa_cli -p "$HWSIM_WORK/wpas" -i "$STA_IF" status 2>/dev/null | sed -n 's/^wifi_generation=//p')
log "wpa_supplicant wifi_generation=$gen"
# mac80211's view of the station entry, where the kernel has it
# (CONFIG_MAC80211_DEBUGFS; Debian's kernel has not): a remark only.
heap=/sys/kernel/debug/ieee80211/$(phy 0)/netdev:$AP_IF/stations/$STA_MAC/he_capa
[ -r "$heap" ] && log "AP's kernel station entry, he_capa: $(head -n 3 "$heap" | tr '\n' ' ')"
kill "${HWSIM_PID[tcpdump]}"; wait "${HWSIM_PID[tcpdump]}" 2>/dev/null || true
decoded=$(tshark -r "$HWSIM_OUT/air.pcap" -Y 'wlan.fc.type_subtype == 8 && wlan.sa == '"$(nsx ap cat /sys/class/net/$AP_IF/address)" -c 1 -V 2>/dev/null)
echo "$decoded" | grep -q 'Ext Tag Number: HE Capabilities (35)' || fail "tshark: no HE Capabilities in wpad's beacon"
echo "$decoded" | grep -q 'Ext Tag Number: HE Operation (36)' || fail "tshark: no HE Operation in wpad's beacon"
resp=$(tshark -r "$HWSIM_OUT/air.pcap" -Y 'wlan.fc.type_subtype == 1' -c 1 -V 2>/dev/null)
echo "$resp" | grep -q 'Ext Tag Number: HE Capabilities (35)' ||
	fail "tshark: no HE Capabilities in wpad's Association Response"
[ "$gen" = 6 ] || fail "wpa_supplicant did not negotiate HE (wifi_generation=$gen)"
rate=$(nsx sta iw dev "$STA_IF" station dump | grep -E 'tx bitrate' | head -n1)
echo "HE link (wifi_generation 6); data rate $rate" >"$HWSIM_OUT/note"
stop_daemon wpa_supplicant
stop_daemon wpad
