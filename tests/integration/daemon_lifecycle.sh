#!/bin/bash
# wpad starts from a configuration file, logs, and stops cleanly on SIGINT
# and SIGTERM; a missing or broken configuration is a clear error; the demo
# connects its station to its access point; no leaks under valgrind.
set -eu
wpad="$WPAD_BUILD/wpad"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out="$tmp/out"

wait_for() { # pattern pid
	for _ in $(seq 1200); do
		grep -q "$1" "$out" && return 0
		kill -0 "$2" 2>/dev/null || break
		sleep 0.05
	done
	echo "never saw '$1'"
	cat "$out"
	exit 1
}

mkdir -p "$tmp/state"
cat >"$tmp/wpad.conf" <<CONF
[General]
StateDirectory=$tmp/state
[Radio r0]
Driver=sim
Options=radios=1
[Station s0]
Radio=r0
CONF

for sig in INT TERM; do
	"$wpad" -d -c "$tmp/wpad.conf" >"$out" 2>&1 &
	pid=$!
	wait_for "station on radio r0" "$pid"
	kill -"$sig" "$pid"
	wait "$pid" || { echo "wpad exited $? on SIG$sig"; cat "$out"; exit 1; }
	grep -q "shutting down" "$out" || { echo "no shutdown line"; cat "$out"; exit 1; }
	grep -q "stopped" "$out" || { echo "no stopped line"; cat "$out"; exit 1; }
	echo "SIG$sig: clean stop"
done

# -t: timestamps at the default level too (the benches line logs up with
# them); without it, none.
stamped='^ *[0-9]+\.[0-9]{6} [a-z]+: s0: station on radio r0'
for t in -t ""; do
	# shellcheck disable=SC2086 # $t: one option or none
	"$wpad" $t -c "$tmp/wpad.conf" >"$out" 2>&1 &
	pid=$!
	wait_for "station on radio r0" "$pid"
	kill -TERM "$pid"
	wait "$pid" || { echo "wpad $t exited $?"; cat "$out"; exit 1; }
	if grep -qE "$stamped" "$out"; then has=-t; else has=""; fi
	[ "$has" = "$t" ] || { echo "wpad ${t:-without -t}: timestamps wrong in:"; cat "$out"; exit 1; }
done
echo "-t: timestamps on info lines, none without it"

# Unknown options: usage and exit code 2.
rc=0
"$wpad" --no-such-option >"$out" 2>&1 || rc=$?
[ "$rc" -eq 2 ] || { echo "bad option gave exit $rc, want 2"; exit 1; }
grep -q Usage "$out"

# A missing configuration says where it looked and what to do.
rc=0
"$wpad" -c "$tmp/nope.conf" >"$out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || { echo "started without a configuration"; exit 1; }
grep -q "wpad --demo" "$out" || { echo "no hint in:"; cat "$out"; exit 1; }

# A broken one names the file and line.
printf '[General]\nStateDirectory=%s\n[Radio r0]\nDriverr=sim\n' "$tmp/state" >"$tmp/bad.conf"
rc=0
"$wpad" -c "$tmp/bad.conf" >"$out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || { echo "started with a broken configuration"; exit 1; }
grep -q "bad.conf:4" "$out" || { echo "no file:line in:"; cat "$out"; exit 1; }

# The demo: the station reaches the access point, then Ctrl-C.
run_demo() { # prefix...
	"$@" "$wpad" --demo >"$out" 2>&1 &
	pid=$!
	wait_for "CONNECTED to wpad-demo" "$pid"
	wait_for "authorized" "$pid"
	kill -INT "$pid"
	wait "$pid" || { echo "demo exited $?"; cat "$out"; exit 1; }
	grep -q "stopped" "$out"
}
run_demo
echo "demo: connected and stopped cleanly"

# The demo's log piped to a reader that goes first (`make demo | tee`, then
# Ctrl-C reaches tee too): wpad must still stop cleanly and remove its state
# folder (it holds the demo's passphrase), not die of SIGPIPE.
demo_dirs() { ls -d /tmp/wpad-demo-?????? 2>/dev/null | sort; }
before=$(demo_dirs)
mkfifo "$tmp/log"
"$wpad" --demo --no-dbus >"$tmp/log" 2>&1 &
pid=$!
head -n 1 <"$tmp/log" >/dev/null # the reader takes one line and is gone
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
[ "$rc" -eq 0 ] || { echo "demo with a closed log pipe exited $rc (141: killed by SIGPIPE)"; exit 1; }
left=$(comm -13 <(echo "$before") <(demo_dirs))
[ -z "$left" ] || { echo "demo state folder left behind: $left"; exit 1; }
echo "demo: a closed log pipe does not stop the clean exit"

case "$WPAD_BUILD" in
*-san) echo "sanitized build: valgrind not applicable" ;;
*)
	run_demo valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=9
	if grep -q "==[0-9]*==" "$out"; then echo "valgrind:"; cat "$out"; exit 1; fi
	echo "valgrind: demo clean"
	;;
esac
