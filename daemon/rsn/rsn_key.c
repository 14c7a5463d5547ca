/* EAPOL-Key frames for the RSN handshakes: suite selection, configuration
 * copy, build, parse, MIC and key data wrapping. */
#define LOG_TAG "rsn"

#include "daemon/rsn/rsn_key.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/codec/kde.h"
#include "daemon/core/bytes.h"
#include "daemon/core/log.h"
#include "daemon/crypto/keywrap.h"
#include "daemon/crypto/secure.h"

#define KEK_LEN 16
#define PMK_MIN_LEN 16
#define MAX_ATTEMPTS_CAP 16

const char *rsn_addr_str(const uint8_t addr[RSN_ADDR_LEN], char buf[RSN_ADDR_STR_LEN])
{
	return log_addr_str(addr, buf);
}

size_t rsn_cipher_key_len(uint32_t cipher)
{
	switch (cipher) {
	case RSN_CIPHER_CCMP_128:
	case RSN_CIPHER_GCMP_128:
	case RSN_CIPHER_BIP_CMAC_128:
	case RSN_CIPHER_BIP_GMAC_128:
		return 16;
	case RSN_CIPHER_CCMP_256:
	case RSN_CIPHER_GCMP_256:
	case RSN_CIPHER_BIP_GMAC_256:
	case RSN_CIPHER_BIP_CMAC_256:
	case RSN_CIPHER_TKIP: /* group only: legacy APs in mixed mode */
		return 32;
	default:
		return 0;
	}
}

static bool pairwise_ok(uint32_t c)
{
	return c == RSN_CIPHER_CCMP_128 || c == RSN_CIPHER_GCMP_128 || c == RSN_CIPHER_CCMP_256 ||
	       c == RSN_CIPHER_GCMP_256;
}

static bool group_mgmt_ok(uint32_t c)
{
	return c == RSN_CIPHER_BIP_CMAC_128 || c == RSN_CIPHER_BIP_GMAC_128 ||
	       c == RSN_CIPHER_BIP_GMAC_256 || c == RSN_CIPHER_BIP_CMAC_256;
}

/* The AKMs whose 4-way handshake this module runs (802.11-2020 Table 12-11):
 * descriptor version, MIC and PTK derivation. */
static int akm_params(struct rsn_suite *s, uint32_t akm, size_t pmk_len)
{
	switch (akm) {
	case RSN_AKM_8021X:
	case RSN_AKM_PSK:
		s->key_ver = EAPOL_KEY_VER_HMAC_SHA1_AES;
		s->mic_alg = CRYPTO_EAPOL_MIC_HMAC_SHA1_128;
		s->ptk_spec.kdf = CRYPTO_PTK_PRF_SHA1;
		return 0;
	case RSN_AKM_8021X_SHA256:
	case RSN_AKM_PSK_SHA256:
		s->key_ver = EAPOL_KEY_VER_AES_128_CMAC;
		s->mic_alg = CRYPTO_EAPOL_MIC_AES_CMAC_128;
		s->ptk_spec.kdf = CRYPTO_PTK_KDF_SHA256;
		return 0;
	case RSN_AKM_SAE:
		s->key_ver = EAPOL_KEY_VER_AKM_DEFINED;
		s->mic_alg = CRYPTO_EAPOL_MIC_AES_CMAC_128;
		s->ptk_spec.kdf = CRYPTO_PTK_KDF_SHA256;
		return 0;
	case RSN_AKM_OWE:
		/* The OWE group's hash (12.7.1.7.2, Table 12-11), known here by
		 * the PMK's length: SHA-256 for group 19, SHA-384 for 20,
		 * SHA-512 for 21. */
		s->key_ver = EAPOL_KEY_VER_AKM_DEFINED;
		if (pmk_len == 64) {
			s->mic_alg = CRYPTO_EAPOL_MIC_HMAC_SHA512_256;
			s->ptk_spec.kdf = CRYPTO_PTK_KDF_SHA512;
			return 0;
		}
		if (pmk_len == 48) {
			s->mic_alg = CRYPTO_EAPOL_MIC_HMAC_SHA384_192;
			s->ptk_spec.kdf = CRYPTO_PTK_KDF_SHA384;
			return 0;
		}
		s->mic_alg = CRYPTO_EAPOL_MIC_HMAC_SHA256_128;
		s->ptk_spec.kdf = CRYPTO_PTK_KDF_SHA256;
		return pmk_len == 32 || pmk_len == 0 ? 0 : -ENOTSUP;
	default:
		return -ENOTSUP;
	}
}

int rsn_suite_init(struct rsn_suite *s, const struct rsn_config *cfg)
{
	*s = (struct rsn_suite){ 0 };
	if (akm_params(s, cfg->akm, cfg->pmk_len))
		return -ENOTSUP;
	if (!pairwise_ok(cfg->pairwise_cipher) || !rsn_cipher_key_len(cfg->group_cipher))
		return -ENOTSUP;
	if (cfg->group_mgmt_cipher && !group_mgmt_ok(cfg->group_mgmt_cipher))
		return -ENOTSUP;
	s->akm = cfg->akm;
	s->mic_len = crypto_eapol_mic_len(s->mic_alg);
	s->pairwise_cipher = cfg->pairwise_cipher;
	s->tk_len = rsn_cipher_key_len(cfg->pairwise_cipher);
	s->group_cipher = cfg->group_cipher;
	s->gtk_len = rsn_cipher_key_len(cfg->group_cipher);
	s->group_mgmt_cipher = cfg->group_mgmt_cipher;
	s->igtk_len = cfg->group_mgmt_cipher ? rsn_cipher_key_len(cfg->group_mgmt_cipher) : 0;
	s->ptk_spec.kck_len = crypto_eapol_kck_len(s->mic_alg);
	s->ptk_spec.kek_len = s->ptk_spec.kdf == CRYPTO_PTK_KDF_SHA384 ||
					      s->ptk_spec.kdf == CRYPTO_PTK_KDF_SHA512
				      ? 2 * KEK_LEN
				      : KEK_LEN;
	s->ptk_spec.tk_len = s->tk_len;
	s->ptk_spec.kdk_len = 0;
	return 0;
}

/* A whole RSN element whose body the codec accepts. */
static bool rsne_valid(const uint8_t *e, size_t len)
{
	struct ie_rsn rsn;

	if (!e || len < 2 || len > RSN_ELEM_MAX_LEN || e[0] != WLAN_EID_RSN ||
	    (size_t)e[1] + 2 != len)
		return false;
	return ie_parse_rsn(e + 2, e[1], &rsn) == CODEC_OK;
}

/* An optional RSNXE: absent, or a whole element of ID 244. */
static bool rsnxe_valid(const uint8_t *e, size_t len)
{
	if (!len)
		return true;
	return e && len >= 3 && len <= RSN_ELEM_MAX_LEN && e[0] == WLAN_EID_RSNX &&
	       (size_t)e[1] + 2 == len;
}

bool rsn_elem_matches(const uint8_t *found, size_t found_len, const uint8_t *want,
		      size_t want_len)
{
	if (!found)
		return want_len == 0;
	return found_len == want_len && memcmp(found, want, want_len) == 0;
}

enum rsn_elem_check rsn_elems_compare(const uint8_t *found_rsne, size_t found_rsne_len,
				      const uint8_t *found_rsnxe, size_t found_rsnxe_len,
				      const uint8_t *want_rsne, size_t want_rsne_len,
				      const uint8_t *want_rsnxe, size_t want_rsnxe_len)
{
	if (!found_rsne)
		return RSN_ELEMS_NO_RSNE;
	if (!rsn_elem_matches(found_rsne, found_rsne_len, want_rsne, want_rsne_len))
		return RSN_ELEMS_RSNE_DIFFERS;
	if (found_rsnxe && !want_rsnxe_len)
		return RSN_ELEMS_RSNXE_ADDED;
	if (!found_rsnxe && want_rsnxe_len)
		return RSN_ELEMS_RSNXE_REMOVED;
	if (!rsn_elem_matches(found_rsnxe, found_rsnxe_len, want_rsnxe, want_rsnxe_len))
		return RSN_ELEMS_RSNXE_DIFFERS;
	return RSN_ELEMS_MATCH;
}

const char *rsn_elems_text(enum rsn_elem_check c, int msg)
{
	bool m3 = msg == 3;

	switch (c) {
	case RSN_ELEMS_MATCH:
		return "the RSN elements match";
	case RSN_ELEMS_NO_RSNE:
		return m3 ? "message 3 carries no RSNE" : "message 2 carries no RSNE";
	case RSN_ELEMS_RSNE_DIFFERS:
		return m3 ? "the RSNE in message 3 differs from the Beacon/Probe Response"
			  : "the RSNE in message 2 differs from the (Re)Association Request";
	case RSN_ELEMS_RSNXE_ADDED:
		return m3 ? "message 3 carries an RSNXE the Beacon/Probe Response did not"
			  : "message 2 carries an RSNXE the (Re)Association Request did not";
	case RSN_ELEMS_RSNXE_REMOVED:
		return m3 ? "message 3 lacks the RSNXE of the Beacon/Probe Response"
			  : "message 2 lacks the RSNXE of the (Re)Association Request";
	case RSN_ELEMS_RSNXE_DIFFERS:
		return m3 ? "the RSNXE in message 3 differs from the Beacon/Probe Response"
			  : "the RSNXE in message 2 differs from the (Re)Association Request";
	}
	return "the RSN elements differ";
}

static void timing_defaults(struct rsn_timing *t)
{
	if (!t->handshake_timeout_ms)
		t->handshake_timeout_ms = 2000;
	if (!t->retry_first_ms)
		t->retry_first_ms = 100;
	if (!t->retry_ms)
		t->retry_ms = 1000;
	if (!t->group_retry_first_ms)
		t->group_retry_first_ms = 500;
	if (!t->max_attempts)
		t->max_attempts = 4;
	if (t->max_attempts > MAX_ATTEMPTS_CAP)
		t->max_attempts = MAX_ATTEMPTS_CAP;
}

int rsn_conf_copy(struct rsn_conf_store *dst, const struct rsn_config *src)
{
	bool late_pmk = !src->pmk && !src->pmk_len;
	if (!late_pmk && (!src->pmk || src->pmk_len < PMK_MIN_LEN || src->pmk_len > RSN_PMK_MAX_LEN))
		return -EINVAL;
	if (!rsne_valid(src->sta_rsne, src->sta_rsne_len) ||
	    !rsne_valid(src->ap_rsne, src->ap_rsne_len))
		return -EINVAL;
	if (!rsnxe_valid(src->sta_rsnxe, src->sta_rsnxe_len) ||
	    !rsnxe_valid(src->ap_rsnxe, src->ap_rsnxe_len))
		return -EINVAL;
	if (src->eapol_version > EAPOL_VERSION_2010)
		return -EINVAL;
	dst->cfg = *src;
	if (!late_pmk)
		memcpy(dst->pmk, src->pmk, src->pmk_len);
	if (src->pmkid)
		memcpy(dst->pmkid, src->pmkid, RSN_PMKID_LEN);
	dst->cfg.pmkid = src->pmkid ? dst->pmkid : NULL;
	memcpy(dst->sta_rsne, src->sta_rsne, src->sta_rsne_len);
	memcpy(dst->ap_rsne, src->ap_rsne, src->ap_rsne_len);
	dst->cfg.pmk = dst->pmk;
	dst->cfg.sta_rsne = dst->sta_rsne;
	dst->cfg.ap_rsne = dst->ap_rsne;
	if (src->sta_rsnxe_len)
		memcpy(dst->sta_rsnxe, src->sta_rsnxe, src->sta_rsnxe_len);
	if (src->ap_rsnxe_len)
		memcpy(dst->ap_rsnxe, src->ap_rsnxe, src->ap_rsnxe_len);
	dst->cfg.sta_rsnxe = src->sta_rsnxe_len ? dst->sta_rsnxe : NULL;
	dst->cfg.ap_rsnxe = src->ap_rsnxe_len ? dst->ap_rsnxe : NULL;
	timing_defaults(&dst->cfg.timing);
	return 0;
}

int rsn_conf_set_pmk(struct rsn_conf_store *store, const uint8_t *pmk, size_t len,
		     const uint8_t *pmkid)
{
	if (!pmk || len < PMK_MIN_LEN || len > RSN_PMK_MAX_LEN)
		return -EINVAL;
	crypto_zero(store->pmk, sizeof(store->pmk));
	memcpy(store->pmk, pmk, len);
	store->cfg.pmk = store->pmk;
	store->cfg.pmk_len = len;
	crypto_zero(store->pmkid, sizeof(store->pmkid));
	if (pmkid)
		memcpy(store->pmkid, pmkid, RSN_PMKID_LEN);
	store->cfg.pmkid = pmkid ? store->pmkid : NULL;
	return 0;
}

void rsn_conf_clear(struct rsn_conf_store *store)
{
	crypto_zero(store, sizeof(*store));
}

/* Pads the plaintext (12.7.2: 0xdd then zeros to a multiple of 8, at least
 * 16 octets) and wraps it with the KEK into out. */
static int wrap_key_data(const struct crypto_ptk *ptk, const uint8_t *data, size_t len,
			 uint8_t *out, size_t *out_len)
{
	uint8_t plain[RSN_KEY_DATA_MAX - CRYPTO_KEYWRAP_OVERHEAD];
	struct wbuf w = wbuf_init(plain, sizeof(plain));
	int ret = -ENOSPC;

	wbuf_put(&w, data, len);
	if (kde_pad(&w, 0) == CODEC_OK) {
		ret = crypto_aes_wrap(ptk->kek, ptk->kek_len, plain, w.len, out);
		*out_len = w.len + CRYPTO_KEYWRAP_OVERHEAD;
	}
	crypto_zero(plain, sizeof(plain));
	return ret;
}

int rsn_key_build(const struct rsn_suite *s, uint8_t eapol_version, const struct rsn_key_tx *tx,
		  const struct crypto_ptk *ptk, uint8_t *out, size_t *out_len)
{
	uint8_t wrapped[RSN_KEY_DATA_MAX];
	uint16_t info = (uint16_t)(tx->key_info | s->key_ver);
	struct eapol_key k = {
		.descriptor = EAPOL_KEY_DESC_RSN,
		.key_info = info,
		.key_length = tx->key_length,
		.replay_counter = tx->replay_counter,
		.nonce = tx->nonce,
		.rsc = tx->rsc,
		.mic_len = s->mic_len,
		.key_data = tx->key_data,
		.key_data_len = (uint16_t)tx->key_data_len,
	};
	struct wbuf w = wbuf_init(out, RSN_FRAME_MAX);
	size_t mic_off = 0, wrapped_len = 0;
	int ret = 0;

	if ((info & (EAPOL_KEY_INFO_MIC | EAPOL_KEY_INFO_ENCR_KEY_DATA)) && !ptk)
		return -EINVAL;
	if (tx->key_data_len > RSN_KEY_DATA_PLAIN_MAX)
		return -ENOSPC;
	if (info & EAPOL_KEY_INFO_ENCR_KEY_DATA) {
		ret = wrap_key_data(ptk, tx->key_data, tx->key_data_len, wrapped, &wrapped_len);
		k.key_data = wrapped;
		k.key_data_len = (uint16_t)wrapped_len;
	}
	if (!ret && eapol_key_frame_build(&w, eapol_version, &k, &mic_off) != CODEC_OK)
		ret = -ENOSPC;
	if (!ret && (info & EAPOL_KEY_INFO_MIC))
		ret = crypto_eapol_mic_compute(s->mic_alg, ptk->kck, ptk->kck_len, out, w.len,
					       out + mic_off);
	*out_len = ret ? 0 : w.len;
	crypto_zero(wrapped, sizeof(wrapped));
	return ret;
}

int rsn_key_parse(const struct rsn_suite *s, const uint8_t *frame, size_t len,
		  struct rsn_key_rx *rx, const char *peer)
{
	int err;

	*rx = (struct rsn_key_rx){ 0 };
	err = eapol_parse(frame, len, &rx->hdr);
	if (err != CODEC_OK) {
		log_debug("%s: bad EAPOL header (%s)", peer, codec_strerror(err));
		return RSN_RX_E_MALFORMED;
	}
	if (rx->hdr.type != EAPOL_TYPE_KEY) {
		log_debug("%s: EAPOL packet type %u is not a key frame", peer, rx->hdr.type);
		return RSN_RX_E_NOT_KEY;
	}
	if (rx->hdr.body_len < 1 || rx->hdr.body[0] != EAPOL_KEY_DESC_RSN) {
		log_debug("%s: EAPOL-Key descriptor is not RSN", peer);
		return RSN_RX_E_DESCRIPTOR;
	}
	err = eapol_key_parse(rx->hdr.body, rx->hdr.body_len, s->mic_len, &rx->key);
	if (err != CODEC_OK) {
		log_debug("%s: bad EAPOL-Key frame (%s)", peer, codec_strerror(err));
		return RSN_RX_E_MALFORMED;
	}
	if (rx->key.info.version != s->key_ver) {
		log_debug("%s: key descriptor version %u, AKM wants %u", peer,
			  rx->key.info.version, s->key_ver);
		return RSN_RX_E_KEY_VERSION;
	}
	rx->frame = frame;
	rx->frame_len = EAPOL_HDR_LEN + (size_t)rx->hdr.body_len;
	return RSN_RX_OK;
}

int rsn_key_verify_mic(const struct rsn_suite *s, const struct crypto_ptk *ptk,
		       const struct rsn_key_rx *rx)
{
	int ret = crypto_eapol_mic_verify(s->mic_alg, ptk->kck, ptk->kck_len, rx->frame,
					  rx->frame_len);
	if (ret == -EBADMSG)
		return RSN_RX_E_MIC;
	return ret ? RSN_RX_E_INTERNAL : RSN_RX_OK;
}

int rsn_key_decrypt(const struct crypto_ptk *ptk, const struct rsn_key_rx *rx, uint8_t *out,
		    size_t *out_len)
{
	size_t n = rx->key.key_data_len;

	*out_len = 0;
	if (!rx->key.info.encrypted || n < 3 * CRYPTO_KEYWRAP_OVERHEAD || n % 8 ||
	    n > RSN_KEY_DATA_MAX + CRYPTO_KEYWRAP_OVERHEAD)
		return RSN_RX_E_KEY_DATA;
	if (crypto_aes_unwrap(ptk->kek, ptk->kek_len, rx->key.key_data, n, out))
		return RSN_RX_E_KEY_DATA;
	*out_len = n - CRYPTO_KEYWRAP_OVERHEAD;
	return RSN_RX_OK;
}

int rsn_ptk_derive(const struct rsn_suite *s, const struct rsn_config *cfg, const uint8_t *aa,
		   const uint8_t *spa, const uint8_t *anonce, const uint8_t *snonce,
		   struct crypto_ptk *ptk)
{
	return crypto_ptk_derive(&s->ptk_spec, cfg->pmk, cfg->pmk_len, aa, spa, anonce, snonce,
				 ptk);
}

int rsn_random(const struct rsn_ops *ops, void *ctx, uint8_t *buf, size_t len)
{
	if (ops->get_random)
		return ops->get_random(ctx, buf, len) ? -EIO : 0;
	return crypto_random(buf, len) ? -EIO : 0;
}
