#!/bin/bash
# Guest half of the station's per-connect profile on hwsim (issue 21): where a
# station daemon's CPU goes while it reconnects to a hostapd AP, wpad against
# wpa_supplicant and iwd, and against a second wpad binary when WPAD_BASE
# names one (the same run: "before" and "after"). The AP and the daemons run
# as in bench/hwsim-light-guest.sh's station rows (hostapd with -t, no debug
# logging here; wpad with its D-Bus API on a private bus, wpa_supplicant with
# scan_freq, iwd on the system bus). Per row and daemon, three passes of
# connects, each window from the connect command to 1 s after hostapd's
# AP-STA-CONNECTED (full rows drop the PMKSA first):
#   plain   BENCH_RUNS windows (default 5): CPU (schedstat, all threads) and
#           its split into user and system time (/proc/PID/stat utime/stime
#           summed over the windows: the kernel samples the split per tick)
#   perf    BENCH_RUNS windows under `perf record -e cpu-clock -g` (wpad
#           binaries only; every daemon with BENCH_PERF_ALL=1)
#   strace  BENCH_STRACE windows (default 2) under `strace -f -yy -xx`:
#           syscalls per connect by name and by kind of descriptor (netlink,
#           unix socket = D-Bus or control socket, timerfd, ...), and the
#           netlink messages sent, nl80211 ones by command
# BENCH_ROWS (comma-separated, default psk): psk (WPA2-PSK warm reconnect),
# sae-hnp (full SAE hunting-and-pecking, PMKSA dropped before each connect).
# BENCH_DAEMONS (comma-separated, default wpad,wpa_supplicant,iwd).
# Writes profile.txt (and perf-*.txt, strace-*.txt) to $HWSIM_OUT.
# Run it from the host, under the VM lock:
#   flock /tmp/wpad-hwsim.lock tests/hwsim/vm.sh --build build --out build/hwsim-sta-profile \
#       [--env BENCH_RUNS=N] [--env BENCH_ROWS=psk,sae-hnp] [--env WPAD_BASE=/abs/path/to/wpad] \
#       bench/hwsim-sta-profile-guest.sh
# radios: 2
# timeout: 1800
. "$HWSIM_TOP/bench/guest-lib.sh"
RUNS=${BENCH_RUNS:-5}
STRACE_RUNS=${BENCH_STRACE:-2}
ROWS=${BENCH_ROWS:-psk}
ROWS=${ROWS//,/ }
DAEMONS=${BENCH_DAEMONS:-wpad,wpa_supplicant,iwd}
DAEMONS=${DAEMONS//,/ }
[ -z "${WPAD_BASE:-}" ] || DAEMONS="wpad-base $DAEMONS"
B=$HWSIM_WORK/bench
mkdir -p "$B"
SSID=$SSID_PSK
WPAD_BUS=unix:path=$B/wpad.bus
WPAS_CTRL=$B/wpas
OUT=$HWSIM_OUT/profile.txt
: >"$OUT"
STA_RE=AP-STA-CONNECTED

ns_new ap
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta
dbus_start
dbus-daemon --session --fork --nopidfile --address="$WPAD_BUS"

# The nl80211 command names by number, from the kernel's header.
NL80211_H=/usr/include/linux/nl80211.h
nl80211_cmds() {
	awk '/^enum nl80211_commands/ { on = 1; n = 0; next } on && /^}/ { exit }
		on && match($0, /^[ \t]*NL80211_CMD_[A-Z0-9_]+/) {
			name = substr($0, RSTART, RLENGTH); gsub(/[ \t]/, "", name)
			if ($0 ~ /=[ \t]*NL80211_CMD_/) next # an alias of an earlier one
			if (match($0, /=[ \t]*[0-9]+/)) { v = substr($0, RSTART + 1, RLENGTH - 1); gsub(/[ \t]/, "", v); n = v + 0 }
			sub(/^NL80211_CMD_/, "", name); printf "%d %s\n", n, name; n++ }' "$NL80211_H"
}
nl80211_cmds >"$B/nl80211-cmds"
# nl80211's generic netlink type, as this strace prints it (a name when it
# resolves the family, else the number): iw's first request after nlctrl's.
strace -f -xx -e trace=sendmsg -o "$B/iw.strace" iw phy >/dev/null 2>&1 || true
NL80211_TYPE=$(grep -o 'nlmsg_type=[^, ]*' "$B/iw.strace" | grep -Ev 'nlctrl|NLMSG_' | head -n1 | cut -d= -f2)

# The daemon behind a name: wpad-base is wpad run from WPAD_BASE.
fn_of() { case $1 in wpad-base) echo wpad ;; *) echo "$1" ;; esac; }
bin_env() { case $1 in wpad-base) echo "$WPAD_BASE" ;; *) echo "$HWSIM_BUILD/wpad" ;; esac; }

# One measured connect of daemon NAME (its PID): sets D_CPU (ns), D_UT and
# D_ST (ticks). HOOK_START/HOOK_STOP run around it (strace).
window() { # NAME KIND full|warm
	local f n c0 c1 u0 s0 u1 s1
	f=$(fn_of "$1")
	"disconnect_cli_$f" || fail "$1 did not disconnect"
	if [ "$3" = full ]; then "drop_pmksa_cli_$f" "$2" || fail "$1: no PMKSA to drop"; fi
	sleep 1
	[ -z "${HOOK_START:-}" ] || $HOOK_START
	n=$(count "$HAPD_LOG" "$STA_RE")
	read -r u0 s0 < <(ticks "$PID")
	c0=$(cpu_ns "$PID")
	"connect_cli_$f"
	wait_more "$HAPD_LOG" "$STA_RE" "$n" || fail "$1: no connect within 60 s"
	sleep 1
	c1=$(cpu_ns "$PID")
	read -r u1 s1 < <(ticks "$PID")
	# The client has answered by now; one that has not (iwctl once
	# hung under strace) must not hold the run.
	kill "$CMD" 2>/dev/null || true
	wait "$CMD" 2>/dev/null || true
	[ -z "${HOOK_STOP:-}" ] || $HOOK_STOP
	D_CPU=$((c1 - c0)) D_UT=$((u1 - u0)) D_ST=$((s1 - s0))
}

STRACE_PID="" STRACE_FILE=""
strace_on() {
	strace -f -yy -xx -s 40 -o "$STRACE_FILE" -p "$PID" 2>/dev/null &
	STRACE_PID=$!
	sleep 0.5 # attached
}
strace_off() { stop_pid "$STRACE_PID"; }

# Per connect, from N strace files: syscalls by name, by name and kind of
# descriptor, and netlink messages sent (nl80211 by command).
strace_summary() { # N FILE...
	local n=$1
	shift
	awk -v n="$n" -v cmds="$B/nl80211-cmds" -v nltype="${NL80211_TYPE:-nl80211}" '
		BEGIN { while ((getline l < cmds) > 0) { split(l, a, " "); name[a[1]] = a[2] } }
		function hexval(h) { return (index("0123456789abcdef", substr(h, 1, 1)) - 1) * 16 + index("0123456789abcdef", substr(h, 2, 1)) - 1 }
		function unhex(s,   o) { # -xx prints every byte as \xHH
			o = ""
			while (match(s, /\\x[0-9a-f][0-9a-f]/)) { o = o substr(s, 1, RSTART - 1) sprintf("%c", hexval(substr(s, RSTART + 2, 2))); s = substr(s, RSTART + RLENGTH) }
			return o s
		}
		{ sub(/^[0-9]+ +/, "") }
		/^<\.\.\./ || /^\+\+\+/ || /^---/ { next }
		match($0, /^[a-z_0-9]+\(/) {
			sc = substr($0, 1, RLENGTH - 1); by[sc]++; total++
			kind = ""
			if (match($0, /^[a-z_0-9]+\([0-9]+<[^>]*>/)) {
				k = substr($0, RSTART, RLENGTH); sub(/^[^<]*</, "", k); sub(/>$/, "", k); k = unhex(k)
				if (k ~ /^anon_inode:/) { sub(/^anon_inode:\[?/, "", k); sub(/\].*$/, "", k) }
				else if (k ~ /^NETLINK:/) { sub(/^NETLINK:\[/, "", k); sub(/[:\]].*$/, "", k); k = "netlink " k }
				else if (k ~ /^UNIX/) { k = "unix" }
				else if (k ~ /^\//) { k = "file" }
				else { sub(/[:\[].*$/, "", k) }
				kind = k
			}
			if (kind != "") bykind[sc " on " kind]++
			if (sc ~ /^send/ && match($0, /nlmsg_type=[A-Za-z0-9_]+/)) {
				t = substr($0, RSTART + 11, RLENGTH - 11)
				if ((t == nltype || t == "nl80211") && match($0, /nlmsg_pid=-?[0-9]+\}, "\\x[0-9a-f][0-9a-f]/)) {
					c = hexval(substr($0, RSTART + RLENGTH - 2, 2))
					t = "nl80211 " (c in name ? name[c] : c)
				}
				nl[t]++; nlt++
			}
		}
		END {
			printf "syscalls per connect (strace, mean of %d): %.1f\n", n, total / n
			for (k in by) printf "  %-24s %6.1f\n", k, by[k] / n | "sort -k2 -nr"
			close("sort -k2 -nr")
			print "by descriptor kind:"
			for (k in bykind) printf "  %-44s %6.1f\n", k, bykind[k] / n | "sort"
			close("sort")
			printf "netlink messages sent per connect: %.1f\n", nlt / n
			for (k in nl) printf "  %-44s %6.1f\n", k, nl[k] / n | "sort"
			close("sort")
		}' "$@"
}

profile_daemon() { # NAME KIND
	local name=$1 kind=$2 f mode=warm r cpu=0 ut=0 st=0 samples="" n
	f=$(fn_of "$name")
	[ "$kind" = psk ] || mode=full
	n=$(count "$HAPD_LOG" "$STA_RE")
	WPAD_BIN=$(bin_env "$name") "start_$f" "$kind"
	wait_more "$HAPD_LOG" "$STA_RE" "$n" || fail "$name did not join at start"
	sleep 1
	sta_iface sta 1 || true
	for r in $(seq "$RUNS"); do
		window "$name" "$kind" "$mode"
		cpu=$((cpu + D_CPU)) ut=$((ut + D_UT)) st=$((st + D_ST))
		samples+=" $(awk -v c="$D_CPU" 'BEGIN { printf "%.1f", c / 1e6 }')"
	done
	{
		echo "== $name, $kind ($mode): $RUNS connects, plain"
		echo "CPU ms per connect (schedstat):$samples"
		awk -v c="$cpu" -v n="$RUNS" -v u="$ut" -v s="$st" -v hz="$(getconf CLK_TCK)" 'BEGIN {
			printf "mean %.2f ms; utime %d ticks, stime %d ticks (%d Hz): system %.0f%% of the ticks\n",
				c / 1e6 / n, u, s, hz, (u + s) ? 100 * s / (u + s) : 0 }'
	} >>"$OUT"
	log "$name $kind plain:$samples"

	if command -v perf >/dev/null && { [ "$f" = wpad ] || [ -n "${BENCH_PERF_ALL:-}" ]; }; then
		perf record -q -e cpu-clock -F 4000 -g -p "$PID" -o "$B/perf-$name-$kind.data" \
			>"$B/perf-$name-$kind.log" 2>&1 &
		local perf_pid=$!
		sleep 1
		cpu=0
		for r in $(seq "$RUNS"); do
			window "$name" "$kind" "$mode"
			cpu=$((cpu + D_CPU))
		done
		# TERM, not INT: a background job of a script ignores SIGINT.
		kill -TERM "$perf_pid" 2>/dev/null || true
		wait "$perf_pid" 2>/dev/null || true
		local rep=$HWSIM_OUT/perf-$name-$kind.txt
		{
			echo "== perf, $name $kind, $RUNS connects, CPU under perf: $(awk -v c="$cpu" -v n="$RUNS" 'BEGIN { printf "%.2f", c / 1e6 / n }') ms each"
			perf_report "$B/perf-$name-$kind.data"
		} >"$rep" 2>&1
		echo "perf: $(grep -m1 'kernel.kallsyms' "$rep" | awk '{ print $1 }') of the samples in the kernel (perf-$name-$kind.txt)" >>"$OUT"
	fi

	if [ "$STRACE_RUNS" -gt 0 ] && command -v strace >/dev/null; then
		local files=()
		for r in $(seq "$STRACE_RUNS"); do
			STRACE_FILE=$B/strace-$name-$kind-$r.txt
			HOOK_START=strace_on HOOK_STOP=strace_off window "$name" "$kind" "$mode"
			files+=("$STRACE_FILE")
		done
		cat "${files[@]}" >"$HWSIM_OUT/strace-$name-$kind.txt"
		strace_summary "$STRACE_RUNS" "${files[@]}" >>"$OUT"
	fi
	echo >>"$OUT"
	stop_pid "$PID"
	sleep 0.5
}

for row in $ROWS; do
	case $row in
	psk) hostapd_ap psk ;;
	sae-hnp) hostapd_ap sae-hnp ;;
	*) fail "unknown row $row" ;;
	esac
	for d in $DAEMONS; do profile_daemon "$d" "$row"; done
	stop_pid "$HAPD_PID"
done
{
	echo "versions: $("$HWSIM_BUILD/wpad" --version), $(wpa_supplicant -v | head -n1), iwd $(/usr/libexec/iwd --version), $(hostapd -v 2>&1 | head -n1)"
	echo "kernel: $(uname -r)"
} >>"$OUT"
cp "$B"/*.log "$HWSIM_OUT/" 2>/dev/null || true
cat "$OUT"
