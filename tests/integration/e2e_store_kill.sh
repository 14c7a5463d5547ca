#!/bin/bash
# Acceptance (daemon level): the known-network store survives kill -9 of
# the daemon around a save. A station process autoconnects, which saves the
# network (cached PSK, frequency, last connected); it is killed with SIGKILL
# at once, several times, at a different moment each time. Every restart
# must load the network (never skip its file) and delete the temporary files
# a killed save may leave; the file ends complete. (The store's own crash
# test, tests/unit/test_store_crash.c, kills inside the write itself.)
source "$(dirname "$0")/e2e_lib.bash"
e2e_init store-kill
AP=02:0a:00:00:00:00
e2e_medium
e2e_ap ap $AP
e2e_station sta 02:5a:00:00:00:00
e2e_start ap
e2e_wait ap "BSS '$E2E_SSID' on channel 6"
file="$T/sta.state/$E2E_SSID.psk"
for i in $(seq 0 7); do
	e2e_start sta
	e2e_wait sta "1 known networks" 30 $((i + 1))
	e2e_wait sta "connected to '$E2E_SSID'" 60 $((i + 1))
	# 0..7 ms after the line that comes just before the save.
	[ "$i" -gt 0 ] && sleep "0.00$i"
	e2e_stop sta KILL
	[ -f "$file" ] || e2e_fail "kill $i: the network file is gone"
done
[ "$(e2e_count sta 'skipping network file')" -eq 0 ] || e2e_fail "a network file was skipped"
# One more start: it loads the network and tidies up after the last kill.
e2e_start sta
e2e_wait sta "1 known networks" 30 9
e2e_wait sta "connected to '$E2E_SSID'" 60 9
e2e_stop sta
ls -A "$T/sta.state" | grep -q '^\.wpad-tmp-' && e2e_fail "temporary files left: $(ls -A "$T/sta.state")"
grep -q '^Passphrase=' "$file" && grep -q '^PreSharedKey=' "$file" &&
	grep -q '^Frequencies=2437' "$file" || e2e_fail "incomplete file: $(cat "$file")"
echo "e2e_store_kill: 8 kills around a save, the network survived each"
