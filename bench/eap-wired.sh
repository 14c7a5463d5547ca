#!/bin/bash
# EAP-TLS and PEAP/MSCHAPv2 on the wired pair (tests/integration/wired/lib.bash):
# hostapd -Dwired with its EAP server on one side, wpad or wpa_supplicant
# (-Dwired) as the peer on the other, same machine, same run, both at their
# default log level (info: wpad without -d, wpa_supplicant without -d).
#
# Per row, one running peer authenticates once (untimed: start-up, first
# file reads), then RUNS times again (wpad: Wired8021X.Reconnect;
# wpa_supplicant: wpa_cli reauthenticate; both send an EAPOL-Start). Each
# authentication is measured alone:
#   time  hostapd's clock, CTRL-EVENT-EAP-STARTED -> CTRL-EVENT-EAP-SUCCESS
#         (the same measure for both peers);
#   CPU   the peer process's CPU (schedstat, every thread, ns) from just
#         before the trigger until it is idle again after the Success.
# Cells are median (min..max); ratios are wpad / wpa_supplicant, and
# resumed / full (medians). Then the same with hostapd keeping TLS sessions
# (tls_session_lifetime): every reauthentication is a resumption.
#
# --callgrind: instead, each peer runs under valgrind's callgrind, its
# counters zeroed after the first authentication and dumped after RUNS
# full ones: instructions per authentication, the figure that does not
# move with the machine's load.
#
#   bench/eap-wired.sh [--runs N] [--callgrind]   (root; prints tables, asserts nothing)
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${WPAD_BUILD:=$here/../build}"
export WPAD_BUILD
RUNS=15
CALLGRIND=
while [ $# -gt 0 ]; do
	case $1 in
	--runs) RUNS=$2; shift 2 ;;
	--callgrind) CALLGRIND=1; shift ;;
	*) sed -n '2,25s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
done
source "$here/../tests/integration/wired/lib.bash"
set +e
WPA_SUPPLICANT=${WPA_SUPPLICANT:-/usr/sbin/wpa_supplicant}
WPA_CLI=${WPA_CLI:-/usr/sbin/wpa_cli}

cpu_ns() { # pid -> ns on CPU, all its threads
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ t += $1 } END { printf "%d\n", t }'
}

# Until the peer's CPU stops moving (50 ms without a change, 2 s at most):
# what it does right after the Success (keys, D-Bus signals, logs) counts.
settle() { # pid
	local a b i
	a=$(cpu_ns "$1")
	for ((i = 0; i < 40; i++)); do
		sleep 0.05
		b=$(cpu_ns "$1")
		[ "$a" = "$b" ] && return 0
		a=$b
	done
}

success_count() {
	grep -c "CTRL-EVENT-EAP-SUCCESS" "$W/hostapd.log"
}

wait_success() { # count
	local i
	for ((i = 0; i < 3000; i++)); do # 30 s: under callgrind too
		[ "$(success_count)" -ge "$1" ] && return 0
		sleep 0.01
	done
	return 1
}

# hostapd's log: per authentication, the ms between its EAP-STARTED and
# the SUCCESS after it, and 1 if its TLS handshake resumed a session.
auth_times() { # log -> "ms resumed" per line
	awk '/CTRL-EVENT-EAP-STARTED/ { split($1, a, ":"); s = a[1]; r = 0 }
	     /Handshake finished - resumed=1/ { r = 1 }
	     /CTRL-EVENT-EAP-SUCCESS/ && s { split($1, a, ":"); printf "%.2f %d\n", (a[1] - s) * 1000, r; s = 0 }' "$1"
}

# Values on stdin -> "median min max n" ("- - - 0" when none).
med() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) { print "- - - 0"; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.2f %.2f %.2f %d\n", m, v[1], v[NR], NR }'
}

ratio() { # a b -> a/b
	awk -v a="$1" -v b="$2" 'BEGIN { if (a != "-" && b != "-" && b > 0) printf "%.2f", a / b; else print "-" }'
}

hostapd_bench() { # extra hostapd settings
	if [ -n "${HOSTAPD_PID:-}" ]; then
		kill "$HOSTAPD_PID"
		wait "$HOSTAPD_PID" 2>/dev/null
	fi
	wired_eap_users
	cat >"$W/hostapd.conf" <<CONF
interface=eth0
driver=wired
ctrl_interface=$W/hostapd-ctrl
logger_stdout=-1
logger_stdout_level=1
ieee8021x=1
eapol_version=2
use_pae_group_addr=1
eap_server=1
eap_user_file=$W/eap_users
ca_cert=$W/pki/ca.pem
server_cert=$W/pki/server.pem
private_key=$W/pki/server.key
CONF
	[ $# -gt 0 ] && printf '%s\n' "$@" >>"$W/hostapd.conf"
	: >"$W/hostapd.log"
	ip netns exec "$NS_AUTH" "$HOSTAPD" -t -d "$W/hostapd.conf" >"$W/hostapd.log" 2>&1 &
	HOSTAPD_PID=$!
	WIRED_PIDS+=($HOSTAPD_PID)
	wired_wait "$W/hostapd.log" "INTERFACE-ENABLED|Setup of interface done|ENABLED" 10 || wired_fail "hostapd did not start"
}

trigger_wpad() {
	busctl --address="$WIRED_BUS" call org.wpad1 /org/wpad1/device/eth0 \
		org.wpad1.Wired8021X Reconnect >/dev/null 2>&1
}

# reauthenticate: a new EAPOL-Start, as wpad's Reconnect (a logoff/logon
# pair stalls: hostapd ends the port 10 ms after the Logoff, cutting the
# next attempt until its 30 s retry).
trigger_wpa_supplicant() {
	ip netns exec "$NS_SUPP" "$WPA_CLI" -p "$W/wpas-ctrl" -i eth0 reauthenticate >/dev/null
}

start_wpad() { # method -> sets PEER_PID
	local -n keys="WPAD_$1"
	rm -rf "$W/bench.state"
	WIRED_NO_DBUS= WIRED_WPAD_DEBUG= WIRED_WPAD_PREFIX="${PEER_PREFIX:-}" \
		wired_wpad bench "${keys[@]}" HeldPeriod=1
	PEER_PID=${WIRED_PIDS[-1]}
	PEER_LOG=$W/bench.log
}

start_wpa_supplicant() { # method -> sets PEER_PID
	local net
	case $1 in
	TLS) net="eap=TLS
	identity=\"tlsuser\"
	ca_cert=\"$W/pki/ca.pem\"
	domain_match=\"auth.wired.test\"
	client_cert=\"$W/pki/client.pem\"
	private_key=\"$W/pki/client.key\"
	phase1=\"tls_disable_tlsv1_3=0\"" ;;
	PEAP) net="eap=PEAP
	identity=\"peapuser\"
	anonymous_identity=\"anonymous\"
	password=\"inner password\"
	phase2=\"auth=MSCHAPV2\"
	ca_cert=\"$W/pki/ca.pem\"
	domain_match=\"auth.wired.test\"
	phase1=\"tls_disable_tlsv1_3=0\"" ;;
	esac
	cat >"$W/wpas.conf" <<CONF
ctrl_interface=$W/wpas-ctrl
ap_scan=0
eapol_version=2
network={
	key_mgmt=IEEE8021X
	eapol_flags=0
	$net
}
CONF
	# shellcheck disable=SC2086 # PEER_PREFIX: words
	ip netns exec "$NS_SUPP" ${PEER_PREFIX:-} "$WPA_SUPPLICANT" -Dwired -ieth0 -c "$W/wpas.conf" \
		>"$W/wpas.log" 2>&1 &
	PEER_PID=$!
	PEER_LOG=$W/wpas.log
	WIRED_PIDS+=($PEER_PID)
}

# One peer, one method: the first authentication, then RUNS measured ones.
# Prints "time_med time_min time_max n cpu_med cpu_min cpu_max resumed".
run_peer() { # peer method
	local peer=$1 i c0 c1 cpus=()
	"start_$peer" "$2"
	if ! wait_success 1; then
		echo "- - - 0 - - - 0"
		kill "$PEER_PID"
		wait "$PEER_PID" 2>/dev/null
		return
	fi
	settle "$PEER_PID"
	for ((i = 2; i <= RUNS + 1; i++)); do
		c0=$(cpu_ns "$PEER_PID")
		"trigger_$peer"
		wait_success "$i" || break
		settle "$PEER_PID"
		c1=$(cpu_ns "$PEER_PID")
		cpus+=("$(awk -v d=$((c1 - c0)) 'BEGIN { printf "%.3f", d / 1e6 }')")
	done
	kill "$PEER_PID"
	wait "$PEER_PID" 2>/dev/null
	# One line per measured authentication: ms, resumed (hostapd -d says
	# how each handshake went), CPU ms. With WANT set (0 full, 1 resumed)
	# only those count: against hostapd 2.10 a peer may resume every other
	# time only (docs/performance.md).
	local all rows t c
	all=$(paste -d' ' <(auth_times "$W/hostapd.log" | tail -n +2) <(printf '%s\n' "${cpus[@]}"))
	rows=$all
	[ -n "${WANT:-}" ] && rows=$(awk -v w="$WANT" '$2 == w' <<<"$all")
	t=$(awk '{ print $1 }' <<<"$rows" | med)
	c=$(awk '{ print $3 }' <<<"$rows" | med)
	echo "$t ${c% *} $(awk '$2 == 1' <<<"$all" | grep -c .)"
}

wired_init bench
trap 'exit 1' TERM INT
wired_certs
wired_bus # one bus for every wpad of the run
WPAD_TLS=(Method=TLS Identity=tlsuser "CACert=$W/pki/ca.pem" ServerName=auth.wired.test
	"ClientCert=$W/pki/client.pem" "PrivateKey=$W/pki/client.key")
WPAD_PEAP=(Method=PEAP Identity=peapuser AnonymousIdentity=anonymous Phase2=MSCHAPV2
	'Password=inner\spassword' "CACert=$W/pki/ca.pem" ServerName=auth.wired.test)

cell() { # median min max -> "m (a..b)"
	[ "$1" = - ] && { echo -; return; }
	printf '%s (%s..%s)' "$1" "$2" "$3"
}

declare -A T C
echo "EAP on the wired pair: hostapd $("$HOSTAPD" -v 2>&1 | awk '/^hostapd v/ { print $2 }'), wpa_supplicant $("$WPA_SUPPLICANT" -v | awk '/^wpa_supplicant v/ { print $2 }'), $(openssl version | cut -d' ' -f1-2)"
echo "EAP-TLS on TLS 1.3, PEAP/MSCHAPv2 on TLS 1.2; $RUNS authentications per row after an untimed first one"
echo "load at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
# Instructions per full authentication, each peer under callgrind.
callgrind_rows() {
	local method peer out pid i ir
	declare -A IR
	printf '%-6s %-15s %18s\n' method peer "Ir per auth"
	for method in TLS PEAP; do
		for peer in wpad wpa_supplicant; do
			extra=()
			[ $method = TLS ] && extra+=("tls_flags=[ENABLE-TLSv1.3]")
			hostapd_bench "${extra[@]}"
			out=$W/callgrind.$peer.$method
			PEER_PREFIX="valgrind --tool=callgrind --callgrind-out-file=$out" "start_$peer" "$method"
			pid=$PEER_PID
			wait_success 1 || wired_fail "$peer $method: no first authentication"
			settle "$pid"
			callgrind_control -z "$pid" >/dev/null 2>&1
			for ((i = 2; i <= RUNS + 1; i++)); do
				"trigger_$peer"
				wait_success "$i" || wired_fail "$peer $method: authentication $i missing"
				settle "$pid"
			done
			callgrind_control -d "$pid" >/dev/null 2>&1
			kill "$pid"
			wait "$pid" 2>/dev/null
			ir=$(callgrind_annotate "$out".1 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
			IR[$method.$peer]=$(awk -v t="$ir" -v n="$RUNS" 'BEGIN { printf "%.0f", t / n }')
			printf '%-6s %-15s %18s\n' "$method" "$peer" "${IR[$method.$peer]}"
		done
		echo "$method: wpad/wpa_supplicant $(ratio "${IR[$method.wpad]}" "${IR[$method.wpa_supplicant]}")"
	done
}
if [ -n "$CALLGRIND" ]; then
	echo "instructions per full authentication (callgrind; $RUNS after an untimed first one)"
	callgrind_rows
	exit 0
fi

for mode in full resumed; do
	echo
	if [ $mode = full ]; then
		echo "Full handshakes (hostapd keeps no TLS session: every authentication is full)"
	else
		echo "Resumed (hostapd tls_session_lifetime=3600; the reauthentications that resumed a session)"
	fi
	printf '%-15s %-5s %-4s %-26s %-26s %s\n' peer method n "auth ms (hostapd)" "peer CPU ms/auth" resumed
	# EAP-TLS on TLS 1.3; PEAP on TLS 1.2 (hostapd's default for EAP:
	# wpad's PEAP cryptobinding does not yet match hostapd's on TLS 1.3,
	# see the harness case peap-tls1.3).
	for method in TLS PEAP; do
		for peer in wpad wpa_supplicant; do
			extra=()
			[ $method = TLS ] && extra+=("tls_flags=[ENABLE-TLSv1.3]")
			[ $mode = resumed ] && extra+=(tls_session_lifetime=3600)
			hostapd_bench "${extra[@]}"
			want=0
			[ $mode = resumed ] && want=1
			read -r tm tmin tmax n cm cmin cmax res <<<"$(WANT=$want run_peer $peer $method)"
			T[$mode.$method.$peer]=$tm
			C[$mode.$method.$peer]=$cm
			printf '%-15s %-5s %-4s %-26s %-26s %s\n' "$peer" "$method" "$n" \
				"$(cell "$tm" "$tmin" "$tmax")" "$(cell "$cm" "$cmin" "$cmax")" "$res"
		done
	done
done
echo
echo "Ratios of medians"
printf '%-6s %-8s %-22s %-22s %-18s %-18s\n' method mode "time wpad/wpa_s" "CPU wpad/wpa_s" "wpad resumed/full" "wpa_s resumed/full"
for method in TLS PEAP; do
	for mode in full resumed; do
		rw=- rs=-
		if [ $mode = resumed ]; then
			rw="time $(ratio "${T[resumed.$method.wpad]}" "${T[full.$method.wpad]}") CPU $(ratio "${C[resumed.$method.wpad]}" "${C[full.$method.wpad]}")"
			rs="time $(ratio "${T[resumed.$method.wpa_supplicant]}" "${T[full.$method.wpa_supplicant]}") CPU $(ratio "${C[resumed.$method.wpa_supplicant]}" "${C[full.$method.wpa_supplicant]}")"
		fi
		printf '%-6s %-8s %-22s %-22s %-18s %-18s\n' "$method" "$mode" \
			"$(ratio "${T[$mode.$method.wpad]}" "${T[$mode.$method.wpa_supplicant]}")" \
			"$(ratio "${C[$mode.$method.wpad]}" "${C[$mode.$method.wpa_supplicant]}")" "$rw" "$rs"
	done
done
echo "(n: authentications counted, full ones in the first table, resumed ones in the second;"
echo " resumed: of the $RUNS measured, how many hostapd resumed;"
echo " load at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
