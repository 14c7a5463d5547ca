# wpad station <-> hostapd WPA3-Personal (wpa_key_mgmt=SAE, ieee80211w=2)
# with sae_pwe=0 (hunting-and-pecking), 1 (hash-to-element only) and 2
# (both), then hostapd's WPA2/WPA3 transition network (WPA-PSK SAE,
# ieee80211w=1) where wpad must choose SAE. hostapd and wpad start afresh
# for each; each time wpad logs SAE with the expected method, both sides say
# connected (hostapd reports AKM 00-0f-ac-8 and MFP), and data crosses both
# ways.
# radios: 2
# timeout: 420
# needs: wpad-nl80211

sae_hostapd() { # NAME KEY_MGMT HOSTAPD_LINE...
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

# H2E: yes when wpad must use hash-to-element (its commit has status 126).
sae_join() { # NAME H2E KEY_MGMT HOSTAPD_LINE...
	local name=$1 h2e=$2 state=$HWSIM_WORK/wpad-state conf=$HWSIM_WORK/wpad-$1.conf sta_mac
	shift 2
	sae_hostapd "$name" "$@"
	wpad_conf_begin "$conf" "$state"
	printf '[Radio r1]\nDriver=nl80211\n\n[Station s1]\nRadio=r1\nAutoConnect=true\n' >>"$conf"
	wpad_start "wpad-$name" sta "$conf"
	wait_until 40 "wpad: connected to '$SSID_PSK' ($name)" log_has "wpad-$name" "connected to '$SSID_PSK'"
	log_has "wpad-$name" "authenticated with [0-9a-f:]+ \(SAE\)" ||
		fail "wpad did not authenticate with SAE on $name"
	log_has "wpad-$name" "AKM sae, pairwise ccmp-128" || fail "wpad did not use AKM SAE on $name"
	sta_iface sta 1 || fail "no station interface on $(phy 1)"
	wait_until 10 "kernel: $STA_IF associated ($name)" kernel_sta_linked sta "$STA_IF"
	sta_mac=$(iface_mac sta "$STA_IF")
	wait_until 10 "hostapd: station authorized ($name)" hostapd_sta_authorized ap "$(iface 0)" "$sta_mac"
	hostapd_cli_q ap "$(iface 0)" sta "$sta_mac" -- 'AKMSuiteSelector=00-0f-ac-8' ||
		fail "hostapd does not report AKM SAE on $name"
	hostapd_cli_q ap "$(iface 0)" sta "$sta_mac" -- '^flags=.*\[MFP\]' ||
		fail "hostapd does not see PMF in use on $name"
	if [ "$h2e" = yes ]; then
		log_has "wpad-$name" "SAE accepted \(group 19, hash-to-element\)" ||
			fail "wpad did not use hash-to-element on $name"
	else
		log_has "wpad-$name" "SAE accepted \(group 19, hunting-and-pecking\)" ||
			fail "wpad did not use hunting-and-pecking on $name"
	fi
	nsx ap ip addr replace "$IP_AP/24" dev "$(iface 0)"
	nsx ap ip link set "$(iface 0)" up
	nsx sta ip addr replace "$IP_STA/24" dev "$STA_IF"
	nsx sta ip link set "$STA_IF" up
	check_ping_both ap sta
	stop_daemon "wpad-$name"
	stop_daemon "hostapd-$name"
	rm -f "$state"/*.psk.cache 2>/dev/null || true
}

ns_new ap
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta
radio_bare 1 sta
known_network "$HWSIM_WORK/wpad-state" "$SSID_PSK" psk
sae_join pwe0 no SAE "ieee80211w=2" "sae_pwe=0"
sae_join pwe1 yes SAE "ieee80211w=2" "sae_pwe=1"
sae_join pwe2 yes SAE "ieee80211w=2" "sae_pwe=2"
sae_join transition no "WPA-PSK SAE" "ieee80211w=1" "sae_pwe=0"
