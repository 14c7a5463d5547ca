# hostapd AP <-> wpa_supplicant station, WPA2-PSK (CCMP): the harness with
# the kernel's ciphers.
# radios: 2
# timeout: 240
flow_hostapd_wpas psk
