# wpad station <-> hostapd AP, WPA2-PSK. wpad learns the network from a known-network
# file in its StateDirectory and joins it on its own (AutoConnect).
# radios: 2
# timeout: 240
# needs: wpad-nl80211
# smoke: yes
flow_wpad_sta_hostapd psk
