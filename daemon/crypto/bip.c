/* BIP MIC computation (IEEE 802.11-2020 12.5.4.4, 12.5.4.5). */
#include "daemon/crypto/bip.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/crypto/aead.h"
#include "daemon/crypto/aes.h"
#include "daemon/crypto/secure.h"

#define MMIE_FIXED_LEN 10 /* EID, length, Key ID (2), IPN (6) */
#define IPN_LEN 6
#define AAD_LEN 20        /* FC (2) || A1 || A2 || A3 */
#define FC1_MASK 0xc7     /* clears Retry (b11), PwrMgt (b12), MoreData (b13) */
#define GMAC_NONCE_LEN 12

size_t bip_mic_len(enum bip_cipher c)
{
	switch (c) {
	case BIP_CMAC_128:
		return 8;
	case BIP_CMAC_256:
	case BIP_GMAC_128:
	case BIP_GMAC_256:
		return 16;
	}
	return 0;
}

size_t bip_key_len(enum bip_cipher c)
{
	switch (c) {
	case BIP_CMAC_128:
	case BIP_GMAC_128:
		return 16;
	case BIP_CMAC_256:
	case BIP_GMAC_256:
		return 32;
	}
	return 0;
}

const char *bip_cipher_name(enum bip_cipher c)
{
	switch (c) {
	case BIP_CMAC_128:
		return "BIP-CMAC-128";
	case BIP_CMAC_256:
		return "BIP-CMAC-256";
	case BIP_GMAC_128:
		return "BIP-GMAC-128";
	case BIP_GMAC_256:
		return "BIP-GMAC-256";
	}
	return "unknown";
}

static bool is_gmac(enum bip_cipher c)
{
	return c == BIP_GMAC_128 || c == BIP_GMAC_256;
}

/* The MIC input: AAD || body with the MIC field zeroed, in one buffer
 * (GMAC takes it all as AAD; CMAC over parts would save nothing here). */
static uint8_t *mic_input(const uint8_t *frame, size_t len, size_t mic_len, size_t *in_len)
{
	size_t body_len = len - BIP_MGMT_HDR_LEN;
	uint8_t *in = malloc(AAD_LEN + body_len);

	if (!in)
		return NULL;
	in[0] = frame[0];
	in[1] = frame[1] & FC1_MASK;
	memcpy(in + 2, frame + 4, 3 * 6);
	memcpy(in + AAD_LEN, frame + BIP_MGMT_HDR_LEN, body_len);
	memset(in + AAD_LEN + body_len - mic_len, 0, mic_len);
	*in_len = AAD_LEN + body_len;
	return in;
}

int bip_compute_mic(enum bip_cipher c, const uint8_t *key, size_t key_len,
		    const uint8_t *frame, size_t len, uint8_t *mic)
{
	size_t mic_len = bip_mic_len(c), in_len = 0;
	int err;

	if (!mic_len || !key || key_len != bip_key_len(c) || !frame || !mic ||
	    len < BIP_MGMT_HDR_LEN + MMIE_FIXED_LEN + mic_len)
		return -EINVAL;
	uint8_t *in = mic_input(frame, len, mic_len, &in_len);
	if (!in)
		return -ENOMEM;
	if (is_gmac(c)) {
		/* Nonce = A2 || IPN, the IPN big-endian (the MMIE holds it LE). */
		uint8_t nonce[GMAC_NONCE_LEN], tag[16];
		const uint8_t *ipn = frame + len - mic_len - IPN_LEN;

		memcpy(nonce, frame + 10, 6);
		for (size_t i = 0; i < IPN_LEN; i++)
			nonce[6 + i] = ipn[IPN_LEN - 1 - i];
		err = crypto_aes_gcm_encrypt(key, key_len, nonce, sizeof(nonce), in, in_len, NULL,
					     0, NULL, tag);
		memcpy(mic, tag, mic_len);
	} else {
		uint8_t full[CRYPTO_CMAC_LEN];

		err = crypto_aes_cmac(key, key_len, in, in_len, full);
		memcpy(mic, full, mic_len);
		crypto_zero(full, sizeof(full));
	}
	free(in);
	return err;
}

int bip_sign(enum bip_cipher c, const uint8_t *key, size_t key_len, uint8_t *frame, size_t len)
{
	uint8_t mic[BIP_MIC_MAX_LEN];
	int err = bip_compute_mic(c, key, key_len, frame, len, mic);

	if (err)
		return err;
	memcpy(frame + len - bip_mic_len(c), mic, bip_mic_len(c));
	return 0;
}

int bip_verify(enum bip_cipher c, const uint8_t *key, size_t key_len, const uint8_t *frame,
	       size_t len)
{
	uint8_t mic[BIP_MIC_MAX_LEN];
	int err = bip_compute_mic(c, key, key_len, frame, len, mic);

	if (err)
		return err;
	return crypto_memeq(mic, frame + len - bip_mic_len(c), bip_mic_len(c)) ? 0 : -EBADMSG;
}
