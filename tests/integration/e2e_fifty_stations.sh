#!/bin/bash
# Acceptance: 50 stations associate with one AP and all complete the 4-way
# handshake. Two wpad processes with 25 station interfaces each (one sim
# radio per [Radio] section, every radio with an address of its own) and
# one AP process, over wpad-medium. The time from starting the stations to
# the 50th authorization is printed, not asserted.
source "$(dirname "$0")/e2e_lib.bash"
e2e_init fifty
N_PROC=2
PER_PROC=25
TOTAL=$((N_PROC * PER_PROC))
AP=02:0a:00:00:00:00
e2e_medium
e2e_ap ap $AP MaxStations=64
e2e_start ap
e2e_wait ap "BSS '$E2E_SSID' on channel 6"

for p in $(seq 1 $N_PROC); do
	name=sta$p
	e2e_known_network "$T/$name.state"
	{
		printf '[General]\nStateDirectory=%s\nRuntimeDirectory=%s\n\n' \
			"$T/$name.state" "$T/$name.state"
		for i in $(seq 1 $PER_PROC); do
			printf '[Radio r%d]\nDriver=sim\nOptions=medium=%s,addr=02:5%x:%02x:00:00:00\n' \
				"$i" "$T/air" "$p" "$i"
			printf '[Station s%d]\nRadio=r%d\n\n' "$i" "$i"
		done
	} >"$T/$name.conf"
done
t0=$(e2e_ms)
for p in $(seq 1 $N_PROC); do e2e_start sta$p; done
for p in $(seq 1 $N_PROC); do
	e2e_wait sta$p "connected to '$E2E_SSID' via $AP" 240 $PER_PROC
done
e2e_wait ap "authorized" 60 $TOTAL
t1=$(e2e_ms)
distinct=$(grep -oE "[0-9a-f:]{17} authorized" "$T/ap.log" | sort -u | wc -l)
[ "$distinct" -eq $TOTAL ] || e2e_fail "$distinct distinct stations authorized, want $TOTAL"
associated=$(sed -nE 's/.* associated with AID [0-9]+, ([0-9]+) associated.*/\1/p' "$T/ap.log" |
	sort -n | tail -n1)
[ "$associated" -eq $TOTAL ] || e2e_fail "at most $associated associated at once, want $TOTAL"
[ "$(e2e_count ap 'MIC failure')" -eq 0 ] || e2e_fail "MIC failures at the AP"
echo "$TOTAL stations associated and completed the 4-way handshake in $((t1 - t0)) ms" \
	"(from starting the station processes; not asserted)"
echo "retries: $(cat "$T"/sta*.log | grep -cE 'retrying|attempt 2') station-side," \
	"$(e2e_count ap 'did not acknowledge|did not associate') AP-side"
for p in $(seq 1 $N_PROC); do e2e_stop sta$p; done
e2e_stop ap
echo "e2e_fifty_stations: ok"
