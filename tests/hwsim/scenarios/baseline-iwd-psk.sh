# hostapd AP <-> iwd station, WPA2-PSK: proves the iwd set-up (system bus,
# state folder, kernel crypto) that the wpad AP <-> iwd scenarios rely on.
# radios: 2
# timeout: 240
flow_hostapd_iwd psk
