#!/bin/bash
# wpad-medium as a program: serves DIR/medium.sock, obeys "ctl" commands
# (links, faults, injection, capture, stats), writes a pcap tshark can
# decode, refuses a second medium on the same folder, stops cleanly on
# SIGINT/SIGTERM removing its socket, and (unsanitized) leaks nothing.
set -eu
medium="$WPAD_BUILD/wpad-medium"
tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
dir="$tmp/run/medium"
ctl() { "$medium" -D "$dir" ctl "$@"; }
fail() { echo "FAIL: $*"; cat "$tmp/log" 2>/dev/null; exit 1; }

start() { # extra args...
	"$@" >"$tmp/log" 2>&1 &
	pid=$!
	for _ in $(seq 200); do [ -S "$dir/medium.sock" ] && return 0; sleep 0.05; done
	fail "no socket at $dir/medium.sock"
}

stop() { # signal
	kill -"$1" "$pid"
	wait "$pid" || fail "wpad-medium exited $? on SIG$1"
	pid=
	[ ! -e "$dir/medium.sock" ] || fail "socket left behind after SIG$1"
	grep -q "shutting down" "$tmp/log" || fail "no shutdown line"
}

# A beacon for SSID "wpad-sh" from 02:00:00:00:00:01.
beacon="80000000ffffffffffff020000000001020000000001000000000000000000000000640001000007777061642d7368010482848b96"

start "$medium" -D "$dir" -d --capture "$tmp/air.pcap" --loss 0 --seed 7
ctl stats | grep -q "^radios 0$" || fail "stats"
ctl set-link 02:00:00:00:00:01 02:00:00:00:00:02 -61.5 10 || fail "set-link"
ctl set-position 02:00:00:00:00:03 1.5 -2 || fail "set-position"
ctl fault type=0x80 src=02:00:00:00:00:01 nth=2 count=1 delay 20 || fail "fault"
ctl fault corrupt 4 || fail "fault corrupt"
ctl clear-faults || fail "clear-faults"
ctl inject 2412 -50 "$beacon" || fail "inject 2.4 GHz"
ctl inject 5180 -67 "$beacon" || fail "inject 5 GHz"
ctl spoof-deauth 2412 -40 02:00:00:00:00:01 02:00:00:00:00:02 || fail "spoof-deauth"
ctl spoof-deauth 2412 -40 02:00:00:00:00:01 ff:ff:ff:ff:ff:ff 3 disassoc || fail "spoof-disassoc"
if ctl spoof-deauth 2412 -40 nonsense 02:00:00:00:00:02 2>/dev/null; then fail "bad spoof address"; fi
ctl stats | grep -q "^frames_injected 4$" || fail "injected count"
ctl capture-stop || fail "capture-stop"

# The medium refuses what it cannot do; the command line refuses nonsense.
if ctl fault type=0x81 drop 2>/dev/null; then fail "bad frame type accepted"; fi
if ctl inject 0 -50 "$beacon" 2>/dev/null; then fail "inject on freq 0 accepted"; fi
rc=0; ctl set-link 02:00:00:00:00:01 nonsense -60 0 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] || fail "bad address gave exit $rc, want 2"
rc=0; ctl capture /nonexistent-dir/x.pcap 2>/dev/null || rc=$?
[ "$rc" -eq 1 ] || fail "bad capture path gave exit $rc, want 1"

# A second medium on a live folder is refused.
if "$medium" -D "$dir" >"$tmp/second.log" 2>&1; then fail "second medium started"; fi
grep -q "Address already in use" "$tmp/second.log" || fail "second medium: no reason given"
[ -S "$dir/medium.sock" ] || fail "second medium removed the live socket"

stop TERM

out=$(tshark -r "$tmp/air.pcap" -Y wlan.fc.type_subtype==8 -T fields -E separator=, \
	-e radiotap.channel.freq -e wlan.ssid -e radiotap.dbm_antsignal 2>/dev/null)
echo "$out"
ssid_hex=777061642d7368
line1=$(sed -n 1p <<<"$out")
line2=$(sed -n 2p <<<"$out")
[ "$line1" = "2412,wpad-sh,-50" ] || [ "$line1" = "2412,$ssid_hex,-50" ] || fail "tshark: $line1"
[ "$line2" = "5180,wpad-sh,-67" ] || [ "$line2" = "5180,$ssid_hex,-67" ] || fail "tshark: $line2"
[ "$(wc -l <<<"$out")" -eq 2 ] || fail "expected two beacons"
# The spoofed frames: unprotected, from 02:..:01, reasons 7 and 3.
spoof=$(tshark -r "$tmp/air.pcap" -Y "wlan.fc.type_subtype==12 || wlan.fc.type_subtype==10" \
	-T fields -E separator=, -e wlan.fc.type_subtype -e wlan.sa -e wlan.da -e wlan.fixed.reason_code \
	-e wlan.fc.protected 2>/dev/null)
echo "$spoof"
grep -Eq '^(12|0x0*c),02:00:00:00:00:01,02:00:00:00:00:02,(7|0x0*7),(False|0)$' <<<"$spoof" ||
	fail "spoofed deauth not in the capture: $spoof"
grep -Eq '^(10|0x0*a),02:00:00:00:00:01,ff:ff:ff:ff:ff:ff,(3|0x0*3),(False|0)$' <<<"$spoof" ||
	fail "spoofed disassoc not in the capture: $spoof"

# SIGINT works too; no ctl peer: ctl says it cannot reach the medium.
start "$medium" -D "$dir"
stop INT
if ctl stats 2>/dev/null; then fail "ctl succeeded with no medium"; fi

# Options.
rc=0; "$medium" --no-such-option >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "bad option gave exit $rc, want 2"
rc=0; "$medium" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "missing -D gave exit $rc, want 2"

case "$WPAD_BUILD" in
*-san) echo "sanitized build: valgrind not applicable" ;;
*)
	start valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=9 "$medium" -D "$dir" --capture "$tmp/v.pcap"
	ctl inject 2412 -50 "$beacon" || fail "inject under valgrind"
	ctl fault drop || fail "fault under valgrind"
	stop TERM
	echo "valgrind: clean"
	;;
esac
echo "medium_ctl: ok"
