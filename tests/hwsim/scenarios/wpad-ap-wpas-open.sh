# wpad access point <-> wpa_supplicant station, open.
# radios: 2
# timeout: 240
# needs: wpad-nl80211
flow_wpad_ap wpas open
