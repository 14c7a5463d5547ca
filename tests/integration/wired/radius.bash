# FreeRADIUS for the RADIUS cases of run.sh: written from scratch into
# $W/raddb by the test (nothing copied from an installed raddb), started
# in the foreground (-f) on loopback in the authenticator's namespace.
RADIUS_SECRET=wired-test-secret
RADIUS_PORT=18120
FREERADIUS=${FREERADIUS:-$(command -v freeradius || command -v radiusd || true)}

wired_freeradius() {
	[ -n "$FREERADIUS" ] || wired_skip "no freeradius (apt-get install freeradius)"
	wired_fail "FreeRADIUS configuration not written yet"
}
