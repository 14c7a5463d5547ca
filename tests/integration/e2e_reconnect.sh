#!/bin/bash
# Acceptance: the station gets its connection back by itself, in bounded
# time, after
#   1. the AP process stops cleanly and starts again (deauthentication),
#   2. the AP process is killed (SIGKILL: no goodbye, beacons stop) and
#      starts again,
#   3. the station goes out of range of the AP (wpad-medium ctl set-link
#      ... -100 dBm: beacon loss) and comes back.
# Each reconnect is timed (printed, not asserted).
source "$(dirname "$0")/e2e_lib.bash"
e2e_init reconnect
AP=02:0a:00:00:00:00
STA=02:5a:00:00:00:00
e2e_medium
e2e_ap ap $AP
e2e_station sta $STA
e2e_start ap
e2e_wait ap "BSS '$E2E_SSID' on channel 6"
e2e_start sta
connected="connected to '$E2E_SSID' via $AP"
e2e_wait sta "$connected"
e2e_wait ap "$STA authorized"

# 1. A clean AP restart.
e2e_stop ap TERM
e2e_wait sta "deauthenticated by $AP|beacon loss: $AP"
t0=$(e2e_ms)
e2e_start ap
e2e_wait sta "$connected" 90 2
e2e_wait ap "$STA authorized" 30 2
echo "AP restarted (SIGTERM): station back in $(($(e2e_ms) - t0)) ms"

# 2. The AP dies: the station notices the silence (beacon loss).
losses=$(e2e_count sta "beacon loss: $AP")
e2e_stop ap KILL
e2e_wait sta "beacon loss: $AP" 60 $((losses + 1))
t0=$(e2e_ms)
e2e_start ap
e2e_wait sta "$connected" 90 3
e2e_wait ap "$STA authorized" 30 3
echo "AP restarted (SIGKILL): station back in $(($(e2e_ms) - t0)) ms"

# 3. Out of range and back.
losses=$(e2e_count sta "beacon loss: $AP")
e2e_ctl set-link $AP $STA -100 0
e2e_wait sta "beacon loss: $AP" 60 $((losses + 1))
# Autoconnect keeps looking (without success) while the AP is out of range:
# at least one more try after the one planned at the loss.
tries=$(e2e_count sta "next autoconnect attempt in")
e2e_wait sta "next autoconnect attempt in" 60 $((tries + 1))
[ "$(e2e_count sta "$connected")" -eq 3 ] || e2e_fail "connected while out of range"
e2e_ctl set-link $AP $STA -45 0
t0=$(e2e_ms)
e2e_wait sta "$connected" 90 4
e2e_wait ap "$STA authorized" 30 4
echo "back in range: station reconnected in $(($(e2e_ms) - t0)) ms"

[ "$(e2e_count ap 'MIC failure')" -eq 0 ] || e2e_fail "MIC failures at the AP"
e2e_stop sta
e2e_stop ap
echo "e2e_reconnect: ok"
