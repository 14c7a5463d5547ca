# wpad access point <-> iwd station, open.
# radios: 2
# timeout: 240
# needs: wpad-nl80211
flow_wpad_ap iwd open
