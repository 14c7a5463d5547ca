/* Fast BSS Transition elements: Mobility Domain (54) and FTE (55).
 *
 * FTE body: MIC Control (2) | MIC (16/24/32) | ANonce (32) | SNonce (32) |
 * subelements (ID 1, Length 1, body): R1KH-ID (1, 6 octets), GTK (2),
 * R0KH-ID (3, 1..48 octets), IGTK (4), OCI (5), BIGTK (6). Unknown
 * subelements are skipped; a known one appearing twice is a duplicate.
 *
 * The MIC length is not self-describing for every AKM (FT-SHA384 APs
 * predating the MIC Length subfield leave it 0), so the caller passes it;
 * 0 means "use the MIC Length subfield".
 */
#ifndef WPAD_CODEC_IE_FT_H
#define WPAD_CODEC_IE_FT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/bytes.h"

#define IE_MDE_LEN 3
#define FT_NONCE_LEN 32
#define FT_R1KH_ID_LEN 6
#define FT_R0KH_ID_MAX_LEN 48

enum fte_subelem {
	FTE_SUB_R1KH_ID = 1,
	FTE_SUB_GTK = 2,
	FTE_SUB_R0KH_ID = 3,
	FTE_SUB_IGTK = 4,
	FTE_SUB_OCI = 5,
	FTE_SUB_BIGTK = 6,
};

/* MIC Control, first octet */
#define FTE_MIC_CTRL_RSNXE_USED 0x01
#define FTE_MIC_CTRL_MIC_LEN_SHIFT 1
#define FTE_MIC_CTRL_MIC_LEN_MASK 0x0e

struct ie_mde {
	uint16_t mdid;
	uint8_t ft_capab; /* MDE_FT_OVER_DS, MDE_RESOURCE_REQ_PROTO */
};

struct ie_fte_gtk {
	uint16_t key_info; /* bits 0-1: key ID */
	uint8_t key_len;   /* unwrapped key length */
	const uint8_t *rsc; /* 8 octets */
	const uint8_t *wrapped;
	uint8_t wrapped_len;
};

/* IGTK and BIGTK subelements share a layout. */
struct ie_fte_igtk {
	uint16_t key_id;
	const uint8_t *ipn; /* 6 octets (BIPN for BIGTK) */
	uint8_t key_len;
	const uint8_t *wrapped;
	uint8_t wrapped_len;
};

struct ie_fte {
	bool rsnxe_used;
	uint8_t element_count;
	const uint8_t *mic; /* NULL in a build means zeros */
	uint8_t mic_len;
	const uint8_t *anonce;
	const uint8_t *snonce;
	const uint8_t *r1kh_id; /* 6 octets, or NULL */
	const uint8_t *r0kh_id;
	uint8_t r0kh_id_len;
	bool has_gtk;
	struct ie_fte_gtk gtk;
	bool has_igtk;
	struct ie_fte_igtk igtk;
	bool has_bigtk;
	struct ie_fte_igtk bigtk;
	const uint8_t *oci;
	uint8_t oci_len;
};

int ie_parse_mde(const uint8_t *body, size_t len, struct ie_mde *out);
int ie_build_mde(struct wbuf *w, const struct ie_mde *mde);

/* mic_len: 16, 24 or 32, or 0 to read it from the MIC Length subfield. */
int ie_parse_fte(const uint8_t *body, size_t len, size_t mic_len, struct ie_fte *out);
/* Writes the element; *mic_offset (if not NULL) gets the MIC's offset in
 * w so the caller can fill it in once the MIC is computed. The MIC Length
 * subfield is derived from fte->mic_len. */
int ie_build_fte(struct wbuf *w, const struct ie_fte *fte, size_t *mic_offset);

#endif
