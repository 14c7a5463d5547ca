#!/bin/bash
# Acceptance: IP traffic through the data plane. The AP and the station
# each carry their data over a TAP device (DataInterface=), each wpad in a
# network namespace of its own that this test creates (so the kernel cannot
# short-circuit the two addresses, 10.99.0.1 and 10.99.0.2, which exist only
# inside them). ping from the station side to the AP side must succeed; the
# medium's capture, decrypted by tshark with only the passphrase and SSID,
# must show the ICMP echo requests and replies: PTK derivation and CCMP as
# the standard has them, checked by an independent implementation.
source "$(dirname "$0")/e2e_lib.bash"
command -v tshark >/dev/null || { echo "FAIL: tshark is missing (scripts/install-deps.sh test)"; exit 1; }
e2e_init tap-ping
e2e_netns_pair

AP=02:0a:00:00:00:00
e2e_medium --capture "$T/air.pcap"
e2e_ap ap $AP DataInterface=wpadap0
e2e_station sta 02:5a:00:00:00:00 DataInterface=wpadsta0
e2e_start ap ip netns exec "$NS_AP"
e2e_tap_up ap "$NS_AP" wpadap0 10.99.0.1/24
e2e_wait ap "BSS '$E2E_SSID' on channel 6"
e2e_start sta ip netns exec "$NS_STA"
e2e_tap_up sta "$NS_STA" wpadsta0 10.99.0.2/24
e2e_wait sta "connected to '$E2E_SSID' via $AP"
e2e_wait ap "authorized"

ip netns exec "$NS_STA" ping -c 5 -i 0.2 -W 5 10.99.0.1 >"$T/ping.log" 2>&1 ||
	e2e_fail "ping failed: $(cat "$T/ping.log")"
cat "$T/ping.log"
grep -q " 0% packet loss" "$T/ping.log" || e2e_fail "ping lost packets"

e2e_ctl capture-stop
e2e_stop sta
e2e_stop ap

# Without the passphrase tshark sees only protected frames; with it, ICMP.
[ "$(tshark -r "$T/air.pcap" -Y icmp 2>/dev/null | wc -l)" -eq 0 ] ||
	e2e_fail "ICMP readable without decryption: the data went in the clear"
tshark -r "$T/air.pcap" -o wlan.enable_decryption:TRUE \
	-o "uat:80211_keys:\"wpa-pwd\",\"$E2E_PASS:$E2E_SSID\"" -Y icmp >"$T/tshark.log" 2>&1 ||
	e2e_fail "tshark failed: $(cat "$T/tshark.log")"
cat "$T/tshark.log"
requests=$(grep -c "10.99.0.2 → 10.99.0.1 .*Echo (ping) request" "$T/tshark.log" || true)
replies=$(grep -c "10.99.0.1 → 10.99.0.2 .*Echo (ping) reply" "$T/tshark.log" || true)
# Each packet crosses the air once (station to AP, AP to station); a
# retransmission may add a line, never remove one.
[ "$requests" -ge 5 ] && [ "$replies" -ge 5 ] ||
	e2e_fail "tshark decrypted $requests echo requests and $replies replies, want 5 each"
echo "e2e_tap_ping: tshark decrypted $requests requests and $replies replies"
