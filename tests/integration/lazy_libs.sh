#!/bin/bash
# libdbus is loaded when wpad connects to a bus (dbus/libdbus.h), libssl with
# the first TLS connection (eap/libssl.h), not at start: wpad's ELF needs
# neither; a wpad without a bus (--no-dbus, or a system bus that is not
# there) has none of libdbus and what it links mapped; a wpad on a bus
# serves its API with libdbus loaded; a station without EAP-TLS/PEAP/TTLS
# never maps libssl. (The wired suite's TLS rows run with libssl loaded.)
set -eu
wpad="$WPAD_BUILD/wpad"
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
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

# libdbus or one of the libraries it brings (Debian: libsystemd, ...).
maps_dbus() { grep -E 'libdbus-1|libsystemd' "/proc/$1/maps" || true; }

for lib in libdbus libssl; do
	if readelf -d "$wpad" | grep -q "NEEDED.*$lib"; then
		echo "wpad links $lib at start: a direct call outside dbus/libdbus.h, eap/libssl.h?"
		exit 1
	fi
done
echo "ok: wpad's ELF needs neither libdbus nor libssl"

mkdir -p -m 700 "$tmp/state"
cat >"$tmp/wpad.conf" <<CONF
[General]
StateDirectory=$tmp/state
RuntimeDirectory=$tmp/state
[Radio r0]
Driver=sim
[Station s0]
Radio=r0
CONF

run() { # what expected-log-line want-libdbus(yes|no) wpad-args...
	local what=$1 line=$2 want=$3
	shift 3
	"$wpad" "$@" -c "$tmp/wpad.conf" >"$out" 2>&1 &
	local pid=$!
	pids+=("$pid")
	wait_for "station on radio r0" "$pid"
	wait_for "$line" "$pid"
	local mapped
	mapped=$(maps_dbus "$pid")
	if [ "$want" = no ] && [ -n "$mapped" ]; then
		echo "$what: libdbus is mapped:"
		echo "$mapped"
		exit 1
	fi
	if [ "$want" = yes ] && [ -z "$mapped" ]; then
		echo "$what: serving D-Bus without libdbus mapped?"
		exit 1
	fi
	if grep -q 'libssl' "/proc/$pid/maps"; then
		echo "$what: libssl mapped without any TLS connection"
		exit 1
	fi
	kill -TERM "$pid"
	wait "$pid" || { echo "$what: wpad exited $?"; cat "$out"; exit 1; }
	echo "ok: $what: libdbus mapped: $want"
}

run "--no-dbus" "station on radio r0" no --no-dbus
# The system bus named by the environment is not there: the warning, then
# libdbus unloaded again.
DBUS_SYSTEM_BUS_ADDRESS="unix:path=$tmp/no-bus" \
	run "system bus missing" "running without the D-Bus API" no

dbus-daemon --session --nofork --address="unix:path=$tmp/bus" >"$tmp/bus.log" 2>&1 &
pids+=("$!")
for _ in $(seq 200); do [ -S "$tmp/bus" ] && break; sleep 0.05; done
[ -S "$tmp/bus" ] || { echo "dbus-daemon did not start"; cat "$tmp/bus.log"; exit 1; }
run "private bus" "D-Bus API ready" yes --bus-address "unix:path=$tmp/bus"
