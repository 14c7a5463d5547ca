# hostapd AP <-> wpa_supplicant station, open: proves the harness (radios,
# namespaces, both peers, data across the air) before wpad is involved.
# radios: 2
# timeout: 240
flow_hostapd_wpas open
