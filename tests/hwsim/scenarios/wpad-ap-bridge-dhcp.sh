# wpad's access point in an existing Linux bridge (Bridge=br-lan) with a veth
# "LAN" end whose far side runs dnsmasq: wpa_supplicant joins (WPA2-PSK,
# EAPOL over nl80211's control port), gets its address from dnsmasq through
# the bridge and pings the LAN both ways; on SIGTERM wpad takes its
# interface out of the bridge and leaves the bridge and the wired port.
# radios: 2
# timeout: 360
# needs: wpad-nl80211
flow_wpad_ap_bridge existing nl80211
