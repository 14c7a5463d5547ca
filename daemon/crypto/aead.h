/* AES-CCM and AES-GCM authenticated encryption cores (EVP), the building
 * blocks of CCMP and GCMP. They know nothing of 802.11 frames.
 *
 * All lengths are in bytes; each length must be at most INT_MAX.
 * Output buffers must not overlap the inputs.
 */
#ifndef WPAD_CRYPTO_AEAD_H
#define WPAD_CRYPTO_AEAD_H

#include <stddef.h>
#include <stdint.h>

/* AES-CCM (RFC 3610 / NIST SP 800-38C) encryption.
 * key_len 16 or 32; nonce_len 7..13 (L = 15 - nonce_len); tag_len M is
 * 4, 6, 8, 10, 12, 14 or 16. Writes len bytes of ciphertext to out and the
 * tag to tag. Returns 0, -EINVAL, -ENOMEM or -EIO. */
int crypto_aes_ccm_encrypt(const uint8_t *key, size_t key_len, const uint8_t *nonce,
			   size_t nonce_len, const uint8_t *aad, size_t aad_len,
			   const uint8_t *plain, size_t len, uint8_t *out, uint8_t *tag,
			   size_t tag_len);

/* AES-CCM decryption and tag check. Writes len bytes of plaintext to out.
 * Returns 0, -EBADMSG on a wrong tag (out is then zeroed), -EINVAL,
 * -ENOMEM or -EIO. */
int crypto_aes_ccm_decrypt(const uint8_t *key, size_t key_len, const uint8_t *nonce,
			   size_t nonce_len, const uint8_t *aad, size_t aad_len,
			   const uint8_t *cipher, size_t len, const uint8_t *tag, size_t tag_len,
			   uint8_t *out);

/* AES-GCM (NIST SP 800-38D) encryption with a 16-byte tag.
 * key_len 16 or 32; iv_len >= 1 (12 is the standard). Writes len bytes of
 * ciphertext to out and 16 bytes to tag. Returns 0, -EINVAL, -ENOMEM or
 * -EIO. */
int crypto_aes_gcm_encrypt(const uint8_t *key, size_t key_len, const uint8_t *iv, size_t iv_len,
			   const uint8_t *aad, size_t aad_len, const uint8_t *plain, size_t len,
			   uint8_t *out, uint8_t tag[16]);

/* AES-GCM decryption and 16-byte tag check. Writes len bytes to out.
 * Returns 0, -EBADMSG on a wrong tag (out is then zeroed), -EINVAL,
 * -ENOMEM or -EIO. */
int crypto_aes_gcm_decrypt(const uint8_t *key, size_t key_len, const uint8_t *iv, size_t iv_len,
			   const uint8_t *aad, size_t aad_len, const uint8_t *cipher, size_t len,
			   const uint8_t tag[16], uint8_t *out);

#endif /* WPAD_CRYPTO_AEAD_H */
