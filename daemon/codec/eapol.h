/* IEEE 802.1X EAPOL frames and the EAPOL-Key frame used by the 4-way and
 * group key handshakes.
 *
 * EAPOL header: Protocol Version (1) | Packet Type (1) | Body Length (2,
 * big-endian) | body. Octets after the body (Ethernet padding) are
 * allowed and reported in padding_len.
 *
 * EAPOL-Key body: Descriptor Type (1) | Key Information (2) | Key Length (2)
 * | Replay Counter (8) | Key Nonce (32) | EAPOL-Key IV (16) | Key RSC (8) |
 * Reserved (8) | Key MIC (mic_len) | Key Data Length (2) | Key Data.
 * Multi-octet integers are big-endian. The MIC length depends on the AKM
 * (16, 24 for SHA-384 AKMs, 0 for FILS), so the caller passes it in.
 * The key data must exactly fill the rest of the body: a longer length is
 * CODEC_E_OVERRUN, leftover octets are CODEC_E_MALFORMED (which is also
 * what a wrong mic_len usually produces).
 */
#ifndef WPAD_CODEC_EAPOL_H
#define WPAD_CODEC_EAPOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/bytes.h"

#define EAPOL_HDR_LEN 4
#define EAPOL_VERSION_2001 1
#define EAPOL_VERSION_2004 2
#define EAPOL_VERSION_2010 3

enum eapol_type {
	EAPOL_TYPE_EAP = 0,
	EAPOL_TYPE_START = 1,
	EAPOL_TYPE_LOGOFF = 2,
	EAPOL_TYPE_KEY = 3,
	EAPOL_TYPE_ASF_ALERT = 4,
	EAPOL_TYPE_MKA = 5,
	EAPOL_TYPE_ANNOUNCE_GENERIC = 6,
	EAPOL_TYPE_ANNOUNCE_SPECIFIC = 7,
	EAPOL_TYPE_ANNOUNCE_REQ = 8,
};

enum eapol_key_descriptor {
	EAPOL_KEY_DESC_RSN = 2,
	EAPOL_KEY_DESC_WPA = 254,
};

/* Key Information bits */
#define EAPOL_KEY_INFO_VERSION_MASK 0x0007
#define EAPOL_KEY_INFO_PAIRWISE 0x0008
#define EAPOL_KEY_INFO_WPA_INDEX_MASK 0x0030
#define EAPOL_KEY_INFO_WPA_INDEX_SHIFT 4
#define EAPOL_KEY_INFO_INSTALL 0x0040
#define EAPOL_KEY_INFO_ACK 0x0080
#define EAPOL_KEY_INFO_MIC 0x0100
#define EAPOL_KEY_INFO_SECURE 0x0200
#define EAPOL_KEY_INFO_ERROR 0x0400
#define EAPOL_KEY_INFO_REQUEST 0x0800
#define EAPOL_KEY_INFO_ENCR_KEY_DATA 0x1000
#define EAPOL_KEY_INFO_SMK 0x2000

/* Key descriptor versions (Key Information bits 0-2) */
#define EAPOL_KEY_VER_AKM_DEFINED 0
#define EAPOL_KEY_VER_HMAC_MD5_RC4 1
#define EAPOL_KEY_VER_HMAC_SHA1_AES 2
#define EAPOL_KEY_VER_AES_128_CMAC 3

#define EAPOL_KEY_REPLAY_LEN 8
#define EAPOL_KEY_NONCE_LEN 32
#define EAPOL_KEY_IV_LEN 16
#define EAPOL_KEY_RSC_LEN 8
#define EAPOL_KEY_RESERVED_LEN 8
#define EAPOL_KEY_MIC_LEN_DEFAULT 16
#define EAPOL_KEY_MIC_LEN_SHA384 24
#define EAPOL_KEY_MIC_LEN_MAX 32
/* Everything but the MIC and the key data (Key Data Length included). */
#define EAPOL_KEY_FIXED_LEN 79

struct eapol_hdr {
	uint8_t version;
	uint8_t type;
	uint16_t body_len;
	const uint8_t *body;
	size_t padding_len; /* octets after the body */
};

struct eapol_key_info {
	uint8_t version; /* EAPOL_KEY_VER_* */
	bool pairwise;
	uint8_t wpa_key_index; /* WPA descriptor only */
	bool install;
	bool ack;
	bool mic;
	bool secure;
	bool error;
	bool request;
	bool encrypted;
	bool smk;
};

struct eapol_key {
	uint8_t descriptor;
	uint16_t key_info; /* raw; what the builder writes */
	struct eapol_key_info info; /* decoded from key_info by the parser */
	uint16_t key_length;
	uint64_t replay_counter;
	/* NULL in a build means all zeros. */
	const uint8_t *nonce;    /* 32 */
	const uint8_t *iv;       /* 16 */
	const uint8_t *rsc;      /* 8 */
	const uint8_t *reserved; /* 8 */
	const uint8_t *mic;      /* mic_len */
	size_t mic_len;
	const uint8_t *key_data;
	uint16_t key_data_len;
};

/* Unknown packet types are CODEC_E_UNSUPPORTED; versions other than 1-3
 * CODEC_E_MALFORMED. */
int eapol_parse(const uint8_t *frame, size_t len, struct eapol_hdr *out);
int eapol_build(struct wbuf *w, uint8_t version, uint8_t type, const uint8_t *body,
		size_t body_len);

struct eapol_key_info eapol_key_info_decode(uint16_t key_info);
uint16_t eapol_key_info_encode(const struct eapol_key_info *info);

/* body: the EAPOL body (hdr.body, hdr.body_len). mic_len: 0, 16, 24, 32. */
int eapol_key_parse(const uint8_t *body, size_t len, size_t mic_len, struct eapol_key *out);
/* Both steps at once; a non-Key EAPOL packet is CODEC_E_UNSUPPORTED. */
int eapol_key_frame_parse(const uint8_t *frame, size_t len, size_t mic_len,
			  struct eapol_hdr *hdr, struct eapol_key *key);
/* Writes a whole EAPOL-Key frame (header included) with k->mic_len octets
 * of MIC; *mic_offset (if not NULL) gets where the MIC starts in w, so the
 * caller can compute it over the frame and fill it in. */
int eapol_key_frame_build(struct wbuf *w, uint8_t eapol_version, const struct eapol_key *k,
			  size_t *mic_offset);

#endif
