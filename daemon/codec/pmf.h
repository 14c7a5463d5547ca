/* Management frame protection on the wire (IEEE 802.11-2020):
 *   - which management frames are robust (3.2, Table 9-51 "Robust");
 *   - the Management MIC element, MMIE (9.4.2.54): element 76, Key ID (2,
 *     LE), IPN (6, LE), MIC of 8 octets (BIP-CMAC-128) or 16 (the other
 *     BIP suites): 16- and 24-octet bodies;
 *   - SA Query Action frames (9.6.9): category 8, action 0 request /
 *     1 response, a 2-octet Transaction Identifier, then elements (an OCI
 *     element with OCV), checked for framing only;
 *   - the Timeout Interval element (9.4.2.49): element 56, type (1 reassoc
 *     deadline, 2 key lifetime, 3 association comeback time) and a 4-octet
 *     LE value (TUs for comeback time).
 * Parsers are bounds-checked and return enum codec_err.
 */
#ifndef WPAD_CODEC_PMF_H
#define WPAD_CODEC_PMF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/bytes.h"

/* ---- robust management frames ---- */

/* Subtype and (for Action) the first body octet, the category. An Action
 * frame with an empty body is not robust (it is malformed anyway). */
bool mgmt_is_robust(uint8_t subtype, const uint8_t *body, size_t body_len);
bool action_category_is_robust(uint8_t category);

/* ---- MMIE ---- */

#define MMIE_IPN_LEN 6
#define MMIE_BODY_LEN_8 16   /* BIP-CMAC-128 */
#define MMIE_BODY_LEN_16 24  /* BIP-CMAC-256, BIP-GMAC-128/256 */
#define MMIE_TOTAL_LEN(mic_len) (2 + 8 + (mic_len))

struct mmie {
	uint16_t key_id;      /* 4 or 5 for an IGTK, 6 or 7 for a BIGTK */
	uint64_t ipn;         /* 48-bit */
	const uint8_t *mic;   /* into the parsed buffer */
	size_t mic_len;       /* 8 or 16 */
};

/* Element body (after EID and length), len 16 or 24; else
 * CODEC_E_BAD_LENGTH. A Key ID above 7 is CODEC_E_MALFORMED. */
int mmie_parse(const uint8_t *body, size_t len, struct mmie *out);

/* The MMIE that must close a frame body (12.5.4.6: the last element) for a
 * suite whose MIC is mic_len (8 or 16) octets: CODEC_E_TRUNCATED when the
 * body is too short, CODEC_E_MALFORMED when its tail is not an MMIE of that
 * size, CODEC_E_INVALID_ARG for another mic_len. */
int mmie_parse_trailer(const uint8_t *frame_body, size_t len, size_t mic_len, struct mmie *out);

/* Appends an MMIE with a zero MIC (BIP fills it over the whole frame).
 * CODEC_E_INVALID_ARG for a mic_len other than 8/16, a Key ID above 7 or an
 * IPN over 48 bits. */
int mmie_build(struct wbuf *w, uint16_t key_id, uint64_t ipn, size_t mic_len);

/* ---- SA Query ---- */

enum sa_query_action {
	SA_QUERY_ACTION_REQUEST = 0,
	SA_QUERY_ACTION_RESPONSE = 1,
};

#define SA_QUERY_TRANS_ID_LEN 2

struct sa_query_frame {
	uint8_t action; /* enum sa_query_action */
	uint8_t trans_id[SA_QUERY_TRANS_ID_LEN];
	const uint8_t *ies; /* elements after the transaction id, may be NULL */
	size_t ies_len;
};

/* An Action frame body from its Category octet on (mgmt_action.body - 1,
 * len + 1). Not category 8: CODEC_E_UNSUPPORTED; short: TRUNCATED; an
 * action other than 0/1: MALFORMED; element framing errors as ie.h. */
int sa_query_parse(const uint8_t *action, size_t len, struct sa_query_frame *out);

/* Writes Category, Action and Transaction Identifier (the Action frame
 * body). CODEC_E_INVALID_ARG for an action other than 0/1. */
int sa_query_build(struct wbuf *w, enum sa_query_action action,
		   const uint8_t trans_id[SA_QUERY_TRANS_ID_LEN]);

/* ---- Timeout Interval ---- */

enum timeout_interval_type {
	TIMEOUT_REASSOC_DEADLINE = 1,
	TIMEOUT_KEY_LIFETIME = 2,
	TIMEOUT_ASSOC_COMEBACK = 3,
};

struct ie_timeout_interval {
	uint8_t type;   /* enum timeout_interval_type */
	uint32_t value; /* TUs (comeback, deadline) or seconds (key lifetime) */
};

/* Element body, exactly 5 octets (else BAD_LENGTH); type 0 or > 3 is
 * MALFORMED. */
int ie_parse_timeout_interval(const uint8_t *body, size_t len, struct ie_timeout_interval *out);
/* Whole element (EID 56, length 5). */
int ie_build_timeout_interval(struct wbuf *w, enum timeout_interval_type type, uint32_t value);

#endif
