#!/bin/bash
# wpad's wired 802.1X supplicant against real authenticators, one row per
# case (tests/run-checks.sh reads the rows): hostapd -Dwired with its
# internal EAP server, and hostapd with RADIUS to FreeRADIUS. Each case
# runs in fresh network namespaces over a veth pair.
#
#   run.sh [--rows FILE] [CASE...]    all cases, or the ones named
#   run.sh --list
#
# A case passes when wpad reports what the case expects -- authenticated
# with the method (and hostapd shows the station AUTHORIZED), or the
# failure's catalogue name with its detail -- and fails otherwise,
# including a method not in this build yet: the row says which.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${WPAD_BUILD:=$here/../../../build}"
export WPAD_BUILD

P='CACert=$W/pki/ca.pem ServerName=auth.wired.test'
INNER='Password=inner\spassword'
# name | hostapd settings | wpad [Wired] keys | expectation
#   ok METHOD | err NAME DETAIL-PATTERN
CASES=(
	"md5||Method=MD5 Identity=md5user Password=md5\spassword|ok MD5"
	"gtc||Method=GTC Identity=gtcuser Password=gtc\spassword|ok GTC"
	"tls-1.2|tls_flags=[DISABLE-TLSv1.3]|Method=TLS Identity=tlsuser $P ClientCert=\$W/pki/client.pem PrivateKey=\$W/pki/client.key|ok TLS TLSv1.2"
	"tls-1.3|tls_flags=[ENABLE-TLSv1.3]|Method=TLS Identity=tlsuser $P TLSMinVersion=1.3 ClientCert=\$W/pki/client.pem PrivateKey=\$W/pki/client.key|ok TLS TLSv1.3"
	"peap-mschapv2||Method=PEAP Identity=peapuser AnonymousIdentity=anonymous Phase2=MSCHAPV2 $INNER $P|ok PEAP"
	"peap-tls1.3|tls_flags=[ENABLE-TLSv1.3]|Method=PEAP Identity=peapuser AnonymousIdentity=anonymous Phase2=MSCHAPV2 $INNER $P|ok PEAP TLSv1.3"
	"peap-gtc||Method=PEAP Identity=peapuser AnonymousIdentity=anonymous Phase2=GTC $INNER $P|ok PEAP"
	"ttls-pap||Method=TTLS Identity=ttlsuser AnonymousIdentity=anonymous Phase2=PAP $INNER $P|ok TTLS"
	"ttls-chap||Method=TTLS Identity=ttlsuser AnonymousIdentity=anonymous Phase2=CHAP $INNER $P|ok TTLS"
	"ttls-mschapv2||Method=TTLS Identity=ttlsuser AnonymousIdentity=anonymous Phase2=MSCHAPV2 $INNER $P|ok TTLS"
	"ttls-eap-md5||Method=TTLS Identity=ttlsuser AnonymousIdentity=anonymous Phase2=MD5 Phase2EAP=true $INNER $P|ok TTLS"
	"wrong-password||Method=PEAP Identity=peapuser AnonymousIdentity=anonymous Phase2=MSCHAPV2 Password=not\sit $P|err inner-rejected"
	"name-mismatch|server_cert=\$W/pki/server-other.pem private_key=\$W/pki/server-other.key|Method=PEAP Identity=peapuser AnonymousIdentity=anonymous Phase2=MSCHAPV2 $INNER $P|err server-name-mismatch other.example"
	"untrusted-ca|server_cert=\$W/pki/server-untrusted.pem private_key=\$W/pki/server-untrusted.key|Method=PEAP Identity=peapuser AnonymousIdentity=anonymous Phase2=MSCHAPV2 $INNER $P|err server-untrusted"
	"method-refused||Method=PEAP Identity=refuse Phase2=MSCHAPV2 $INNER $P|err method-refused TTLS"
	"md5-wrong-password||Method=MD5 Identity=md5user Password=wrong|err eap-failure"
	"no-response|NONE|Method=MD5 Identity=md5user Password=x StartPeriod=1 MaxStart=2|err no-response"
	"credentials-no-agent||Method=MD5 Identity=md5user|err credentials password"
	# No tls-alert row: hostapd's EAP server ends a failed TLS handshake with
	# EAP-Failure and never sends its alert, so EapTlsAlert cannot be shown
	# against it; the eap_tls unit suite checks alert capture against an
	# in-process OpenSSL server, which does send them.
	"method-unavailable||Method=MSCHAPV2 Identity=mschapuser Password=mschap\spassword|err method-unavailable MD4|env OPENSSL_MODULES=\$W/no-modules"
	"protocol-tls-too-long|HOSTILE|AuthPeriod=5 Method=TLS Identity=tlsuser $P ClientCert=\$W/pki/client.pem PrivateKey=\$W/pki/client.key|err protocol"
	"wpactl-profile||Method=MD5 Identity=md5user Password=wrong HeldPeriod=1|wpactl"
	"radius-tls|RADIUS|Method=TLS Identity=tlsuser $P ClientCert=\$W/pki/client.pem PrivateKey=\$W/pki/client.key|ok TLS"
	"radius-peap|RADIUS|Method=PEAP Identity=peapuser AnonymousIdentity=anonymous Phase2=MSCHAPV2 $INNER $P|ok PEAP"
	"tls-resume|tls_session_lifetime=3600 tls_flags=[DISABLE-TLSv1.3]|Method=TLS Identity=tlsuser $P ClientCert=\$W/pki/client.pem PrivateKey=\$W/pki/client.key|resume TLS 2"
	"tls1.3-resume|tls_session_lifetime=3600 tls_flags=[ENABLE-TLSv1.3]|Method=TLS Identity=tlsuser $P TLSMinVersion=1.3 ClientCert=\$W/pki/client.pem PrivateKey=\$W/pki/client.key|resume TLS 1"
	"radius-ttls|RADIUS|Method=TTLS Identity=ttlsuser AnonymousIdentity=anonymous Phase2=PAP $INNER $P|ok TTLS"
)

# enum eap_peer_err names -> the D-Bus catalogue's (docs/dbus-api.md).
catalogue() {
	case $1 in
	no-response) echo EapNoResponse ;;
	method-refused) echo EapMethodRefused ;;
	server-untrusted) echo EapServerUntrusted ;;
	server-name-mismatch) echo EapServerNameMismatch ;;
	tls-alert) echo EapTlsAlert ;;
	inner-rejected) echo EapInnerRejected ;;
	eap-failure) echo EapFailure ;;
	credentials) echo EapCredentials ;;
	method-unavailable) echo EapMethodUnavailable ;;
	protocol) echo EapProtocolError ;;
	*) echo "unknown-$1" ;;
	esac
}

# Authorized, State and the start of LastError as wpad's D-Bus API shows them.
wired_dbus_check() { # name authorized state lasterror-prefix
	[ -n "${WIRED_NO_DBUS:-}" ] && return 0
	local got
	got=$(wired_prop Authorized)
	[ "$got" = "$2" ] || wired_fail "$1: D-Bus Authorized is '$got', not '$2'"
	got=$(wired_prop State)
	[ "$got" = "$3" ] || wired_fail "$1: D-Bus State is '$got', not '$3'"
	got=$(wired_prop LastError)
	case $got in "$4"*) ;; *) wired_fail "$1: D-Bus LastError is '$got', not '$4...'" ;; esac
}

# The profile given over D-Bus by wpactl replaces a wrong one from the
# file; wpactl shows the port authorized; the password is not readable back.
wpactl_case() { # name
	local wpactl="$WPAD_BUILD/wpactl" out
	wired_wait "$W/wpad.log" "802\.1X failed: eap-failure" 30 || wired_fail "$1: the file's wrong password did not fail"
	"$wpactl" --bus "$WIRED_BUS" wired eth0 profile --set Method=MD5 --set Identity=md5user \
		--set "Password=md5 password" >"$W/wpactl.out" 2>&1 || wired_fail "$1: wpactl profile: $(cat "$W/wpactl.out")"
	wired_wait "$W/wpad.log" "authenticated with EAP-MD5" 30 || wired_fail "$1: the new profile did not authenticate"
	out=$("$wpactl" --bus "$WIRED_BUS" wired eth0 show 2>&1)
	grep -q "authorized" <<<"$out" && ! grep -q "unauthorized" <<<"$out" ||
		wired_fail "$1: wpactl wired eth0 show says: $out"
	wired_prop Profile | grep -q '"HasPassword" b true' || wired_fail "$1: Profile lacks HasPassword: $(wired_prop Profile)"
	wired_prop Profile | grep -q "md5 password" && wired_fail "$1: the password is readable over D-Bus"
	"$wpactl" --bus "$WIRED_BUS" wired eth0 profile --set Method=PEAP --set Identity=x >"$W/wpactl.out" 2>&1 &&
		wired_fail "$1: a PEAP profile without a CA or Phase2 was accepted"
	grep -q "needs Phase2" "$W/wpactl.out" || wired_fail "$1: the refusal does not say why: $(cat "$W/wpactl.out")"
	wired_hostapd_authorized || wired_fail "$1: hostapd does not show the port authorized"
	echo "PASS: $1: wpactl set a profile over D-Bus, port authorized; a bad profile refused"
}

# TLS session resumption: a full authentication, then Wired8021X.Reconnect
# twice on the same wpad; both reconnects must have resumed the TLS
# session (the second on the session the first resumption left) -- wpad says so (SSL_session_reused) and the server did not send
# its certificate again.
resume_case() { # name method reconnects
	# TLS 1.3 against hostapd 2.10: one reconnect only. Its resumed
	# handshake ends with EAP-Success and no NewSessionTicket, and the ticket
	# just used is single-use, so a second reconnect is a full handshake.
	wired_wait "$W/wpad.log" "authenticated with EAP-|802\.1X failed" 30 ||
		wired_fail "$1: wpad reported no outcome in 30 s"
	grep -q "authenticated with EAP-$2 " "$W/wpad.log" || wired_fail "$1: the first authentication failed"
	grep -q "authenticated with EAP-$2 .*resumed" "$W/wpad.log" &&
		wired_fail "$1: the first authentication claims a resumed session"
	local i k
	for ((k = 2; k <= $3 + 1; k++)); do
		busctl --address="$WIRED_BUS" call org.wpad1 /org/wpad1/device/eth0 \
			org.wpad1.Wired8021X Reconnect || wired_fail "$1: Reconnect refused"
		for ((i = 0; i < 300; i++)); do
			[ "$(grep -c "authenticated with EAP-$2 " "$W/wpad.log")" -ge $k ] && break
			grep -q "802.1X failed" "$W/wpad.log" && break
			sleep 0.1
		done
		[ "$(grep -c "authenticated with EAP-$2 " "$W/wpad.log")" -ge $k ] ||
			wired_fail "$1: no authentication $k after Reconnect"
		grep "authenticated with EAP-$2 " "$W/wpad.log" | tail -n1 | grep -q "TLS session resumed" ||
			wired_fail "$1: authentication $k was a full handshake"
	done
	wired_dbus_check "$1" 'b true' 's "authenticated"' '(ss) "" ""'
	echo "PASS: $1: EAP-$2 reconnect resumed the TLS session ($(grep "authenticated with EAP-$2 " "$W/wpad.log" | grep -o 'in [0-9]* ms' | tr '\n' ' '| sed 's/ $//'))"
}

run_case() { # row
	local name hostapd_kv wpad_kv expect prefix
	IFS='|' read -r name hostapd_kv wpad_kv expect prefix <<<"$1"
	# shellcheck source=lib.bash
	source "$here/lib.bash"
	source "$here/radius.bash"
	wired_init "$name"
	[ -x "$WPAD" ] || wired_fail "no wpad in $WPAD_BUILD"
	if [ -n "${WIRED_PKI:-}" ]; then cp -r "$WIRED_PKI" "$W/pki"; else wired_certs; fi
	local -a hk=() wk=()
	local kv
	if [ "$hostapd_kv" = RADIUS ]; then
		wired_freeradius
		hk=(eap_server=0 auth_server_addr=127.0.0.1 auth_server_port="$RADIUS_PORT"
			auth_server_shared_secret="$RADIUS_SECRET" own_ip_addr=127.0.0.1)
	else
		for kv in $hostapd_kv; do hk+=("$(eval echo "\"$kv\"")"); done
	fi
	for kv in $wpad_kv; do wk+=("$(eval echo "\"$kv\"")"); done
	case $hostapd_kv in
	NONE) ;; # nobody answers
	HOSTILE)
		ip netns exec "$NS_AUTH" python3 "$here/bad_authenticator.py" eth0 >"$W/hostile.log" 2>&1 &
		WIRED_PIDS+=($!)
		wired_wait "$W/hostile.log" "waiting for EAPOL-Start" 10 || wired_fail "the hostile authenticator did not start"
		;;
	*) wired_hostapd "${hk[@]}" ;;
	esac
	[ -n "$prefix" ] && WIRED_WPAD_PREFIX=$(eval echo "\"${prefix#env }\"") && WIRED_WPAD_PREFIX="env $WIRED_WPAD_PREFIX"
	wired_wpad wpad "${wk[@]}"
	local what method detail
	read -r what method detail <<<"$expect"
	if [ "$what" = wpactl ]; then
		wpactl_case "$name"
	elif [ "$what" = resume ]; then
		resume_case "$name" "$method" "$detail"
	elif [ "$what" = ok ]; then
		wired_wait "$W/wpad.log" "authenticated with EAP-|802\.1X failed" 30 ||
			wired_fail "$name: wpad reported no outcome in 30 s"
		grep -q "authenticated with EAP-$method " "$W/wpad.log" ||
			wired_fail "$name: wpad did not authenticate with $method: $(grep -m1 -o '802.1X failed.*' "$W/wpad.log")"
		wired_wait "$W/wpad.log" "authenticating -> authenticated" 2 ||
			wired_fail "$name: the port did not become authenticated"
		local i
		for ((i = 0; i < 50; i++)); do wired_hostapd_authorized && break; sleep 0.1; done
		wired_hostapd_authorized || wired_fail "$name: hostapd does not show the port authorized"
		if [ -n "$detail" ]; then
			wired_prop TLS | grep -q "\"$detail\"" ||
				wired_fail "$name: Wired8021X.TLS does not say $detail: $(wired_prop TLS)"
		fi
		wired_dbus_check "$name" 'b true' 's "authenticated"' '(ss) "" ""'
		if [ -z "${WIRED_NO_DBUS:-}" ]; then
			busctl --address="$WIRED_BUS" introspect --xml-interface org.wpad1 \
				/org/wpad1/device/eth0 >"$W/introspect.xml" ||
				wired_fail "$name: cannot introspect the wired device"
			python3 "$here/introspect.py" "$W/introspect.xml" "$here/../../../dbus/org.wpad1.xml" ||
				wired_fail "$name: the exported interface differs from org.wpad1.xml"
		fi
		echo "PASS: $name: EAP-$method, port authorized on both sides and on D-Bus"
	else
		wired_wait "$W/wpad.log" "802\.1X failed|authenticated with EAP-" 30 ||
			wired_fail "$name: wpad reported no outcome in 30 s"
		grep -q "802.1X failed: $method" "$W/wpad.log" ||
			wired_fail "$name: expected failure $method, got: $(grep -m1 -oE '802.1X failed.*|authenticated with.*' "$W/wpad.log")"
		if [ -n "$detail" ]; then
			grep "802.1X failed: $method" "$W/wpad.log" | grep -q -- "$detail" ||
				wired_fail "$name: the failure does not name '$detail'"
		fi
		[ -f "$W/hostapd.conf" ] && wired_hostapd_authorized &&
			wired_fail "$name: hostapd authorized the port anyway"
		wired_dbus_check "$name" 'b false' 's "held"' "(ss) \"org.wpad1.Error.$(catalogue "$method")\""
		if [ -n "$detail" ]; then
			wired_prop LastError | grep -q -- "$detail" ||
				wired_fail "$name: Wired8021X.LastError does not name '$detail': $(wired_prop LastError)"
		fi
		echo "PASS: $name: failed as expected: $(grep -m1 -o '802.1X failed.*' "$W/wpad.log")"
	fi
}

rows=
want=()
while [ $# -gt 0 ]; do
	case $1 in
	--rows) rows=$2; shift 2 ;;
	--list) for c in "${CASES[@]}"; do echo "${c%%|*}"; done; exit 0 ;;
	--case) run_case "$2"; exit $? ;;
	*) want+=("$1"); shift ;;
	esac
done

# One PKI for the whole run (RSA key generation is the slow part).
pki_dir=$(mktemp -d /tmp/wired-pki-XXXXXX)
trap 'rm -rf "$pki_dir"' EXIT
(
	source "$here/lib.bash"
	W=$pki_dir
	wired_certs
) >/dev/null || { echo "cannot make certificates"; exit 1; }
export WIRED_PKI=$pki_dir/pki

failed=0
for c in "${CASES[@]}"; do
	name=${c%%|*}
	if [ ${#want[@]} -gt 0 ] && ! printf '%s\n' "${want[@]}" | grep -qx -- "$name"; then
		continue
	fi
	log=$(mktemp "/tmp/wired-$name-XXXXXX.log")
	start=$(date +%s.%N)
	rc=0
	bash "$0" --case "$c" >"$log" 2>&1 || rc=$?
	secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1fs", b - a }')
	last=$(awk 'NF { l = $0 } END { print l }' "$log" | grep -E '^(PASS|FAIL|SKIP)' || true)
	[ -n "$last" ] || last=$(grep -m1 -E '^(FAIL|SKIP)' "$log" || tail -n1 "$log")
	case $rc in
	0) status=PASS ;;
	77) status=SKIP ;;
	*) status=FAIL; failed=$((failed + 1)) ;;
	esac
	printf '%-22s %-5s %s (%s)\n' "$name" "$status" "${last#*: }" "$secs"
	[ "$status" = FAIL ] && [ -n "${WIRED_VERBOSE:-}" ] && cat "$log"
	[ -n "$rows" ] && printf '%s\t%s\t%s\n' "$name" "$status" "${last#*: } ($secs, log $log)" >>"$rows"
	[ "$status" = PASS ] && rm -f "$log"
done
[ "$failed" -eq 0 ]
