/* Fuzz the crypto entry points that read received bytes: CCMP / GCMP
 * decapsulation (MAC header, CCMP header and length handling), the AAD and
 * nonce builders, and EAPOL-Key MIC verification.
 *
 * Input: byte 0 picks the MAC header length (0..47), the rest is the frame.
 * Oracle: beyond "no crash / no sanitizer report", whatever encapsulates
 * must decapsulate to the same bytes.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/crypto/crypto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FRAME 2048

static const uint8_t tk[32] = {
	0xc9, 0x7c, 0x1f, 0x67, 0xce, 0x37, 0x11, 0x85, 0x51, 0x4a, 0x8a, 0x19, 0xf2, 0xbd, 0xd5, 0x2f,
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
};

static void roundtrip(const uint8_t *frame, size_t len, size_t hdr_len)
{
	static uint8_t out[MAX_FRAME + 64], back[MAX_FRAME];
	size_t out_len = 0, back_len = 0;
	uint64_t pn = 0;

	if (ccmp_encrypt(tk, frame, hdr_len, 0x0000a1b2c3d4ULL, 1, frame + hdr_len, len - hdr_len,
			 out, &out_len) == 0) {
		if (ccmp_decrypt(tk, out, out_len, hdr_len, back, &back_len, &pn) != 0 ||
		    back_len != len - hdr_len || memcmp(back, frame + hdr_len, back_len) != 0 ||
		    pn != 0x0000a1b2c3d4ULL)
			abort();
	}
	if (gcmp_encrypt(tk, 32, frame, hdr_len, CCMP_PN_MAX, 3, frame + hdr_len, len - hdr_len,
			 out, &out_len) == 0) {
		if (gcmp_decrypt(tk, 32, out, out_len, hdr_len, back, &back_len, &pn) != 0 ||
		    back_len != len - hdr_len || memcmp(back, frame + hdr_len, back_len) != 0 ||
		    pn != CCMP_PN_MAX)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t plain[MAX_FRAME];
	uint8_t aad[CCMP_AAD_MAX_LEN], nonce[CCMP_NONCE_LEN], gnonce[GCMP_NONCE_LEN];
	size_t hdr_len, len, plain_len = 0, aad_len = 0;
	const uint8_t *frame;
	uint64_t pn = 0;

	if (size < 1 || size - 1 > MAX_FRAME)
		return 0;
	hdr_len = data[0] % 48;
	frame = data + 1;
	len = size - 1;

	ccmp_decrypt(tk, frame, len, hdr_len, plain, &plain_len, &pn);
	ccmp256_decrypt(tk, frame, len, hdr_len, plain, &plain_len, &pn);
	gcmp_decrypt(tk, 16, frame, len, hdr_len, plain, &plain_len, &pn);
	gcmp_decrypt(tk, 32, frame, len, hdr_len, plain, &plain_len, &pn);

	crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_HMAC_SHA1_128, tk, 16, frame, len);
	crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_AES_CMAC_128, tk, 16, frame, len);
	crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_HMAC_SHA256_128, tk, 16, frame, len);
	crypto_eapol_mic_verify(CRYPTO_EAPOL_MIC_HMAC_SHA384_192, tk, 24, frame, len);

	if (hdr_len <= len) {
		ccmp_build_aad(frame, hdr_len, aad, &aad_len);
		ccmp_build_nonce(frame, hdr_len, 1, nonce);
		gcmp_build_nonce(frame, hdr_len, 1, gnonce);
		roundtrip(frame, len, hdr_len);
	}
	return 0;
}
