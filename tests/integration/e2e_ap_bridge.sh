#!/bin/bash
# Acceptance on the simulated radio (issue 17, item 1): the access point's
# data interface (a TAP, DataInterface=) joins a Linux bridge (Bridge=)
# whose other port is a veth to a "LAN" namespace running dnsmasq. A wpad
# station (its own TAP) joins the WPA2-PSK network, gets its address from
# dnsmasq through the air and the bridge, and pings the LAN. Then the AP
# stops: its TAP leaves the bridge, and the bridge and the wired port stay
# (wpad did not create them). A second AP run with BridgeCreate=true makes
# the bridge itself and deletes it on the way out; Bridge= naming a missing
# interface or a non-bridge leaves the AP stopped with BridgeNotFound /
# NotBridgeable in the log. Needs root (namespaces, TAP, bridges).
source "$(dirname "$0")/e2e_lib.bash"
for tool in dnsmasq busybox; do
	command -v $tool >/dev/null || { echo "FAIL: $tool is missing (scripts/install-deps.sh test)"; exit 1; }
done
e2e_init ap-bridge
e2e_netns_pair
NS_LAN=wpad-e2e-lan-$$
drop_all() { e2e_netns_drop; ip netns del "$NS_LAN" 2>/dev/null || true; }
E2E_CLEANUP_HOOK=drop_all
ip netns add "$NS_LAN" || e2e_fail "cannot create a network namespace"
ip -n "$NS_LAN" link set lo up

# The LAN: br-lan with a veth whose far end (10.98.0.1) serves DHCP.
ip -n "$NS_AP" link add br-lan type bridge
ip -n "$NS_AP" link add veth-ap type veth peer name veth-lan
ip -n "$NS_AP" link set veth-lan netns "$NS_LAN"
ip -n "$NS_AP" link set veth-ap master br-lan
ip -n "$NS_AP" link set veth-ap up
ip -n "$NS_AP" link set br-lan up
ip -n "$NS_LAN" addr add 10.98.0.1/24 dev veth-lan
ip -n "$NS_LAN" link set veth-lan up
ip netns exec "$NS_LAN" dnsmasq --no-daemon --conf-file=/dev/null --user=root --port=0 \
	--interface=veth-lan --bind-interfaces --dhcp-range=10.98.0.50,10.98.0.99,255.255.255.0,1h \
	--dhcp-leasefile="$T/leases" --pid-file="$T/dnsmasq.pid" --log-dhcp --log-facility=- \
	>"$T/dnsmasq.log" 2>&1 &
PIDS[dnsmasq]=$!

master_of() { basename "$(ip netns exec "$1" readlink "/sys/class/net/$2/master" 2>/dev/null)" 2>/dev/null; }

AP=02:0b:00:00:00:00
e2e_medium
e2e_ap ap $AP DataInterface=wpadap0 Bridge=br-lan
e2e_station sta 02:5b:00:00:00:00 DataInterface=wpadsta0
e2e_start ap ip netns exec "$NS_AP"
e2e_wait ap "wpadap0 joined bridge br-lan"
[ "$(master_of "$NS_AP" wpadap0)" = br-lan ] || e2e_fail "the kernel does not show wpadap0 in br-lan"
ip -n "$NS_AP" link set wpadap0 up
e2e_wait ap "BSS '$E2E_SSID' on channel 6"
e2e_start sta ip netns exec "$NS_STA"
e2e_wait sta "data interface wpadsta0"
ip -n "$NS_STA" link set wpadsta0 up
e2e_wait sta "connected to '$E2E_SSID' via $AP"
e2e_wait ap "authorized"

cat >"$T/udhcpc.sh" <<'EOS'
#!/bin/sh
case "$1" in bound|renew) ip addr flush dev "$interface"; ip addr add "$ip/${mask:-24}" dev "$interface";; esac
EOS
chmod +x "$T/udhcpc.sh"
ip netns exec "$NS_STA" busybox udhcpc -i wpadsta0 -n -q -f -t 5 -T 2 -s "$T/udhcpc.sh" \
	>"$T/udhcpc.log" 2>&1 || e2e_fail "no DHCP lease: $(cat "$T/udhcpc.log")"
addr=$(ip -n "$NS_STA" -4 -o addr show dev wpadsta0 | awk '{ split($4, a, "/"); print a[1] }')
case "$addr" in 10.98.0.[5-9][0-9]) echo "e2e_ap_bridge: the station got $addr from dnsmasq" ;;
*) e2e_fail "the station's address '$addr' is not from dnsmasq's range" ;;
esac
grep -q "DHCPACK(veth-lan) $addr" "$T/dnsmasq.log" || e2e_fail "dnsmasq did not log the lease"
ip netns exec "$NS_STA" ping -c 3 -i 0.2 -W 5 10.98.0.1 >"$T/ping.log" 2>&1 ||
	e2e_fail "ping station -> LAN failed: $(cat "$T/ping.log")"
ip netns exec "$NS_LAN" ping -c 3 -i 0.2 -W 5 "$addr" >"$T/ping2.log" 2>&1 ||
	e2e_fail "ping LAN -> station failed: $(cat "$T/ping2.log")"

e2e_stop sta
e2e_stop ap
grep -q "wpadap0 left bridge br-lan" "$T/ap.log" || e2e_fail "the AP did not leave the bridge"
ip -n "$NS_AP" link show br-lan >/dev/null 2>&1 || e2e_fail "wpad removed a bridge it did not make"
[ "$(master_of "$NS_AP" veth-ap)" = br-lan ] || e2e_fail "the wired port left the bridge"

# BridgeCreate=true: made on start, deleted on stop.
e2e_ap ap2 02:0c:00:00:00:00 DataInterface=wpadap1 Bridge=br-new BridgeCreate=true
e2e_start ap2 ip netns exec "$NS_AP"
e2e_wait ap2 "created bridge br-new"
e2e_wait ap2 "wpadap1 joined bridge br-new"
[ "$(master_of "$NS_AP" wpadap1)" = br-new ] || e2e_fail "wpadap1 is not in br-new"
e2e_wait ap2 "BSS '$E2E_SSID' on channel 6"
e2e_stop ap2
grep -q "deleted bridge br-new" "$T/ap2.log" || e2e_fail "the bridge wpad made was not deleted"
! ip -n "$NS_AP" link show br-new >/dev/null 2>&1 || e2e_fail "br-new is still there"

# Refusals: the AP stays stopped with the catalogue's error.
e2e_ap ap3 02:0d:00:00:00:00 DataInterface=wpadap2 Bridge=br-none
e2e_start ap3 ip netns exec "$NS_AP"
e2e_wait ap3 "access point did not start: .*bridge br-none does not exist"
e2e_stop ap3
e2e_ap ap4 02:0e:00:00:00:00 DataInterface=wpadap3 Bridge=veth-ap
e2e_start ap4 ip netns exec "$NS_AP"
e2e_wait ap4 "access point did not start: .*veth-ap is not a bridge"
e2e_stop ap4
echo "e2e_ap_bridge: joined, leased, pinged, left; created and deleted; refusals named"
