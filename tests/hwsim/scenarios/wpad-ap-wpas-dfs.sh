# wpad access point on a DFS channel (Band=5, Channel=52, Width=80, country
# US): the channel availability check first (no beacons, then beaconing),
# wpa_supplicant joins; hwsim's simulated radar (dfs_simulate_radar in
# debugfs) makes wpad leave with a Channel Switch Announcement; the
# station is on the new channel, still connected, and pings cross.
# radios: 2
# timeout: 300
# needs: wpad-nl80211
CHANNEL=52
WPAD_AP_EXTRA='Band=5\nWidth=80'
WPAS_SCAN_FREQ=5260
reg_country US
[ -d /sys/kernel/debug/ieee80211 ] || mount -t debugfs debugfs /sys/kernel/debug ||
	fail "cannot mount debugfs"
radar=/sys/kernel/debug/ieee80211/$(phy 0)/hwsim/dfs_simulate_radar
[ -e "$radar" ] || fail "no $radar"
# wpad_ap_connected gives the first beacon 20 s (times the VM's scale);
# here the 60 s CAC comes first: 60 for that wait.
eval "lib_wait_until() $(declare -f wait_until | sed 1d)"
wait_until() {
	if [ "$2" = "wpad: access point beaconing" ]; then
		lib_wait_until 60 "$2" "${@:3}"
	else
		lib_wait_until "$@"
	fi
}
wpad_ap_connected wpas psk
log_has wpad 'channel 52 \(80 MHz\) needs radar detection' || fail "no CAC logged"
nsx ap iw dev "$AP_IF" info | grep -q 'channel 52 (5260 MHz), width: 80 MHz' ||
	fail "the AP is not on 52 at 80 MHz: $(nsx ap iw dev "$AP_IF" info | grep channel)"
log "radar on $(phy 0)"
echo 1 >"$radar" || fail "writing $radar"
wait_until 20 "wpad: switching -> started" log_has wpad 'switching -> started'
log_has wpad 'channel switch to 36 \(80 MHz\) announced' || fail "no CSA to 36 logged"
wait_until 10 "AP on channel 36" sh -c \
	"ip netns exec ap iw dev $AP_IF info | grep -q 'channel 36 (5180 MHz)'"
wait_until 20 "station on channel 36" sh -c \
	"ip netns exec sta iw dev $STA_IF info | grep -q 'channel 36 (5180 MHz)'"
wpas_completed sta "$STA_IF" || fail "wpa_supplicant is no longer COMPLETED"
grep -q 'CTRL-EVENT-DISCONNECTED' "$HWSIM_OUT/wpa_supplicant.log" &&
	fail "wpa_supplicant disconnected during the channel switch"
check_ping_both ap sta
stop_daemon wpa_supplicant
stop_daemon wpad
