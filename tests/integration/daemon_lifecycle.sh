#!/bin/bash
# wpad starts, logs, and stops cleanly on SIGINT and SIGTERM, with no leaks
# under valgrind (when the build is not sanitized).
set -eu
wpad="$WPAD_BUILD/wpad"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

for sig in INT TERM; do
	"$wpad" -d >"$out" 2>&1 &
	pid=$!
	# Wait for the start line instead of sleeping a guessed time.
	for _ in $(seq 100); do grep -q starting "$out" && break; sleep 0.05; done
	grep -q "starting" "$out" || { echo "no start line"; cat "$out"; exit 1; }
	kill -"$sig" "$pid"
	wait "$pid" || { echo "wpad exited $? on SIG$sig"; cat "$out"; exit 1; }
	grep -q "shutting down" "$out" || { echo "no shutdown line"; cat "$out"; exit 1; }
	grep -q "stopped" "$out" || { echo "no stopped line"; cat "$out"; exit 1; }
	echo "SIG$sig: clean stop"
done

# Unknown options are refused with usage and exit code 2.
if "$wpad" --no-such-option >"$out" 2>&1; then echo "accepted a bad option"; exit 1; fi
"$wpad" --no-such-option >/dev/null 2>&1 || rc=$?
[ "${rc:-0}" -eq 2 ] || { echo "bad option gave exit ${rc:-0}, want 2"; exit 1; }
grep -q Usage "$out"

case "$WPAD_BUILD" in
*-san) echo "sanitized build: valgrind not applicable" ;;
*)
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=9 "$wpad" >"$out" 2>&1 &
	pid=$!
	for _ in $(seq 200); do grep -q starting "$out" && break; sleep 0.05; done
	kill -INT "$pid"
	wait "$pid" || { echo "valgrind reported errors"; cat "$out"; exit 1; }
	echo "valgrind: clean"
	;;
esac
