/* GCMP data/management frame protection (IEEE 802.11-2020 12.5.5):
 * GCMP-256 (AES-256-GCM, 32-byte TK) and GCMP-128 (AES-128-GCM, 16-byte
 * TK), 12-byte nonce A2 | PN, 16-byte MIC, AAD as for CCMP
 * (see ccmp_build_aad()).
 *
 * A protected MPDU is laid out as
 *     MAC header (hdr_len) | GCMP header (8) | ciphertext | MIC (16)
 * with the same header-length rules as CCMP. All lengths are in bytes.
 * Output buffers must not overlap the inputs.
 */
#ifndef WPAD_CRYPTO_GCMP_H
#define WPAD_CRYPTO_GCMP_H

#include <stddef.h>
#include <stdint.h>

#define GCMP_HDR_LEN 8
#define GCMP_MIC_LEN 16
#define GCMP_NONCE_LEN 12

/* Protect one MPDU. tk_len is 32 (GCMP-256) or 16 (GCMP-128). out holds
 * hdr_len + 8 + plain_len + 16 bytes; *out_len gets that length.
 * Returns 0, -EINVAL, -ENOMEM or -EIO. */
int gcmp_encrypt(const uint8_t *tk, size_t tk_len, const uint8_t *hdr, size_t hdr_len,
		 uint64_t pn, uint8_t key_id, const uint8_t *plain, size_t plain_len,
		 uint8_t *out, size_t *out_len);

/* Check and decrypt one MPDU of len bytes. plain holds
 * len - hdr_len - 24 bytes; *plain_len gets that; *pn_out (may be NULL) the
 * received PN. Returns 0, -EBADMSG (MIC failure; plain is zeroed), -EINVAL,
 * -ENOMEM or -EIO. */
int gcmp_decrypt(const uint8_t *tk, size_t tk_len, const uint8_t *frame, size_t len,
		 size_t hdr_len, uint8_t *plain, size_t *plain_len, uint64_t *pn_out);

/* Build the 12-byte GCM nonce A2 | PN (big-endian) of 802.11-2020
 * 12.5.5.3.4. Returns 0 or -EINVAL. */
int gcmp_build_nonce(const uint8_t *hdr, size_t hdr_len, uint64_t pn,
		     uint8_t nonce[GCMP_NONCE_LEN]);

#endif /* WPAD_CRYPTO_GCMP_H */
