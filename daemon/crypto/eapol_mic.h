/* EAPOL-Key MIC (IEEE 802.11-2020 12.7.2 and 12.7.3). The MIC is computed
 * over the whole EAPOL PDU -- from the protocol version octet to the end of
 * the Key Data -- with the Key MIC field taken as zero.
 *
 * The Key MIC field starts at CRYPTO_EAPOL_MIC_OFFSET (81): 4 octets of
 * EAPOL header, then Descriptor Type (1), Key Information (2), Key Length
 * (2), Replay Counter (8), Key Nonce (32), EAPOL-Key IV (16), Key RSC (8)
 * and Reserved (8). It is followed by the 2-octet Key Data Length.
 * All lengths are in bytes.
 */
#ifndef WPAD_CRYPTO_EAPOL_MIC_H
#define WPAD_CRYPTO_EAPOL_MIC_H

#include <stddef.h>
#include <stdint.h>

#define CRYPTO_EAPOL_MIC_OFFSET 81
#define CRYPTO_EAPOL_MIC_MAX_LEN 32

enum crypto_eapol_mic_alg {
	/* Key descriptor version 2: HMAC-SHA1-128, 16-byte KCK, 16-byte MIC */
	CRYPTO_EAPOL_MIC_HMAC_SHA1_128,
	/* Key descriptor version 3 (AKM 00-0F-AC:3..6 etc.): AES-128-CMAC,
	 * 16-byte KCK, 16-byte MIC */
	CRYPTO_EAPOL_MIC_AES_CMAC_128,
	/* AKM 00-0F-AC:11 style: HMAC-SHA-256-128, 16-byte KCK, 16-byte MIC */
	CRYPTO_EAPOL_MIC_HMAC_SHA256_128,
	/* AKM 00-0F-AC:12/13/19/20 style: HMAC-SHA-384-192, 24-byte KCK,
	 * 24-byte MIC */
	CRYPTO_EAPOL_MIC_HMAC_SHA384_192,
	/* AKM 00-0F-AC:18 (OWE) with group 21: HMAC-SHA-512-256, 32-byte
	 * KCK, 32-byte MIC */
	CRYPTO_EAPOL_MIC_HMAC_SHA512_256,
};

/* MIC length in bytes of alg (16 or 24), or 0 for an unknown alg. */
size_t crypto_eapol_mic_len(enum crypto_eapol_mic_alg alg);

/* KCK length in bytes that alg takes (16 or 24), or 0 for an unknown alg. */
size_t crypto_eapol_kck_len(enum crypto_eapol_mic_alg alg);

/* Compute the MIC of the EAPOL PDU frame (frame_len bytes, at least
 * 81 + MIC length + 2) into mic (crypto_eapol_mic_len(alg) bytes). The
 * current contents of the frame's MIC field are ignored (taken as zero).
 * Returns 0, -EINVAL (bad alg, KCK length or frame length), -ENOMEM or -EIO. */
int crypto_eapol_mic_compute(enum crypto_eapol_mic_alg alg, const uint8_t *kck,
			     size_t kck_len, const uint8_t *frame, size_t frame_len,
			     uint8_t *mic);

/* Verify the MIC carried in the frame's Key MIC field, in constant time.
 * Returns 0 when it matches, -EBADMSG when it does not, or -EINVAL,
 * -ENOMEM, -EIO as crypto_eapol_mic_compute(). */
int crypto_eapol_mic_verify(enum crypto_eapol_mic_alg alg, const uint8_t *kck, size_t kck_len,
			    const uint8_t *frame, size_t frame_len);

#endif /* WPAD_CRYPTO_EAPOL_MIC_H */
