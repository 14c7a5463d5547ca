/* EAPOL-Key MIC variants: HMAC-SHA1-128, AES-CMAC-128, HMAC-SHA256-128 and
 * HMAC-SHA384-192, computed with the MIC field read as zeros. */
#include "daemon/crypto/eapol_mic.h"

#include <errno.h>
#include <string.h>

#include "daemon/crypto/aes.h"
#include "daemon/crypto/hash.h"
#include "daemon/crypto/secure.h"

size_t crypto_eapol_mic_len(enum crypto_eapol_mic_alg alg)
{
	switch (alg) {
	case CRYPTO_EAPOL_MIC_HMAC_SHA1_128:
	case CRYPTO_EAPOL_MIC_AES_CMAC_128:
	case CRYPTO_EAPOL_MIC_HMAC_SHA256_128:
		return 16;
	case CRYPTO_EAPOL_MIC_HMAC_SHA384_192:
		return 24;
	case CRYPTO_EAPOL_MIC_HMAC_SHA512_256:
		return 32;
	}
	return 0;
}

size_t crypto_eapol_kck_len(enum crypto_eapol_mic_alg alg)
{
	/* The KCK is as long as the MIC for every variant defined so far. */
	return crypto_eapol_mic_len(alg);
}

int crypto_eapol_mic_compute(enum crypto_eapol_mic_alg alg, const uint8_t *kck,
			     size_t kck_len, const uint8_t *frame, size_t frame_len,
			     uint8_t *mic)
{
	static const uint8_t zeros[CRYPTO_EAPOL_MIC_MAX_LEN];
	uint8_t full[CRYPTO_HASH_MAX_LEN];
	size_t mic_len = crypto_eapol_mic_len(alg);
	struct crypto_iov parts[3];
	size_t tail_off;
	int ret;

	if (!mic_len || !kck || kck_len != crypto_eapol_kck_len(alg) || !frame || !mic ||
	    frame_len < CRYPTO_EAPOL_MIC_OFFSET + mic_len + 2)
		return -EINVAL;

	tail_off = CRYPTO_EAPOL_MIC_OFFSET + mic_len;
	parts[0] = (struct crypto_iov){ frame, CRYPTO_EAPOL_MIC_OFFSET };
	parts[1] = (struct crypto_iov){ zeros, mic_len };
	parts[2] = (struct crypto_iov){ frame + tail_off, frame_len - tail_off };

	switch (alg) {
	case CRYPTO_EAPOL_MIC_HMAC_SHA1_128:
		ret = crypto_hmac_vec(CRYPTO_HASH_SHA1, kck, kck_len, parts, 3, full);
		break;
	case CRYPTO_EAPOL_MIC_AES_CMAC_128:
		ret = crypto_aes_cmac_vec(kck, kck_len, parts, 3, full);
		break;
	case CRYPTO_EAPOL_MIC_HMAC_SHA256_128:
		ret = crypto_hmac_vec(CRYPTO_HASH_SHA256, kck, kck_len, parts, 3, full);
		break;
	case CRYPTO_EAPOL_MIC_HMAC_SHA384_192:
		ret = crypto_hmac_vec(CRYPTO_HASH_SHA384, kck, kck_len, parts, 3, full);
		break;
	case CRYPTO_EAPOL_MIC_HMAC_SHA512_256:
		ret = crypto_hmac_vec(CRYPTO_HASH_SHA512, kck, kck_len, parts, 3, full);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	if (!ret)
		memcpy(mic, full, mic_len); /* truncation: the leftmost bytes */
	crypto_zero(full, sizeof(full));
	return ret;
}

int crypto_eapol_mic_verify(enum crypto_eapol_mic_alg alg, const uint8_t *kck, size_t kck_len,
			    const uint8_t *frame, size_t frame_len)
{
	uint8_t mic[CRYPTO_EAPOL_MIC_MAX_LEN];
	size_t mic_len = crypto_eapol_mic_len(alg);
	int ret;

	ret = crypto_eapol_mic_compute(alg, kck, kck_len, frame, frame_len, mic);
	if (!ret && !crypto_memeq(mic, frame + CRYPTO_EAPOL_MIC_OFFSET, mic_len))
		ret = -EBADMSG;
	crypto_zero(mic, sizeof(mic));
	return ret;
}
