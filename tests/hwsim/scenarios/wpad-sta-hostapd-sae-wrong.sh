# wpad station with a wrong passphrase against hostapd WPA3-Personal (SAE,
# ieee80211w=2): hostapd refuses wpad's SAE confirm, and wpad ends the
# connect with InvalidPassphrase (LastError over D-Bus) within 10 s, not a
# timeout or AuthenticationFailed; it does not retry by itself.
# radios: 2
# timeout: 240
# needs: wpad-nl80211
state=$HWSIM_WORK/wpad-state
conf=$HWSIM_WORK/wpad.conf
ns_new ap
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta
HOSTAPD_KEY_MGMT=SAE
HOSTAPD_EXTRA='ieee80211w=2'
hostapd_start ap "$(iface 0)" "$SSID_PSK" psk
radio_bare 1 sta
wpad_conf_begin "$conf" "$state"
printf '[Radio r1]\nDriver=nl80211\n\n[Station s1]\nRadio=r1\nAutoConnect=true\n' >>"$conf"
mkdir -p "$state"
chmod 700 "$state"
printf '[Security]\nPassphrase=%s\n\n[Settings]\nAutoConnect=true\n' "not-$PASSPHRASE" >"$state/$SSID_PSK.psk"
chmod 600 "$state/$SSID_PSK.psk"
wpad_bus_start
wpad_start wpad sta "$conf" $(wpad_bus_opts)
wait_until 40 "wpad: connect failed with InvalidPassphrase" \
	log_has wpad "connect to '$SSID_PSK' failed: InvalidPassphrase"
log_has wpad "SAE with [0-9a-f:]+ failed at the confirm" ||
	fail "wpad did not report the SAE confirm failure"
! log_has wpad "connected to '$SSID_PSK'" || fail "wpad connected with a wrong passphrase"
stop_daemon wpad
stop_daemon hostapd
