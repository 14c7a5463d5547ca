#!/bin/bash
# Acceptance: a GTK rekey while traffic flows. AP (GroupRekeySeconds=30,
# the shortest allowed) and station carry IP over TAP devices in network
# namespaces of their own; a ping runs from the station side across the
# periodic rekey and loses nothing; after the rekey, group-addressed frames
# under the new GTK reach the station (the AP side's ARP request, a
# broadcast, must be answered); the capture still decrypts with tshark.
source "$(dirname "$0")/e2e_lib.bash"
command -v tshark >/dev/null || { echo "FAIL: tshark is missing (scripts/install-deps.sh test)"; exit 1; }
e2e_init rekey
e2e_netns_pair
AP=02:0a:00:00:00:00
e2e_medium --capture "$T/air.pcap"
e2e_ap ap $AP DataInterface=wpadap0 GroupRekeySeconds=30
e2e_station sta 02:5a:00:00:00:00 DataInterface=wpadsta0
e2e_start ap ip netns exec "$NS_AP"
e2e_tap_up ap "$NS_AP" wpadap0 10.99.0.1/24
e2e_wait ap "BSS '$E2E_SSID' on channel 6"
e2e_start sta ip netns exec "$NS_STA"
e2e_tap_up sta "$NS_STA" wpadsta0 10.99.0.2/24
e2e_wait sta "connected to '$E2E_SSID' via $AP"
e2e_wait ap "authorized"

# Traffic across the rekey: a ping every 100 ms until told to stop (and at
# most 90 s, so nothing outlives the test).
ip netns exec "$NS_STA" ping -D -i 0.1 -W 2 -w 90 10.99.0.1 >"$T/ping.log" 2>&1 &
ping_pid=$!
e2e_wait ap "GTK rekey done: key ID 2 in use" 60
e2e_wait sta "group key 2 installed" 10
# Keep going a little after the switch, then stop: ping prints its summary.
n=$(grep -c "bytes from" "$T/ping.log" || true)
for _ in $(seq 200); do
	[ "$(grep -c "bytes from" "$T/ping.log" || true)" -ge $((n + 20)) ] && break
	sleep 0.05
done
kill -INT $ping_pid
wait $ping_pid || true
tail -n 4 "$T/ping.log"
sent=$(sed -nE 's/^([0-9]+) packets transmitted.*/\1/p' "$T/ping.log")
got=$(sed -nE 's/.* ([0-9]+) received.*/\1/p' "$T/ping.log")
[ -n "$sent" ] && [ -n "$got" ] || e2e_fail "no ping summary"
[ "$sent" -ge 50 ] || e2e_fail "only $sent pings sent"
# The last one may still have been in flight when ping was stopped.
[ "$got" -ge $((sent - 1)) ] || e2e_fail "ping lost $((sent - got)) of $sent across the rekey"

# Group-addressed traffic under the new key: the AP side forgets the
# station's MAC address, so its next ping starts with a broadcast ARP request.
ip -n "$NS_AP" neigh flush dev wpadap0
ip netns exec "$NS_AP" ping -c 3 -i 0.2 -W 5 10.99.0.2 >"$T/ping-ap.log" 2>&1 ||
	e2e_fail "ping from the AP side after the rekey failed: $(cat "$T/ping-ap.log")"
[ "$(e2e_count sta 'connected to')" -eq 1 ] || e2e_fail "the station reconnected"
[ "$(e2e_count ap 'left')" -eq 0 ] || e2e_fail "the station left the AP"

e2e_ctl capture-stop
e2e_stop sta
e2e_stop ap
tshark -r "$T/air.pcap" -o wlan.enable_decryption:TRUE \
	-o "uat:80211_keys:\"wpa-pwd\",\"$E2E_PASS:$E2E_SSID\"" -Y icmp >"$T/tshark.log" 2>&1 ||
	e2e_fail "tshark failed: $(tail "$T/tshark.log")"
replies=$(grep -c "Echo (ping) reply" "$T/tshark.log" || true)
[ "$replies" -ge "$got" ] || e2e_fail "tshark decrypted $replies replies, ping got $got"
echo "e2e_rekey_traffic: $got/$sent pings across the rekey, $replies replies decrypted by tshark"
