# The one FreeRADIUS 3 configuration writer of the tests, sourced by the
# wired suite (tests/integration/wired/radius.bash) and the hwsim scenarios
# (tests/hwsim/lib-eap.sh). One file, nothing read from an installed raddb,
# no dictionary of our own (the server's built-in one): the RADIUS server
# of a test's hostapd on 127.0.0.1.
#
#   radiusd_conf_write KEY=VALUE...    writes $raddb/radiusd.conf
#
#   raddb     the configuration folder (made; the certificates copied in)
#   work      state, logs (radlog/) and the pid (radrun/) go under it
#   pki       where ca.pem, server.pem and server.key are
#   name      the TLS configuration's name; virtual servers NAME-outer, NAME-inner
#   port secret    where hostapd reaches it, and their shared secret
#   users password the inner (phase 2) identities, space-separated, and their password
#   ttls      yes: TTLS too (PAP or EAP-MD5 inside) beside EAP-TLS and PEAP/MSCHAPv2
#   threads max_requests max_request_time max_sessions    the server's sizes
radiusd_conf_write() {
	local raddb='' work='' pki='' name='' port='' secret='' users='' password='' ttls=no
	local threads='' max_requests='' max_request_time='' max_sessions='' kv u cond=''
	for kv in "$@"; do
		case ${kv%%=*} in
		raddb | work | pki | name | port | secret | users | password | ttls | threads | \
			max_requests | max_request_time | max_sessions) local "$kv" ;;
		*)
			echo "radiusd_conf_write: unknown setting ${kv%%=*}" >&2
			return 1
			;;
		esac
	done
	for u in $users; do cond+="${cond:+ || }&User-Name == \"$u\""; done
	mkdir -p "$raddb/certs" "$work/radlog" "$work/radrun"
	cp "$pki/ca.pem" "$pki/server.pem" "$pki/server.key" "$raddb/certs/"
	{
		cat <<CONF
prefix = /usr
localstatedir = $work
logdir = $work/radlog
raddbdir = $raddb
confdir = $raddb
certdir = $raddb/certs
run_dir = $work/radrun
libdir = /usr/lib/freeradius
pidfile = $work/radrun/radiusd.pid
name = radiusd
max_request_time = $max_request_time
cleanup_delay = 2
max_requests = $max_requests
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
	secret = $secret
}
thread pool {
	start_servers = $threads
	max_servers = $threads
	min_spare_servers = 1
	max_spare_servers = $threads
	max_requests_per_server = 0
}
modules {
CONF
		[ "$ttls" = yes ] && printf '\tpap {\n\t}\n'
		cat <<CONF
	mschap {
	}
	eap {
		default_eap_type = tls
		timer_expire = 30
		max_sessions = $max_sessions
		tls-config $name {
			certificate_file = \${certdir}/server.pem
			private_key_file = \${certdir}/server.key
			ca_file = \${certdir}/ca.pem
			tls_min_version = "1.2"
			tls_max_version = "1.3"
			cipher_list = "DEFAULT"
		}
		tls {
			tls = $name
		}
		peap {
			tls = $name
			default_eap_type = mschapv2
			virtual_server = $name-inner
		}
CONF
		[ "$ttls" = yes ] && cat <<CONF
		ttls {
			tls = $name
			default_eap_type = md5
			virtual_server = $name-inner
		}
		md5 {
		}
CONF
		cat <<CONF
		mschapv2 {
		}
	}
}
server $name-outer {
	listen {
		type = auth
		ipaddr = 127.0.0.1
		port = $port
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
server $name-inner {
	authorize {
		if ($cond) {
			update control {
				&Cleartext-Password := "$password"
			}
		}
		mschap
		eap {
			ok = return
		}
CONF
		[ "$ttls" = yes ] && printf '\t\tpap\n'
		printf '\t}\n\tauthenticate {\n'
		[ "$ttls" = yes ] && printf '\t\tAuth-Type PAP {\n\t\t\tpap\n\t\t}\n'
		cat <<CONF
		Auth-Type MS-CHAP {
			mschap
		}
		eap
	}
}
CONF
	} >"$raddb/radiusd.conf"
}
