/* AES Key Wrap (RFC 3394, default IV A6A6A6A6A6A6A6A6), as used for the
 * EAPOL-Key Key Data field (key descriptor versions 2 and 3, AKM-defined).
 *
 * All lengths are in bytes. KEK is 16, 24 or 32 bytes.
 */
#ifndef WPAD_CRYPTO_KEYWRAP_H
#define WPAD_CRYPTO_KEYWRAP_H

#include <stddef.h>
#include <stdint.h>

#define CRYPTO_KEYWRAP_OVERHEAD 8

/* Wrap plain_len bytes (a multiple of 8, at least 16) into out, which holds
 * plain_len + 8 bytes. out and plain must not overlap.
 * Returns 0, -EINVAL, -ENOMEM or -EIO. */
int crypto_aes_wrap(const uint8_t *kek, size_t kek_len, const uint8_t *plain, size_t plain_len,
		    uint8_t *out);

/* Unwrap in_len bytes (a multiple of 8, at least 24) into out, which holds
 * in_len - 8 bytes. out and in must not overlap.
 * Returns 0, -EBADMSG if the integrity check (IV) fails -- out is then
 * zeroed --, -EINVAL, -ENOMEM or -EIO. */
int crypto_aes_unwrap(const uint8_t *kek, size_t kek_len, const uint8_t *in, size_t in_len,
		      uint8_t *out);

#endif /* WPAD_CRYPTO_KEYWRAP_H */
