/* The SAE Authentication frame body (IEEE 802.11-2020 9.3.3.11, Table
 * 9-41): the fields after Authentication Algorithm Number, Transaction
 * Sequence Number and Status Code.
 *
 *   commit  (transaction 1, status 0 / 126 / 76):
 *     Finite Cyclic Group (2, LE)
 *     [Anti-Clogging Token]            status 0 only, when the AP asked
 *     Scalar (order_len) | Element (2 * prime_len)
 *     [Password Identifier element]    Ext 33
 *     [Rejected Groups element]        Ext 92, status 126 only
 *     [Anti-Clogging Token Container]  Ext 93, status 126 only
 *   token request (transaction 1, status 76, from the AP):
 *     Finite Cyclic Group | token (status-0 form) or container element
 *   confirm (transaction 2): Send-Confirm (2, LE) | Confirm (KCK length)
 *
 * Only the elliptic-curve groups 19, 20, 21 are known (the scalar and
 * element lengths follow from the group); another group parses to
 * CODEC_E_UNSUPPORTED so the caller can answer status 77.
 *
 * The status-0 token has no length field: it is whatever lies between
 * the group and the scalar. The parser takes the shortest token after
 * which scalar, element and a well-formed run of the SAE elements above
 * end exactly at the end of the body.
 *
 * Parsed fields point into the caller's buffer.
 */
#ifndef WPAD_CODEC_SAE_H
#define WPAD_CODEC_SAE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/bytes.h"

#define SAE_CODEC_MAX_REJECTED 16
#define SAE_CODEC_MAX_TOKEN 256
#define SAE_CODEC_MAX_PW_ID 254

struct sae_commit_msg {
	uint16_t group;
	bool h2e; /* status 126: the token goes in a container element */
	const uint8_t *token;
	size_t token_len;
	const uint8_t *scalar;
	size_t scalar_len;
	const uint8_t *element;
	size_t element_len;
	const uint8_t *pw_id; /* NULL: no Password Identifier element */
	size_t pw_id_len;
	/* The Rejected Groups element's body (groups, LE16 each) as the
	 * key schedule salts with it, and decoded. */
	const uint8_t *rejected_raw;
	size_t rejected_raw_len;
	uint16_t rejected[SAE_CODEC_MAX_REJECTED];
	size_t n_rejected;
	bool has_rejected;
};

struct sae_confirm_msg {
	uint16_t send_confirm;
	const uint8_t *confirm;
	size_t confirm_len;
};

/* Scalar and element octets of an ECC group; false when unknown. */
bool sae_codec_group_lens(uint16_t group, size_t *scalar_len, size_t *element_len);

/* Commit (transaction 1 with status 0 or 126). CODEC_E_UNSUPPORTED for an
 * unknown group (answer 77), CODEC_E_TRUNCATED / CODEC_E_MALFORMED /
 * CODEC_E_DUPLICATE / CODEC_E_BAD_LENGTH otherwise. */
int sae_commit_parse(const uint8_t *body, size_t len, bool h2e, struct sae_commit_msg *out);
int sae_commit_build(struct wbuf *w, const struct sae_commit_msg *c);

/* The AP's anti-clogging token request (status 76). */
int sae_token_req_parse(const uint8_t *body, size_t len, bool h2e, uint16_t *group,
			const uint8_t **token, size_t *token_len);
int sae_token_req_build(struct wbuf *w, uint16_t group, bool h2e, const uint8_t *token,
			size_t token_len);

/* Confirm; the caller knows the confirm's length (the KCK's: 32 for
 * hunting-and-pecking, the group's hash length for H2E). */
int sae_confirm_parse(const uint8_t *body, size_t len, size_t confirm_len,
		      struct sae_confirm_msg *out);
int sae_confirm_build(struct wbuf *w, uint16_t send_confirm, const uint8_t *confirm,
		      size_t len);

/* The group of a commit-like body (first two octets), for answers such as
 * status 77 that echo it. CODEC_E_TRUNCATED when shorter. */
int sae_body_group(const uint8_t *body, size_t len, uint16_t *group);

#endif
