# The wired 802.1X pair (sourced by run.sh and bench/eap-wired.sh): two
# network namespaces joined by a veth pair, hostapd -Dwired (its own EAP
# server, or RADIUS to a FreeRADIUS the test starts) on one end, a
# supplicant (wpad, or wpa_supplicant for comparison) on the other, and
# certificates made here with the openssl CLI.
#
#   wired_init NAME           temp folder $W, namespaces $NS_AUTH $NS_SUPP,
#                             eth0 in each; cleanup on exit
#   wired_certs               $W/pki: ca, server (CN/SAN auth.wired.test),
#                             server-other (another name), client, and an
#                             untrusted CA
#   wired_hostapd [KEY=VALUE...]   writes and starts hostapd; waits ready
#   wired_wpad NAME KEY=VALUE...   writes [Wired NAME] keys, starts wpad
#   wired_wait FILE PATTERN [SECONDS]
#   wired_fail MESSAGE        prints the logs and exits 1
set -eu
WPAD="$WPAD_BUILD/wpad"
HOSTAPD=${HOSTAPD:-/usr/sbin/hostapd}
HOSTAPD_CLI=${HOSTAPD_CLI:-/usr/sbin/hostapd_cli}
W=
NS_AUTH=
NS_SUPP=
declare -ga WIRED_PIDS=()

wired_cleanup() {
	local p
	for p in "${WIRED_PIDS[@]}"; do
		kill -TERM "$p" 2>/dev/null || true
	done
	for p in "${WIRED_PIDS[@]}"; do
		wait "$p" 2>/dev/null || true
	done
	[ -n "$NS_AUTH" ] && ip netns del "$NS_AUTH" 2>/dev/null
	[ -n "$NS_SUPP" ] && ip netns del "$NS_SUPP" 2>/dev/null
	[ -n "$W" ] && [ -z "${WIRED_KEEP:-}" ] && rm -rf "$W"
	return 0
}

wired_fail() {
	local f
	echo "FAIL: $*"
	for f in "$W"/*.log; do
		[ -f "$f" ] || continue
		echo "---- $(basename "$f") (last 40 lines)"
		tail -n 40 "$f"
	done
	exit 1
}

wired_skip() {
	echo "SKIP: $*"
	exit 77
}

wired_init() { # name
	[ "$(id -u)" -eq 0 ] || wired_skip "needs root (network namespaces)"
	[ -x "$HOSTAPD" ] || wired_skip "no hostapd (apt-get install hostapd)"
	command -v openssl >/dev/null || wired_skip "no openssl CLI"
	W=$(mktemp -d "/tmp/wired-$1-XXXXXX")
	trap wired_cleanup EXIT
	local id
	id=$(basename "$W" | tr -dc 'a-zA-Z0-9' | tail -c 6)
	NS_AUTH="wired-a-$id"
	NS_SUPP="wired-s-$id"
	ip netns add "$NS_AUTH" || wired_fail "cannot create namespace $NS_AUTH"
	ip netns add "$NS_SUPP" || wired_fail "cannot create namespace $NS_SUPP"
	ip link add "wa$id" type veth peer name "ws$id" || wired_fail "cannot create veth"
	ip link set "wa$id" netns "$NS_AUTH"
	ip link set "ws$id" netns "$NS_SUPP"
	ip -n "$NS_AUTH" link set "wa$id" name eth0
	ip -n "$NS_SUPP" link set "ws$id" name eth0
	ip -n "$NS_AUTH" link set lo up
	ip -n "$NS_AUTH" link set eth0 up
	ip -n "$NS_SUPP" link set eth0 up
}

wired_wait() { # file pattern [seconds]
	local file=$1 pattern=$2 secs=${3:-20} i
	for ((i = 0; i < secs * 10; i++)); do
		grep -Eq -- "$pattern" "$file" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# One key and certificate; $1 name, $2 subject CN, $3 SAN (or ""), $4 issuer.
cert() {
	local name=$1 cn=$2 san=$3 ca=$4 d=$W/pki
	openssl req -new -newkey rsa:2048 -nodes -keyout "$d/$name.key" -out "$d/$name.csr" \
		-subj "/O=wpad test/CN=$cn" 2>/dev/null
	{
		echo "basicConstraints=CA:FALSE"
		[ -n "$san" ] && echo "subjectAltName=$san"
		case $name in client*) echo "extendedKeyUsage=clientAuth" ;;
		*) echo "extendedKeyUsage=serverAuth" ;; esac
	} >"$d/$name.ext"
	openssl x509 -req -in "$d/$name.csr" -CA "$d/$ca.pem" -CAkey "$d/$ca.key" \
		-CAcreateserial -days 2 -sha256 -extfile "$d/$name.ext" -out "$d/$name.pem" 2>/dev/null
}

wired_certs() {
	local d=$W/pki ca
	mkdir -p "$d"
	for ca in ca untrusted-ca; do
		openssl req -x509 -newkey rsa:2048 -nodes -keyout "$d/$ca.key" -out "$d/$ca.pem" \
			-days 2 -subj "/O=wpad test/CN=$ca" -addext "basicConstraints=critical,CA:TRUE" \
			2>/dev/null || wired_fail "openssl: cannot make $ca"
	done
	cert server auth.wired.test "DNS:auth.wired.test" ca
	cert server-other other.example "DNS:other.example" ca
	cert server-untrusted auth.wired.test "DNS:auth.wired.test" untrusted-ca
	cert client tlsuser "" ca
	[ -s "$d/client.pem" ] || wired_fail "openssl: no client certificate"
}

# The EAP users of hostapd's internal server: phase 1 by identity, phase 2
# ([2]) with the passwords. "refuse" is offered TTLS only.
wired_eap_users() {
	cat >"$W/eap_users" <<'USERS'
"md5user" MD5 "md5 password"
"gtcuser" GTC "gtc password"
"tlsuser" TLS
"refuse" TTLS
"anonymous" PEAP,TTLS
"peapuser" PEAP
"ttlsuser" TTLS
"peapuser" MSCHAPV2,GTC "inner password" [2]
"ttlsuser" TTLS-PAP,TTLS-CHAP,TTLS-MSCHAPV2,MD5 "inner password" [2]
"refuse" TTLS-PAP "inner password" [2]
"mschapuser" MSCHAPV2 "mschap password"
USERS
}

wired_hostapd() { # [KEY=VALUE...] extra lines
	local kv conf=$W/hostapd.conf
	wired_eap_users
	cat >"$conf" <<CONF
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
	for kv in "$@"; do
		# A later key replaces an earlier one (hostapd takes the last).
		sed -i "/^${kv%%=*}=/d" "$conf"
		echo "$kv" >>"$conf"
	done
	ip netns exec "$NS_AUTH" "$HOSTAPD" -dd "$conf" >"$W/hostapd.log" 2>&1 &
	WIRED_PIDS+=($!)
	wired_wait "$W/hostapd.log" "eth0: interface state .*->ENABLED|INTERFACE-ENABLED|ctrl_iface not configured|Setup of interface done" 10 ||
		wired_fail "hostapd did not start"
}

# Writes $W/NAME.conf: a wired radio on eth0 and [Wired eth0] with the
# given EAP keys, then starts wpad -d in the supplicant's namespace.
wired_wpad() { # name key=value...
	local name=$1 kv
	shift
	mkdir -p "$W/$name.state"
	{
		echo "[General]"
		echo "StateDirectory=$W/$name.state"
		echo "[Radio lan]"
		echo "Driver=wired"
		echo "Options=ifname=eth0"
		echo "[Wired eth0]"
		echo "Radio=lan"
		for kv in "$@"; do echo "$kv"; done
	} >"$W/$name.conf"
	local bus=(--no-dbus)
	if [ -z "${WIRED_NO_DBUS:-}" ]; then
		wired_bus
		bus=(--bus-address "$WIRED_BUS")
	fi
	# WIRED_WPAD_DEBUG: the log option (unset: -d; set empty: the default level).
	ip netns exec "$NS_SUPP" ${WIRED_WPAD_PREFIX:-} "$WPAD" ${WIRED_WPAD_DEBUG--d} "${bus[@]}" -c "$W/$name.conf" \
		>"$W/$name.log" 2>&1 &
	WIRED_PIDS+=($!)
}

# A private bus for wpad's D-Bus API (a socket in $W, reachable from both
# namespaces and from here): $WIRED_BUS.
wired_bus() {
	[ -n "${WIRED_BUS:-}" ] && return 0
	command -v dbus-daemon >/dev/null || wired_skip "no dbus-daemon"
	WIRED_BUS="unix:path=$W/bus"
	dbus-daemon --session --nofork --address="$WIRED_BUS" >"$W/dbus.log" 2>&1 &
	WIRED_PIDS+=($!)
	wired_wait_file "$W/bus" 5 || wired_fail "the private bus did not start"
}

wired_wait_file() { # path seconds
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		[ -S "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# A property of the wired device eth0, as busctl prints it ("s \"held\"").
wired_prop() { # property
	busctl --address="$WIRED_BUS" get-property org.wpad1 /org/wpad1/device/eth0 \
		org.wpad1.Wired8021X "$1" 2>&1
}

# The authenticator's view: hostapd's station is authorized.
wired_hostapd_authorized() {
	ip netns exec "$NS_AUTH" "$HOSTAPD_CLI" -p "$W/hostapd-ctrl" -i eth0 all_sta 2>/dev/null |
		grep -q "AUTHORIZED"
}
