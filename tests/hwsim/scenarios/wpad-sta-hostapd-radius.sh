# wpad station <-> hostapd WPA2-Enterprise as a RADIUS client of
# FreeRADIUS (freeradius -f on loopback in the AP's namespace, with a
# one-file configuration written here; certificates made here): EAP-TLS,
# then PEAP/MSCHAPv2 (wpad restarted with the other known network),
# each connected on both sides (wpad, the kernel, hostapd authorized,
# FreeRADIUS logging the Access-Accept) and a ping both ways.
# radios: 2
# timeout: 300
# needs: wpad-nl80211
. "$HWSIM_TOP/tests/hwsim/lib-eap.sh"

ns_new ap
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta
radio_bare 1 sta
eap_certs
wpad_bus_start
freeradius_start
hostapd_eap_start radius

wpad_eap_sta_start tls
eap_check_connected TLS
wait_until 10 "FreeRADIUS: tlsuser accepted" log_has freeradius 'Login OK: \[tlsuser'
stop_daemon wpad
keep_log wpad tls

wpad_eap_sta_start peap
eap_check_connected PEAP
wait_until 10 "FreeRADIUS: peapuser accepted" log_has freeradius 'Login OK: \[peapuser'
stop_daemon wpad
stop_daemon hostapd
stop_daemon freeradius
