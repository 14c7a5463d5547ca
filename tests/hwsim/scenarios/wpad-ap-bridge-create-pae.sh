# wpad creates the bridge itself (BridgeCreate=true) and the nl80211 backend
# runs without the control port (Options=control_port=0): the 4-way
# handshake's EAPOL frames, which the bridge takes from the AP's interface,
# are read from a packet socket on the bridge. wpa_supplicant joins, gets a
# DHCP lease from dnsmasq on the wired side and pings it; on SIGTERM wpad
# deletes the bridge it created.
# radios: 2
# timeout: 360
# needs: wpad-nl80211
flow_wpad_ap_bridge create pae
