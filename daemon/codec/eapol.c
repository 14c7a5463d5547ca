/* EAPOL header and EAPOL-Key frames. */
#include "daemon/codec/eapol.h"

#include "daemon/codec/codec_err.h"
#include "daemon/codec/codec_wbuf.h"

/* AES key wrap output: at least two 64-bit blocks plus the IV block. */
#define KEY_WRAP_MIN_LEN 24
#define KEY_WRAP_BLOCK 8

int eapol_parse(const uint8_t *frame, size_t len, struct eapol_hdr *out)
{
	struct rbuf r = rbuf_init(frame, len);

	*out = (struct eapol_hdr){ 0 };
	if (len < EAPOL_HDR_LEN)
		return CODEC_E_TRUNCATED;
	out->version = rbuf_u8(&r);
	out->type = rbuf_u8(&r);
	out->body_len = rbuf_be16(&r);
	if (out->version < EAPOL_VERSION_2001 || out->version > EAPOL_VERSION_2010)
		return CODEC_E_MALFORMED;
	out->body = rbuf_take(&r, out->body_len);
	if (!out->body)
		return CODEC_E_OVERRUN;
	out->padding_len = rbuf_left(&r);
	if (out->type > EAPOL_TYPE_ANNOUNCE_REQ)
		return CODEC_E_UNSUPPORTED;
	return CODEC_OK;
}

int eapol_build(struct wbuf *w, uint8_t version, uint8_t type, const uint8_t *body,
		size_t body_len)
{
	if (body_len > 0xffff)
		return CODEC_E_BAD_LENGTH;
	if (body_len && !body)
		return CODEC_E_INVALID_ARG;
	wbuf_u8(w, version);
	wbuf_u8(w, type);
	wbuf_be16(w, (uint16_t)body_len);
	wbuf_put(w, body, body_len);
	return codec_wbuf_result(w);
}

struct eapol_key_info eapol_key_info_decode(uint16_t v)
{
	struct eapol_key_info i = {
		.version = v & EAPOL_KEY_INFO_VERSION_MASK,
		.pairwise = v & EAPOL_KEY_INFO_PAIRWISE,
		.wpa_key_index = (v & EAPOL_KEY_INFO_WPA_INDEX_MASK) >> EAPOL_KEY_INFO_WPA_INDEX_SHIFT,
		.install = v & EAPOL_KEY_INFO_INSTALL,
		.ack = v & EAPOL_KEY_INFO_ACK,
		.mic = v & EAPOL_KEY_INFO_MIC,
		.secure = v & EAPOL_KEY_INFO_SECURE,
		.error = v & EAPOL_KEY_INFO_ERROR,
		.request = v & EAPOL_KEY_INFO_REQUEST,
		.encrypted = v & EAPOL_KEY_INFO_ENCR_KEY_DATA,
		.smk = v & EAPOL_KEY_INFO_SMK,
	};
	return i;
}

uint16_t eapol_key_info_encode(const struct eapol_key_info *i)
{
	uint16_t v = (uint16_t)(i->version & EAPOL_KEY_INFO_VERSION_MASK);

	v |= (uint16_t)((i->wpa_key_index << EAPOL_KEY_INFO_WPA_INDEX_SHIFT) &
			EAPOL_KEY_INFO_WPA_INDEX_MASK);
	v |= i->pairwise ? EAPOL_KEY_INFO_PAIRWISE : 0;
	v |= i->install ? EAPOL_KEY_INFO_INSTALL : 0;
	v |= i->ack ? EAPOL_KEY_INFO_ACK : 0;
	v |= i->mic ? EAPOL_KEY_INFO_MIC : 0;
	v |= i->secure ? EAPOL_KEY_INFO_SECURE : 0;
	v |= i->error ? EAPOL_KEY_INFO_ERROR : 0;
	v |= i->request ? EAPOL_KEY_INFO_REQUEST : 0;
	v |= i->encrypted ? EAPOL_KEY_INFO_ENCR_KEY_DATA : 0;
	v |= i->smk ? EAPOL_KEY_INFO_SMK : 0;
	return v;
}

static bool mic_len_valid(size_t mic_len)
{
	return mic_len == 0 || mic_len == 16 || mic_len == 24 || mic_len == 32;
}

/* Descriptor version must be one the descriptor type defines. */
static bool key_version_valid(uint8_t descriptor, uint8_t version)
{
	if (descriptor == EAPOL_KEY_DESC_WPA)
		return version == EAPOL_KEY_VER_HMAC_MD5_RC4 || version == EAPOL_KEY_VER_HMAC_SHA1_AES;
	return version <= EAPOL_KEY_VER_AES_128_CMAC;
}

/* AES-key-wrapped data comes in 8-octet blocks, at least three of them.
 * RC4 (version 1) and FILS AEAD (no MIC) have no such shape. */
static bool key_data_shape_ok(const struct eapol_key *k)
{
	if (!k->info.encrypted || k->info.version == EAPOL_KEY_VER_HMAC_MD5_RC4 || k->mic_len == 0)
		return true;
	return k->key_data_len >= KEY_WRAP_MIN_LEN && k->key_data_len % KEY_WRAP_BLOCK == 0;
}

int eapol_key_parse(const uint8_t *body, size_t len, size_t mic_len, struct eapol_key *out)
{
	struct rbuf r = rbuf_init(body, len);

	*out = (struct eapol_key){ 0 };
	if (!mic_len_valid(mic_len))
		return CODEC_E_INVALID_ARG;
	if (len < 1)
		return CODEC_E_TRUNCATED;
	out->descriptor = rbuf_u8(&r);
	if (out->descriptor != EAPOL_KEY_DESC_RSN && out->descriptor != EAPOL_KEY_DESC_WPA)
		return CODEC_E_UNSUPPORTED;
	if (len < EAPOL_KEY_FIXED_LEN + mic_len)
		return CODEC_E_TRUNCATED;
	out->key_info = rbuf_be16(&r);
	out->info = eapol_key_info_decode(out->key_info);
	if (!key_version_valid(out->descriptor, out->info.version))
		return CODEC_E_MALFORMED;
	out->key_length = rbuf_be16(&r);
	out->replay_counter = rbuf_be64(&r);
	out->nonce = rbuf_take(&r, EAPOL_KEY_NONCE_LEN);
	out->iv = rbuf_take(&r, EAPOL_KEY_IV_LEN);
	out->rsc = rbuf_take(&r, EAPOL_KEY_RSC_LEN);
	out->reserved = rbuf_take(&r, EAPOL_KEY_RESERVED_LEN);
	out->mic_len = mic_len;
	out->mic = mic_len ? rbuf_take(&r, mic_len) : NULL;
	out->key_data_len = rbuf_be16(&r);
	if (out->key_data_len > rbuf_left(&r))
		return CODEC_E_OVERRUN;
	if (out->key_data_len < rbuf_left(&r))
		return CODEC_E_MALFORMED;
	out->key_data = rbuf_take(&r, out->key_data_len);
	if (r.bad)
		return CODEC_E_TRUNCATED;
	return key_data_shape_ok(out) ? CODEC_OK : CODEC_E_MALFORMED;
}

int eapol_key_frame_parse(const uint8_t *frame, size_t len, size_t mic_len,
			  struct eapol_hdr *hdr, struct eapol_key *key)
{
	int err = eapol_parse(frame, len, hdr);
	if (err)
		return err;
	if (hdr->type != EAPOL_TYPE_KEY)
		return CODEC_E_UNSUPPORTED;
	return eapol_key_parse(hdr->body, hdr->body_len, mic_len, key);
}

int eapol_key_frame_build(struct wbuf *w, uint8_t eapol_version, const struct eapol_key *k,
			  size_t *mic_offset)
{
	if (!mic_len_valid(k->mic_len) || (k->key_data_len && !k->key_data))
		return CODEC_E_INVALID_ARG;
	size_t body_len = EAPOL_KEY_FIXED_LEN + k->mic_len + k->key_data_len;
	if (body_len > 0xffff)
		return CODEC_E_BAD_LENGTH;

	wbuf_u8(w, eapol_version);
	wbuf_u8(w, EAPOL_TYPE_KEY);
	wbuf_be16(w, (uint16_t)body_len);
	wbuf_u8(w, k->descriptor);
	wbuf_be16(w, k->key_info);
	wbuf_be16(w, k->key_length);
	wbuf_be64(w, k->replay_counter);
	codec_put_or_zero(w, k->nonce, EAPOL_KEY_NONCE_LEN);
	codec_put_or_zero(w, k->iv, EAPOL_KEY_IV_LEN);
	codec_put_or_zero(w, k->rsc, EAPOL_KEY_RSC_LEN);
	codec_put_or_zero(w, k->reserved, EAPOL_KEY_RESERVED_LEN);
	if (mic_offset)
		*mic_offset = w->len;
	codec_put_or_zero(w, k->mic, k->mic_len);
	wbuf_be16(w, k->key_data_len);
	wbuf_put(w, k->key_data, k->key_data_len);
	return codec_wbuf_result(w);
}
