# Helpers for the hwsim scenarios; sourced by run-scenario.sh inside the
# VM's chroot (bash, the host's own binaries, the guest's kernel).
#
# The VM's init gives each scenario fresh radios and fresh tmpfs on /tmp and
# /run, and passes:
#   HWSIM_NAME     the scenario's name
#   HWSIM_TOP      the source tree, HWSIM_BUILD the build folder (wpad, tests/)
#   HWSIM_OUT      a folder on the writable share: logs that go back to the host
#   HWSIM_PHYS     the wiphy names of the radios, in hwsim order ("phy3 phy4")
#   HWSIM_IFACES   their default interfaces ("wlan0 wlan1")
#   HWSIM_MACS     their addresses
# Conventions: radio I is `$(phy I)`; every daemon runs in a network
# namespace of its own with its radio moved there, so data between two of
# them really crosses the air; daemon output goes to $HWSIM_OUT/NAME.log.

HWSIM_WORK=/tmp/hwsim # guest tmpfs: configurations, control sockets, state
mkdir -p "$HWSIM_WORK" "$HWSIM_OUT"
read -r HWSIM_T0 _ </proc/uptime
read -r -a HWSIM_PHY_LIST <<<"$HWSIM_PHYS"
read -r -a HWSIM_IFACE_LIST <<<"$HWSIM_IFACES"
read -r -a HWSIM_MAC_LIST <<<"$HWSIM_MACS"
declare -A HWSIM_PID

# The shared parameters of the matrix.
SSID_OPEN=hwsim-open
SSID_PSK=hwsim-psk
PASSPHRASE='correct horse battery'
CHANNEL=6
FREQ=2437
# wpa_supplicant scans only FREQ (a full scan takes ~10 s under TCG); the
# benchmark empties this to measure the daemon as shipped.
WPAS_SCAN_FREQ=${WPAS_SCAN_FREQ-$FREQ}
IP_AP=10.11.0.1
IP_STA=10.11.0.2

log() {
	local now
	read -r now _ </proc/uptime
	printf '[%7.2f] %s\n' "$(awk -v a="$HWSIM_T0" -v b="$now" 'BEGIN { print b - a }')" "$*"
}

fail() {
	log "FAIL: $*"
	exit 1
}

# ---- radios and namespaces ----

phy() { echo "${HWSIM_PHY_LIST[$1]:?no radio $1 (raise '# radios:')}"; }
iface() { echo "${HWSIM_IFACE_LIST[$1]:?no radio $1}"; }
mac() { echo "${HWSIM_MAC_LIST[$1]:?no radio $1}"; }
phy_index() { local p; p=$(phy "$1"); echo "${p#phy}"; }

nsx() { # NS COMMAND...: run in a namespace
	local ns=$1
	shift
	ip netns exec "$ns" "$@"
}

ns_new() { # NS: a namespace with loopback up
	ip netns add "$1"
	ip -n "$1" link set lo up
}

radio_to_ns() { # RADIO NS: move a radio (wiphy and its interfaces) into NS
	iw phy "$(phy "$1")" set netns name "$2" || fail "cannot move $(phy "$1") to $2"
}

radio_bare() { # RADIO NS: remove the default interface, for a daemon that makes its own
	nsx "$2" iw dev "$(iface "$1")" del || fail "cannot delete $(iface "$1")"
}

# Interfaces of radio RADIO in NS, optionally only those of iw's TYPE
# ("managed", "AP"): how we find what wpad or iwd created.
radio_ifaces() { # RADIO NS [TYPE]
	local p want=${3:-} dev
	p=$(phy "$1")
	for dev in $(nsx "$2" ls /sys/class/net); do
		[ "$(nsx "$2" cat "/sys/class/net/$dev/phy80211/name" 2>/dev/null)" = "$p" ] || continue
		if [ -n "$want" ] && ! nsx "$2" iw dev "$dev" info | grep -qx "[[:space:]]*type $want"; then
			continue
		fi
		echo "$dev"
	done
}

# ---- waiting and checking ----

# SECONDS are for an idle machine; HWSIM_WAIT_SCALE (3) stretches them for a
# loaded one, where emulation slows down several times. Success never waits.
wait_until() { # SECONDS WHAT COMMAND...: poll every 0.2 s
	local secs=$(($1 * ${HWSIM_WAIT_SCALE:-3})) what=$2 start now
	shift 2
	read -r start _ </proc/uptime
	while ! "$@" >/dev/null 2>&1; do
		read -r now _ </proc/uptime
		if awk -v a="$start" -v b="$now" -v s="$secs" 'BEGIN { exit !(b - a > s) }'; then
			fail "timed out after ${secs}s waiting for $what"
		fi
		sleep 0.2
	done
	log "ok: $what"
}

alive() { kill -0 "${HWSIM_PID[$1]:?no daemon $1}" 2>/dev/null; }

log_has() { grep -Eq -- "$2" "$HWSIM_OUT/$1.log"; } # DAEMON REGEX
log_has_i() { grep -Eiq -- "$2" "$HWSIM_OUT/$1.log"; } # the same, any case

# Kernel's view (cfg80211), independent of what a daemon says about itself.
kernel_sta_linked() { nsx "$1" iw dev "$2" link | grep -q '^Connected to'; } # NS IFACE
kernel_ap_authorized() { # NS IFACE MAC
	nsx "$1" iw dev "$2" station get "$3" | grep -Eq 'authorized:[[:space:]]+yes'
}

ip_add() { # NS IFACE ADDRESS
	nsx "$1" ip addr add "$3/24" dev "$2"
	nsx "$1" ip link set "$2" up
}

ping_ok() { # NS DESTINATION [ping options]: three answers in 20 s
	local ns=$1 dst=$2
	shift 2
	nsx "$ns" ping -n -q -c 3 -i 0.3 -w 20 "$@" "$dst"
}

# Data both ways across the link between two namespaces.
check_ping_both() { # NS_AP NS_STA
	wait_until 25 "ping $IP_STA -> $IP_AP" ping_ok "$2" "$IP_AP"
	wait_until 25 "ping $IP_AP -> $IP_STA" ping_ok "$1" "$IP_STA"
}

# Two interfaces of one namespace (one wpad with an AP and a station):
# policy routing so that traffic between their addresses leaves by the
# radio instead of short-cutting through loopback.
same_ns_link() { # NS IFACE_A IP_A IFACE_B IP_B
	local ns=$1 a=$2 ipa=$3 b=$4 ipb=$5 d
	for d in all default "$a" "$b"; do
		nsx "$ns" sysctl -qw "net.ipv4.conf.$d.rp_filter=0" "net.ipv4.conf.$d.accept_local=1"
	done
	ip_add "$ns" "$a" "$ipa"
	ip_add "$ns" "$b" "$ipb"
	nsx "$ns" ip route add "$ipb" dev "$a" src "$ipa" table 101
	nsx "$ns" ip route add "$ipa" dev "$b" src "$ipb" table 102
	# Only for what this host sends (iif lo): a packet or ARP request that
	# arrives from the air must reach the local table below.
	nsx "$ns" ip rule add pref 10 from "$ipa" to "$ipb" iif lo table 101
	nsx "$ns" ip rule add pref 11 from "$ipb" to "$ipa" iif lo table 102
	nsx "$ns" ip rule add pref 20 iif "$a" table local
	nsx "$ns" ip rule add pref 21 iif "$b" table local
	nsx "$ns" ip rule add pref 1000 table local
	nsx "$ns" ip rule del pref 0
}

# ---- daemons ----

start_bg() { # NAME NS COMMAND...: run in the background, output to NAME.log
	local name=$1 ns=$2
	shift 2
	log "start $name in $ns: $*"
	ip netns exec "$ns" "$@" </dev/null >"$HWSIM_OUT/$name.log" 2>&1 &
	HWSIM_PID[$name]=$!
}

stop_daemon() { # NAME: SIGTERM, then wait up to 10 s; fails if it had died
	local name=$1 pid=${HWSIM_PID[$1]} i
	alive "$name" || fail "$name died before the end"
	kill -TERM "$pid"
	for i in $(seq 50); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	kill -0 "$pid" 2>/dev/null && fail "$name did not stop within 10 s of SIGTERM"
	wait "$pid" || fail "$name exited with status $? on SIGTERM"
	unset "HWSIM_PID[$name]"
	log "stopped $name"
}

hostapd_start() { # NS IFACE SSID open|psk [EXTRA_CONFIG_LINE...]
	local ns=$1 ifc=$2 ssid=$3 sec=$4 conf=$HWSIM_WORK/hostapd-$2.conf
	shift 4
	{
		echo "interface=$ifc"
		echo "driver=nl80211"
		echo "ctrl_interface=$HWSIM_WORK/hostapd"
		echo "ssid=$ssid"
		echo "hw_mode=g"
		echo "channel=$CHANNEL"
		if [ "$sec" = psk ]; then
			echo "wpa=2"
			echo "wpa_key_mgmt=${HOSTAPD_KEY_MGMT:-WPA-PSK}"
			echo "rsn_pairwise=CCMP"
			echo "wpa_passphrase=$PASSPHRASE"
		fi
		[ $# -eq 0 ] || printf '%s\n' "$@"
		# More settings (later lines override): PMF, mixed WPA/WPA2, ...
		[ -z "${HOSTAPD_EXTRA:-}" ] || printf '%b\n' "$HOSTAPD_EXTRA"
	} >"$conf"
	start_bg hostapd "$ns" hostapd -t -d "$conf"
	wait_until 20 "hostapd enabled" hostapd_cli_q "$ns" "$ifc" status -- "state=ENABLED"
}

hostapd_cli_q() { # NS IFACE COMMAND... -- REGEX
	local ns=$1 ifc=$2 args=()
	shift 2
	while [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	nsx "$ns" hostapd_cli -p "$HWSIM_WORK/hostapd" -i "$ifc" "${args[@]}" | grep -Eq -- "$2"
}

hostapd_sta_authorized() { hostapd_cli_q "$1" "$2" sta "$3" -- '^flags=.*\[AUTHORIZED\]'; }

wpas_start() { # NS IFACE SSID open|psk
	local ns=$1 ifc=$2 ssid=$3 sec=$4 conf=$HWSIM_WORK/wpas-$2.conf
	{
		echo "ctrl_interface=$HWSIM_WORK/wpas"
		echo "network={"
		echo "	ssid=\"$ssid\""
		[ -z "$WPAS_SCAN_FREQ" ] || echo "	scan_freq=$WPAS_SCAN_FREQ"
		if [ "$sec" = psk ]; then
			echo "	key_mgmt=${WPAS_KEY_MGMT:-WPA-PSK}"
			echo "	psk=\"$PASSPHRASE\""
		else
			echo "	key_mgmt=NONE"
		fi
		[ -z "${WPAS_EXTRA:-}" ] || printf '\t%s\n' "$WPAS_EXTRA" # e.g. ieee80211w=2
		echo "}"
	} >"$conf"
	start_bg wpa_supplicant "$ns" wpa_supplicant -t -d -D nl80211 -i "$ifc" -c "$conf"
}

wpas_completed() { # NS IFACE
	nsx "$1" wpa_cli -p "$HWSIM_WORK/wpas" -i "$2" status | grep -qx 'wpa_state=COMPLETED'
}

dbus_start() { # [POLICY_FILE...]: the system bus iwd needs; once per scenario
	local cfg=$HWSIM_WORK/system-bus.conf f
	mkdir -p /run/dbus
	# Bus policies of our own (org.wpad1.conf) on top of Debian's system bus.
	{
		echo '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"'
		echo ' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">'
		echo "<busconfig><include>${DBUS_SYSTEM_CONF:-/usr/share/dbus-1/system.conf}</include>"
		for f in "$@"; do echo "<include>$f</include>"; done
		echo '</busconfig>'
	} >"$cfg"
	dbus-daemon --config-file="$cfg" --fork --nopidfile || fail "dbus-daemon did not start"
	wait_until 10 "system bus" test -S /run/dbus/system_bus_socket
}

# The same bus with nothing to activate: Debian's system.conf without its
# service directories (wpasupplicant's fi.w1.wpa_supplicant1.service is
# there), its relative includedir made absolute.
dbus_start_no_activation() { # [POLICY_FILE...]
	local base=$HWSIM_WORK/system-no-activation.conf
	sed -e '/<standard_system_servicedirs\/>/d' -e '/<servicedir>/d' \
		-e 's|<includedir>system.d</includedir>|<includedir>/usr/share/dbus-1/system.d</includedir>|' \
		/usr/share/dbus-1/system.conf >"$base"
	grep -q standard_system_servicedirs "$base" && fail "$base still has service directories"
	DBUS_SYSTEM_CONF=$base dbus_start "$@"
}

iwd_start() { # NS SSID open|psk
	local ns=$1 ssid=$2 sec=$3 state=$HWSIM_WORK/iwd-state conf=$HWSIM_WORK/iwd-conf
	mkdir -p "$state" "$conf"
	printf '[General]\nEnableNetworkConfiguration=false\n' >"$conf/main.conf"
	if [ "$sec" = psk ]; then
		printf '[Security]\nPassphrase=%s\n' "$PASSPHRASE" >"$state/$ssid.psk"
	else
		printf '[Settings]\nAutoConnect=true\n' >"$state/$ssid.open"
	fi
	start_bg iwd "$ns" env STATE_DIRECTORY="$state" CONFIGURATION_DIRECTORY="$conf" \
		/usr/libexec/iwd -d
}

iwd_connected() { # NS IFACE
	nsx "$1" iwctl station "$2" show | grep -Eq '^[[:space:]]*State[[:space:]]+connected'
}

# wpad's [Radio] Options for radio I: the one place that knows the nl80211
# backend's option syntax (drivers/nl80211, docs/nl80211.md).
wpad_radio_options() { echo "phy=$(phy "$1")"; }
# driver-conformance's OPTIONS for nl80211: the defaults, with RX_DATA on (the
# contract includes it; wpad itself leaves it off).
CONFORMANCE_OPTIONS=${CONFORMANCE_OPTIONS-rx_data=1}

wpad_start() { # NAME NS CONFIG_FILE [wpad options...]
	start_bg "$1" "$2" "$HWSIM_BUILD/wpad" -d -c "$3" "${@:4}"
	sleep 0.5
	alive "$1" || fail "$1 exited at start: $(tail -n 5 "$HWSIM_OUT/$1.log")"
}

# wpad's D-Bus API in the VM: a private bus (the system bus has no policy
# for org.wpad1 there); wpad joins it with `wpad_start ... $(wpad_bus_opts)`.
WPAD_BUS=unix:path=$HWSIM_WORK/wpad.bus
wpad_bus_start() {
	dbus-daemon --session --fork --nopidfile --address="$WPAD_BUS" || fail "no bus for wpad"
}
wpad_bus_opts() { echo "--bus-address $WPAD_BUS"; }
wpactl_() { "$HWSIM_BUILD/wpactl" --bus "$WPAD_BUS" "$@"; }
wpad_on_bus() {
	dbus-send --bus="$WPAD_BUS" --print-reply --dest=org.freedesktop.DBus / \
		org.freedesktop.DBus.GetNameOwner string:org.wpad1 >/dev/null 2>&1
}
# A property of one of wpad's objects as dbus-send prints it (the value
# lines: "   variant       boolean true").
wpad_prop() { # PATH IFACE NAME
	dbus-send --bus="$WPAD_BUS" --print-reply --dest=org.wpad1 "$1" \
		org.freedesktop.DBus.Properties.Get "string:$2" "string:$3" | tail -n +2
}
# Device.LastError of a device as JSON (wpactl --json), e.g. ["", -1, -1, "", 0].
wpad_last_error() { # DEVICE
	wpactl_ --json station "$1" show |
		python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["Device"]["LastError"]))'
}

# A known network for wpad's station (and the same file works for iwd).
known_network() { # STATE_DIR SSID open|psk
	mkdir -p "$1"
	chmod 700 "$1"
	if [ "$3" = psk ]; then
		printf '[Security]\nPassphrase=%s\n\n[Settings]\nAutoConnect=true\n' "$PASSPHRASE" >"$1/$2.psk"
		chmod 600 "$1/$2.psk"
	else
		printf '[Settings]\nAutoConnect=true\n' >"$1/$2.open"
		chmod 600 "$1/$2.open"
	fi
}

# ---- diagnostics, printed when a scenario fails ----

hwsim_diagnostics() {
	local ns
	echo "==== diagnostics"
	for ns in "" $(ip netns list | awk '{ print $1 }'); do
		echo "---- namespace ${ns:-(init)}"
		if [ -n "$ns" ]; then
			nsx "$ns" iw dev
			nsx "$ns" ip -br addr
		else
			iw dev
		fi
	done
	echo "---- processes"
	ps -eo pid,stat,etime,args | grep -Ev ' (ps|grep) |[0-9] \[' | tail -n 30
}

# ---- the matrix: one flow per pair of peers, SEC is open or psk ----
# Each asserts the connected state on both sides (the daemons' own view and
# the kernel's where a daemon's view is only its log) and pings both ways.

ssid_of() { if [ "$1" = psk ]; then echo "$SSID_PSK"; else echo "$SSID_OPEN"; fi; }

# A wpad.conf with [General]; the caller appends radios and roles. Its
# Country is the kernel's (reg_country), the world domain (00) by default.
wpad_conf_begin() { # FILE STATE_DIR
	mkdir -p "$2"
	chmod 700 "$2"
	printf '[General]\nStateDirectory=%s\nCountry=%s\n\n' "$2" "${WPAD_COUNTRY:-00}" >"$1"
}

# The regulatory domain is the kernel's, one for every namespace: sets it
# (US lets an AP beacon on 36-48 at 80 MHz and run DFS on 52-64; the world
# domain does not) and the Country of the wpad.conf files written after.
reg_country() { # CC
	WPAD_COUNTRY=$1
	iw reg set "$1" || fail "iw reg set $1"
	wait_until 10 "regulatory domain $1" sh -c "iw reg get | grep -q 'country $1'"
}

wpad_conf_ap() { # FILE NAME RADIO_NAME SEC
	local sec=open
	[ "$4" = psk ] && sec=wpa2-psk
	{
		printf '[AccessPoint %s]\nRadio=%s\nSSID=%s\nChannel=%s\nSecurity=%s\n' \
			"$2" "$3" "$(ssid_of "$4")" "$CHANNEL" "$sec"
		[ "$4" = psk ] && printf 'Passphrase=%s\n' "$PASSPHRASE"
		# More AP profile keys, e.g. ManagementFrameProtection=required
		[ -z "${WPAD_AP_EXTRA:-}" ] || printf '%b\n' "$WPAD_AP_EXTRA"
		echo
	} >>"$1"
}

# Sets AP_IF to wpad's access point interface on RADIO once it beacons.
wpad_ap_up() { # NS RADIO
	AP_IF=$(radio_ifaces "$2" "$1" AP | head -n1)
	[ -n "$AP_IF" ] && nsx "$1" iw dev "$AP_IF" info | grep -q 'ssid '
}

# Sets STA_IF to the (single) station interface on RADIO.
sta_iface() { # NS RADIO
	STA_IF=$(radio_ifaces "$2" "$1" managed | head -n1)
	[ -n "$STA_IF" ]
}

iface_mac() { nsx "$1" cat "/sys/class/net/$2/address"; } # NS IFACE

flow_hostapd_wpas() { # SEC
	local ssid
	ssid=$(ssid_of "$1")
	ns_new ap
	ns_new sta
	radio_to_ns 0 ap
	radio_to_ns 1 sta
	hostapd_start ap "$(iface 0)" "$ssid" "$1"
	wpas_start sta "$(iface 1)" "$ssid" "$1"
	wait_until 30 "wpa_supplicant COMPLETED" wpas_completed sta "$(iface 1)"
	wait_until 10 "hostapd: station authorized" hostapd_sta_authorized ap "$(iface 0)" "$(mac 1)"
	ip_add ap "$(iface 0)" "$IP_AP"
	ip_add sta "$(iface 1)" "$IP_STA"
	check_ping_both ap sta
	stop_daemon wpa_supplicant
	stop_daemon hostapd
}

flow_hostapd_iwd() { # SEC
	local ssid
	ssid=$(ssid_of "$1")
	ns_new ap
	ns_new sta
	radio_to_ns 0 ap
	radio_to_ns 1 sta
	dbus_start
	hostapd_start ap "$(iface 0)" "$ssid" "$1"
	iwd_start sta "$ssid" "$1"
	wait_until 30 "iwd connected" iwd_station_connected sta 1
	wait_until 10 "hostapd: station authorized" hostapd_sta_authorized ap "$(iface 0)" \
		"$(iface_mac sta "$STA_IF")"
	ip_add ap "$(iface 0)" "$IP_AP"
	ip_add sta "$STA_IF" "$IP_STA"
	check_ping_both ap sta
	stop_daemon iwd
	stop_daemon hostapd
}

# iwd makes its own interface: find it (STA_IF), then ask iwd.
iwd_station_connected() { sta_iface "$1" "$2" && iwd_connected "$1" "$STA_IF"; } # NS RADIO

flow_wpad_sta_hostapd() { # SEC
	wpad_sta_hostapd_connected "$1"
	stop_daemon wpad
	stop_daemon hostapd
}

# wpad's station on radio 1 (namespace sta) connected to hostapd on radio 0
# (namespace ap), data flowing; leaves both running.
wpad_sta_hostapd_connected() { # SEC
	local ssid state=$HWSIM_WORK/wpad-state conf=$HWSIM_WORK/wpad.conf
	ssid=$(ssid_of "$1")
	ns_new ap
	ns_new sta
	radio_to_ns 0 ap
	radio_to_ns 1 sta
	hostapd_start ap "$(iface 0)" "$ssid" "$1"
	radio_bare 1 sta
	wpad_conf_begin "$conf" "$state"
	# The namespace holds this radio only: the backend's first radio is it.
	printf '[Radio r1]\nDriver=nl80211\n\n[Station s1]\nRadio=r1\nAutoConnect=true\n' >>"$conf"
	known_network "$state" "$ssid" "$1"
	wpad_start wpad sta "$conf"
	wait_until 40 "wpad: connected to '$ssid'" log_has wpad "connected to '$ssid'"
	sta_iface sta 1 || fail "no station interface on $(phy 1)"
	wait_until 10 "kernel: $STA_IF associated" kernel_sta_linked sta "$STA_IF"
	wait_until 10 "hostapd: station authorized" hostapd_sta_authorized ap "$(iface 0)" \
		"$(iface_mac sta "$STA_IF")"
	ip_add ap "$(iface 0)" "$IP_AP"
	ip_add sta "$STA_IF" "$IP_STA"
	check_ping_both ap sta
}

# wpad's AP on radio 0 in namespace ap; PEER (wpas or iwd) on radio 1.
flow_wpad_ap() { # PEER SEC
	wpad_ap_connected "$1" "$2"
	if [ "$1" = iwd ]; then stop_daemon iwd; else stop_daemon wpa_supplicant; fi
	stop_daemon wpad
}

# The same, leaving both running; STA_MAC is the station's address.
wpad_ap_connected() { # PEER SEC
	local peer=$1 sec=$2 ssid sta_mac conf=$HWSIM_WORK/wpad.conf
	ssid=$(ssid_of "$sec")
	ns_new ap
	ns_new sta
	radio_to_ns 0 ap
	radio_to_ns 1 sta
	radio_bare 0 ap
	wpad_conf_begin "$conf" "$HWSIM_WORK/wpad-state"
	printf '[Radio r0]\nDriver=nl80211\n\n' >>"$conf"
	wpad_conf_ap "$conf" lab r0 "$sec"
	# shellcheck disable=SC2086 # WPAD_AP_OPTS: more wpad options, e.g. $(wpad_bus_opts)
	wpad_start wpad ap "$conf" ${WPAD_AP_OPTS:-}
	wait_until 20 "wpad: access point beaconing" wpad_ap_up ap 0
	if [ "$peer" = iwd ]; then
		dbus_start
		iwd_start sta "$ssid" "$sec"
		wait_until 30 "iwd connected" iwd_station_connected sta 1
	else
		STA_IF=$(iface 1)
		wpas_start sta "$STA_IF" "$ssid" "$sec"
		wait_until 30 "wpa_supplicant COMPLETED" wpas_completed sta "$STA_IF"
	fi
	sta_mac=$(iface_mac sta "$STA_IF")
	wait_until 10 "wpad: $sta_mac authorized" log_has wpad "$sta_mac authorized"
	wait_until 10 "kernel: $sta_mac authorized on $AP_IF" kernel_ap_authorized ap "$AP_IF" "$sta_mac"
	ip_add ap "$AP_IF" "$IP_AP"
	ip_add sta "$STA_IF" "$IP_STA"
	check_ping_both ap sta
	STA_MAC=$sta_mac
}

# One wpad, an AP on radio 0 and a station on radio 1, both in namespace
# wpad (one process sees one namespace's radios).
flow_wpad_ap_sta() { # SEC
	local sec=$1 ssid sta_mac state=$HWSIM_WORK/wpad-state conf=$HWSIM_WORK/wpad.conf
	ssid=$(ssid_of "$sec")
	ns_new wpad
	radio_to_ns 0 wpad
	radio_to_ns 1 wpad
	radio_bare 0 wpad
	radio_bare 1 wpad
	wpad_conf_begin "$conf" "$state"
	printf '[Radio r0]\nDriver=nl80211\nOptions=%s\n\n' "$(wpad_radio_options 0)" >>"$conf"
	printf '[Radio r1]\nDriver=nl80211\nOptions=%s\n\n' "$(wpad_radio_options 1)" >>"$conf"
	wpad_conf_ap "$conf" lab r0 "$sec"
	printf '[Station s1]\nRadio=r1\nAutoConnect=true\n' >>"$conf"
	known_network "$state" "$ssid" "$sec"
	wpad_start wpad wpad "$conf"
	wait_until 20 "wpad: access point beaconing" wpad_ap_up wpad 0
	wait_until 40 "wpad: connected to '$ssid'" log_has wpad "connected to '$ssid'"
	sta_iface wpad 1 || fail "no station interface on $(phy 1)"
	sta_mac=$(iface_mac wpad "$STA_IF")
	wait_until 10 "wpad: $sta_mac authorized" log_has wpad "$sta_mac authorized"
	wait_until 10 "kernel: $STA_IF associated" kernel_sta_linked wpad "$STA_IF"
	wait_until 10 "kernel: $sta_mac authorized on $AP_IF" kernel_ap_authorized wpad "$AP_IF" "$sta_mac"
	same_ns_link wpad "$AP_IF" "$IP_AP" "$STA_IF" "$IP_STA"
	wait_until 25 "ping $IP_STA -> $IP_AP over the air" ping_ok wpad "$IP_AP" -I "$IP_STA"
	wait_until 25 "ping $IP_AP -> $IP_STA over the air" ping_ok wpad "$IP_STA" -I "$IP_AP"
	stop_daemon wpad
}

# ---- hwsim radios coming and going (hwsim-ctl) ----

hwsim_list() { nsx "$1" "$HWSIM_BUILD/tests/hwsim-ctl" list; } # NS
hwsim_del() { nsx "$1" "$HWSIM_BUILD/tests/hwsim-ctl" del "$2"; } # NS NAME|ID
radio_gone() { ! nsx "$1" iw phy "$(phy "$2")" info >/dev/null 2>&1; } # NS RADIO

# ---- the access point on a LAN: bridge, DHCP, several BSSs, station control ----

# wpa_supplicant under its own name (log NAME.log, control folder
# $HWSIM_WORK/NAME), for scenarios with several stations.
wpas_start_as() { # NAME NS IFACE SSID open|psk
	local name=$1 ns=$2 ifc=$3 ssid=$4 sec=$5 conf=$HWSIM_WORK/$1.conf
	{
		echo "ctrl_interface=$HWSIM_WORK/$name"
		echo "network={"
		echo "	ssid=\"$ssid\""
		[ -z "$WPAS_SCAN_FREQ" ] || echo "	scan_freq=$WPAS_SCAN_FREQ"
		if [ "$sec" = psk ]; then
			echo "	key_mgmt=WPA-PSK"
			echo "	psk=\"$PASSPHRASE\""
		else
			echo "	key_mgmt=NONE"
		fi
		echo "}"
	} >"$conf"
	start_bg "$name" "$ns" wpa_supplicant -t -d -D nl80211 -i "$ifc" -c "$conf"
}
wpas_cli_as() { local name=$1 ns=$2 ifc=$3; shift 3; nsx "$ns" wpa_cli -p "$HWSIM_WORK/$name" -i "$ifc" "$@"; }
wpas_completed_as() { wpas_cli_as "$1" "$2" "$3" status | grep -qx 'wpa_state=COMPLETED'; } # NAME NS IFACE

# wpad's AP interface on RADIO in NS that beacons SSID (iw dev ... info).
ap_iface_of_ssid() { # NS RADIO SSID
	local d
	for d in $(radio_ifaces "$2" "$1" AP); do
		nsx "$1" iw dev "$d" info | grep -qx "[[:space:]]*ssid $3" && { echo "$d"; return 0; }
	done
	return 1
}

# The bridge IFACE is a port of ("" when none), from sysfs.
iface_master() { nsx "$1" sh -c "basename \"\$(readlink /sys/class/net/$2/master)\"" 2>/dev/null; } # NS IFACE
iface_in_bridge() { [ "$(iface_master "$1" "$2")" = "$3" ]; } # NS IFACE BRIDGE
link_exists() { nsx "$1" ip link show "$2" >/dev/null 2>&1; } # NS IFACE

# A DHCP server on IFACE of NS handing out FIRST..LAST (/24), no DNS.
dnsmasq_start() { # NS IFACE FIRST LAST
	start_bg dnsmasq "$1" dnsmasq --no-daemon --conf-file=/dev/null --user=root --port=0 \
		--interface="$2" --bind-interfaces --dhcp-range="$3,$4,255.255.255.0,1h" \
		--dhcp-leasefile="$HWSIM_WORK/dnsmasq.leases" --pid-file="$HWSIM_WORK/dnsmasq.pid" \
		--log-dhcp --log-facility=-
}

# One DHCP exchange on IFACE (busybox udhcpc); the address is set on IFACE.
dhcp_lease() { # NS IFACE
	local script=$HWSIM_WORK/udhcpc.sh
	if [ ! -x "$script" ]; then
		printf '%s\n' '#!/bin/sh' \
			'case "$1" in bound|renew) ip addr flush dev "$interface"; ip addr add "$ip/${mask:-24}" dev "$interface";; esac' \
			>"$script"
		chmod +x "$script"
	fi
	nsx "$1" busybox udhcpc -i "$2" -n -q -f -t 3 -T 2 -s "$script"
}
iface_ipv4() { nsx "$1" ip -4 -o addr show dev "$2" | awk '{ split($4, a, "/"); print a[1]; exit }'; } # NS IFACE

# wpad's AP (WPA2-PSK, radio 0, namespace ap) bridged with a veth whose far
# end (namespace lan, $IP_AP) runs dnsmasq; wpa_supplicant (radio 1,
# namespace sta) gets its address by DHCP through wpad and pings the LAN.
#   HOW:  existing (br-lan made first, Bridge=) or create (BridgeCreate=true)
#   EAPOL: nl80211 (control port) or pae (Options=control_port=0: EAPOL
#          through the bridge's packet socket)
flow_wpad_ap_bridge() { # HOW EAPOL
	local how=$1 eapol=$2 br=br-lan conf=$HWSIM_WORK/wpad.conf sta_mac sta_ip
	ns_new ap
	ns_new lan
	ns_new sta
	radio_to_ns 0 ap
	radio_to_ns 1 sta
	radio_bare 0 ap
	nsx ap ip link add veth-ap type veth peer name veth-lan
	nsx ap ip link set veth-lan netns lan
	ip_add lan veth-lan "$IP_AP"
	dnsmasq_start lan veth-lan 10.11.0.50 10.11.0.99
	if [ "$how" = existing ]; then
		nsx ap ip link add "$br" type bridge
		nsx ap ip link set veth-ap master "$br"
		nsx ap ip link set "$br" up
	fi
	nsx ap ip link set veth-ap up
	wpad_conf_begin "$conf" "$HWSIM_WORK/wpad-state"
	printf '[Radio r0]\nDriver=nl80211\n' >>"$conf"
	[ "$eapol" = pae ] && printf 'Options=control_port=0\n' >>"$conf"
	echo >>"$conf"
	WPAD_AP_EXTRA="Bridge=$br"
	[ "$how" = create ] && WPAD_AP_EXTRA="$WPAD_AP_EXTRA\nBridgeCreate=true"
	wpad_conf_ap "$conf" lab r0 psk
	wpad_start wpad ap "$conf"
	wait_until 20 "wpad: access point beaconing" wpad_ap_up ap 0
	if [ "$how" = create ]; then
		wait_until 10 "wpad created $br" link_exists ap "$br"
		log_has wpad "created bridge $br" || fail "wpad did not say it created $br"
		nsx ap ip link set veth-ap master "$br"
	fi
	wait_until 10 "kernel: $AP_IF is a port of $br" iface_in_bridge ap "$AP_IF" "$br"
	log_has wpad "$AP_IF joined bridge $br" || fail "wpad did not log the join"
	if [ "$eapol" = pae ]; then
		log_has wpad "EAPOL also read from its bridge" || fail "no EAPOL socket on the bridge"
	fi
	STA_IF=$(iface 1)
	wpas_start sta "$STA_IF" "$SSID_PSK" psk
	wait_until 30 "wpa_supplicant COMPLETED" wpas_completed sta "$STA_IF"
	sta_mac=$(iface_mac sta "$STA_IF")
	wait_until 10 "wpad: $sta_mac authorized" log_has wpad "$sta_mac authorized"
	wait_until 10 "kernel: $sta_mac authorized on $AP_IF" kernel_ap_authorized ap "$AP_IF" "$sta_mac"
	nsx sta ip link set "$STA_IF" up
	wait_until 30 "DHCP lease from the LAN's dnsmasq" dhcp_lease sta "$STA_IF"
	sta_ip=$(iface_ipv4 sta "$STA_IF")
	case "$sta_ip" in
	10.11.0.[5-9][0-9]) log "station got $sta_ip from dnsmasq" ;;
	*) fail "the station's address '$sta_ip' is not from dnsmasq's range" ;;
	esac
	log_has dnsmasq "DHCPACK\(veth-lan\) $sta_ip $sta_mac" || fail "dnsmasq did not log the lease"
	wait_until 25 "ping station -> LAN ($IP_AP)" ping_ok sta "$IP_AP"
	wait_until 25 "ping LAN -> station ($sta_ip)" ping_ok lan "$sta_ip"
	stop_daemon wpa_supplicant
	stop_daemon wpad
	log_has wpad "$AP_IF left bridge $br" || fail "wpad did not take $AP_IF out of $br"
	if [ "$how" = create ]; then
		! link_exists ap "$br" || fail "the bridge wpad created is still there"
		log_has wpad "deleted bridge $br" || fail "wpad did not say it deleted $br"
	else
		link_exists ap "$br" || fail "wpad removed a bridge it did not create"
		iface_in_bridge ap veth-ap "$br" || fail "the wired port left the bridge"
	fi
	stop_daemon dnsmasq
}

# ---- the real NetworkManager driving wpad (fi.w1.wpa_supplicant1) ----

# NetworkManager in namespace NS with a configuration of its own: keyfile
# profiles, state and /var/lib/NetworkManager under $HWSIM_WORK (the VM's /
# is read-only: a bind mount in the mount namespace `ip netns exec` makes),
# no polkit, no DNS or resolv.conf, no connectivity check, the
# wpa_supplicant backend and the radio's own MAC address. --debug: its log
# on stderr (nm.log), not syslog.
nm_start() { # NS
	local d=$HWSIM_WORK/nm
	mkdir -p "$d/conf.d" "$d/sys.d" "$d/connections" "$d/var"
	chmod 700 "$d/connections" "$d/var"
	cat >"$d/NetworkManager.conf" <<-EOF
		[main]
		plugins=keyfile
		auth-polkit=false
		dhcp=internal
		dns=none
		rc-manager=unmanaged
		no-auto-default=*

		[keyfile]
		path=$d/connections

		[logging]
		level=INFO
		domains=DEFAULT:INFO,SUPPLICANT:TRACE,WIFI:DEBUG,WIFI_SCAN:DEBUG,DEVICE:DEBUG,CORE:DEBUG

		[connectivity]
		enabled=false

		[device]
		wifi.backend=wpa_supplicant
		wifi.scan-rand-mac-address=no

		[connection]
		wifi.cloned-mac-address=preserve
	EOF
	# shellcheck disable=SC2016 # expanded by the inner shell
	start_bg nm "$1" bash -c 'mount --bind "$1" /var/lib/NetworkManager && exec "${@:2}"' nm \
		"$d/var" NetworkManager --no-daemon --debug --config="$d/NetworkManager.conf" \
		--config-dir="$d/conf.d" --system-config-dir="$d/sys.d" \
		--intern-config="$d/intern.conf" --state-file="$d/state" --pid-file="$d/pid"
}

nmcli_() { nsx sta nmcli "$@"; } # nmcli, in namespace sta like NetworkManager
nm_dev_state() { nmcli_ -g GENERAL.STATE device show "$1" 2>/dev/null; } # IFACE: "100 (connected)"
nm_dev_state_is() { nm_dev_state "$1" | grep -Eq "^$2 "; } # IFACE NUMBER

# The system bus's owner of NAME as a PID (0 when nobody owns it).
bus_owner_pid() { # NAME
	dbus-send --system --print-reply --dest=org.freedesktop.DBus / \
		org.freedesktop.DBus.GetConnectionUnixProcessID "string:$1" 2>/dev/null |
		awk '/uint32/ { print $2; f = 1 } END { if (!f) print 0 }'
}
bus_has_owner() { [ "$(bus_owner_pid "$1")" != 0 ]; }

# A property of wpad's fi.w1.wpa_supplicant1 interface for IFACE, as
# dbus-send prints the value ("string "completed"").
wpas_iface_prop() { # IFACE NAME
	local path
	path=$(dbus-send --system --print-reply --dest=fi.w1.wpa_supplicant1 /fi/w1/wpa_supplicant1 \
		fi.w1.wpa_supplicant1.GetInterface "string:$1" | awk '/object path/ { gsub(/"/, "", $3); print $3 }')
	[ -n "$path" ] || return 1
	dbus-send --system --print-reply --dest=fi.w1.wpa_supplicant1 "$path" \
		org.freedesktop.DBus.Properties.Get string:fi.w1.wpa_supplicant1.Interface "string:$2" |
		sed -n 's/^ *variant *//p'
}

# A DHCP server (busybox udhcpd) on IFACE in NS leasing exactly one
# address, so NetworkManager's default (ipv4.method auto) gets IP.
dhcp_server_start() { # NS IFACE ADDRESS
	local conf=$HWSIM_WORK/udhcpd-$2.conf
	printf 'start %s\nend %s\ninterface %s\nlease_file %s\npidfile %s\noption subnet 255.255.255.0\n' \
		"$3" "$3" "$2" "$HWSIM_WORK/udhcpd-$2.leases" "$HWSIM_WORK/udhcpd-$2.pid" >"$conf"
	: >"$HWSIM_WORK/udhcpd-$2.leases"
	start_bg udhcpd "$1" busybox udhcpd -f "$conf"
}

# The first time dbus-monitor (default format) saw NAME get an owner, as
# the "time=" of that NameOwnerChanged.
monitor_name_owned_at() { # MONITOR_LOG NAME
	awk -v name="\"$2\"" '
		/^signal / { hdr = ($0 ~ /member=NameOwnerChanged/); t = $2; sub(/^time=/, "", t); n = 0; next }
		hdr { n++; if (n == 1 && $2 != name) hdr = 0; if (n == 2 && $2 != "\"\"") hdr = 0
		      if (n == 3 && hdr && $2 != "\"\"") { print t; exit } }' "$1"
}

# The set-up of the NetworkManager scenarios: hostapd (WPA2-PSK, SSID,
# more hostapd.conf lines) and a DHCP server in namespace ap; in namespace
# sta the system bus (recorded by dbus-monitor), wpad owning
# fi.w1.wpa_supplicant1 (its PID checked, the time from its start printed)
# with a station on radio 1 (STA_IF), then NetworkManager managing STA_IF.
nm_wpad_setup() { # SSID [HOSTAPD_LINE...]
	nm_ap_bus_setup "$@"
	nm_wpad_own
	nm_start_managed
}

# hostapd and DHCP in ap, the system bus and dbus-monitor; radio 1 in sta.
# NM_BUS_ACTIVATION=0: a bus with no activation files (nothing can be
# D-Bus activated, not even wpa_supplicant).
nm_ap_bus_setup() { # SSID [HOSTAPD_LINE...]
	local ssid=$1
	ns_new ap
	ns_new sta
	radio_to_ns 0 ap
	radio_to_ns 1 sta
	hostapd_start ap "$(iface 0)" "$ssid" psk "${@:2}"
	ip_add ap "$(iface 0)" "$IP_AP"
	dhcp_server_start ap "$(iface 0)" "$IP_STA"

	# The system bus, with wpad's own policy for org.wpad1 (--system serves it
	# too); wpasupplicant's policy already lets root own fi.w1.wpa_supplicant1.
	if [ "${NM_BUS_ACTIVATION:-1}" = 0 ]; then
		dbus_start_no_activation "$HWSIM_TOP/dbus/org.wpad1.conf"
	else
		dbus_start "$HWSIM_TOP/dbus/org.wpad1.conf"
	fi
	start_bg dbus-monitor sta dbus-monitor --system
	wait_until 10 "dbus-monitor attached" log_has dbus-monitor 'member=Name(Acquired|Lost)'
}

# wpad (--system --wpa-supplicant-api) with radio 1 and no [Station]: owns
# the name, checked and timed; sets STA_IF to the kernel's interface, which
# wpad adopts when NetworkManager calls CreateInterface.
nm_wpad_own() {
	local state=$HWSIM_WORK/wpad-state conf=$HWSIM_WORK/wpad.conf
	local name=fi.w1.wpa_supplicant1 t_wpad t_owned owner ms own
	# As on a real machine: the kernel's station interface stays, and wpad.conf
	# names only the radio; NetworkManager's CreateInterface makes wpad take
	# that interface over (as wpa_supplicant opens it), and wpad gives it back
	# at exit (nm_wpad_gave_back checks).
	sta_iface sta 1 || fail "no kernel station interface on $(phy 1) to adopt"
	NM_KERNEL_IF=$STA_IF
	wpad_conf_begin "$conf" "$state"
	printf '[Radio r1]\nDriver=nl80211\nOptions=%s\n' "phy=$(phy 1)" >>"$conf"
	start_bg wpad sta "$HWSIM_BUILD/wpad" -d -c "$conf" --system --wpa-supplicant-api
	wait_until 10 "wpad owns $name" bus_has_owner "$name"
	t_wpad=$(proc_start_wall "${HWSIM_PID[wpad]}")
	owner=$(bus_owner_pid "$name")
	[ "$owner" = "${HWSIM_PID[wpad]}" ] ||
		fail "$name is owned by PID $owner ($(tr '\0' ' ' <"/proc/$owner/cmdline" 2>/dev/null)), not wpad (${HWSIM_PID[wpad]})"
	log "ok: $name owned by wpad (PID $owner)"
	t_owned=$(monitor_name_owned_at "$HWSIM_OUT/dbus-monitor.log" "$name")
	[ -n "$t_owned" ] || fail "dbus-monitor saw no NameOwnerChanged for $name"
	ms=$(awk -v a="$t_wpad" -v b="$t_owned" 'BEGIN { printf "%d", (b - a) * 1000 }')
	# wpad's own part: its first log line to the name (its log's clock).
	own=$(awk '!t { t = $1 } /served too/ { printf "%d", ($1 - t) * 1000; exit }' "$HWSIM_OUT/wpad.log")
	log "measure: wpad process created -> owns $name: $ms ms; wpad's first log line -> name: ${own:-?} ms" \
		"(NetworkManager waits 3000 ms; the VM is emulated, HWSIM_WAIT_SCALE ${HWSIM_WAIT_SCALE:-3})"
	[ -n "$own" ] && [ "$own" -lt 3000 ] || fail "wpad took ${own:-?} ms from its start to own $name"
	[ "$ms" -lt $((3000 * ${HWSIM_WAIT_SCALE:-3})) ] ||
		fail "wpad's process took $ms ms to own $name (3000 ms on real hardware, scaled for emulation)"
	log "station interface: $STA_IF (the kernel's, adopted when NetworkManager asks)"
}

# wpad took the kernel's interface when NetworkManager asked (CreateInterface)
# and, once stopped, left it in place as a station.
nm_wpad_adopted() {
	log_has wpad "$NM_KERNEL_IF: adopted" || fail "wpad did not adopt $NM_KERNEL_IF"
	log "ok: wpad adopted the kernel's $NM_KERNEL_IF"
}
nm_wpad_gave_back() {
	nsx sta iw dev "$NM_KERNEL_IF" info | grep -q 'type managed' ||
		fail "$NM_KERNEL_IF is gone or not a station after wpad stopped"
	log "ok: $NM_KERNEL_IF still there, a station, after wpad stopped"
}

# udevd and NetworkManager in sta; STA_IF managed with its supplicant
# interface ready.
nm_start_managed() {
	# NetworkManager leaves a device unmanaged ("platform-init") until udev
	# has initialized it (its /run/udev/data entry), in a namespace too; a
	# device's uevents go to its own network namespace, so udevd runs in sta.
	udev_start sta

	nm_start sta
	wait_until 30 "NetworkManager on the bus" bus_has_owner org.freedesktop.NetworkManager
	# 30 disconnected: managed, and the supplicant interface ready (10
	# unmanaged: NetworkManager would not take the device; 20 unavailable: no
	# supplicant interface).
	wait_until 40 "NetworkManager: $STA_IF disconnected (managed, supplicant ready)" \
		nm_dev_state_is "$STA_IF" 30
	log "NetworkManager devices: $(nmcli_ -t -f DEVICE,TYPE,STATE device | tr '\n' ' ')"
}

# NetworkManager connected STA_IF to SSID: its device state, wpad's log and
# its fi.w1.wpa_supplicant1 State, the kernel, hostapd, the DHCP address,
# a ping both ways.
nm_wpad_connected() { # SSID
	wait_until 10 "NetworkManager: $STA_IF connected" nm_dev_state_is "$STA_IF" 100
	wait_until 10 "wpad: connected to '$1'" log_has wpad "connected to '$1'"
	wait_until 10 "wpad's fi.w1.wpa_supplicant1 State: completed" wpas_completed_
	nm_sta_connected
}
# The same as seen from outside the supplicant (any supplicant under
# NetworkManager): NetworkManager, the kernel, hostapd, DHCP, ping.
nm_sta_connected() {
	wait_until 10 "NetworkManager: $STA_IF connected" nm_dev_state_is "$STA_IF" 100
	wait_until 10 "kernel: $STA_IF associated" kernel_sta_linked sta "$STA_IF"
	wait_until 10 "hostapd: station authorized" hostapd_sta_authorized ap "$(iface 0)" \
		"$(iface_mac sta "$STA_IF")"
	wait_until 20 "NetworkManager set $IP_STA (DHCP) on $STA_IF" has_sta_ip
	check_ping_both ap sta
}
# The values of KEY in the AddNetwork calls dbus-monitor recorded, one a
# line, as it prints them ('string "SAE FT-SAE"', 'int32 2').
monitor_addnetwork_values() { # KEY
	awk -v key="string \"$1\"" '
		/^(method call|method return|signal|error) / { add = ($0 ~ /member=AddNetwork$/); want = 0; next }
		add && index($0, key) { want = 1; next }
		add && want { sub(/^ *variant +/, ""); print; want = 0 }' "$HWSIM_OUT/dbus-monitor.log"
}

# The lines of the last AddNetwork call dbus-monitor recorded (one pass
# over the capture; read values from it with addnetwork_value).
monitor_last_addnetwork() {
	awk '/^(method call|method return|signal|error) / { add = ($0 ~ /member=AddNetwork$/); if (add) b = ""; next }
		add { b = b $0 "\n" } END { printf "%s", b }' "$HWSIM_OUT/dbus-monitor.log"
}
addnetwork_value() { # KEY LINES: KEY's value in LINES as dbus-monitor prints it
	awk -v key="string \"$1\"" 'index($0, key) { w = 1; next } w { sub(/^ *variant +/, ""); print; exit }' <<<"$2"
}

# dbus-monitor recorded a Scan call whose SSIDs name SSID (it prints a
# printable byte array as: array of bytes "SSID").
monitor_scan_names() { # SSID
	awk -v want="array of bytes \"$1\"" '
		/^(method call|method return|signal|error) / { scan = ($0 ~ /member=Scan$/); next }
		scan && index($0, want) { found = 1 }
		END { exit !found }' "$HWSIM_OUT/dbus-monitor.log"
}

wpas_completed_() { wpas_iface_prop "$STA_IF" State | grep -qx 'string "completed"'; }
has_sta_ip() { nsx sta ip -4 -br addr show dev "$STA_IF" | grep -q " $IP_STA/24"; }

# When process PID was created, on the wall clock (as dbus-monitor's time=):
# its start in clock ticks since boot, moved by the wall-minus-uptime offset.
proc_start_wall() { # PID
	local ticks hz now up
	ticks=$(awk '{ print $22 }' "/proc/$1/stat")
	hz=$(getconf CLK_TCK)
	now=$(date +%s.%N)
	read -r up _ </proc/uptime
	awk -v t="$ticks" -v hz="$hz" -v now="$now" -v up="$up" 'BEGIN { printf "%.3f", now - up + t / hz }'
}

# systemd-udevd in namespace NS, every net device there initialized (STA_IF checked)
# (NetworkManager waits for udev's database entry of a device).
udev_start() { # NS
	start_bg udevd "$1" env SYSTEMD_IGNORE_CHROOT=1 /lib/systemd/systemd-udevd
	wait_until 20 "udevd running" test -S /run/udev/control
	# The scenarios run in a chroot, where udevadm ignores requests unless told.
	nsx "$1" env SYSTEMD_IGNORE_CHROOT=1 udevadm trigger --action=add --subsystem-match=net ||
		fail "udevadm trigger"
	nsx "$1" env SYSTEMD_IGNORE_CHROOT=1 udevadm settle -t 60 || fail "udevadm settle"
	local i
	i=$(nsx "$1" cat "/sys/class/net/$STA_IF/ifindex")
	wait_until 20 "udev initialized $STA_IF (/run/udev/data/n$i)" test -e "/run/udev/data/n$i"
}
