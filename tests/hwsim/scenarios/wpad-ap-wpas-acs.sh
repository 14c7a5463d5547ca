# wpad access point with Channel=auto (2.4 GHz): it scores 1, 6 and 11
# from the radio's survey (hwsim reports one), logs every candidate's
# reasons and its choice, beacons there; wpa_supplicant joins and pings.
# radios: 2
# timeout: 240
# needs: wpad-nl80211
CHANNEL=auto
# The station must listen where wpad may go: 1, 6 and 11 (the harness's
# default scans channel 6 only, and hwsim delivers a frame only to radios
# on its channel, so a choice of 1 or 11 went unheard).
WPAS_SCAN_FREQ='2412 2437 2462'
wpad_ap_connected wpas psk
log_has wpad 'Channel=auto chose channel (1|6|11) \(20 MHz\): busy [0-9]+%' ||
	fail "no Channel=auto choice with its reasons in wpad's log"
chosen=$(grep -Eo 'Channel=auto chose channel [0-9]+' "$HWSIM_OUT/wpad.log" | grep -Eo '[0-9]+$')
log "wpad chose channel $chosen: $(grep -Eo 'Channel=auto chose .*' "$HWSIM_OUT/wpad.log")"
nsx ap iw dev "$AP_IF" info | grep -q "channel $chosen " ||
	fail "the AP is not on channel $chosen: $(nsx ap iw dev "$AP_IF" info | grep channel)"
stop_daemon wpa_supplicant
stop_daemon wpad
