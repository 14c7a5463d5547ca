# wpad access point WPA3-Personal (AKMs=sae, PMF required, H2E offered in
# its RSNXE) <-> iwd, which runs SAE for an SAE-only network: both sides say
# connected with AKM SAE and PMF, and data crosses both ways.
# radios: 2
# timeout: 240
# needs: wpad-nl80211
WPAD_AP_EXTRA='AKMs=sae'
wpad_ap_connected iwd psk
log_has wpad "$STA_MAC authenticated \(SAE\)" || fail "wpad's AP did not run SAE with iwd"
log_has wpad "$STA_MAC: AKM sae, pairwise ccmp-128, PMF on" ||
	fail "wpad's AP did not negotiate SAE with PMF with iwd"
log_has wpad "$STA_MAC: SAE accepted \(group (19|20|21), (hash-to-element|hunting-and-pecking)\)" ||
	fail "wpad's AP did not accept iwd's SAE"
stop_daemon iwd
stop_daemon wpad
