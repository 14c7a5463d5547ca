# hostapd AP <-> wpa_supplicant station (WPA2-PSK); then the station's radio
# is removed as if unplugged (hwsim's HWSIM_CMD_DEL_RADIO through hwsim-ctl):
# proves the helper, and how a reference daemon takes it.
# radios: 2
# timeout: 240
ns_new ap
ns_new sta
radio_to_ns 0 ap
radio_to_ns 1 sta
hostapd_start ap "$(iface 0)" "$SSID_PSK" psk
wpas_start sta "$(iface 1)" "$SSID_PSK" psk
wait_until 30 "wpa_supplicant COMPLETED" wpas_completed sta "$(iface 1)"
ip_add ap "$(iface 0)" "$IP_AP"
ip_add sta "$(iface 1)" "$IP_STA"
check_ping_both ap sta
# The kernel acts on the radios of the caller's namespace only.
hwsim_list ap | grep -qx "[0-9]* $(phy 0)" || fail "hwsim-ctl list in ap lacks $(phy 0)"
hwsim_list ap | grep -q " $(phy 1)$" && fail "hwsim-ctl list in ap shows $(phy 1) of namespace sta"
hwsim_del ap "$(phy 1)" && fail "hwsim-ctl removed a radio of another namespace"
hwsim_del sta "$(phy 1)" || fail "hwsim-ctl del $(phy 1) failed"
wait_until 10 "$(phy 1) gone" radio_gone sta 1
wait_until 10 "wpa_supplicant reports the link lost" log_has wpa_supplicant 'CTRL-EVENT-DISCONNECTED'
sleep 2
alive wpa_supplicant || fail "wpa_supplicant died with its radio"
stop_daemon wpa_supplicant
stop_daemon hostapd
