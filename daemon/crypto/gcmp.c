/* GCMP-128 / GCMP-256 MPDU protection (IEEE 802.11-2020 12.5.5). */
#include "daemon/crypto/gcmp.h"

#include <errno.h>
#include <string.h>

#include "daemon/crypto/aead.h"
#include "daemon/crypto/ccmp.h"

int gcmp_build_nonce(const uint8_t *hdr, size_t hdr_len, uint64_t pn,
		     uint8_t nonce[GCMP_NONCE_LEN])
{
	uint8_t ccm_nonce[CCMP_NONCE_LEN];
	int ret;

	if (!nonce)
		return -EINVAL;
	/* Same A2 and PN as the CCM nonce, without the flags octet. */
	ret = ccmp_build_nonce(hdr, hdr_len, pn, ccm_nonce);
	if (ret)
		return ret;
	memcpy(nonce, ccm_nonce + 1, GCMP_NONCE_LEN);
	return 0;
}

int gcmp_encrypt(const uint8_t *tk, size_t tk_len, const uint8_t *hdr, size_t hdr_len,
		 uint64_t pn, uint8_t key_id, const uint8_t *plain, size_t plain_len,
		 uint8_t *out, size_t *out_len)
{
	uint8_t aad[CCMP_AAD_MAX_LEN], nonce[GCMP_NONCE_LEN];
	size_t aad_len;
	uint8_t *body;
	int ret;

	if (!tk || (tk_len != 16 && tk_len != 32) || !out || !out_len || (!plain && plain_len))
		return -EINVAL;
	ret = ccmp_build_aad(hdr, hdr_len, aad, &aad_len);
	if (!ret)
		ret = gcmp_build_nonce(hdr, hdr_len, pn, nonce);
	if (!ret)
		ret = ccmp_put_header(pn, key_id, out + hdr_len);
	if (ret)
		return ret;
	memcpy(out, hdr, hdr_len);
	out[1] |= 0x40; /* Protected */
	body = out + hdr_len + GCMP_HDR_LEN;
	ret = crypto_aes_gcm_encrypt(tk, tk_len, nonce, sizeof(nonce), aad, aad_len, plain,
				     plain_len, body, body + plain_len);
	if (ret)
		return ret;
	*out_len = hdr_len + GCMP_HDR_LEN + plain_len + GCMP_MIC_LEN;
	return 0;
}

int gcmp_decrypt(const uint8_t *tk, size_t tk_len, const uint8_t *frame, size_t len,
		 size_t hdr_len, uint8_t *plain, size_t *plain_len, uint64_t *pn_out)
{
	uint8_t aad[CCMP_AAD_MAX_LEN], nonce[GCMP_NONCE_LEN];
	size_t aad_len, body_len;
	const uint8_t *body;
	uint64_t pn;
	int ret;

	if (!tk || (tk_len != 16 && tk_len != 32) || !frame || !plain_len || hdr_len > len ||
	    len - hdr_len < GCMP_HDR_LEN + GCMP_MIC_LEN)
		return -EINVAL;
	body_len = len - hdr_len - GCMP_HDR_LEN - GCMP_MIC_LEN;
	if (!plain && body_len)
		return -EINVAL;
	ret = ccmp_get_header(frame + hdr_len, &pn, NULL);
	if (!ret)
		ret = ccmp_build_aad(frame, hdr_len, aad, &aad_len);
	if (!ret)
		ret = gcmp_build_nonce(frame, hdr_len, pn, nonce);
	if (ret)
		return ret;
	body = frame + hdr_len + GCMP_HDR_LEN;
	ret = crypto_aes_gcm_decrypt(tk, tk_len, nonce, sizeof(nonce), aad, aad_len, body,
				     body_len, body + body_len, plain);
	if (ret)
		return ret;
	*plain_len = body_len;
	if (pn_out)
		*pn_out = pn;
	return 0;
}
