# One wpad process, an access point on one hwsim radio and a station on the
# other, WPA2-PSK: both roles connected and data between them over the air.
# radios: 2
# timeout: 240
# needs: wpad-nl80211
flow_wpad_ap_sta psk
