#!/bin/bash
# EAP-TLS and PEAP on the wired pair (tests/integration/wired/lib.bash):
# hostapd -Dwired with its EAP server on one side, wpad or wpa_supplicant
# (-Dwired) as the peer on the other, same machine, same run. For each
# peer and method: RUNS authentications on one running peer (wpad:
# Wired8021X.Reconnect; wpa_supplicant: wpa_cli reauthenticate), timed by
# hostapd's own clock (CTRL-EVENT-EAP-STARTED -> CTRL-EVENT-EAP-SUCCESS,
# the same measure for both peers) and the peer's CPU from /proc (user +
# system, all runs, divided by the count). Then TLS session resumption:
# the same with hostapd keeping sessions (tls_session_lifetime), first
# (full) against the following (resumed) authentications.
#
#   bench/eap-wired.sh [--runs N]      (root; prints a table)
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${WPAD_BUILD:=$here/../build}"
export WPAD_BUILD
RUNS=20
[ "${1:-}" = --runs ] && RUNS=$2
source "$here/../tests/integration/wired/lib.bash"
set +e
WPA_SUPPLICANT=${WPA_SUPPLICANT:-/usr/sbin/wpa_supplicant}
WPA_CLI=${WPA_CLI:-/usr/sbin/wpa_cli}
HZ=$(getconf CLK_TCK)

cpu_ticks() { # pid -> utime+stime in clock ticks
	awk '{ print $14 + $15 }' "/proc/$1/stat"
}

# hostapd's log: seconds between each EAP-STARTED and the SUCCESS after it.
auth_times() { # log -> one duration (ms) per line
	awk '/CTRL-EVENT-EAP-STARTED/ { split($1, a, ":"); s = a[1] }
	     /CTRL-EVENT-EAP-SUCCESS/ && s { split($1, a, ":"); printf "%.1f\n", (a[1] - s) * 1000; s = 0 }' "$1"
}

stats() { # durations on stdin -> "mean median n"
	sort -n | awk '{ v[NR] = $1; t += $1 } END { if (NR) printf "%.1f %.1f %d", t / NR, v[int((NR + 1) / 2)], NR; else print "- - 0" }'
}

success_count() {
	grep -c "CTRL-EVENT-EAP-SUCCESS" "$W/hostapd.log"
}

wait_success() { # count
	local i
	for ((i = 0; i < 600; i++)); do
		[ "$(success_count)" -ge "$1" ] && return 0
		sleep 0.05
	done
	return 1
}

hostapd_bench() { # extra hostapd settings
	[ -n "${HOSTAPD_PID:-}" ] && kill "$HOSTAPD_PID" && wait "$HOSTAPD_PID" 2>/dev/null
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

# One peer, RUNS authentications: prints "mean median n cpu_ms_per_auth".
run_wpad() { # method
	local -n keys="WPAD_$1"
	local start ticks0 ticks1 pid i
	rm -rf "$W/bench.state"
	WIRED_NO_DBUS= wired_wpad bench "${keys[@]}" HeldPeriod=1
	pid=${WIRED_PIDS[-1]}
	wait_success 1 || { echo "- - 0 -"; kill "$pid"; return; }
	ticks0=$(cpu_ticks "$pid")
	for ((i = 2; i <= RUNS + 1; i++)); do
		busctl --address="$WIRED_BUS" call org.wpad1 /org/wpad1/device/eth0 \
			org.wpad1.Wired8021X Reconnect >/dev/null 2>&1
		wait_success "$i" || break
	done
	ticks1=$(cpu_ticks "$pid")
	kill "$pid"
	wait "$pid" 2>/dev/null
	local n=$((i - 2))
	echo "$(auth_times "$W/hostapd.log" | tail -n +2 | stats) $(awk -v t=$((ticks1 - ticks0)) -v n="$n" -v hz="$HZ" 'BEGIN { if (n) printf "%.2f", t * 1000 / hz / n; else print "-" }')"
}

run_wpa_supplicant() { # method
	local pid i ticks0 ticks1 net
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
	ip netns exec "$NS_SUPP" "$WPA_SUPPLICANT" -Dwired -ieth0 -c "$W/wpas.conf" >"$W/wpas.log" 2>&1 &
	pid=$!
	WIRED_PIDS+=($pid)
	wait_success 1 || { echo "- - 0 -"; kill "$pid"; return; }
	ticks0=$(cpu_ticks "$pid")
	for ((i = 2; i <= RUNS + 1; i++)); do
		# reauthenticate: a new EAPOL-Start, as wpad's Reconnect (a
		# logoff/logon pair stalls: hostapd ends the port 10 ms after
		# the Logoff, cutting the next attempt until its 30 s retry).
		ip netns exec "$NS_SUPP" "$WPA_CLI" -p "$W/wpas-ctrl" -i eth0 reauthenticate >/dev/null
		wait_success "$i" || break
	done
	ticks1=$(cpu_ticks "$pid")
	kill "$pid"
	wait "$pid" 2>/dev/null
	local n=$((i - 2))
	echo "$(auth_times "$W/hostapd.log" | tail -n +2 | stats) $(awk -v t=$((ticks1 - ticks0)) -v n="$n" -v hz="$HZ" 'BEGIN { if (n) printf "%.2f", t * 1000 / hz / n; else print "-" }')"
}

wired_init bench
trap 'exit 1' TERM INT
wired_certs
wired_bus # one bus for every wpad of the run
WPAD_TLS=(Method=TLS Identity=tlsuser "CACert=$W/pki/ca.pem" ServerName=auth.wired.test
	"ClientCert=$W/pki/client.pem" "PrivateKey=$W/pki/client.key")
WPAD_PEAP=(Method=PEAP Identity=peapuser AnonymousIdentity=anonymous Phase2=MSCHAPV2
	'Password=inner\spassword' "CACert=$W/pki/ca.pem" ServerName=auth.wired.test)

echo "EAP on the wired pair (hostapd -Dwired, EAP server inside, no session cache: every run full), $RUNS reauthentications per row; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-16s %-6s %-7s %12s %12s %14s\n' peer method runs "mean ms" "median ms" "CPU ms/auth"
# EAP-TLS on TLS 1.3; PEAP on TLS 1.2 (hostapd's default for EAP: wpad's
# PEAP cryptobinding does not yet match hostapd's on TLS 1.3, see the
# harness case peap-tls1.3).
for method in TLS PEAP; do
	for peer in wpad wpa_supplicant; do
		if [ "$method" = TLS ]; then hostapd_bench "tls_flags=[ENABLE-TLSv1.3]"; else hostapd_bench; fi
		read -r mean median n cpu <<<"$(run_${peer} "$method")"
		printf '%-16s %-6s %-7s %12s %12s %14s\n' "$peer" "$method" "$n" "$mean" "$median" "$cpu"
	done
done

echo
echo "TLS session resumption (hostapd tls_session_lifetime=3600): the first authentication"
echo "is full, the $RUNS reconnects after it resumed (wpad: Reconnect; wpa_supplicant: reauthenticate)"
printf '%-16s %-6s %10s %16s %8s %14s %10s\n' peer method "full ms" "resumed med ms" n "CPU ms/auth" "resumed/full"
for method in TLS PEAP; do
	for peer in wpad wpa_supplicant; do
		if [ "$method" = TLS ]; then
			hostapd_bench tls_session_lifetime=3600 "tls_flags=[ENABLE-TLSv1.3]"
		else
			hostapd_bench tls_session_lifetime=3600
		fi
		read -r mean median n cpu <<<"$(run_${peer} "$method")"
		first=$(auth_times "$W/hostapd.log" | head -n1)
		resumed=$(grep -c "Resuming previous session\|resumed=1" "$W/hostapd.log")
		printf '%-16s %-6s %10s %16s %8s %14s %10s\n' "$peer" "$method" "$first" "$median" \
			"$n ($resumed)" "$cpu" "$(awk -v a="$median" -v b="$first" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
	done
done
echo "(n (k): k = hostapd log lines saying the session was resumed; the full-handshake"
echo " CPU is in the first table. Load: $(cut -d' ' -f1-3 /proc/loadavg))"
