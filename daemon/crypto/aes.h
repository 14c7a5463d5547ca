/* AES-CMAC (RFC 4493 / NIST SP 800-38B) over EVP_MAC("CMAC").
 *
 * All lengths are in bytes. Keys are 16 (AES-128) or 32 (AES-256) bytes.
 */
#ifndef WPAD_CRYPTO_AES_H
#define WPAD_CRYPTO_AES_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/crypto/hash.h"

#define CRYPTO_AES_BLOCK 16
#define CRYPTO_CMAC_LEN 16

/* mac = AES-CMAC(key, data), the full 16-byte tag. key_len 16 or 32.
 * Returns 0, -EINVAL, -ENOMEM or -EIO. */
int crypto_aes_cmac(const uint8_t *key, size_t key_len, const void *data, size_t len,
		    uint8_t mac[CRYPTO_CMAC_LEN]);

/* AES-CMAC over the concatenation of n parts. Returns as crypto_aes_cmac(). */
int crypto_aes_cmac_vec(const uint8_t *key, size_t key_len, const struct crypto_iov *parts,
			size_t n, uint8_t mac[CRYPTO_CMAC_LEN]);

#endif /* WPAD_CRYPTO_AES_H */
