# Helpers for the end-to-end scripts (tests/integration/e2e_*.sh): a
# wpad-medium serving a folder, wpad processes built from small
# configurations, and waits on log lines with generous deadlines (never a
# fixed sleep as an assertion). Sourced, not run: the .bash name keeps
# tests/run-checks.sh from counting it as a test.
#
#   source "$(dirname "$0")/e2e_lib.bash"
#   e2e_init NAME            temporary folder $T, cleanup on exit
#   e2e_medium [ARGS...]     wpad-medium -D $T/air ARGS; $MEDIUM_PID
#   e2e_ap NAME ADDR [KEY=VALUE...]     writes $T/NAME.conf (an AP)
#   e2e_station NAME ADDR [KEY=VALUE...] writes $T/NAME.conf and the known
#                            network file in $T/NAME.state
#   e2e_start NAME [PREFIX...] [-- ARGS...]  runs wpad -d ARGS -c $T/NAME.conf
#                            > $T/NAME.log; PID in PIDS[NAME]
#   e2e_wait NAME PATTERN [SECONDS] [NTH]  waits for the NTH line matching
#                            PATTERN (grep -E) in $T/NAME.log
#   e2e_fail MESSAGE         prints the message and every log, exits 1

set -eu
E2E_SSID=${E2E_SSID:-wpad-e2e}
E2E_PASS=${E2E_PASS:-e2e passphrase 42}
WPAD="$WPAD_BUILD/wpad"
WPAD_MEDIUM="$WPAD_BUILD/wpad-medium"
# Sanitized builds are several times slower; everything waits longer there.
case "$WPAD_BUILD" in
*-san) E2E_SLOW=3 ;;
*) E2E_SLOW=1 ;;
esac
declare -A PIDS=()
MEDIUM_PID=
T=

e2e_cleanup() {
	local name
	for name in "${!PIDS[@]}"; do
		kill -TERM "${PIDS[$name]}" 2>/dev/null || true
	done
	for name in "${!PIDS[@]}"; do
		wait "${PIDS[$name]}" 2>/dev/null || true
	done
	if [ -n "$MEDIUM_PID" ]; then
		kill -TERM "$MEDIUM_PID" 2>/dev/null || true
		wait "$MEDIUM_PID" 2>/dev/null || true
	fi
	[ -n "${E2E_CLEANUP_HOOK:-}" ] && $E2E_CLEANUP_HOOK
	[ -n "$T" ] && [ -z "${E2E_KEEP:-}" ] && rm -rf "$T"
	return 0
}

e2e_init() { # name
	T=$(mktemp -d "/tmp/wpad-$1-XXXXXX")
	trap e2e_cleanup EXIT
	[ -x "$WPAD" ] && [ -x "$WPAD_MEDIUM" ] || e2e_fail "no wpad/wpad-medium in $WPAD_BUILD"
}

e2e_fail() {
	local f
	echo "FAIL: $*"
	for f in "$T"/*.log; do
		[ -f "$f" ] || continue
		echo "==== $f (last 60 lines)"
		tail -n 60 "$f"
	done
	exit 1
}

# The test cannot run here, for a reason of the environment: exit 77, which
# tests/run-checks.sh counts as skipped (never passed), the reason last.
e2e_skip() {
	echo "skip: $*"
	exit 77
}

e2e_medium() { # args...
	"$WPAD_MEDIUM" -D "$T/air" "$@" >"$T/medium.log" 2>&1 &
	MEDIUM_PID=$!
	local i
	# Ready when it answers (the socket file alone may not be listening yet).
	for i in $(seq 400); do
		[ -S "$T/air/medium.sock" ] && e2e_ctl stats >/dev/null 2>&1 && return 0
		kill -0 "$MEDIUM_PID" 2>/dev/null || break
		sleep 0.05
	done
	e2e_fail "wpad-medium did not start"
}

e2e_ctl() { # command...
	"$WPAD_MEDIUM" -D "$T/air" ctl "$@"
}

# e2e_ap NAME ADDR [Key=Value...]: an access point on its own sim radio.
e2e_ap() {
	local name=$1 addr=$2
	shift 2
	mkdir -p -m 700 "$T/$name.state"
	{
		printf '[General]\nStateDirectory=%s\nRuntimeDirectory=%s\n\n' \
			"$T/$name.state" "$T/$name.state"
		printf '[Radio air]\nDriver=sim\nOptions=medium=%s,addr=%s\n\n' "$T/air" "$addr"
		printf '[AccessPoint %s]\nRadio=air\nSSID=%s\nSecurity=wpa2-psk\n' \
			"$name" "$E2E_SSID"
		printf 'Passphrase=%s\nChannel=6\nInactivityTimeout=0\n' "$E2E_PASS"
		local kv
		for kv in "$@"; do printf '%s\n' "$kv"; done
	} >"$T/$name.conf"
}

# The known network of the station: autoconnected at start-up.
e2e_known_network() { # state_dir
	mkdir -p -m 700 "$1"
	printf '[Security]\nPassphrase=%s\n\n[Settings]\nAutoConnect=true\n' "$E2E_PASS" \
		>"$1/$E2E_SSID.psk"
	chmod 600 "$1/$E2E_SSID.psk"
}

# e2e_station NAME ADDR [Key=Value...]: a station that knows the network.
e2e_station() {
	local name=$1 addr=$2
	shift 2
	e2e_known_network "$T/$name.state"
	{
		printf '[General]\nStateDirectory=%s\nRuntimeDirectory=%s\n\n' \
			"$T/$name.state" "$T/$name.state"
		printf '[Radio air]\nDriver=sim\nOptions=medium=%s,addr=%s\n\n' "$T/air" "$addr"
		printf '[Station %s]\nRadio=air\nAutoConnect=true\n' "$name"
		local kv
		for kv in "$@"; do printf '%s\n' "$kv"; done
	} >"$T/$name.conf"
}

e2e_start() { # name [prefix...] [-- wpad-args...]
	local name=$1 prefix=() args=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		prefix+=("$1")
		shift
	done
	[ $# -eq 0 ] || { shift; args=("$@"); }
	"${prefix[@]}" "$WPAD" -d "${args[@]}" -c "$T/$name.conf" >>"$T/$name.log" 2>&1 &
	PIDS[$name]=$!
}

# Stops a wpad: SIGTERM (clean) or SIGKILL; waits for it.
e2e_stop() { # name [signal]
	local name=$1 sig=${2:-TERM} rc=0
	kill -"$sig" "${PIDS[$name]}" 2>/dev/null || true
	wait "${PIDS[$name]}" 2>/dev/null || rc=$?
	unset "PIDS[$name]"
	if [ "$sig" = TERM ] && [ "$rc" -ne 0 ]; then
		e2e_fail "$name exited $rc on SIGTERM"
	fi
	return 0
}

e2e_count() { # name pattern
	local n
	n=$(grep -cE "$2" "$T/$1.log" 2>/dev/null) || true
	echo "${n:-0}"
}

# Waits until the log of NAME has NTH (default 1) lines matching PATTERN.
e2e_wait() { # name pattern [seconds] [nth]
	local name=$1 pattern=$2 secs=${3:-60} nth=${4:-1} i
	local steps=$((secs * E2E_SLOW * 20))
	for ((i = 0; i < steps; i++)); do
		[ "$(e2e_count "$name" "$pattern")" -ge "$nth" ] && return 0
		if [ -n "${PIDS[$name]:-}" ] && ! kill -0 "${PIDS[$name]}" 2>/dev/null; then
			e2e_fail "$name exited while waiting for '$pattern'"
		fi
		sleep 0.05
	done
	e2e_fail "$name: no line #$nth matching '$pattern' within $((secs * E2E_SLOW)) s"
}

# The MAC address a station or AP interface got, from its log.
e2e_station_addr() { # name
	sed -nE 's/.*station on ifindex [0-9]+ \(([0-9a-f:]{17})\) ready.*/\1/p' "$T/$1.log" |
		head -n1
}

# Two network namespaces of our own, $NS_AP and $NS_STA, removed on exit.
e2e_netns_pair() {
	local tool
	for tool in ip ping; do
		command -v $tool >/dev/null || e2e_fail "$tool is missing (scripts/install-deps.sh test)"
	done
	[ "$(id -u)" -eq 0 ] || e2e_fail "needs root for network namespaces and TAP devices"
	NS_AP=wpad-e2e-ap-$$
	NS_STA=wpad-e2e-sta-$$
	E2E_CLEANUP_HOOK=e2e_netns_drop
	ip netns add "$NS_AP" || e2e_fail "cannot create a network namespace"
	ip netns add "$NS_STA" || e2e_fail "cannot create a network namespace"
	# `ip netns exec` and `ip -n` remount / as a slave and /sys afresh: in a chroot
	# whose / is not a mount point it cannot.
	local why
	if ! why=$(ip netns exec "$NS_AP" true 2>&1); then
		why=$(echo "$why" | head -n1)
		[ -z "$(awk '$5 == "/"' /proc/self/mountinfo)" ] &&
			why="$why; / is not a mount point here (a chroot?): bind-mount the root onto itself before entering it"
		e2e_skip "ip netns exec cannot run here: $why"
	fi
	ip -n "$NS_AP" link set lo up
	ip -n "$NS_STA" link set lo up
}

e2e_netns_drop() {
	ip netns del "$NS_AP" 2>/dev/null || true
	ip netns del "$NS_STA" 2>/dev/null || true
}

# Gives the TAP device of NAME (in namespace NS) an address, once it exists.
e2e_tap_up() { # name ns ifname cidr
	e2e_wait "$1" "data interface $3"
	ip -n "$2" addr add "$4" dev "$3" || e2e_fail "cannot address $3"
	ip -n "$2" link set "$3" up || e2e_fail "cannot bring up $3"
}

# Milliseconds since the epoch, for printed (never asserted) timings.
e2e_ms() { date +%s%3N; }
