# wpad station <-> hostapd WPA3-Personal (SAE, ieee80211w=2, sae_pwe=2):
# wpad joins with SAE, is told to disconnect (`wpactl station s1
# disconnect`), then to connect again well within the PMKSA lifetime. The
# reconnect must use the cached PMKSA: hostapd receives no SAE
# Authentication frame the second time (its debug log names each frame's
# algorithm: auth_alg=3 is SAE, 0 Open System), finds the PMKID wpad sends
# in its PMKSA cache, and wpad logs Open System authentication; both sides
# connected (hostapd authorized, AKM 00-0f-ac-8) and data crosses both ways.
# radios: 2
# timeout: 300
# needs: wpad-nl80211
ssid=$SSID_PSK
state=$HWSIM_WORK/wpad-state
conf=$HWSIM_WORK/wpad.conf
HLOG=$HWSIM_OUT/hostapd.log
ns_new ap
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta
HOSTAPD_KEY_MGMT=SAE hostapd_start ap "$(iface 0)" "$ssid" psk ieee80211w=2 sae_pwe=2
radio_bare 1 sta
wpad_bus_start
wpad_conf_begin "$conf" "$state"
printf '[Radio r1]\nDriver=nl80211\n\n[Station s1]\nRadio=r1\nAutoConnect=true\n' >>"$conf"
known_network "$state" "$ssid" psk
# shellcheck disable=SC2046 # the options are words
wpad_start wpad sta "$conf" $(wpad_bus_opts)
wait_until 40 "wpad: connected to '$ssid'" log_has wpad "connected to '$ssid'"
sta_iface sta 1 || fail "no station interface on $(phy 1)"
sta_mac=$(iface_mac sta "$STA_IF")
wait_until 10 "hostapd: station authorized" hostapd_sta_authorized ap "$(iface 0)" "$sta_mac"
log_has wpad "authenticated with [0-9a-f:]+ \(SAE\)" || fail "the first join did not use SAE"

# SAE Authentication frames from the station hostapd has received so far.
sae_frames() { grep -c "authentication: STA=$sta_mac auth_alg=3 " "$HLOG" || true; }
first=$(sae_frames)
[ "$first" -ge 2 ] || fail "hostapd logged $first SAE frames from $sta_mac at the first join (commit + confirm expected)"
log "ok: first join: $first SAE Authentication frames at hostapd"
joins=$(grep -c "connected to '$ssid'" "$HWSIM_OUT/wpad.log")
hlines=$(wc -l <"$HLOG")

wpactl_ station s1 disconnect >/dev/null || fail "wpactl station s1 disconnect failed"
# REGEX is in hostapd's log from the disconnect on (grep -c: reads it all).
since_has() { [ "$(tail -n +$((hlines + 1)) "$HLOG" | grep -Eic -- "$1" || true)" -gt 0 ]; }
wait_until 10 "hostapd: $sta_mac disconnected" since_has "AP-STA-DISCONNECTED $sta_mac"
sleep 1
wpactl_ station s1 connect "$ssid" >/dev/null || fail "wpactl station s1 connect failed"
wait_until 40 "wpad: connected again" \
	test "$(grep -c "connected to '$ssid'" "$HWSIM_OUT/wpad.log")" -gt "$joins"
wait_until 10 "hostapd: station authorized again" hostapd_sta_authorized ap "$(iface 0)" "$sta_mac"

again=$(sae_frames)
[ "$again" -eq "$first" ] ||
	fail "the reconnect ran SAE: hostapd logged $((again - first)) more SAE frames from $sta_mac"
since_has "authentication: STA=$sta_mac auth_alg=0 " ||
	fail "hostapd saw no Open System authentication from $sta_mac on the reconnect"
since_has "PMKID.*(found|match)|PMKSA cache entry found" ||
	fail "hostapd did not find wpad's PMKID in its PMKSA cache"
[ "$(grep -c "authenticated with [0-9a-f:]* (open system)" "$HWSIM_OUT/wpad.log")" -ge 1 ] ||
	fail "wpad did not log Open System authentication on the reconnect"
log "ok: reconnect: no SAE frame, Open System + PMKID"
hostapd_cli_q ap "$(iface 0)" sta "$sta_mac" -- 'AKMSuiteSelector=00-0f-ac-8' ||
	fail "hostapd does not report AKM SAE after the reconnect"
wait_until 10 "kernel: $STA_IF associated" kernel_sta_linked sta "$STA_IF"
ip_add ap "$(iface 0)" "$IP_AP"
ip_add sta "$STA_IF" "$IP_STA"
check_ping_both ap sta
stop_daemon wpad
stop_daemon hostapd
