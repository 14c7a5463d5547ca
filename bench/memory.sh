#!/bin/bash
# Benchmark: resident memory of one wpad running an access point and a
# station (connected to each other over the in-process simulated medium,
# then idle), against hostapd + wpa_supplicant idle on the same machine
# (driver=wired on the two ends of a veth pair in a network namespace this
# script creates, 802.1X with EAP-MD5 done, then idle). Then where the
# memory of a wpad station and of a wpad AP goes, each alone in its process
# on wpad-medium (/proc/PID/smaps by mapping: heap, libcrypto with its
# relocated data, libdbus with the libraries it pulls in, ...); and the
# first wpad again on a private dbus-daemon (the D-Bus API's cost). Prints
# tables; asserts nothing.
#
#   bench/memory.sh [BUILD_DIR]        (default build; root for the netns)
# Needs: hostapd, wpasupplicant, iproute2, dbus-daemon (scripts/install-deps.sh bench).
set -eu
build=${1:-build}
wpad="$build/wpad"
[ -x "$wpad" ] || { echo "memory: no $wpad (run make)" >&2; exit 1; }
for tool in hostapd wpa_supplicant ip dbus-daemon; do
	command -v $tool >/dev/null || { echo "memory: $tool missing (scripts/install-deps.sh bench)" >&2; exit 1; }
done
source "$(dirname "$0")/lib.sh"
bench_init memory
ns=wpad-bench-$$
bench_on_exit() { ip netns del "$ns" 2>/dev/null || true; }

# kB of a status field (VmRSS, VmHWM) of a process.
field() { sed -nE "s/^$2:[[:space:]]+([0-9]+) kB/\1/p" "/proc/$1/status"; }
# kB of proportional set size (shared libraries split between users).
pss() { sed -nE 's/^Pss:[[:space:]]+([0-9]+) kB/\1/p' "/proc/$1/smaps_rollup" 2>/dev/null || echo "-"; }
# The [heap] mapping's resident size (malloc's arena: glibc keeps freed
# memory mapped, so this is the high-water mark less what it trimmed).
heap_kb() { awk '/^[0-9a-f]+-/ { h = ($6 == "[heap]") } h && /^Rss:/ { print $2 " kB"; exit }' "/proc/$1/smaps"; }

# --- wpad: AP + station in one process ---
mkdir -p -m 700 "$tmp/state"
printf '[Security]\nPassphrase=memory bench 1\n' >"$tmp/state/membench.psk"
chmod 600 "$tmp/state/membench.psk"
cat >"$tmp/wpad.conf" <<EOF
[General]
StateDirectory=$tmp/state
RuntimeDirectory=$tmp/state
[Radio a]
Driver=sim
Options=medium=shared
[Radio b]
Driver=sim
Options=medium=shared
[AccessPoint membench]
Radio=a
SSID=membench
Passphrase=memory bench 1
[Station wlan0]
Radio=b
EOF
"$wpad" -c "$tmp/wpad.conf" >"$tmp/wpad.log" 2>&1 &
wpad_pid=$!
pids+=("$wpad_pid")
wait_for "$tmp/wpad.log" "connected to 'membench'"
wait_for "$tmp/wpad.log" "authorized"

# --- the same wpad on a bus (a private dbus-daemon): what the D-Bus API costs ---
dbus_tmp="$tmp/bus"
mkdir -p -m 700 "$dbus_tmp/state"
cp "$tmp/state/membench.psk" "$dbus_tmp/state/"
sed "s|$tmp/state|$dbus_tmp/state|" "$tmp/wpad.conf" >"$dbus_tmp/wpad.conf"
dbus-daemon --session --nofork --address="unix:path=$dbus_tmp/bus" >"$dbus_tmp/bus.log" 2>&1 &
pids+=("$!")
for _ in $(seq 200); do [ -S "$dbus_tmp/bus" ] && break; sleep 0.05; done
"$wpad" --bus-address "unix:path=$dbus_tmp/bus" -c "$dbus_tmp/wpad.conf" >"$dbus_tmp/wpad.log" 2>&1 &
wbus_pid=$!
pids+=("$wbus_pid")
wait_for "$dbus_tmp/wpad.log" "D-Bus API ready"
wait_for "$dbus_tmp/wpad.log" "authorized"

# --- wpad: a station and an AP, each in its own process, on wpad-medium ---
bench_sim_pair "$build" membench "memory bench 1"

# --- hostapd + wpa_supplicant, wired 802.1X on a veth pair ---
ip netns add "$ns"
ip -n "$ns" link add veth-ap type veth peer name veth-sta
ip -n "$ns" link set veth-ap up
ip -n "$ns" link set veth-sta up
printf '"bench" MD5 "bench password"\n' >"$tmp/eap_users"
cat >"$tmp/hostapd.conf" <<EOF
interface=veth-ap
driver=wired
ieee8021x=1
eapol_version=2
eap_server=1
eap_user_file=$tmp/eap_users
ctrl_interface=$tmp/hostapd-ctrl
EOF
cat >"$tmp/wpa_supplicant.conf" <<EOF
ctrl_interface=$tmp/wpas-ctrl
ap_scan=0
network={
	key_mgmt=IEEE8021X
	eap=MD5
	identity="bench"
	password="bench password"
	eapol_flags=0
}
EOF
ip netns exec "$ns" hostapd "$tmp/hostapd.conf" >"$tmp/hostapd.log" 2>&1 &
hostapd_pid=$!
pids+=("$hostapd_pid")
wait_for "$tmp/hostapd.log" "veth-ap: (interface state|AP-ENABLED)|ENABLED"
ip netns exec "$ns" wpa_supplicant -Dwired -i veth-sta -c "$tmp/wpa_supplicant.conf" \
	>"$tmp/wpas.log" 2>&1 &
wpas_pid=$!
pids+=("$wpas_pid")
wait_for "$tmp/wpas.log" "CTRL-EVENT-EAP-SUCCESS"

sleep 2 # idle: let start-up allocations settle (figures only, never asserted)
w_rss=$(field "$wpad_pid" VmRSS)
h_rss=$(field "$hostapd_pid" VmRSS)
s_rss=$(field "$wpas_pid" VmRSS)
both=$((h_rss + s_rss))
w_pss=$(pss "$wpad_pid")
h_pss=$(pss "$hostapd_pid")
s_pss=$(pss "$wpas_pid")

echo
echo "Idle resident memory (kB, /proc/PID/status VmRSS; Pss from smaps_rollup)"
echo
printf '| %-44s | %8s | %8s | %8s |\n' process VmRSS VmHWM Pss
printf '|%s|----------|----------|----------|\n' "----------------------------------------------"
printf '| %-44s | %8s | %8s | %8s |\n' "wpad: AP + station (sim, connected, WPA2)" \
	"$w_rss" "$(field "$wpad_pid" VmHWM)" "$w_pss"
printf '| %-44s | %8s | %8s | %8s |\n' "the same wpad on a private D-Bus" \
	"$(field "$wbus_pid" VmRSS)" "$(field "$wbus_pid" VmHWM)" "$(pss "$wbus_pid")"
printf '| %-44s | %8s | %8s | %8s |\n' "hostapd $(hostapd -v 2>&1 | sed -nE 's/^hostapd v([^ ]+).*/\1/p' | head -n1) (wired, 802.1X)" \
	"$h_rss" "$(field "$hostapd_pid" VmHWM)" "$h_pss"
printf '| %-44s | %8s | %8s | %8s |\n' "wpa_supplicant (wired, EAP-MD5 done)" \
	"$s_rss" "$(field "$wpas_pid" VmHWM)" "$s_pss"
printf '| %-44s | %8s | %8s | %8s |\n' "hostapd + wpa_supplicant" "$both" "" \
	"$( [ "$h_pss" != - ] && [ "$s_pss" != - ] && echo $((h_pss + s_pss)) || echo -)"
echo
awk -v w="$w_rss" -v b="$both" \
	'BEGIN { printf "ratio wpad / (hostapd + wpa_supplicant), VmRSS: %.2f\n", w / b }'
echo "RssAnon: wpad $(field "$wpad_pid" RssAnon) kB (heap $(heap_kb "$wpad_pid")), on D-Bus" \
	"$(field "$wbus_pid" RssAnon) kB (heap $(heap_kb "$wbus_pid"))"

# kB by mapping group of one process: Rss, and the part of it that is the
# process's own (Anonymous: heap, stacks, relocated library data).
breakdown() { # pid
	awk '
	function group(path) {
		if (path == "[heap]") return "heap (malloc)"
		if (path == "" || path ~ /^\[(stack|anon)/) return "stack, anonymous mappings"
		if (path ~ /libcrypto/) return "libcrypto"
		if (path ~ /libssl/) return "libssl"
		if (path ~ /libdbus|libsystemd|libgcrypt|libgpg-error|liblzma|libzstd|liblz4|libcap/)
			return "libdbus + what it links (systemd, gcrypt, ...)"
		if (path ~ /libnl/) return "libnl-3, libnl-genl-3"
		if (path ~ /libc\.so|libm\.so|ld-linux/) return "libc, libm, ld.so"
		if (path ~ /\/wpad$/) return "wpad itself"
		return "other (" path ")"
	}
	/^[0-9a-f]+-[0-9a-f]+ / { g = group($6); next }
	/^Rss:/ { rss[g] += $2; trss += $2 }
	/^Anonymous:/ { an[g] += $2; tan += $2 }
	END {
		for (k in rss) if (rss[k]) printf "| %-48s | %6d | %10d |\n", k, rss[k], an[k] | "sort -t\"|\" -k3 -nr"
		close("sort -t\"|\" -k3 -nr")
		printf "| %-48s | %6d | %10d |\n", "total", trss, tan
	}' "/proc/$1/smaps"
}
for role in station AP; do
	pid=$([ $role = station ] && echo "$sta_pid" || echo "$ap_pid")
	echo
	echo "wpad $role alone (sim radio via wpad-medium, WPA2-PSK, connected, idle):" \
		"VmRSS $(field "$pid" VmRSS) kB, RssAnon $(field "$pid" RssAnon) kB," \
		"RssFile $(field "$pid" RssFile) kB, heap in use $(heap_kb "$pid")"
	echo
	printf '| %-48s | %6s | %10s |\n' "mapping (kB)" Rss "of it anon"
	printf '|%s|--------|------------|\n' "--------------------------------------------------"
	breakdown "$pid"
done
