/* EAPOL-Key machinery shared by the supplicant and the authenticator: the
 * cipher suite of an association, the owned copy of its configuration, and
 * building, parsing, MIC and key data protection of EAPOL-Key frames.
 *
 * Internal to daemon/rsn; roles use supplicant.h, authenticator.h, group.h.
 */
#ifndef WPAD_RSN_KEY_H
#define WPAD_RSN_KEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/codec/eapol.h"
#include "daemon/crypto/eapol_mic.h"
#include "daemon/crypto/ptk.h"
#include "daemon/rsn/rsn_types.h"

/* Largest EAPOL-Key frame we build: header, fixed fields, a 24-octet MIC and
 * key data (RSNE, RSNXE, GTK and IGTK KDEs, padding, the key wrap block). */
#define RSN_FRAME_MAX 1024
#define RSN_KEY_DATA_MAX 768
/* Plaintext key data we send: room left for padding and the wrap block. */
#define RSN_KEY_DATA_PLAIN_MAX (RSN_KEY_DATA_MAX - 16)

/* Everything the AKM and the ciphers decide about the frames. */
struct rsn_suite {
	uint32_t akm;
	uint8_t key_ver; /* Key Information version: 0 AKM-defined, 2, 3 */
	enum crypto_eapol_mic_alg mic_alg;
	size_t mic_len;
	struct crypto_ptk_spec ptk_spec;
	uint32_t pairwise_cipher;
	size_t tk_len;
	uint32_t group_cipher;
	size_t gtk_len;
	uint32_t group_mgmt_cipher; /* 0: none */
	size_t igtk_len;
};

/* Key length of a cipher suite (TK, GTK or IGTK), 0 if not supported. */
size_t rsn_cipher_key_len(uint32_t cipher);
/* Fills s for cfg. Returns 0 or -ENOTSUP (AKM or cipher not supported). */
int rsn_suite_init(struct rsn_suite *s, const struct rsn_config *cfg);

/* The owned copy of a configuration; cfg's pointers point into it. */
struct rsn_conf_store {
	struct rsn_config cfg;
	uint8_t pmk[RSN_PMK_MAX_LEN];
	uint8_t pmkid[RSN_PMKID_LEN];
	uint8_t sta_rsne[RSN_ELEM_MAX_LEN];
	uint8_t ap_rsne[RSN_ELEM_MAX_LEN];
	uint8_t sta_rsnxe[RSN_ELEM_MAX_LEN];
	uint8_t ap_rsnxe[RSN_ELEM_MAX_LEN];
};

/* Validates and copies src, filling in the default timers. The PMK may be
 * absent (set later). Returns 0 or -EINVAL. */
int rsn_conf_copy(struct rsn_conf_store *dst, const struct rsn_config *src);
/* Replaces the PMK (and the PMKID: NULL for none), wiping the old one.
 * Returns 0 or -EINVAL (length outside 16..64). */
int rsn_conf_set_pmk(struct rsn_conf_store *store, const uint8_t *pmk, size_t len,
		     const uint8_t *pmkid);
/* Whether a PMK has been set. */
static inline bool rsn_conf_has_pmk(const struct rsn_conf_store *store)
{
	return store->cfg.pmk_len != 0;
}
/* Zeroes the copy, the PMK included. */
void rsn_conf_clear(struct rsn_conf_store *store);

/* One frame to send. key_data is the plaintext; it is padded and wrapped
 * with the KEK when key_info has EAPOL_KEY_INFO_ENCR_KEY_DATA. */
struct rsn_key_tx {
	uint16_t key_info; /* without the version bits, which the suite adds */
	uint16_t key_length;
	uint64_t replay_counter;
	const uint8_t *nonce; /* NULL: zeros */
	const uint8_t *rsc;   /* 8 octets; NULL: zeros */
	const uint8_t *key_data;
	size_t key_data_len;
};

/* Builds the whole EAPOL frame into out (RSN_FRAME_MAX bytes), with the MIC
 * computed with ptk's KCK when key_info has EAPOL_KEY_INFO_MIC. Returns 0 or
 * -EINVAL/-ENOSPC/-EIO. */
int rsn_key_build(const struct rsn_suite *s, uint8_t eapol_version, const struct rsn_key_tx *tx,
		  const struct crypto_ptk *ptk, uint8_t *out, size_t *out_len);

/* A parsed received frame; frame/frame_len cover the EAPOL header and body
 * without trailing padding, as the MIC does. */
struct rsn_key_rx {
	struct eapol_hdr hdr;
	struct eapol_key key;
	const uint8_t *frame;
	size_t frame_len;
};

/* Parses and checks descriptor type and version against the suite.
 * Returns RSN_RX_OK or an enum rsn_rx_err (already logged). */
int rsn_key_parse(const struct rsn_suite *s, const uint8_t *frame, size_t len,
		  struct rsn_key_rx *rx, const char *peer);

/* Returns RSN_RX_OK, RSN_RX_E_MIC or RSN_RX_E_INTERNAL. */
int rsn_key_verify_mic(const struct rsn_suite *s, const struct crypto_ptk *ptk,
		       const struct rsn_key_rx *rx);

/* Unwraps the key data with the KEK into out (RSN_KEY_DATA_MAX bytes).
 * Returns RSN_RX_OK or RSN_RX_E_KEY_DATA. */
int rsn_key_decrypt(const struct crypto_ptk *ptk, const struct rsn_key_rx *rx, uint8_t *out,
		    size_t *out_len);

/* PTK for this suite; aa is the authenticator's address. Returns 0 or a
 * negative errno. */
int rsn_ptk_derive(const struct rsn_suite *s, const struct rsn_config *cfg, const uint8_t *aa,
		   const uint8_t *spa, const uint8_t *anonce, const uint8_t *snonce,
		   struct crypto_ptk *ptk);

/* Whether the element found in key data (NULL if none) is the configured
 * one (len 0 if none), octet for octet. */
bool rsn_elem_matches(const uint8_t *found, size_t found_len, const uint8_t *want,
		      size_t want_len);

/* The RSNE and RSNXE a handshake message carries against the ones it must
 * repeat octet for octet: message 2 against the (Re)Association Request
 * (IEEE 802.11-2020 12.7.6.3), message 3 against the Beacon or Probe
 * Response the station heard (12.7.6.4). The RSNXE is compared when either
 * side has one: present on one side only is a difference too. Any
 * difference ends the handshake with reason 17 as a possible downgrade. */
enum rsn_elem_check {
	RSN_ELEMS_MATCH = 0,
	RSN_ELEMS_NO_RSNE,	 /* the message carries no RSNE */
	RSN_ELEMS_RSNE_DIFFERS,
	RSN_ELEMS_RSNXE_ADDED,	 /* in the message only */
	RSN_ELEMS_RSNXE_REMOVED, /* expected, missing from the message */
	RSN_ELEMS_RSNXE_DIFFERS,
};

/* found_*: from the message's key data (NULL if absent); want_*: the
 * expected elements (length 0 if absent). */
enum rsn_elem_check rsn_elems_compare(const uint8_t *found_rsne, size_t found_rsne_len,
				      const uint8_t *found_rsnxe, size_t found_rsnxe_len,
				      const uint8_t *want_rsne, size_t want_rsne_len,
				      const uint8_t *want_rsnxe, size_t want_rsnxe_len);
/* A static text for a difference in message msg (2 or 3). */
const char *rsn_elems_text(enum rsn_elem_check c, int msg);

/* ops->get_random if set, else the crypto DRBG. Returns 0 or -EIO. */
int rsn_random(const struct rsn_ops *ops, void *ctx, uint8_t *buf, size_t len);

#endif
