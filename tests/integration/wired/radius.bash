# FreeRADIUS for the RADIUS cases of run.sh: a one-file configuration the
# test writes into $W/raddb (nothing read from an installed raddb, no
# dictionary of our own: the server's built-in one), started in the
# foreground on loopback inside the authenticator's namespace, where
# hostapd -Dwired reaches it as its RADIUS authentication server.
RADIUS_SECRET=wired-radius-secret
RADIUS_PORT=18121
FREERADIUS=${FREERADIUS:-$(command -v freeradius || command -v radiusd || true)}

# The configuration writer the hwsim scenarios use too.
. "$(dirname "${BASH_SOURCE[0]}")/../../support/radiusd_conf.bash"

wired_freeradius() {
	[ -n "$FREERADIUS" ] || wired_skip "no freeradius (apt-get install freeradius)"
	local d=$W/raddb
	# The users: the same identities and inner password as hostapd's file.
	radiusd_conf_write raddb="$d" work="$W" pki="$W/pki" name=wired port="$RADIUS_PORT" \
		secret="$RADIUS_SECRET" users="peapuser ttlsuser" password="inner password" \
		ttls=yes threads=2 max_requests=1024 max_request_time=20 max_sessions=256 ||
		wired_fail "cannot write radiusd.conf"
	ip netns exec "$NS_AUTH" "$FREERADIUS" -f -l stdout -d "$d" >"$W/freeradius.log" 2>&1 &
	WIRED_PIDS+=($!)
	wired_wait "$W/freeradius.log" "Ready to process requests" 20 ||
		wired_fail "FreeRADIUS did not start"
}
