# wpad station <-> hostapd networks that advertise an RSNXE, which message 3
# of the 4-way handshake must repeat octet for octet (issue 20): WPA2/WPA3
# transition (wpa_key_mgmt=WPA-PSK SAE, ieee80211w=1) with sae_pwe=0 (no
# RSNXE), 1 and 2 (RSNXE with SAE hash-to-element), then a WPA-PSK network
# whose Beacons carry an RSNXE without SAE (own_ie_override: the RSNE and an
# RSNXE with Secure LTF, as hostapd 2.10 writes them on a driver that can do
# it, which mac80211_hwsim cannot). hostapd and wpad start afresh for each;
# each time both sides must say connected, and data crosses both ways.
# radios: 2
# timeout: 360
# needs: wpad-nl80211

RSNXE_PSK_ONLY="own_ie_override=30140100000fac040100000fac040100000fac028000f4020101"

rsnxe_hostapd() { # NAME KEY_MGMT HOSTAPD_LINE...
	local name=$1 akm=$2 conf=$HWSIM_WORK/hostapd-$1.conf line
	shift 2
	{
		echo "interface=$(iface 0)"
		echo "driver=nl80211"
		echo "ctrl_interface=$HWSIM_WORK/hostapd"
		echo "ssid=$SSID_PSK"
		echo "hw_mode=g"
		echo "channel=$CHANNEL"
		echo "wpa=2"
		echo "wpa_key_mgmt=$akm"
		echo "rsn_pairwise=CCMP"
		echo "wpa_passphrase=$PASSPHRASE"
		for line in "$@"; do echo "$line"; done
	} >"$conf"
	start_bg "hostapd-$name" ap hostapd -t -d "$conf"
	wait_until 20 "hostapd enabled ($name)" hostapd_cli_q ap "$(iface 0)" status -- "state=ENABLED"
}

# WANT: the RSNXE wpad heard, as its log prints it ("" for none).
rsnxe_join() { # NAME WANT KEY_MGMT HOSTAPD_LINE...
	local name=$1 want=$2 state=$HWSIM_WORK/wpad-state conf=$HWSIM_WORK/wpad-$1.conf sta_mac
	shift 2
	rsnxe_hostapd "$name" "$@"
	wpad_conf_begin "$conf" "$state"
	printf '[Radio r1]\nDriver=nl80211\n\n[Station s1]\nRadio=r1\nAutoConnect=true\n' >>"$conf"
	wpad_start "wpad-$name" sta "$conf"
	wait_until 40 "wpad: connected to '$SSID_PSK' ($name)" log_has "wpad-$name" "connected to '$SSID_PSK'"
	log_has "wpad-$name" 'possible downgrade|ie-mismatch|reason 17' &&
		fail "wpad reported an element mismatch on $name"
	sta_iface sta 1 || fail "no station interface on $(phy 1)"
	wait_until 10 "kernel: $STA_IF associated ($name)" kernel_sta_linked sta "$STA_IF"
	sta_mac=$(iface_mac sta "$STA_IF")
	wait_until 10 "hostapd: station authorized ($name)" hostapd_sta_authorized ap "$(iface 0)" "$sta_mac"
	# The element wpad heard and held message 3 to (handshake.c logs it).
	if [ -n "$want" ]; then
		grep -A1 "RSNXE heard from" "$HWSIM_OUT/wpad-$name.log" | grep -q -- "  $want\$" ||
			fail "wpad did not hear the RSNXE $want on $name"
	elif log_has "wpad-$name" "RSNXE heard from"; then
		fail "wpad heard an RSNXE on $name, which has none"
	fi
	# Addresses may outlive a daemon (hostapd's wlan0 stays): replace, not add.
	nsx ap ip addr replace "$IP_AP/24" dev "$(iface 0)"
	nsx ap ip link set "$(iface 0)" up
	nsx sta ip addr replace "$IP_STA/24" dev "$STA_IF"
	nsx sta ip link set "$STA_IF" up
	check_ping_both ap sta
	stop_daemon "wpad-$name"
	stop_daemon "hostapd-$name"
}

ns_new ap
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta
radio_bare 1 sta
known_network "$HWSIM_WORK/wpad-state" "$SSID_PSK" psk
rsnxe_join pwe0 "" "WPA-PSK SAE" "ieee80211w=1" "sae_pwe=0"
rsnxe_join pwe1 "f4 01 20" "WPA-PSK SAE" "ieee80211w=1" "sae_pwe=1"
rsnxe_join pwe2 "f4 01 20" "WPA-PSK SAE" "ieee80211w=1" "sae_pwe=2"
rsnxe_join psk-rsnxe "f4 02 01 01" WPA-PSK "ieee80211w=1" "$RSNXE_PSK_ONLY"
