# Shared by the guest halves of the hwsim benches (bench/hwsim-*-guest.sh),
# which tests/hwsim/vm.sh runs like scenarios, after tests/hwsim/lib.sh.

elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; } # T0 T1: seconds

# A field of /proc/PID/status in kB (VmRSS, RssAnon, ...), or n/a.
status_kib() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status" 2>/dev/null || echo n/a; } # PID FIELD

# SIGTERM, up to 10 s to go, then SIGKILL; reaps it.
stop_pid() {
	local i
	kill -TERM "$1" 2>/dev/null || return 0
	for i in $(seq 50); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.2
	done
	kill -KILL "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

cpu_ns() { # PID: on-CPU nanoseconds of all its threads
	# %.0f: mawk's %d stops at 2^31 - 1 (2.1 s of CPU), then every sample is equal.
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f", s }'
}
# utime and stime of the process (all threads), in clock ticks: the kernel
# splits the exact run time between them by where each tick found it.
ticks() { awk '{ sub(/^.*\) /, ""); print $12, $13 }' /proc/"$1"/stat; } # PID
count() { # FILE REGEX: 0 for a file not written yet
	[ -e "$1" ] || { echo 0; return; }
	grep -cE -- "$2" "$1" || true
}
# The date (-t prefix) of the Nth line matching REGEX in FILE.
nth_date() { grep -E -- "$2" "$1" | sed -n "${3}p" | cut -d: -f1; } # FILE REGEX N
# Waits up to 60 s for FILE to hold at least N + M lines matching REGEX.
wait_more() { # FILE REGEX N [M]
	local i
	for i in $(seq 1200); do
		[ "$(count "$1" "$2")" -ge $(($3 + ${4:-1})) ] && return 0
		sleep 0.05
	done
	return 1
}

# ---- hostapd as the AP on radio 0 in namespace ap (the caller sets B and SSID) ----

HAPD_PID="" HAPD_LOG=""
hostapd_ap() { # KIND [-d]: psk | sae-hnp | sae-h2e | owe | transition (PSK + SAE, PMF optional)
	local conf=$B/hostapd-$1.conf
	{
		echo "interface=$(iface 0)"
		echo "driver=nl80211"
		echo "ctrl_interface=$B/hostapd"
		echo "ssid=$SSID"
		echo "hw_mode=g"
		echo "channel=$CHANNEL"
		echo "wpa=2"
		echo "rsn_pairwise=CCMP"
		case $1 in
		psk) echo "wpa_key_mgmt=WPA-PSK" ;;
		sae-*) echo "wpa_key_mgmt=SAE"; echo "ieee80211w=2"; echo "sae_groups=19" ;;
		owe) echo "wpa_key_mgmt=OWE"; echo "ieee80211w=2"; echo "owe_groups=19" ;;
		transition) echo "wpa_key_mgmt=WPA-PSK SAE"; echo "ieee80211w=1"; echo "sae_groups=19" ;;
		*) fail "hostapd_ap: unknown kind $1" ;;
		esac
		case $1 in sae-hnp) echo "sae_pwe=0" ;; sae-h2e) echo "sae_pwe=1" ;; transition) echo "sae_pwe=2" ;; esac
		case $1 in owe) ;; *) echo "wpa_passphrase=$PASSPHRASE" ;; esac
	} >"$conf"
	HAPD_LOG=$B/hostapd-$1.log
	# shellcheck disable=SC2086 # $2: -d or nothing
	ip netns exec ap hostapd -t ${2:-} "$conf" >"$HAPD_LOG" 2>&1 &
	HAPD_PID=$!
	wait_until 20 "hostapd enabled ($1)" hostapd_cli_q_ status -- "state=ENABLED"
}
hostapd_cli_q_() { # COMMAND... -- REGEX
	local args=()
	while [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	nsx ap hostapd_cli -p "$B/hostapd" -i "$(iface 0)" "${args[@]}" | grep -Eq -- "$2"
}

# ---- station daemons on radio 1 in namespace sta, against an AP of SSID ----
# Per daemon D: start_D KIND (sets PID); through a CLI started per request
# (the profile, the light bench's "cli" rows and its AP part):
# disconnect_cli_D, drop_pmksa_cli_D KIND, connect_cli_D (the CLI in the
# background: sets CMD). The resident client is further below. KIND: psk,
# sae-hnp, sae-h2e, owe. The caller sets B (work directory), SSID, WPAD_BUS
# (wpad's private bus) and WPAS_CTRL; WPAD_BIN picks another wpad binary.

radio_reset() { # no interface left on radio 1
	local d
	for d in $(radio_ifaces 1 sta); do nsx sta iw dev "$d" del; done
}

start_wpad() { # KIND
	local sec=psk
	[ "$1" = owe ] && sec=open
	radio_reset
	rm -rf "$B/wpad-state"
	wpad_conf_begin "$B/wpad.conf" "$B/wpad-state"
	printf '[Radio r1]\nDriver=nl80211\n\n[Station s1]\nRadio=r1\nAutoConnect=true\n' >>"$B/wpad.conf"
	known_network "$B/wpad-state" "$SSID" "$sec"
	ip netns exec sta "${WPAD_BIN:-$HWSIM_BUILD/wpad}" --bus-address "$WPAD_BUS" -c "$B/wpad.conf" \
		>>"$B/wpad.log" 2>&1 &
	PID=$!
}
disconnect_cli_wpad() { wpactl_ station s1 disconnect >/dev/null; }
# SAE: fails (and so the run) unless it removed the PMKSA the last connect made.
drop_pmksa_cli_wpad() { # KIND
	case $1 in
	sae-*) wpactl_ --json station s1 flush-pmksa | grep -qx '{"removed":[1-9][0-9]*}' ;;
	*) wpactl_ station s1 flush-pmksa >/dev/null ;;
	esac
}
connect_cli_wpad() { wpactl_ station s1 connect "$SSID" >/dev/null 2>&1 & CMD=$!; }

wpas_network() { # KIND
	echo "network={"
	echo "	ssid=\"$SSID\""
	echo "	scan_freq=$FREQ"
	case $1 in
	psk) echo "	key_mgmt=WPA-PSK" ;;
	sae-*) echo "	key_mgmt=SAE"; echo "	ieee80211w=2" ;;
	owe) echo "	key_mgmt=OWE"; echo "	ieee80211w=2" ;;
	esac
	case $1 in psk | sae-*) echo "	psk=\"$PASSPHRASE\"" ;; esac
	echo "}"
}
wpas_conf() { # FILE KIND PWE
	{
		echo "ctrl_interface=$WPAS_CTRL"
		echo "sae_pwe=$3"
		wpas_network "$2"
	} >"$1"
}
start_wpa_supplicant() { # KIND
	radio_reset
	nsx sta iw phy "$(phy 1)" interface add wlanb type managed
	wpas_conf "$B/wpas.conf" "$1" 2
	ip netns exec sta wpa_supplicant -t -D nl80211 -i wlanb -c "$B/wpas.conf" \
		>>"$B/wpa_supplicant.log" 2>&1 &
	PID=$!
}
wpa_cli_() { wpa_cli -p "$WPAS_CTRL" -i "${WPAS_IF:-wlanb}" "$@" >/dev/null; }
disconnect_cli_wpa_supplicant() { # returns once wpa_state says so (up to 30 s)
	local i
	wpa_cli_ disconnect
	for i in $(seq 150); do
		wpa_cli -p "$WPAS_CTRL" -i "${WPAS_IF:-wlanb}" status | grep -qx 'wpa_state=DISCONNECTED' && return 0
		sleep 0.2
	done
	return 1
}
drop_pmksa_cli_wpa_supplicant() { wpa_cli_ pmksa_flush; }
connect_cli_wpa_supplicant() { wpa_cli_ reconnect & CMD=$!; }

start_iwd() { # KIND
	radio_reset
	rm -rf "$B/iwd-state" "$B/iwd-conf"
	mkdir -p "$B/iwd-state" "$B/iwd-conf"
	printf '[General]\nEnableNetworkConfiguration=false\n' >"$B/iwd-conf/main.conf"
	if [ "$1" = owe ]; then
		printf '[Settings]\nAutoConnect=true\n' >"$B/iwd-state/$SSID.open"
	else
		printf '[Security]\nPassphrase=%s\n' "$PASSPHRASE" >"$B/iwd-state/$SSID.psk"
	fi
	ip netns exec sta env STATE_DIRECTORY="$B/iwd-state" CONFIGURATION_DIRECTORY="$B/iwd-conf" \
		/usr/libexec/iwd >>"$B/iwd.log" 2>&1 &
	PID=$!
}
disconnect_cli_iwd() {
	sta_iface sta 1 || return 1
	iwctl station "$STA_IF" disconnect >/dev/null
}
drop_pmksa_cli_iwd() { :; }
connect_cli_iwd() { iwctl station "$STA_IF" connect "$SSID" >/dev/null & CMD=$!; }

# perf's report of DATA into OUT: the shares per DSO, per symbol, and the
# kernel's time inclusive under its entry points.
perf_report() { # DATA OUT
	perf report -i "$1" --stdio --no-children -g none --sort dso 2>/dev/null | grep -v '^#' | grep -v '^$' | head -20 || true
	echo "-- symbols"
	perf report -i "$1" --stdio --no-children -g none --sort dso,sym 2>/dev/null | grep -v '^#' | grep -v '^$' | head -60 || true
	echo "-- kernel, inclusive (children): which entry points the kernel time is under"
	perf report -i "$1" --stdio --children -g none --dsos '[kernel.kallsyms]' \
		--sort sym --percent-limit 1.5 2>/dev/null | grep -v '^#' | grep -v '^$' | head -80 || true
}

# ---- the resident client (bench/hwsim-client.py), one at a time ----

# Started once per station daemon (untimed), so that no client start-up is
# in a timed connect. DAEMON: wpad BUS DEVICE | wpa_supplicant CTRL | iwd DEVICE.
client_start() { # DAEMON ARGS...
	CL_DAEMON=$1
	coproc CL { exec /usr/bin/python3 "$HWSIM_TOP/bench/hwsim-client.py" "$@" 2>>"$HWSIM_OUT/client.log"; }
	# shellcheck disable=SC2153 # CL_PID: set by coproc
	CL_IN=${CL[1]} CL_OUT=${CL[0]} CL_PID_=$CL_PID
}
client() { echo "$*" >&"$CL_IN"; }
client_read() { read -r -t 120 -u "$CL_OUT" LINE || fail "the bench client did not answer"; }
# The answer: "ok..." returns 0; "error TEXT" is logged and returns 1.
client_ok() {
	client_read
	case $LINE in ok | "ok "*) return 0 ;; esac
	log "bench client ($CL_DAEMON): $LINE"
	return 1
}
client_prepare() { client prepare "$1"; client_ok; } # SSID
# Per daemon: the disconnects the daemon answered with "not connected"
# (the AP had dropped the station first: hostapd does under load).
declare -A GONE=()
# A disconnect that finds no link counts as done (and is counted).
client_disconnect() {
	client disconnect
	client_ok || return 1
	if [ "$LINE" = "ok not-connected" ]; then
		GONE[$CL_DAEMON]=$((${GONE[$CL_DAEMON]:-0} + 1))
		log "$CL_DAEMON: already disconnected (the AP dropped it)"
	fi
}
# Sends the connect and returns once the request went out: T0, the
# client's realtime clock just before it sent it; CLOCK_OFF, realtime -
# monotonic then. The answer is read later, by client_ok.
client_connect() { # SSID
	local tm
	client connect "$1"
	client_read
	case $LINE in "sent "*) ;; *) fail "bench client: $LINE" ;; esac
	read -r _ T0 tm <<<"$LINE"
	CLOCK_OFF=$(awk -v r="$T0" -v m="$tm" 'BEGIN { printf "%.6f", r - m }')
}
client_stop() {
	exec {CL_IN}>&-
	wait "$CL_PID_" 2>/dev/null || true
}
