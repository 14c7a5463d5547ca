/* Hand-built 802.11 frames for the conformance suite. Built byte by byte
 * from IEEE 802.11-2020 clause 9 so the suite depends on nothing but the
 * driver interface. Each returns the frame length written into out. */
#ifndef WPAD_TESTS_DRIVER_FRAMES_H
#define WPAD_TESTS_DRIVER_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#define FC_ASSOC_REQ 0x0000
#define FC_ASSOC_RESP 0x0010
#define FC_PROBE_REQ 0x0040
#define FC_PROBE_RESP 0x0050
#define FC_BEACON 0x0080
#define FC_DISASSOC 0x00a0
#define FC_AUTH 0x00b0
#define FC_DEAUTH 0x00c0
#define FC_ACTION 0x00d0

/* Beacon head: header, timestamp, interval, capability, SSID, rates, DS. */
size_t frame_beacon_head(uint8_t *out, const uint8_t bssid[6], const char *ssid,
			 uint8_t channel, uint16_t interval);
size_t frame_auth(uint8_t *out, const uint8_t da[6], const uint8_t sa[6],
		  const uint8_t bssid[6], uint16_t alg, uint16_t seq, uint16_t status);
size_t frame_assoc_resp(uint8_t *out, const uint8_t da[6], const uint8_t bssid[6],
			uint16_t status, uint16_t aid);
size_t frame_action(uint8_t *out, const uint8_t da[6], const uint8_t sa[6],
		    const uint8_t bssid[6], uint8_t tag);
size_t frame_deauth(uint8_t *out, const uint8_t da[6], const uint8_t sa[6],
		    const uint8_t bssid[6], uint16_t reason);

uint16_t frame_fc(const uint8_t *frame);
const uint8_t *frame_addr1(const uint8_t *frame);
const uint8_t *frame_addr2(const uint8_t *frame);
/* For auth and assoc responses: the status code field. */
uint16_t frame_auth_status(const uint8_t *frame, size_t len);
uint16_t frame_assoc_resp_status(const uint8_t *frame, size_t len);
/* Finds the SSID element in a beacon/probe-response's IEs. */
int ies_find_ssid(const uint8_t *ies, size_t len, char *ssid_out, size_t cap);

#endif
