/* The elements of Opportunistic Wireless Encryption:
 *
 * OWE Diffie-Hellman Parameter element (IEEE 802.11-2020 9.4.2.243;
 * RFC 8110 4.2): Element ID 255, Element ID Extension 32, then
 *   Group (2 octets, little-endian) | Public Key (the rest: the x
 *   coordinate, the group's prime length; checked by daemon/crypto/owe.h)
 *
 * OWE Transition Mode element (Wi-Fi Alliance OWE Specification v1.1,
 * 2.3.1): vendor specific, OUI 50-6F-9A, type 28, then
 *   BSSID (6) | SSID Length (1) | SSID (0..32) |
 *   [Band Info (operating class, 1) | Channel Info (1)]
 * An open BSS carries it to name its hidden OWE twin, and the OWE BSS to
 * name the open one. The band and channel come as a pair or not at all.
 *
 * Parsers take the body after the Element ID Extension (DH) or after the
 * OUI and type (transition); pointers in the results point into it.
 */
#ifndef WPAD_CODEC_IE_OWE_H
#define WPAD_CODEC_IE_OWE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/bytes.h"

#define WFA_TYPE_OWE_TRANSITION 28
#define IE_OWE_DH_MIN_KEY 1
#define IE_OWE_DH_MAX_KEY 252 /* 255 - extension ID - group */
#define IE_OWE_TRANS_SSID_MAX 32

struct ie_owe_dh {
	uint16_t group;
	const uint8_t *key;
	size_t key_len;
};

struct ie_owe_trans {
	uint8_t bssid[6];
	uint8_t ssid[IE_OWE_TRANS_SSID_MAX];
	uint8_t ssid_len;
	bool has_channel;
	uint8_t op_class;
	uint8_t channel;
};

int ie_parse_owe_dh(const uint8_t *body, size_t len, struct ie_owe_dh *out);
int ie_build_owe_dh(struct wbuf *w, const struct ie_owe_dh *dh);
/* The DH element of an element list: CODEC_OK and *out, CODEC_E_UNSUPPORTED
 * when there is none, or the parse error of the first one. */
int ie_find_owe_dh(const uint8_t *ies, size_t len, struct ie_owe_dh *out);

int ie_parse_owe_trans(const uint8_t *body, size_t len, struct ie_owe_trans *out);
int ie_build_owe_trans(struct wbuf *w, const struct ie_owe_trans *t);
/* As ie_find_owe_dh, for the transition element. */
int ie_find_owe_trans(const uint8_t *ies, size_t len, struct ie_owe_trans *out);

#endif
