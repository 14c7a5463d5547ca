# Records what hostapd 2.10 sends on WPA2/WPA3 transition networks, for the
# unit tests' real-byte data (tests/unit/data_hostapd_rsnxe.c, made from the
# captures by tests/hwsim/tools/rsnxe-pcap-to-c.py). Not in the suite: run it
# by path, once, when the data is to be made again:
#
#   flock /tmp/wpad-hwsim.lock tests/hwsim/vm.sh tests/hwsim/tools/capture-rsnxe.sh
#
# For each hostapd configuration, wpa_supplicant (key_mgmt=WPA-PSK,
# ieee80211w=1) joins while tcpdump records every frame on the air (hwsim0,
# radiotap): Beacons, the Probe Response to its scan, the 4-way handshake.
# Pass cases: sae_pwe 0/1/2 x transition_disable off/0x01 x ieee80211w 1/2.
# Mismatch cases use hostapd's testing options (sae_pwe=2, ieee80211w=1):
# message 3 then differs from the Beacon, and wpa_supplicant leaves with
# reason 17. One WPA-PSK network advertises an RSNXE without SAE (own_ie_override:
# RSNE + RSNXE with Secure LTF, as hostapd writes them on a driver with
# WPA_DRIVER_FLAGS2_SEC_LTF, which mac80211_hwsim lacks).
# radios: 2
# timeout: 900

CAP_SSID=wpad-rsnxe
CAP_DIR=$HWSIM_OUT/pcap
mkdir -p "$CAP_DIR"

ns_new ap
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta
ip link set hwsim0 up || fail "no hwsim0 monitor interface"

cap_wpas_conf() { # FILE
	{
		echo "ctrl_interface=$HWSIM_WORK/wpas"
		echo "network={"
		echo "	ssid=\"$CAP_SSID\""
		echo "	scan_freq=$FREQ"
		echo "	key_mgmt=WPA-PSK"
		echo "	ieee80211w=1"
		echo "	psk=\"$PASSPHRASE\""
		echo "}"
	} >"$1"
}

wpas_left_17() { log_has "$1" 'CTRL-EVENT-DISCONNECTED .*reason=17'; } # NAME
# The first handshake completed. (Under emulation hostapd sometimes restarts
# the handshake after it, on a late duplicate association event, and the
# live state is then 4WAY_HANDSHAKE again; the frames wanted are the first's.)
wpas_connected() { log_has "$1" 'CTRL-EVENT-CONNECTED'; } # NAME

# NAME EXPECT(ok|17) KEY_MGMT HOSTAPD_LINE...
capture() {
	local name=$1 expect=$2 akm=$3 conf=$HWSIM_WORK/hostapd-$1.conf wconf=$HWSIM_WORK/wpas-$1.conf
	local tpid line
	shift 3
	{
		echo "interface=$(iface 0)"
		echo "driver=nl80211"
		echo "ctrl_interface=$HWSIM_WORK/hostapd"
		echo "ssid=$CAP_SSID"
		echo "hw_mode=g"
		echo "channel=$CHANNEL"
		echo "wpa=2"
		echo "wpa_key_mgmt=$akm"
		echo "rsn_pairwise=CCMP"
		echo "wpa_passphrase=$PASSPHRASE"
		for line in "$@"; do echo "$line"; done
	} >"$conf"
	cap_wpas_conf "$wconf"
	tcpdump -i hwsim0 -U -w "$CAP_DIR/$name.pcap" >"$HWSIM_OUT/tcpdump-$name.log" 2>&1 &
	tpid=$!
	wait_until 10 "tcpdump listening ($name)" grep -q 'listening on' "$HWSIM_OUT/tcpdump-$name.log"
	start_bg "hostapd-$name" ap hostapd -t -d "$conf"
	wait_until 20 "hostapd enabled ($name)" hostapd_cli_q ap "$(iface 0)" status -- "state=ENABLED"
	start_bg "wpas-$name" sta wpa_supplicant -t -d -D nl80211 -i "$(iface 1)" -c "$wconf"
	if [ "$expect" = ok ]; then
		wait_until 30 "wpa_supplicant connected ($name)" wpas_connected "wpas-$name"
		log_has "wpas-$name" 'reason=17' && fail "wpa_supplicant left $name with reason 17"
	else
		wait_until 30 "wpa_supplicant left with reason 17 ($name)" wpas_left_17 "wpas-$name"
	fi
	stop_daemon "wpas-$name"
	stop_daemon "hostapd-$name"
	kill -INT "$tpid"
	wait "$tpid" || true
	cp "$conf" "$CAP_DIR/$name.hostapd.conf"
	log "captured $name"
}

for pmf in 1 2; do
	for pwe in 0 1 2; do
		capture "pwe$pwe-td0-pmf$pmf" ok "WPA-PSK SAE" "ieee80211w=$pmf" "sae_pwe=$pwe"
		capture "pwe$pwe-td1-pmf$pmf" ok "WPA-PSK SAE" "ieee80211w=$pmf" "sae_pwe=$pwe" \
			"transition_disable=0x01"
	done
done

# A WPA-PSK network whose Beacons carry an RSNXE (Secure LTF) and no SAE.
capture psk-rsnxe-ltf ok WPA-PSK "ieee80211w=1" \
	"own_ie_override=30140100000fac040100000fac040100000fac028000f4020101"

# Message 3 unlike the Beacon (hostapd's testing options).
H2E=("ieee80211w=1" "sae_pwe=2")
capture mm-rsne-changed 17 "WPA-PSK SAE" "${H2E[@]}" \
	"rsne_override_eapol=30140100000fac040100000fac040100000fac028000"
capture mm-rsnxe-added 17 "WPA-PSK SAE" "${H2E[@]}" "no_beacon_rsnxe=1"
# An RSNXE removed from or changed in message 3 is tested with genuine
# message 3s against altered heard elements (test_rsn_hostapd.c): an empty
# rsnxe_override_eapol= in a configuration file does not remove it.
