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

# On-CPU nanoseconds of all its threads (schedstat's first field, summed;
# %.0f: mawk's %d stops at 2^31 - 1, 2.1 s of CPU).
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f", s }'; } # PID

# ---- hostapd as the AP: the same set-ups for every bench ----

# A hostapd AP of KIND on radio 0 in namespace "ap", control socket in
# $B/hostapd, SSID $SSID: psk | sae-hnp | sae-h2e | owe | transition
# (WPA2-PSK + SAE, PMF optional, sae_pwe=2). -t: its log dates each line.
# Sets HAPD_PID and HAPD_LOG ($B/hostapd-KIND.log); returns once ENABLED.
hostapd_ap() { # KIND [-d]
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
