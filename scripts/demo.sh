#!/bin/bash
# `make demo`: wpad's demo (an access point and a station on simulated
# radios, in one process) with its D-Bus API on a private bus that this
# script starts, so wpactl and busctl can talk to it from a second shell
# without any bus policy installed. Once the station is connected, wpad
# prints the commands to paste. Ctrl-C stops wpad, then the bus.
#
#   scripts/demo.sh [BUILD_DIR]       (default build/)
#
# The bus address is also written to BUILD_DIR/demo/bus while the demo runs:
#   build/wpactl --bus "$(cat build/demo/bus)" device list
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$top/$build ;; esac
wpad=$build/wpad
[ -x "$wpad" ] || { echo "demo: no $wpad: run make first" >&2; exit 1; }

if ! command -v dbus-daemon >/dev/null; then
	echo "demo: dbus-daemon is missing (scripts/install-deps.sh build installs it);" \
		"running without the D-Bus API" >&2
	exec "$wpad" --demo --no-dbus
fi

# The bus lives in a short private folder: a socket path must fit in 108
# bytes, which a deep clone's build folder may not.
run=$(mktemp -d /tmp/wpad-demo-bus.XXXXXX) || exit 1
bus_pid=""
cleanup() {
	[ -n "$bus_pid" ] && kill "$bus_pid" 2>/dev/null && wait "$bus_pid" 2>/dev/null
	rm -rf "$run"
	rm -f "$build/demo/bus"
}
trap cleanup EXIT
# Ctrl-C reaches wpad too; the script only waits for it to say goodbye. A
# handler, not an ignored signal, so wpad does not inherit SIG_IGN.
trap 'true' INT TERM

# A session-style bus: only this user may connect, and may do anything.
cat >"$run/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$run/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF
# Its own session: Ctrl-C in this terminal must not stop the bus before
# wpad has left it.
setsid dbus-daemon --config-file="$run/bus.conf" --nofork --print-address=1 \
	>"$run/address" 2>"$run/bus.log" </dev/null &
bus_pid=$!
for _ in $(seq 50); do
	[ -s "$run/address" ] && break
	kill -0 "$bus_pid" 2>/dev/null || break
	sleep 0.1
done
if ! [ -s "$run/address" ]; then
	echo "demo: the private bus did not start:" >&2
	cat "$run/bus.log" >&2
	exit 1
fi
address=unix:path=$run/bus
mkdir -p "$build/demo"
echo "$address" >"$build/demo/bus"
echo "demo: wpad's D-Bus API is on a private bus: $address (also in ${build#"$top"/}/demo/bus)"

"$wpad" --demo --bus-address "$address"
