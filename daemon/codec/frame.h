/* 802.11 management frames and data frame headers.
 *
 * Management frame: Frame Control (2) | Duration (2) | A1 (DA) | A2 (SA) |
 * A3 (BSSID) | Sequence Control (2) | [HT Control (4) if Order set] | body.
 * The parser decodes the fixed fields of each subtype's body and points at
 * the element list (checked for TLV framing, not decoded: use ie_parse()).
 *
 * Rejected as CODEC_E_MALFORMED: protocol version != 0, ToDS/FromDS set on a
 * management frame, a group address as transmitter (A2), the Protected bit
 * on a subtype that is never protected (only Authentication, Deauth,
 * Disassoc and Action may be). Element framing errors after the fixed
 * fields come back as the ie.h codes. Frames of another type and reserved
 * subtypes (7, 15) are CODEC_E_UNSUPPORTED.
 *
 * A Protected management frame's body is ciphertext: only the header is
 * decoded and `body` points at the CCMP/GCMP header + payload.
 */
#ifndef WPAD_CODEC_FRAME_H
#define WPAD_CODEC_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/bytes.h"

struct mgmt_beacon {      /* beacon, probe response, timing advertisement */
	uint64_t timestamp;
	uint16_t beacon_int;  /* TUs; unused for timing advertisement */
	uint16_t capab;
};

struct mgmt_auth {
	uint16_t alg;
	uint16_t seq;
	uint16_t status;
	/* For SAE the bytes after Status are the SAE commit/confirm fields,
	 * not elements: they are here and mgmt_frame.ies is NULL. */
	const uint8_t *sae_body;
	size_t sae_len;
};

struct mgmt_assoc_req {   /* association and reassociation request */
	uint16_t capab;
	uint16_t listen_interval;
	const uint8_t *current_ap; /* reassociation only, else NULL */
};

struct mgmt_assoc_resp {  /* association and reassociation response */
	uint16_t capab;
	uint16_t status;
	uint16_t aid;         /* with the two top bits cleared */
};

struct mgmt_action {
	uint8_t category;
	const uint8_t *body;  /* after the category octet */
	size_t len;
};

struct mgmt_frame {
	uint16_t fc;
	uint8_t subtype;      /* enum ieee80211_mgmt_subtype */
	uint16_t duration;
	const uint8_t *da;    /* A1 */
	const uint8_t *sa;    /* A2 */
	const uint8_t *bssid; /* A3 */
	uint16_t seq_ctrl;
	bool protected_frame;
	bool has_htc;
	uint32_t htc;
	const uint8_t *body;  /* everything after the header */
	size_t body_len;
	const uint8_t *ies;   /* element list, where the subtype has one */
	size_t ies_len;
	union {
		struct mgmt_beacon beacon;
		struct mgmt_auth auth;
		struct mgmt_assoc_req assoc_req;
		struct mgmt_assoc_resp assoc_resp;
		uint16_t reason; /* deauthentication, disassociation */
		struct mgmt_action action;
	} u;
};

int mgmt_parse(const uint8_t *frame, size_t len, struct mgmt_frame *out);
/* A management frame as a driver hands it to the roles: one that came
 * protected was decrypted on receipt (its CCMP/GCMP header and MIC are
 * gone) while Frame Control keeps the Protected bit -- what mac80211 gives
 * over nl80211. The body is decoded as plaintext; protected_frame still
 * says the frame was protected. Unprotected frames parse as mgmt_parse(). */
int mgmt_parse_decrypted(const uint8_t *frame, size_t len, struct mgmt_frame *out);

/* Zeroes f and sets subtype and addresses, ready for mgmt_build(). */
void mgmt_init(struct mgmt_frame *f, uint8_t subtype, const uint8_t *da, const uint8_t *sa,
	       const uint8_t *bssid);
/* Writes header, the subtype's fixed fields from f->u, then f->ies (or
 * the SAE body / action body). When f->protected_frame is set, f->body is
 * written as the already-encrypted body instead. Frame Control flag bits
 * other than type/subtype/Protected/Order come from f->fc. Callers can
 * append more elements to w afterwards. */
int mgmt_build(struct wbuf *w, const struct mgmt_frame *f);
/* An Action frame whose body (category first) is action[0..len). */
int mgmt_build_action(struct wbuf *w, const uint8_t *da, const uint8_t *sa, const uint8_t *bssid,
		      const uint8_t *action, size_t len);

/* ---- Data frames ------------------------------------------------------- */

struct data_hdr {
	uint16_t fc;
	uint8_t subtype;
	bool to_ds;
	bool from_ds;
	bool protected_frame;
	uint16_t duration;
	const uint8_t *addr1, *addr2, *addr3, *addr4; /* addr4 only with 4 addresses */
	uint16_t seq_ctrl;
	/* Address roles derived from ToDS/FromDS (802.11-2020 Table 9-30).
	 * With an A-MSDU, an address the table leaves to the subframes
	 * (or one that is not present at all) is NULL. */
	const uint8_t *ra, *ta, *da, *sa, *bssid;
	bool qos;
	uint16_t qos_ctrl;
	uint8_t tid;
	bool amsdu;
	bool has_htc;
	uint32_t htc;
	size_t hdr_len;
	const uint8_t *body;
	size_t body_len;
};

/* Null and QoS Null frames with a body are CODEC_E_MALFORMED. */
int data_hdr_parse(const uint8_t *frame, size_t len, struct data_hdr *out);
/* Writes the header only, from fc, duration, addr1..4, seq_ctrl, qos_ctrl
 * and htc; the QoS/HTC/addr4 fields are written when fc says so. */
int data_hdr_build(struct wbuf *w, const struct data_hdr *h);
size_t data_hdr_len(uint16_t fc);

#endif
