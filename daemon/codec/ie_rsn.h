/* RSN element (48), WPA vendor element (00-50-F2:1) and RSNXE (244).
 *
 * RSNE layout: Version (2) | Group Data Cipher (4) | Pairwise Count (2) |
 * Pairwise List (4n) | AKM Count (2) | AKM List (4m) | RSN Capabilities (2) |
 * PMKID Count (2) | PMKID List (16k) | Group Management Cipher (4).
 * Everything after Version is optional, but the element may only end at a
 * field boundary, and a later field implies all the earlier ones. A field
 * cut short gives CODEC_E_TRUNCATED; a list longer than what is left gives
 * CODEC_E_OVERRUN; an empty pairwise or AKM list gives CODEC_E_MALFORMED.
 * Octets after the Group Management Cipher are kept in `extra` and
 * otherwise ignored, as the standard asks of receivers for extensibility.
 *
 * Absent fields take the defaults the standard gives (CCMP-128, 802.1X,
 * BIP-CMAC-128) so callers need not special-case short elements; `present`
 * records what was actually on the air.
 */
#ifndef WPAD_CODEC_IE_RSN_H
#define WPAD_CODEC_IE_RSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/bytes.h"

#define IE_RSN_MAX_SUITES 16 /* per list; more gives CODEC_E_UNSUPPORTED */
#define IE_RSN_VERSION 1
#define IE_WPA_VERSION 1
#define PMKID_LEN 16

/* How far along the optional fields the element goes. */
enum ie_rsn_present {
	IE_RSN_UPTO_VERSION = 0,
	IE_RSN_UPTO_GROUP,
	IE_RSN_UPTO_PAIRWISE,
	IE_RSN_UPTO_AKM,
	IE_RSN_UPTO_CAPAB,
	IE_RSN_UPTO_PMKID,
	IE_RSN_UPTO_GROUP_MGMT,
};

struct ie_rsn {
	uint16_t version;
	uint32_t group_cipher;
	uint32_t pairwise[IE_RSN_MAX_SUITES];
	size_t n_pairwise;
	uint32_t akm[IE_RSN_MAX_SUITES];
	size_t n_akm;
	uint16_t capab;
	const uint8_t *pmkids; /* n_pmkid * 16 octets, into the input */
	size_t n_pmkid;
	uint32_t group_mgmt_cipher;
	enum ie_rsn_present present;
	const uint8_t *extra; /* unknown trailing octets, if any */
	size_t extra_len;
};

struct ie_rsnxe {
	const uint8_t *octets; /* the Extended RSN Capabilities field */
	uint8_t len;
	uint32_t capab; /* first up to four octets, little-endian */
};

/* body: the element body after ID and Length. */
int ie_parse_rsn(const uint8_t *body, size_t len, struct ie_rsn *out);
/* Writes the element up to out->present; later fields are not written. */
int ie_build_rsn(struct wbuf *w, const struct ie_rsn *rsn);

/* WPA: body starts at the OUI (00-50-F2, type 1); same struct, fields up
 * to IE_RSN_UPTO_CAPAB. */
int ie_parse_wpa(const uint8_t *body, size_t len, struct ie_rsn *out);
int ie_build_wpa(struct wbuf *w, const struct ie_rsn *wpa);

/* Sets the standard defaults for an RSNE that carries every field up to
 * the AKM list: CCMP-128 group and pairwise, the given AKM. */
void ie_rsn_init(struct ie_rsn *rsn, uint32_t akm);
bool ie_rsn_has_akm(const struct ie_rsn *rsn, uint32_t akm);
bool ie_rsn_has_pairwise(const struct ie_rsn *rsn, uint32_t cipher);

/* MIC length in EAPOL-Key frames for an AKM: 16, 24 for the SHA-384 AKMs,
 * 0 for FILS (AEAD). -1 when the AKM alone does not say (SAE-EXT-KEY,
 * whose MIC follows the SAE group) or the AKM is unknown. */
int rsn_akm_mic_len(uint32_t akm);

int ie_parse_rsnxe(const uint8_t *body, size_t len, struct ie_rsnxe *out);
bool ie_rsnxe_has(const struct ie_rsnxe *x, unsigned bit);
/* Writes the shortest RSNXE holding the bits of capab; the field-length
 * nibble is filled in. */
int ie_build_rsnxe(struct wbuf *w, uint32_t capab);

#endif
