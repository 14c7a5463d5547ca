#!/bin/bash
# libdbus is loaded when wpad connects to a bus (dbus/libdbus.h), libssl with
# the first TLS connection (eap/libssl.h), not at start: wpad's ELF needs
# neither; a wpad without a bus (--no-dbus, or a system bus that is not
# there) has none of libdbus and what it links mapped; a wpad on a bus
# serves its API with libdbus loaded; a station without EAP-TLS/PEAP/TTLS
# never maps libssl. (The wired suite's TLS rows run with libssl loaded.)
source "$(dirname "$0")/e2e_lib.bash"
e2e_init lazy-libs
wpad=$WPAD

# libdbus or one of the libraries it brings (Debian: libsystemd, ...).
maps_dbus() { grep -E 'libdbus-1|libsystemd' "/proc/$1/maps" || true; }

for lib in libdbus libssl; do
	if readelf -d "$wpad" | grep -q "NEEDED.*$lib"; then
		echo "wpad links $lib at start: a direct call outside dbus/libdbus.h, eap/libssl.h?"
		exit 1
	fi
done
echo "ok: wpad's ELF needs neither libdbus nor libssl"

mkdir -p -m 700 "$T/state"
conf() { # name
	cat >"$T/$1.conf" <<CONF
[General]
StateDirectory=$T/state
RuntimeDirectory=$T/state
[Radio r0]
Driver=sim
[Station s0]
Radio=r0
CONF
}

# One wpad per case (its own log, $T/NAME.log): once it has logged LINE,
# libdbus is mapped or not as WANT says, and libssl is not.
run() { # name what line want(yes|no) [prefix...] [-- wpad-args...]
	local name=$1 what=$2 line=$3 want=$4 mapped
	shift 4
	conf "$name"
	e2e_start "$name" "$@"
	e2e_wait "$name" "station on radio r0"
	e2e_wait "$name" "$line"
	mapped=$(maps_dbus "${PIDS[$name]}")
	if [ "$want" = no ] && [ -n "$mapped" ]; then
		e2e_fail "$what: libdbus is mapped: $mapped"
	fi
	if [ "$want" = yes ] && [ -z "$mapped" ]; then
		e2e_fail "$what: serving D-Bus without libdbus mapped?"
	fi
	if grep -q 'libssl' "/proc/${PIDS[$name]}/maps"; then
		e2e_fail "$what: libssl mapped without any TLS connection"
	fi
	e2e_stop "$name"
	echo "ok: $what: libdbus mapped: $want"
}

run no-dbus "--no-dbus" "station on radio r0" no -- --no-dbus
# The system bus named by the environment is not there: the warning, then
# libdbus unloaded again.
run no-bus "system bus missing" "running without the D-Bus API" no \
	env DBUS_SYSTEM_BUS_ADDRESS="unix:path=$T/no-bus"

dbus-daemon --session --nofork --address="unix:path=$T/bus" >"$T/bus.log" 2>&1 &
PIDS[bus]=$!
for _ in $(seq 200); do [ -S "$T/bus" ] && break; sleep 0.05; done
[ -S "$T/bus" ] || e2e_fail "dbus-daemon did not start"
run private-bus "private bus" "D-Bus API ready" yes -- --bus-address "unix:path=$T/bus"
