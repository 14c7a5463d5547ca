# FreeRADIUS for the RADIUS cases of run.sh: a one-file configuration the
# test writes into $W/raddb (nothing read from an installed raddb, no
# dictionary of our own: the server's built-in one), started in the
# foreground on loopback inside the authenticator's namespace, where
# hostapd -Dwired reaches it as its RADIUS authentication server.
RADIUS_SECRET=wired-radius-secret
RADIUS_PORT=18121
FREERADIUS=${FREERADIUS:-$(command -v freeradius || command -v radiusd || true)}

# The users: the same identities and inner password as hostapd's file.
radius_users_block() {
	cat <<'USERS'
		if (&User-Name == "peapuser" || &User-Name == "ttlsuser") {
			update control {
				&Cleartext-Password := "inner password"
			}
		}
USERS
}

wired_freeradius() {
	[ -n "$FREERADIUS" ] || wired_skip "no freeradius (apt-get install freeradius)"
	local d=$W/raddb
	mkdir -p "$d/certs" "$W/radlog" "$W/radrun"
	cp "$W/pki/ca.pem" "$W/pki/server.pem" "$W/pki/server.key" "$d/certs/"
	{
		cat <<CONF
prefix = /usr
localstatedir = $W
logdir = $W/radlog
raddbdir = $d
confdir = $d
certdir = $d/certs
run_dir = $W/radrun
libdir = /usr/lib/freeradius
pidfile = $W/radrun/radiusd.pid
name = radiusd
max_request_time = 20
cleanup_delay = 2
max_requests = 1024
log {
	destination = stdout
	auth = yes
}
security {
	allow_core_dumps = no
	max_attributes = 200
	reject_delay = 0
	status_server = no
}
proxy_requests = no
client hostapd {
	ipaddr = 127.0.0.1
	secret = $RADIUS_SECRET
}
thread pool {
	start_servers = 2
	max_servers = 2
	min_spare_servers = 1
	max_spare_servers = 2
	max_requests_per_server = 0
}
modules {
	pap {
	}
	mschap {
	}
	eap {
		default_eap_type = tls
		timer_expire = 30
		max_sessions = 256
		tls-config wired {
			certificate_file = \${certdir}/server.pem
			private_key_file = \${certdir}/server.key
			ca_file = \${certdir}/ca.pem
			tls_min_version = "1.2"
			tls_max_version = "1.3"
			cipher_list = "DEFAULT"
		}
		tls {
			tls = wired
		}
		peap {
			tls = wired
			default_eap_type = mschapv2
			virtual_server = wired-inner
		}
		ttls {
			tls = wired
			default_eap_type = md5
			virtual_server = wired-inner
		}
		md5 {
		}
		mschapv2 {
		}
	}
}
server wired-outer {
	listen {
		type = auth
		ipaddr = 127.0.0.1
		port = $RADIUS_PORT
	}
	authorize {
		eap {
			ok = return
		}
	}
	authenticate {
		eap
	}
	post-auth {
	}
}
server wired-inner {
	authorize {
CONF
		radius_users_block
		cat <<'CONF'
		mschap
		eap {
			ok = return
		}
		pap
	}
	authenticate {
		Auth-Type PAP {
			pap
		}
		Auth-Type MS-CHAP {
			mschap
		}
		eap
	}
}
CONF
	} >"$d/radiusd.conf"
	ip netns exec "$NS_AUTH" "$FREERADIUS" -f -l stdout -d "$d" >"$W/freeradius.log" 2>&1 &
	WIRED_PIDS+=($!)
	wired_wait "$W/freeradius.log" "Ready to process requests" 20 ||
		wired_fail "FreeRADIUS did not start"
}
