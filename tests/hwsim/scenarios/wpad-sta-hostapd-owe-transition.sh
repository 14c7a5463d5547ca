# wpad station <-> hostapd OWE transition AP: two BSSs on radio 0, the
# open one (hwsim-open) with owe_transition_ifname naming the hidden OWE
# one (hwsim-owe-hidden, ignore_broadcast_ssid=1). wpad knows only the open
# network; it reads the Transition Mode element, probes for the hidden SSID
# and joins the OWE BSS with AKM OWE. hostapd authorizes the station on the
# OWE interface, not the open one; data crosses both ways.
# radios: 2
# timeout: 300
# needs: wpad-nl80211
OWE_SSID=hwsim-owe-hidden
state=$HWSIM_WORK/wpad-state
conf=$HWSIM_WORK/wpad.conf
ns_new ap
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta
OPEN_IF=$(iface 0)
OWE_IF=${OPEN_IF}o
hostapd_start ap "$OPEN_IF" "$SSID_OPEN" open "owe_transition_ifname=$OWE_IF" \
	"bss=$OWE_IF" "ctrl_interface=$HWSIM_WORK/hostapd" "ssid=$OWE_SSID" ignore_broadcast_ssid=1 wpa=2 wpa_key_mgmt=OWE \
	rsn_pairwise=CCMP ieee80211w=2 "owe_transition_ifname=$OPEN_IF"
radio_bare 1 sta
wpad_conf_begin "$conf" "$state"
printf '[Radio r1]\nDriver=nl80211\n\n[Station s1]\nRadio=r1\nAutoConnect=true\n' >>"$conf"
known_network "$state" "$SSID_OPEN" open
wpad_start wpad sta "$conf"
wait_until 40 "wpad: connected to '$SSID_OPEN'" log_has wpad "connected to '$SSID_OPEN'"
log_has wpad "probing for '$OWE_SSID'" || fail "wpad did not probe for the OWE BSS"
log_has wpad 'AKM owe, pairwise ccmp-128, group ccmp-128, PMF (on|required)' ||
	fail "wpad did not join with OWE"
sta_iface sta 1 || fail "no station interface on $(phy 1)"
wait_until 10 "kernel: $STA_IF associated" kernel_sta_linked sta "$STA_IF"
nsx sta iw dev "$STA_IF" link | grep -q "SSID: $OWE_SSID" ||
	fail "the kernel's link is not to '$OWE_SSID'"
sta_mac=$(iface_mac sta "$STA_IF")
wait_until 10 "hostapd: station authorized on $OWE_IF" hostapd_sta_authorized ap "$OWE_IF" "$sta_mac"
hostapd_cli_q ap "$OWE_IF" sta "$sta_mac" -- 'AKMSuiteSelector=00-0f-ac-18' ||
	fail "hostapd does not report AKM OWE"
! hostapd_cli_q ap "$OPEN_IF" sta "$sta_mac" -- '^flags=.*\[ASSOC\]' ||
	fail "the station associated with the open BSS"
ip_add ap "$OWE_IF" "$IP_AP"
ip_add sta "$STA_IF" "$IP_STA"
check_ping_both ap sta
stop_daemon wpad
stop_daemon hostapd
