# wpad station <-> hostapd WPA2-Enterprise with hostapd's internal EAP
# server (certificates made here with openssl): EAP-TLS, connected on both
# sides, ping both ways; then a PMKSA-cached reconnect (wpactl disconnect,
# connect) that skips EAP: no EAP frame on the air the second time, the
# PMKID of the association request named again in message 1, hostapd
# logging its PMKSA cache hit; then PEAP/MSCHAPv2 on 802.1X-SHA256 with
# PMF required (ieee80211w=2): AKM 00-0f-ac-5 and MFP on both sides, ping.
# radios: 2
# timeout: 300
# needs: wpad-nl80211
# smoke: yes
. "$HWSIM_TOP/tests/hwsim/lib-eap.sh"

ns_new ap
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta
radio_bare 1 sta
eap_certs
wpad_bus_start

# ---- EAP-TLS, full authentication ----
hostapd_eap_start internal
capture_start full
wpad_eap_sta_start tls
eap_check_connected TLS
log_has hostapd 'CTRL-EVENT-EAP-SUCCESS' || fail "hostapd's EAP server logged no success"
sta_mac=$(iface_mac sta "$STA_IF")
capture_stop full "$sta_mac"
full_eap=$(frames_field eap)
[ "$full_eap" -ge 4 ] || fail "only $full_eap EAP frames on the air for a full EAP-TLS authentication"
[ "$(frames_field assoc_pmkid)" = none ] || fail "wpad offered a PMKID before it had one"

# ---- the same network again, from wpad's PMKSA cache ----
n_eap_hostapd=$(grep -c 'CTRL-EVENT-EAP-STARTED' "$HWSIM_OUT/hostapd.log" || true)
n_eap_wpad=$(grep -c '802\.1X authentication with .* succeeded' "$HWSIM_OUT/wpad.log" || true)
capture_start cached
wpactl_ station s1 disconnect || fail "wpactl station s1 disconnect"
wait_until 10 "hostapd: station gone" hostapd_sta_gone ap "$(iface 0)" "$sta_mac"
wpactl_ station s1 connect "$EAP_SSID" >"$HWSIM_OUT/wpactl-connect.log" 2>&1 ||
	fail "wpactl station s1 connect: $(cat "$HWSIM_OUT/wpactl-connect.log")"
[ "$(grep -c "connected to '$EAP_SSID'" "$HWSIM_OUT/wpad.log")" -ge 2 ] ||
	fail "wpad did not log a second connection"
wait_until 10 "hostapd: station authorized again" hostapd_sta_authorized ap "$(iface 0)" "$sta_mac"
capture_stop cached "$sta_mac"
pmkid=$(sed -n 's/.*offering the cached PMKSA (PMKID \([0-9a-f]*\)).*/\1/p' "$HWSIM_OUT/wpad.log" | tail -n 1)
[ -n "$pmkid" ] || fail "wpad did not offer its cached PMKSA"
[ "$(frames_field eap)" = 0 ] || fail "the cached reconnect still ran EAP: $FRAMES"
[ "$(frames_field start)" = 0 ] || fail "the cached reconnect sent EAPOL-Start: $FRAMES"
[ "$(frames_field key)" -ge 4 ] || fail "no complete 4-way handshake on the air: $FRAMES"
[ "$(frames_field assoc_pmkid)" = "$pmkid" ] ||
	fail "the association request carried PMKID $(frames_field assoc_pmkid), wpad logged $pmkid"
[ "$(frames_field msg1_pmkid)" = "$pmkid" ] ||
	fail "message 1 named PMKID $(frames_field msg1_pmkid), not the one offered ($pmkid)"
log_has hostapd 'PMK from PMKSA cache' || fail "hostapd did not use its PMKSA cache"
[ "$(grep -c 'CTRL-EVENT-EAP-STARTED' "$HWSIM_OUT/hostapd.log" || true)" = "$n_eap_hostapd" ] ||
	fail "hostapd started EAP again"
[ "$(grep -c '802\.1X authentication with .* succeeded' "$HWSIM_OUT/wpad.log")" = "$n_eap_wpad" ] ||
	fail "wpad ran EAP during the cached reconnect: $(grep -E '802\.1X|EAP|offering' "$HWSIM_OUT/wpad.log" | tail -n 8)"
log "ok: cached reconnect: EAP frames $full_eap -> 0, 4-way with PMKID $pmkid"
check_ping_both ap sta
stop_daemon wpad
stop_daemon hostapd
keep_log wpad tls
keep_log hostapd tls

# ---- PEAP/MSCHAPv2 on 802.1X-SHA256 with PMF required ----
HOSTAPD_KEY_MGMT=WPA-EAP-SHA256 HOSTAPD_EXTRA='ieee80211w=2' hostapd_eap_start internal
wpad_eap_sta_start peap
eap_check_connected PEAP
sta_mac=$(iface_mac sta "$STA_IF")
log_has wpad 'AKM 8021x-sha256, pairwise ccmp-128, group ccmp-128, PMF (on|required)' ||
	fail "wpad did not negotiate 802.1X-SHA256 with PMF: $(grep -m1 'associating with' "$HWSIM_OUT/wpad.log")"
hostapd_cli_q ap "$(iface 0)" sta "$sta_mac" -- '^flags=.*\[MFP\]' || fail "hostapd does not see PMF in use"
hostapd_cli_q ap "$(iface 0)" sta "$sta_mac" -- 'AKMSuiteSelector=00-0f-ac-5' ||
	fail "hostapd does not report AKM 802.1X-SHA256"
stop_daemon wpad
stop_daemon hostapd
