/* CCMP-128 / CCMP-256 MPDU protection, with the AAD and nonce built as in
 * IEEE 802.11-2020 12.5.3.3.3 and 12.5.3.3.4. */
#include "daemon/crypto/ccmp.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "daemon/crypto/aead.h"

/* Frame Control bits, as a little-endian 16-bit value. */
#define FC_TYPE_MASK 0x000c
#define FC_TYPE_MGMT 0x0000
#define FC_TYPE_DATA 0x0008
#define FC_SUBTYPE_LOW 0x0070 /* subtype bits b4..b6 */
#define FC_SUBTYPE_QOS 0x0080 /* subtype bit b7: QoS Data */
#define FC_TODS 0x0100
#define FC_FROMDS 0x0200
#define FC_RETRY 0x0800
#define FC_PWRMGT 0x1000
#define FC_MOREDATA 0x2000
#define FC_PROTECTED 0x4000
#define FC_ORDER 0x8000

#define HDR_BASE_LEN 24
#define ADDR_LEN 6
#define SC_OFFSET 22
#define A2_OFFSET 10
#define KEYID_EXT_IV 0x20

struct mac_layout {
	uint16_t fc;
	bool mgmt;
	bool a4;  /* Address 4 follows SC */
	bool qos; /* QoS Control present */
	size_t qc_off;
};

/* Work out where the fields are from FC and check hdr_len against it. */
static int parse_header(const uint8_t *hdr, size_t hdr_len, struct mac_layout *l)
{
	size_t want = HDR_BASE_LEN;

	if (!hdr || hdr_len < HDR_BASE_LEN)
		return -EINVAL;
	l->fc = (uint16_t)(hdr[0] | hdr[1] << 8);
	if (l->fc & 0x0003) /* protocol version 0 only */
		return -EINVAL;
	switch (l->fc & FC_TYPE_MASK) {
	case FC_TYPE_MGMT:
		l->mgmt = true;
		l->a4 = false;
		l->qos = false;
		if (l->fc & FC_ORDER)
			want += 4; /* HT Control */
		break;
	case FC_TYPE_DATA:
		l->mgmt = false;
		l->a4 = (l->fc & (FC_TODS | FC_FROMDS)) == (FC_TODS | FC_FROMDS);
		l->qos = (l->fc & FC_SUBTYPE_QOS) != 0;
		if (l->a4)
			want += ADDR_LEN;
		l->qc_off = want;
		if (l->qos) {
			want += 2;
			if (l->fc & FC_ORDER)
				want += 4; /* HT Control */
		}
		break;
	default: /* Control and Extension frames are never protected this way */
		return -EINVAL;
	}
	return hdr_len == want ? 0 : -EINVAL;
}

int ccmp_build_aad(const uint8_t *hdr, size_t hdr_len, uint8_t aad[CCMP_AAD_MAX_LEN],
		   size_t *aad_len)
{
	struct mac_layout l;
	uint16_t fc;
	size_t pos;
	int ret;

	if (!aad || !aad_len)
		return -EINVAL;
	ret = parse_header(hdr, hdr_len, &l);
	if (ret)
		return ret;

	fc = l.fc & (uint16_t)~(FC_RETRY | FC_PWRMGT | FC_MOREDATA);
	fc |= FC_PROTECTED;
	if (!l.mgmt)
		fc &= (uint16_t)~FC_SUBTYPE_LOW;
	if (l.qos)
		fc &= (uint16_t)~FC_ORDER;
	aad[0] = (uint8_t)(fc & 0xff);
	aad[1] = (uint8_t)(fc >> 8);
	memcpy(aad + 2, hdr + 4, 3 * ADDR_LEN); /* A1 A2 A3 */
	aad[20] = hdr[SC_OFFSET] & 0x0f;	/* fragment number only */
	aad[21] = 0;
	pos = 22;
	if (l.a4) {
		memcpy(aad + pos, hdr + HDR_BASE_LEN, ADDR_LEN);
		pos += ADDR_LEN;
	}
	if (l.qos) {
		aad[pos++] = hdr[l.qc_off] & 0x0f; /* TID only */
		aad[pos++] = 0;
	}
	*aad_len = pos;
	return 0;
}

static void put_pn_be(uint64_t pn, uint8_t out[6])
{
	for (int k = 5; k >= 0; k--) {
		out[k] = (uint8_t)(pn & 0xff);
		pn >>= 8;
	}
}

int ccmp_build_nonce(const uint8_t *hdr, size_t hdr_len, uint64_t pn,
		     uint8_t nonce[CCMP_NONCE_LEN])
{
	struct mac_layout l;
	int ret;

	if (!nonce || pn > CCMP_PN_MAX)
		return -EINVAL;
	ret = parse_header(hdr, hdr_len, &l);
	if (ret)
		return ret;
	nonce[0] = 0;
	if (l.qos)
		nonce[0] = hdr[l.qc_off] & 0x0f;
	if (l.mgmt)
		nonce[0] |= 0x10;
	memcpy(nonce + 1, hdr + A2_OFFSET, ADDR_LEN);
	put_pn_be(pn, nonce + 7);
	return 0;
}

int ccmp_put_header(uint64_t pn, uint8_t key_id, uint8_t out[CCMP_HDR_LEN])
{
	if (!out || pn > CCMP_PN_MAX || key_id > 3)
		return -EINVAL;
	out[0] = (uint8_t)(pn & 0xff);
	out[1] = (uint8_t)((pn >> 8) & 0xff);
	out[2] = 0;
	out[3] = (uint8_t)(KEYID_EXT_IV | key_id << 6);
	out[4] = (uint8_t)((pn >> 16) & 0xff);
	out[5] = (uint8_t)((pn >> 24) & 0xff);
	out[6] = (uint8_t)((pn >> 32) & 0xff);
	out[7] = (uint8_t)((pn >> 40) & 0xff);
	return 0;
}

int ccmp_get_header(const uint8_t in[CCMP_HDR_LEN], uint64_t *pn, uint8_t *key_id)
{
	if (!in || !pn || !(in[3] & KEYID_EXT_IV))
		return -EINVAL;
	*pn = (uint64_t)in[0] | (uint64_t)in[1] << 8 | (uint64_t)in[4] << 16 |
	      (uint64_t)in[5] << 24 | (uint64_t)in[6] << 32 | (uint64_t)in[7] << 40;
	if (key_id)
		*key_id = in[3] >> 6;
	return 0;
}

static int ccmp_seal(const uint8_t *tk, size_t tk_len, size_t mic_len, const uint8_t *hdr,
		     size_t hdr_len, uint64_t pn, uint8_t key_id, const uint8_t *plain,
		     size_t plain_len, uint8_t *out, size_t *out_len)
{
	uint8_t aad[CCMP_AAD_MAX_LEN], nonce[CCMP_NONCE_LEN];
	size_t aad_len;
	uint8_t *body;
	int ret;

	if (!tk || !out || !out_len || (!plain && plain_len))
		return -EINVAL;
	ret = ccmp_build_aad(hdr, hdr_len, aad, &aad_len);
	if (!ret)
		ret = ccmp_build_nonce(hdr, hdr_len, pn, nonce);
	if (!ret)
		ret = ccmp_put_header(pn, key_id, out + hdr_len);
	if (ret)
		return ret;
	memcpy(out, hdr, hdr_len);
	out[1] |= FC_PROTECTED >> 8;
	body = out + hdr_len + CCMP_HDR_LEN;
	ret = crypto_aes_ccm_encrypt(tk, tk_len, nonce, sizeof(nonce), aad, aad_len, plain,
				     plain_len, body, body + plain_len, mic_len);
	if (ret)
		return ret;
	*out_len = hdr_len + CCMP_HDR_LEN + plain_len + mic_len;
	return 0;
}

static int ccmp_open(const uint8_t *tk, size_t tk_len, size_t mic_len, const uint8_t *frame,
		     size_t len, size_t hdr_len, uint8_t *plain, size_t *plain_len,
		     uint64_t *pn_out)
{
	uint8_t aad[CCMP_AAD_MAX_LEN], nonce[CCMP_NONCE_LEN];
	size_t aad_len, body_len;
	uint64_t pn;
	const uint8_t *body;
	int ret;

	if (!tk || !frame || !plain_len || hdr_len > len || len - hdr_len < CCMP_HDR_LEN + mic_len)
		return -EINVAL;
	body_len = len - hdr_len - CCMP_HDR_LEN - mic_len;
	if (!plain && body_len)
		return -EINVAL;
	ret = ccmp_get_header(frame + hdr_len, &pn, NULL);
	if (!ret)
		ret = ccmp_build_aad(frame, hdr_len, aad, &aad_len);
	if (!ret)
		ret = ccmp_build_nonce(frame, hdr_len, pn, nonce);
	if (ret)
		return ret;
	body = frame + hdr_len + CCMP_HDR_LEN;
	ret = crypto_aes_ccm_decrypt(tk, tk_len, nonce, sizeof(nonce), aad, aad_len, body,
				     body_len, body + body_len, mic_len, plain);
	if (ret)
		return ret;
	*plain_len = body_len;
	if (pn_out)
		*pn_out = pn;
	return 0;
}

int ccmp_encrypt(const uint8_t tk[16], const uint8_t *hdr, size_t hdr_len, uint64_t pn,
		 uint8_t key_id, const uint8_t *plain, size_t plain_len, uint8_t *out,
		 size_t *out_len)
{
	return ccmp_seal(tk, 16, CCMP_MIC_LEN, hdr, hdr_len, pn, key_id, plain, plain_len, out,
			 out_len);
}

int ccmp_decrypt(const uint8_t tk[16], const uint8_t *frame, size_t len, size_t hdr_len,
		 uint8_t *plain, size_t *plain_len, uint64_t *pn_out)
{
	return ccmp_open(tk, 16, CCMP_MIC_LEN, frame, len, hdr_len, plain, plain_len, pn_out);
}

int ccmp256_encrypt(const uint8_t tk[32], const uint8_t *hdr, size_t hdr_len, uint64_t pn,
		    uint8_t key_id, const uint8_t *plain, size_t plain_len, uint8_t *out,
		    size_t *out_len)
{
	return ccmp_seal(tk, 32, CCMP256_MIC_LEN, hdr, hdr_len, pn, key_id, plain, plain_len,
			 out, out_len);
}

int ccmp256_decrypt(const uint8_t tk[32], const uint8_t *frame, size_t len, size_t hdr_len,
		    uint8_t *plain, size_t *plain_len, uint64_t *pn_out)
{
	return ccmp_open(tk, 32, CCMP256_MIC_LEN, frame, len, hdr_len, plain, plain_len, pn_out);
}
