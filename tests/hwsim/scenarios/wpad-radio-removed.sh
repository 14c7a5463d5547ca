# wpad station connected to hostapd (WPA2-PSK); then its radio is removed as
# if unplugged (HWSIM_CMD_DEL_RADIO through hwsim-ctl). wpad must survive,
# say in its log that the radio is gone, and still stop cleanly on SIGTERM.
# radios: 2
# timeout: 240
# needs: wpad-nl80211
wpad_sta_hostapd_connected psk
hwsim_del sta "$(phy 1)" || fail "hwsim-ctl del $(phy 1) failed"
wait_until 10 "$(phy 1) gone" radio_gone sta 1
# Any log line that names the radio (our [Radio r1], the wiphy or its
# interface) together with its removal.
gone='(remov|gone|vanish|unplug|disappear|delet|lost)'
who="(radio|r1|$(phy 1)|$STA_IF)"
wait_until 10 "wpad reports the radio removed" log_has_i wpad "$who.*$gone|$gone.*$who"
sleep 3
alive wpad || fail "wpad died with its radio"
stop_daemon wpad
stop_daemon hostapd
