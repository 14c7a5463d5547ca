# wpad station joins a hidden hostapd network (WPA2-PSK) with the
# hidden-network connect, the passphrase coming from wpactl's agent: the
# connect succeeds with LastError empty (learning that the network needs a
# passphrase is a step, not a failure), the known network is stored
# Hidden; after a wpad restart it probes for the network and reconnects by
# itself. Both sides asserted, ping across each time.
# radios: 2
# timeout: 300
# needs: wpad-nl80211
SSID=hwsim-hidden
state=$HWSIM_WORK/wpad-state
conf=$HWSIM_WORK/wpad.conf
ns_new ap
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta
hostapd_start ap "$(iface 0)" "$SSID" psk ignore_broadcast_ssid=1
radio_bare 1 sta
wpad_bus_start
wpad_conf_begin "$conf" "$state"
printf '[Radio r1]\nDriver=nl80211\n\n[Station s1]\nRadio=r1\nAutoConnect=true\n' >>"$conf"
# shellcheck disable=SC2046 # the options are words
wpad_start wpad sta "$conf" $(wpad_bus_opts)
wait_until 10 "wpad on its bus" wpad_on_bus

wpactl_ -t 120 station s1 connect-hidden "$SSID" --passphrase "$PASSPHRASE" ||
	fail "wpactl connect-hidden exited $?"
log "ok: wpactl connect-hidden returned success"
wait_until 10 "wpad: connected to '$SSID'" log_has wpad "connected to '$SSID'"
sta_iface sta 1 || fail "no station interface on $(phy 1)"
wait_until 10 "kernel: $STA_IF associated" kernel_sta_linked sta "$STA_IF"
sta_mac=$(iface_mac sta "$STA_IF")
wait_until 10 "hostapd: station authorized" hostapd_sta_authorized ap "$(iface 0)" "$sta_mac"
last=$(wpad_last_error s1)
[ "$last" = '["", -1, -1, "", 0]' ] || fail "LastError after the successful connect: $last"
log "ok: LastError empty after the hidden connect with an agent"
grep -qx 'Hidden=true' "$state/$SSID.psk" || fail "known network not stored hidden: $(cat "$state/$SSID.psk")"
hidden=$(wpad_prop "/org/wpad1/known/$(printf %s "$SSID" | od -An -tx1 | tr -d ' \n')_psk" \
	org.wpad1.KnownNetwork Hidden)
echo "$hidden" | grep -q 'boolean true' || fail "KnownNetwork.Hidden is not true: $hidden"
log "ok: stored Hidden=true (file and KnownNetwork.Hidden)"
ip_add ap "$(iface 0)" "$IP_AP"
ip_add sta "$STA_IF" "$IP_STA"
check_ping_both ap sta

# Restart: nothing but the stored network brings it back.
stop_daemon wpad
wait_until 10 "hostapd: the station left" eval "! hostapd_sta_authorized ap $(iface 0) $sta_mac"
wpad_start wpad2 sta "$conf" $(wpad_bus_opts)
wait_until 60 "wpad (restarted): connected to '$SSID' by itself" log_has wpad2 "connected to '$SSID'"
log_has wpad2 "with a directed probe" || fail "the restarted wpad found it without a directed probe?"
sta_iface sta 1 || fail "no station interface on $(phy 1) after the restart"
wait_until 10 "kernel: $STA_IF associated" kernel_sta_linked sta "$STA_IF"
sta_mac=$(iface_mac sta "$STA_IF")
wait_until 10 "hostapd: station authorized again" hostapd_sta_authorized ap "$(iface 0)" "$sta_mac"
nsx sta ip addr show dev "$STA_IF" | grep -q "$IP_STA/" || ip_add sta "$STA_IF" "$IP_STA"
check_ping_both ap sta
stop_daemon wpad2
stop_daemon hostapd
