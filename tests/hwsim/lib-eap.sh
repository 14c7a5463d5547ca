# Enterprise (802.1X) helpers for the hwsim scenarios, sourced after lib.sh
# by the scenarios that need them (`. "$HWSIM_TOP/tests/hwsim/lib-eap.sh"`).
# Everything is made at run time inside the VM's tmpfs: the certificates
# (openssl, P-256 keys: cheap under emulation), hostapd's EAP user file,
# FreeRADIUS's configuration, wpad's .8021x known networks.

# The FreeRADIUS configuration writer the wired suite uses too.
. "$HWSIM_TOP/tests/support/radiusd_conf.bash"

EAP_SSID=hwsim-eap
EAP_SERVER_NAME=radius.hwsim.test
EAP_INNER_PASSWORD='inner password'
EAP_PKI=$HWSIM_WORK/pki
RADIUS_SECRET=hwsim-radius-secret
RADIUS_PORT=18122

# $EAP_PKI: ca (self-signed), server (SAN DNS:$EAP_SERVER_NAME), client
# (tlsuser). Three openssl runs (req -x509 -CA signs directly): each costs
# seconds under emulation. Made once per VM boot, in the run's output
# folder, and shared by the scenarios of that boot (test keys only).
eap_certs() {
	local d=$EAP_PKI shared=$HWSIM_OUT/../eap-pki n
	local ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2)
	if [ -s "$shared/client.pem" ]; then
		mkdir -p "$d"
		cp "$shared"/*.pem "$shared"/*.key "$d/"
		chmod 600 "$d"/*.key
		log "certificates of this boot reused from $shared"
		return 0
	fi
	mkdir -p "$d"
	openssl req -x509 "${ec[@]}" -keyout "$d/ca.key" -out "$d/ca.pem" \
		-subj "/O=wpad hwsim/CN=hwsim test CA" -addext "basicConstraints=critical,CA:TRUE" \
		-addext "keyUsage=critical,keyCertSign,cRLSign" 2>"$d/openssl.log" ||
		fail "openssl: no CA: $(cat "$d/openssl.log")"
	openssl req -x509 -CA "$d/ca.pem" -CAkey "$d/ca.key" "${ec[@]}" -keyout "$d/server.key" \
		-out "$d/server.pem" -subj "/O=wpad hwsim/CN=$EAP_SERVER_NAME" \
		-addext "basicConstraints=CA:FALSE" -addext "subjectAltName=DNS:$EAP_SERVER_NAME" \
		-addext "extendedKeyUsage=serverAuth" 2>>"$d/openssl.log" ||
		fail "openssl: no server certificate: $(tail -n 3 "$d/openssl.log")"
	openssl req -x509 -CA "$d/ca.pem" -CAkey "$d/ca.key" "${ec[@]}" -keyout "$d/client.key" \
		-out "$d/client.pem" -subj "/O=wpad hwsim/CN=tlsuser" -addext "basicConstraints=CA:FALSE" \
		-addext "extendedKeyUsage=clientAuth" 2>>"$d/openssl.log" ||
		fail "openssl: no client certificate: $(tail -n 3 "$d/openssl.log")"
	chmod 600 "$d"/*.key
	mkdir -p "$shared"
	for n in ca server client; do cp "$d/$n.pem" "$d/$n.key" "$shared/"; done
	log "certificates made in $d (CA, server $EAP_SERVER_NAME, client tlsuser)"
}

# hostapd.conf lines of a WPA2-Enterprise BSS: SOURCE internal (hostapd's
# own EAP server, eap_user file) or radius (FreeRADIUS on loopback).
# HOSTAPD_KEY_MGMT (default WPA-EAP) and HOSTAPD_EXTRA work as in lib.sh.
hostapd_eap_lines() { # internal|radius
	local users=$HWSIM_WORK/eap_users
	printf '%s\n' wpa=2 "wpa_key_mgmt=${HOSTAPD_KEY_MGMT:-WPA-EAP}" rsn_pairwise=CCMP \
		ieee8021x=1 eapol_version=2 logger_stdout=-1 logger_stdout_level=0
	if [ "$1" = internal ]; then
		# Phase 1 by identity; [2]: the inner (phase 2) identities.
		printf '%s\n' '"tlsuser" TLS' '"anonymous" PEAP' '"peapuser" PEAP' \
			"\"peapuser\" MSCHAPV2 \"$EAP_INNER_PASSWORD\" [2]" >"$users"
		printf '%s\n' eap_server=1 "eap_user_file=$users" "ca_cert=$EAP_PKI/ca.pem" \
			"server_cert=$EAP_PKI/server.pem" "private_key=$EAP_PKI/server.key"
	else
		printf '%s\n' eap_server=0 auth_server_addr=127.0.0.1 "auth_server_port=$RADIUS_PORT" \
			"auth_server_shared_secret=$RADIUS_SECRET" own_ip_addr=127.0.0.1 nas_identifier=hwsim-ap
	fi
}

# hostapd as a WPA2-Enterprise AP on radio 0 in namespace ap.
hostapd_eap_start() { # internal|radius [EXTRA_LINE...]
	local src=$1
	shift
	# shellcheck disable=SC2046 # one line per word: no spaces in them
	hostapd_start ap "$(iface 0)" "$EAP_SSID" open $(hostapd_eap_lines "$src") "$@"
}

# wpad's known network $EAP_SSID.8021x in STATE_DIR for METHOD tls or peap.
eap_known_network() { # STATE_DIR tls|peap
	local f=$1/$EAP_SSID.8021x
	mkdir -p "$1"
	chmod 700 "$1"
	{
		echo "[EAP]"
		if [ "$2" = tls ]; then
			printf 'Method=TLS\nIdentity=tlsuser\nClientCert=%s\nPrivateKey=%s\n' \
				"$EAP_PKI/client.pem" "$EAP_PKI/client.key"
		else
			printf 'Method=PEAP\nIdentity=peapuser\nAnonymousIdentity=anonymous\n'
			printf 'Phase2=MSCHAPV2\nPassword=%s\n' "$EAP_INNER_PASSWORD"
		fi
		printf 'CACert=%s\nServerName=%s\n\n' "$EAP_PKI/ca.pem" "$EAP_SERVER_NAME"
		printf '[Settings]\nAutoConnect=true\n'
	} >"$f"
	chmod 600 "$f"
}

# wpad (station s1 on radio 1, namespace sta, on the private bus) with the
# known network for METHOD; returns once wpad says it is connected.
wpad_eap_sta_start() { # tls|peap
	local state=$HWSIM_WORK/wpad-state conf=$HWSIM_WORK/wpad.conf
	rm -rf "$state"
	wpad_conf_begin "$conf" "$state"
	printf '[Radio r1]\nDriver=nl80211\n\n[Station s1]\nRadio=r1\nAutoConnect=true\n' >>"$conf"
	eap_known_network "$state" "$1"
	# shellcheck disable=SC2046 # two words: --bus-address PATH
	wpad_start wpad sta "$conf" $(wpad_bus_opts)
	wait_until 60 "wpad: connected to '$EAP_SSID'" log_has wpad "connected to '$EAP_SSID'"
	sta_iface sta 1 || fail "no station interface on $(phy 1)"
}

# Both sides connected: wpad's EAP method, the kernel, hostapd; ping both ways.
eap_check_connected() { # METHOD-NAME (TLS, PEAP)
	local sta_mac
	log_has wpad "802\.1X authentication with .* succeeded \($1\)" ||
		fail "wpad did not authenticate with EAP-$1: $(grep -m1 -E '802\.1X|EAP' "$HWSIM_OUT/wpad.log")"
	wait_until 10 "kernel: $STA_IF associated" kernel_sta_linked sta "$STA_IF"
	sta_mac=$(iface_mac sta "$STA_IF")
	wait_until 10 "hostapd: station authorized" hostapd_sta_authorized ap "$(iface 0)" "$sta_mac"
	hostapd_cli_q ap "$(iface 0)" sta "$sta_mac" -- '^dot1xAuthSessionAuthenticMethod=1' ||
		log "note: hostapd's sta output has no dot1xAuthSessionAuthenticMethod=1 line"
	nsx ap ip addr flush dev "$(iface 0)"
	nsx sta ip addr flush dev "$STA_IF"
	ip_add ap "$(iface 0)" "$IP_AP"
	ip_add sta "$STA_IF" "$IP_STA"
	check_ping_both ap sta
}

# Keep a daemon's log under another name before the next run reuses it.
keep_log() { cp "$HWSIM_OUT/$1.log" "$HWSIM_OUT/$1-$2.log"; } # NAME SUFFIX

# ---- the air, recorded on hwsim0 (every radio's frames, radiotap) ----

capture_start() { # NAME: records into $HWSIM_WORK/NAME.pcap
	ip link set hwsim0 up || fail "no hwsim0 monitor interface"
	tcpdump -i hwsim0 -U -w "$HWSIM_WORK/$1.pcap" >"$HWSIM_OUT/tcpdump-$1.log" 2>&1 &
	HWSIM_PID["tcpdump-$1"]=$!
	wait_until 10 "tcpdump listening ($1)" grep -q 'listening on' "$HWSIM_OUT/tcpdump-$1.log"
}

# Stops the capture, copies it out and sets FRAMES to the counter's line
# ("eap=N start=N logoff=N key=N assoc_pmkid=HEX msg1_pmkid=HEX").
capture_stop() { # NAME STA_MAC
	local pid=${HWSIM_PID["tcpdump-$1"]}
	sleep 0.5 # the last frames through tcpdump's buffer
	kill -INT "$pid"
	wait "$pid" || true
	unset "HWSIM_PID[tcpdump-$1]"
	cp "$HWSIM_WORK/$1.pcap" "$HWSIM_OUT/$1.pcap"
	FRAMES=$(python3 "$HWSIM_TOP/tests/hwsim/tools/eapol-frames.py" "$HWSIM_WORK/$1.pcap" "$2") ||
		fail "cannot count the frames of $1.pcap"
	log "frames on the air ($1): $FRAMES"
}
frames_field() { tr ' ' '\n' <<<"$FRAMES" | sed -n "s/^$1=//p"; } # NAME

# ---- FreeRADIUS on loopback in namespace ap ----

# A one-file configuration (no dictionary of our own: the server's
# built-in one), the users tlsuser (EAP-TLS) and peapuser (PEAP/MSCHAPv2
# with $EAP_INNER_PASSWORD), started in the foreground.
freeradius_start() {
	local d=$HWSIM_WORK/raddb
	radiusd_conf_write raddb="$d" work="$HWSIM_WORK" pki="$EAP_PKI" name=hwsim \
		port="$RADIUS_PORT" secret="$RADIUS_SECRET" users=peapuser \
		password="$EAP_INNER_PASSWORD" ttls=no threads=1 max_requests=256 \
		max_request_time=30 max_sessions=64 || fail "cannot write radiusd.conf"
	start_bg freeradius ap freeradius -f -l stdout -d "$d"
	wait_until 30 "FreeRADIUS ready" log_has freeradius "Ready to process requests"
}

hostapd_sta_gone() { ! hostapd_sta_authorized "$@"; } # NS IFACE MAC
