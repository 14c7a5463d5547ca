/* Real frames of hostapd 2.10 on WPA2/WPA3 transition networks (and a few
 * with hostapd's testing options making message 3 unlike the Beacon),
 * recorded on mac80211_hwsim by tests/hwsim/tools/capture-rsnxe.sh and
 * turned into C by tests/hwsim/tools/rsnxe-pcap-to-c.py. Every capture has
 * the SSID and passphrase below; the station was wpa_supplicant 2.10 with
 * key_mgmt=WPA-PSK and ieee80211w=1, so the AKM is PSK (00-0F-AC:2) and
 * management frame protection was used (every AP offered it).
 *
 * Names: pweN-tdT-pmfP is sae_pwe=N, transition_disable 0x01 (T=1) or none,
 * ieee80211w=P; psk-rsnxe-ltf a WPA-PSK network advertising an RSNXE with
 * Secure LTF; mm-* the mismatches (see each entry's hostapd lines). */
#ifndef WPAD_TESTS_UNIT_DATA_HOSTAPD_RSNXE_H
#define WPAD_TESTS_UNIT_DATA_HOSTAPD_RSNXE_H

#include <stddef.h>
#include <stdint.h>

#define HOSTAPD_CAPTURE_SSID "wpad-rsnxe"
#define HOSTAPD_CAPTURE_PASSPHRASE "correct horse battery"

struct hostapd_capture {
	const char *name;
	uint8_t aa[6];  /* the AP (BSSID) */
	uint8_t spa[6]; /* the station */
	/* Whole 802.11 management frames, without FCS. */
	const uint8_t *beacon; /* the last one before authentication */
	size_t beacon_len;
	const uint8_t *probe_resp; /* to wpa_supplicant's scan */
	size_t probe_resp_len;
	/* EAPOL frames from the version octet: message 2, the message 1 it
	 * answers, the first message 3 after it. */
	const uint8_t *msg1;
	size_t msg1_len;
	const uint8_t *msg2;
	size_t msg2_len;
	const uint8_t *msg3;
	size_t msg3_len;
};

extern const struct hostapd_capture hostapd_captures[];
extern const size_t n_hostapd_captures;

#endif
