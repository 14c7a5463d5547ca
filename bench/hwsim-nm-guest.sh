# The guest half of bench/hwsim-nm.sh, run by tests/hwsim/vm.sh like a
# scenario (lib.sh helpers). For each supplicant, the same NetworkManager
# steps on radio 1 (namespace sta) against hostapd on radio 0 (namespace ap):
#   wpad            started first (--system --wpa-supplicant-api), owning
#                   fi.w1.wpa_supplicant1 before NetworkManager starts;
#   wpa_supplicant  D-Bus activated by NetworkManager through Debian's
#                   fi.w1.wpa_supplicant1.service (/sbin/wpa_supplicant -u ...).
# Measured: VmRSS of the name's owner once the device is ready (idle) and
# after the PSK connects; `nmcli --wait 90 device wifi connect` from its
# start to its exit (NetworkManager says activated) for WPA2-PSK and SAE,
# RUNS times each (the profile deleted between runs); the hotspot: `nmcli
# device wifi hotspot`, then a wpa_supplicant station on radio 2 (namespace
# ap) from its start to the supplicant's side seeing it authorized (iw
# station get), only when the hotspot command succeeds.
# radios: 3
# timeout: 1500
RUNS=${BENCH_RUNS:-3}
SSID_SAE=hwsim-nm-sae
declare -A PSK SAE IDLE AFTER HOT NA

ns_new ap
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta
radio_to_ns 2 ap
ip_add ap "$(iface 0)" "$IP_AP"
dhcp_server_start ap "$(iface 0)" "$IP_STA"
# The system bus runs in namespace sta: a service it activates
# (wpa_supplicant) starts in the bus's namespace, where the radio is.
mkdir -p /run/dbus
printf '%s\n' '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"' \
	' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">' \
	"<busconfig><include>/usr/share/dbus-1/system.conf</include><include>$HWSIM_TOP/dbus/org.wpad1.conf</include></busconfig>" \
	>"$HWSIM_WORK/system-bus.conf"
nsx sta dbus-daemon --config-file="$HWSIM_WORK/system-bus.conf" --fork --nopidfile || fail "dbus-daemon"
wait_until 10 "system bus" test -S /run/dbus/system_bus_socket
udev_started=0

rss_kib() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$1/status" 2>/dev/null || echo n/a; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

ap_psk() { HOSTAPD_KEY_MGMT=WPA-PSK hostapd_start ap "$(iface 0)" "$SSID_PSK" psk; }
ap_sae() { HOSTAPD_KEY_MGMT=SAE hostapd_start ap "$(iface 0)" "$SSID_SAE" psk ieee80211w=2 sae_pwe=2; }
ap_stop() { stop_daemon hostapd; nsx ap ip addr replace "$IP_AP/24" dev "$(iface 0)"; }

lists() { nmcli_ -t -f SSID device wifi list --rescan auto ifname "$STA_IF" | grep -qx "$1"; } # SSID

# One timed connect, once NetworkManager lists the network (so the figure
# is the connect, not how soon a scan ran after hostapd started); prints
# seconds or n/a (stdout is the figure: the log line goes to stderr).
timed_connect() { # SSID
	local t0 t1 out
	wait_until 40 "nmcli device wifi list: $1" lists "$1" >&2
	t0=$EPOCHREALTIME
	if out=$(nmcli_ --wait 90 device wifi connect "$1" password "$PASSPHRASE" ifname "$STA_IF" 2>&1); then
		t1=$EPOCHREALTIME
		elapsed "$t0" "$t1"
	else
		log "connect $1 failed: $out" >&2
		echo n/a
	fi
}
forget() { # SSID
	nmcli_ connection delete "$1" >/dev/null 2>&1 || true
	wait_until 30 "NetworkManager: $STA_IF disconnected" nm_dev_state_is "$STA_IF" 30
}

hotspot() { # DAEMON
	local out t0 mac i
	if ! out=$(nmcli_ --wait 60 device wifi hotspot ifname "$STA_IF" ssid hwsim-nm-hot password "$PASSPHRASE" 2>&1); then
		NA[hot_$1]="not run: nmcli device wifi hotspot failed: $(echo "$out" | tail -n1)"
		return
	fi
	t0=$EPOCHREALTIME
	wpas_start_as hotsta ap "$(iface 2)" hwsim-nm-hot psk
	mac=$(iface_mac ap "$(iface 2)")
	for i in $(seq 450); do
		if nsx sta iw dev "$STA_IF" station get "$mac" 2>/dev/null | grep -Eq 'authorized:[[:space:]]+yes'; then
			HOT[$1]=$(elapsed "$t0" "$EPOCHREALTIME")
			break
		fi
		sleep 0.2
	done
	[ -n "${HOT[$1]:-}" ] || NA[hot_$1]="not run: no station authorized within 90 s"
	stop_daemon hotsta
	nmcli_ connection delete Hotspot >/dev/null 2>&1 || true
}

measure() { # DAEMON
	local d=$1 pid r v
	PSK[$d]="" SAE[$d]=""
	# wpad adopts the kernel's interface and gives it back when
	# NetworkManager removes it: wpa_supplicant gets the same one.
	if [ "$d" = wpad ]; then
		nm_wpad_own
	else
		sta_iface sta 1 || fail "no station interface on $(phy 1) after wpad"
	fi
	if [ "$udev_started" = 0 ]; then udev_start sta; udev_started=1; fi
	nm_start sta
	wait_until 30 "NetworkManager on the bus" bus_has_owner org.freedesktop.NetworkManager
	wait_until 60 "$d: $STA_IF disconnected (supplicant ready)" nm_dev_state_is "$STA_IF" 30
	pid=$(bus_owner_pid fi.w1.wpa_supplicant1)
	log "$d: fi.w1.wpa_supplicant1 owned by $pid ($(tr '\0' ' ' <"/proc/$pid/cmdline"))"
	sleep 2
	IDLE[$d]=$(rss_kib "$pid")
	ap_psk
	for r in $(seq "$RUNS"); do
		v=$(timed_connect "$SSID_PSK"); PSK[$d]+=" $v"; log "$d PSK #$r: $v s"
		[ "$r" -eq 1 ] && AFTER[$d]=$(rss_kib "$pid")
		forget "$SSID_PSK"
	done
	ap_stop
	ap_sae
	for r in $(seq "$RUNS"); do
		v=$(timed_connect "$SSID_SAE"); SAE[$d]+=" $v"; log "$d SAE #$r: $v s"
		forget "$SSID_SAE"
	done
	ap_stop
	hotspot "$d"
	stop_daemon nm
	if [ "$d" = wpad ]; then stop_daemon wpad; else kill "$pid"; fi
	sleep 1
}

median() {
	case " $* " in *" n/a "* | "  ") echo n/a; return ;; esac
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%.2f\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() { if [ "$1" = n/a ] || [ "$2" = n/a ] || [ -z "$1" ] || [ -z "$2" ]; then echo n/a; else awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; fi; }

start_bg dbus-monitor sta dbus-monitor --system
measure wpad
measure wpa_supplicant

{
	echo "NetworkManager $(NetworkManager --version) on hwsim (qemu TCG), $RUNS runs, medians"
	printf '%-34s %10s %16s %10s\n' "" wpad wpa_supplicant "wpas/wpad"
	row() { printf '%-34s %10s %16s %10s\n' "$1" "$2" "$3" "$(ratio "$3" "$2")"; }
	# shellcheck disable=SC2086
	row "nmcli connect WPA2-PSK, s" "$(median ${PSK[wpad]})" "$(median ${PSK[wpa_supplicant]})"
	# shellcheck disable=SC2086
	row "nmcli connect SAE, s" "$(median ${SAE[wpad]})" "$(median ${SAE[wpa_supplicant]})"
	row "VmRSS idle, KiB" "${IDLE[wpad]:-n/a}" "${IDLE[wpa_supplicant]:-n/a}"
	row "VmRSS after a PSK connect, KiB" "${AFTER[wpad]:-n/a}" "${AFTER[wpa_supplicant]:-n/a}"
	row "hotspot: station authorized, s" "${HOT[wpad]:-n/a}" "${HOT[wpa_supplicant]:-n/a}"
	for d in wpad wpa_supplicant; do
		[ -z "${NA[hot_$d]:-}" ] || echo "hotspot, $d: ${NA[hot_$d]}"
	done
	echo "samples: wpad PSK${PSK[wpad]}, SAE${SAE[wpad]}; wpa_supplicant PSK${PSK[wpa_supplicant]}, SAE${SAE[wpa_supplicant]}"
	echo "guest load average: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "versions: $("$HWSIM_BUILD/wpad" --version), $(wpa_supplicant -v | head -n1)"
} >"$HWSIM_OUT/bench.txt"
cat "$HWSIM_OUT/bench.txt"
