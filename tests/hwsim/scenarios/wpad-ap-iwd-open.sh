# wpad access point <-> iwd station, open.
# radios: 2
# timeout: 120
# needs: wpad-nl80211
flow_wpad_ap iwd open
