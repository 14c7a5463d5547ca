# Shared by the benches that run wpad processes on the simulated radio
# (bench/idle.sh, bench/memory.sh). Source it, then call bench_init NAME:
# it makes $tmp, and on exit stops every pid in the pids array, runs
# bench_on_exit if the bench defines one (its own cleanup), and removes
# $tmp.

bench_init() { # name
	bench_name=$1
	tmp=$(mktemp -d "/tmp/wpad-$1-XXXXXX")
	pids=()
	trap bench_cleanup EXIT
}

bench_cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	if declare -F bench_on_exit >/dev/null; then bench_on_exit; fi
	rm -rf "$tmp"
}

wait_for() { # file pattern: up to 20 s for an extended regex in a log
	for _ in $(seq 400); do
		grep -qE "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	echo "$bench_name: never saw '$2' in $1:" >&2
	tail -n 20 "$1" >&2
	exit 1
}

# A WPA2-PSK AP and a station that knows its network, each wpad alone in
# its process (--no-dbus) on one wpad-medium; returns once the station is
# connected and the AP has authorized it. Sets medium_pid, ap_pid, sta_pid;
# their state, configuration and logs are $tmp/{ap,sta,air}*.
bench_sim_pair() { # build ssid passphrase
	local build=$1 ssid=$2 pass=$3 role
	mkdir -p -m 700 "$tmp/ap" "$tmp/sta" "$tmp/air"
	printf '[Security]\nPassphrase=%s\n' "$pass" >"$tmp/sta/$ssid.psk"
	chmod 600 "$tmp/sta/$ssid.psk"
	for role in ap sta; do
		{
			printf '[General]\nStateDirectory=%s\nRuntimeDirectory=%s\n' "$tmp/$role" "$tmp/$role"
			printf '[Radio r]\nDriver=sim\nOptions=medium=%s\n' "$tmp/air"
			if [ $role = ap ]; then
				printf '[AccessPoint %s]\nRadio=r\nSSID=%s\nPassphrase=%s\n' "$ssid" "$ssid" "$pass"
			else
				printf '[Station wlan0]\nRadio=r\n'
			fi
		} >"$tmp/$role.conf"
	done
	"$build/wpad-medium" -D "$tmp/air" >"$tmp/air.log" 2>&1 &
	medium_pid=$!
	pids+=("$medium_pid")
	for _ in $(seq 200); do [ -S "$tmp/air/medium.sock" ] && break; sleep 0.05; done
	"$build/wpad" --no-dbus -c "$tmp/ap.conf" >"$tmp/ap.log" 2>&1 &
	ap_pid=$!
	pids+=("$ap_pid")
	wait_for "$tmp/ap.log" "starting -> started"
	"$build/wpad" --no-dbus -c "$tmp/sta.conf" >"$tmp/sta.log" 2>&1 &
	sta_pid=$!
	pids+=("$sta_pid")
	wait_for "$tmp/sta.log" "connected to '$ssid'"
	wait_for "$tmp/ap.log" "authorized"
}
