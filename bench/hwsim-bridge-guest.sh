# The guest half of bench/hwsim-bridge.sh, run by tests/hwsim/vm.sh like a
# scenario (lib.sh helpers, set -euo pipefail). The issue-17 LAN set-up on
# mac80211_hwsim: an access point (WPA2-PSK, 5 GHz channel 36 at 80 MHz,
# country US: VHT, as the issue's acceptance asks) on radio 0 in a Linux
# bridge br-lan whose other port is a veth to a "LAN" namespace, and
# wpa_supplicant on radio 1. Per try, hostapd (bridge=br-lan) and wpad
# (Bridge=br-lan) in turn, each run as shipped (no debug logging; both
# with HT, VHT and HE, as wpad offers what the radio reports; hostapd scans
# for neighbours before it goes 40/80 MHz wide, as it does by default):
#   beacon   from starting the daemon to its own "BSS started" line
#            (hostapd: AP-ENABLED; wpad: "starting -> started"), both printed
#            right after the kernel accepted START_AP;
#   connect  from then (wpa_supplicant started at that moment, scanning
#            channel 6 only) to wpa_supplicant's CTRL-EVENT-CONNECTED;
#   VmRSS and RssAnon of the AP daemon once the station is connected.
# The watchers that spot those lines (tail -F into grep on a tmpfs file)
# start before the clock. Writes bench.txt and samples.txt.
# radios: 2
# timeout: 1500
. "$HWSIM_TOP/bench/guest-lib.sh"
RUNS=${BENCH_RUNS:-3}
B=$HWSIM_WORK/bench
CHANNEL=36
FREQ=5180
# US lets an AP beacon on 36-48 at 80 MHz (the world domain does not).
iw reg set US || fail "iw reg set US"
wait_until 10 "regulatory domain US" sh -c 'iw reg get | grep -q "country US"'
mkdir -p "$B"
BR=br-lan

ns_new ap
ns_new lan
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta
nsx ap ip link add "$BR" type bridge
nsx ap ip link add veth-ap type veth peer name veth-lan
nsx ap ip link set veth-lan netns lan
nsx ap ip link set veth-ap master "$BR"
nsx ap ip link set veth-ap up
nsx ap ip link set "$BR" up
ip_add lan veth-lan "$IP_AP"

# A watcher started before the clock: the time at which FILE holds a line
# matching REGEX, or nothing after 90 s.
watch_begin() { # FILE REGEX
	rm -f "$B/fifo" "$B/watch.out"
	mkfifo "$B/fifo"
	tail -n +1 -F "$1" >"$B/fifo" 2>/dev/null &
	WT=$!
	{
		n=$(timeout 90 grep -m 1 -cE -- "$2" <"$B/fifo") || true
		echo "${n:-0} $EPOCHREALTIME" >"$B/watch.out"
	} &
	WG=$!
	sleep 0.5
}
watch_end() { # sets T1; fails when the line never came
	local n
	wait "$WG" 2>/dev/null || true
	kill "$WT" 2>/dev/null || true
	wait "$WT" 2>/dev/null || true
	rm -f "$B/fifo"
	read -r n T1 <"$B/watch.out" || return 1
	[ "${n:-0}" -ge 1 ]
}
radio0_bare() { local d; for d in $(radio_ifaces 0 ap); do nsx ap iw dev "$d" del; done; }

cat >"$B/wpas.conf" <<-EOF2
	network={
		ssid="$SSID_PSK"
		key_mgmt=WPA-PSK
		psk="$PASSPHRASE"
		scan_freq=$FREQ
	}
EOF2

setup_hostapd() {
	radio0_bare
	nsx ap iw phy "$(phy 0)" interface add wlanap type managed
	cat >"$B/hostapd.conf" <<-EOF2
		interface=wlanap
		bridge=$BR
		driver=nl80211
		ssid=$SSID_PSK
		country_code=US
		hw_mode=a
		channel=$CHANNEL
		ieee80211n=1
		ht_capab=[HT40+]
		ieee80211ac=1
		vht_oper_chwidth=1
		vht_oper_centr_freq_seg0_idx=42
		ieee80211ax=1
		he_oper_chwidth=1
		he_oper_centr_freq_seg0_idx=42
		wmm_enabled=1
		wpa=2
		wpa_key_mgmt=WPA-PSK
		rsn_pairwise=CCMP
		wpa_passphrase=$PASSPHRASE
	EOF2
	LOG=$B/hostapd.log RE='AP-ENABLED'
}
# stdbuf: hostapd's stdout into a file is block-buffered; its AP-ENABLED
# line must reach the log when printed (wpad logs to unbuffered stderr).
launch_hostapd() { ip netns exec ap stdbuf -oL hostapd "$B/hostapd.conf" >"$LOG" 2>&1 & PID=$!; }

setup_wpad() {
	radio0_bare
	mkdir -p "$B/wpad-state"
	chmod 700 "$B/wpad-state"
	printf '[General]\nStateDirectory=%s\nCountry=US\n\n' "$B/wpad-state" >"$B/wpad.conf"
	printf '[Radio r0]\nDriver=nl80211\n\n' >>"$B/wpad.conf"
	printf '[AccessPoint lab]\nRadio=r0\nSSID=%s\nBand=5\nChannel=%s\nWidth=80\n' \
		"$SSID_PSK" "$CHANNEL" >>"$B/wpad.conf"
	printf 'Passphrase=%s\nBridge=%s\n' "$PASSPHRASE" "$BR" >>"$B/wpad.conf"
	LOG=$B/wpad.log RE='starting -> started'
}
launch_wpad() { ip netns exec ap "$HWSIM_BUILD/wpad" -c "$B/wpad.conf" >"$LOG" 2>&1 & PID=$!; }

declare -A BEACON CONNECT RSS ANON
: >"$HWSIM_OUT/samples.txt"
one_try() { # DAEMON TRY
	local d=$1 t0 tb ts tc wpas
	"setup_$d"
	: >"$LOG"
	: >"$B/wpas.log"
	watch_begin "$LOG" "$RE"
	t0=$EPOCHREALTIME
	"launch_$d"
	watch_end || fail "$d did not start its BSS: $(tail -n 5 "$LOG")"
	tb=$T1
	watch_begin "$B/wpas.log" 'CTRL-EVENT-CONNECTED'
	ts=$EPOCHREALTIME # the station starts now
	ip netns exec sta stdbuf -oL wpa_supplicant -D nl80211 -i "$(iface 1)" -c "$B/wpas.conf" \
		>"$B/wpas.log" 2>&1 &
	wpas=$!
	watch_end || fail "the station did not connect to $d: $(tail -n 5 "$B/wpas.log")"
	tc=$T1
	BEACON[$d]+=" $(elapsed "$t0" "$tb")"
	CONNECT[$d]+=" $(elapsed "$ts" "$tc")"
	sleep 1 # settled: the handshake's allocations are in
	RSS[$d]+=" $(status_kib "$PID" VmRSS)"
	ANON[$d]+=" $(status_kib "$PID" RssAnon)"
	# The AP's interface is a port of the bridge while it runs.
	local port
	port=$(radio_ifaces 0 ap AP | head -n1)
	[ "$(iface_master ap "$port")" = "$BR" ] || fail "$d: $port is not in $BR"
	# Both compared on the same channel: 36 at 80 MHz.
	nsx ap iw dev "$port" info | grep -q 'channel 36 (5180 MHz), width: 80 MHz' ||
		fail "$d: not on 36 at 80 MHz: $(nsx ap iw dev "$port" info | grep channel)"
	echo "$d try $2: beacon $(elapsed "$t0" "$tb") s, connect $(elapsed "$ts" "$tc") s," \
		"VmRSS $(status_kib "$PID" VmRSS) KiB" >>"$HWSIM_OUT/samples.txt"
	stop_pid "$wpas"
	stop_pid "$PID"
	cp "$LOG" "$HWSIM_OUT/$d-try$2.log"
}

for i in $(seq "$RUNS"); do
	one_try hostapd "$i"
	one_try wpad "$i"
done

median() { # FORMAT NUMBERS...
	local fmt=$1
	shift
	printf '%s\n' "$@" | sort -g | awk -v f="$fmt" '{ v[NR] = $1 } END {
		if (NR == 0) { print "n/a"; exit }
		printf f "\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
{
	echo "access point in a bridge on hwsim (qemu TCG), WPA2-PSK, 5 GHz channel 36 at 80 MHz," \
		"median of $RUNS tries"
	printf '%-8s %9s %10s %9s %10s %11s\n' daemon "beacon s" "connect s" "total s" "VmRSS KiB" \
		"RssAnon KiB"
	for d in hostapd wpad; do
		# shellcheck disable=SC2086 # the lists are words
		b=$(median %.3f ${BEACON[$d]})
		c=$(median %.3f ${CONNECT[$d]})
		printf '%-8s %9s %10s %9s %10s %11s\n' "$d" "$b" "$c" \
			"$(awk -v a="$b" -v c="$c" 'BEGIN { printf "%.3f", a + c }')" \
			"$(median %d ${RSS[$d]})" "$(median %d ${ANON[$d]})"
	done
	echo "beacon: daemon start -> BSS started; connect: then wpa_supplicant start -> connected"
} >"$HWSIM_OUT/bench.txt"
cat "$HWSIM_OUT/bench.txt"
