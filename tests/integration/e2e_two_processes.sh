#!/bin/bash
# Acceptance: two wpad processes over wpad-medium. One runs an access point
# (WPA2-PSK), the other a station that knows the network (a known-network
# file in its state folder) and autoconnects. The station logs "connected
# to", the AP "authorized"; the station remembers the frequency; both stop
# cleanly.
source "$(dirname "$0")/e2e_lib.bash"
e2e_init two-proc
e2e_medium
e2e_ap ap 02:0a:00:00:00:00
e2e_station sta 02:5a:00:00:00:00
t0=$(e2e_ms)
e2e_start ap
e2e_wait ap "BSS '$E2E_SSID' on channel 6"
e2e_start sta
e2e_wait sta "connected to '$E2E_SSID' via 02:0a:00:00:00:00 on 2437 MHz"
sta_addr=$(e2e_station_addr sta)
[ -n "$sta_addr" ] || e2e_fail "no station address in its log"
e2e_wait ap "$sta_addr authorized"
echo "connected in $(($(e2e_ms) - t0)) ms (AP start to AP authorized; not asserted)"
grep -E "connected to" "$T/sta.log"

# Nothing failed on the way.
[ "$(e2e_count sta 'handshake failed|connect to .* failed')" -eq 0 ] ||
	e2e_fail "a failure on the station side"
[ "$(e2e_count ap 'MIC failure|handshake failed')" -eq 0 ] || e2e_fail "a failure on the AP side"

# The station saved what it learnt: the PSK cached, the frequency.
e2e_stop sta
grep -q '^Frequencies=2437' "$T/sta.state/$E2E_SSID.psk" ||
	e2e_fail "frequency not remembered: $(cat "$T/sta.state/$E2E_SSID.psk")"
grep -q '^PreSharedKey=' "$T/sta.state/$E2E_SSID.psk" || e2e_fail "PSK not cached"
e2e_wait ap "$sta_addr sent deauthentication, reason 3" 5

# Back again, then the AP goes first.
e2e_start sta
e2e_wait sta "connected to '$E2E_SSID'" 60 2
e2e_wait ap "$sta_addr authorized" 60 2
e2e_stop ap
grep -q "stopped" "$T/ap.log" || e2e_fail "the AP did not stop cleanly"
grep -q "said goodbye to every peer" "$T/ap.log" || e2e_fail "the AP did not wait for its deauths"
e2e_wait sta "deauthenticated by 02:0a:00:00:00:00: reason 3" 5
e2e_stop sta
echo "e2e_two_processes: ok"
