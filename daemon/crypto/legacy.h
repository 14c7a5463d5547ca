/* The old primitives some EAP methods still need: MD5 (EAP-MD5, CHAP), and
 * MD4 and single DES (MSCHAPv2, RFC 2759). OpenSSL 3 keeps MD4 and DES in
 * its "legacy" provider, which distributions do not load by default; it is
 * loaded here into a private library context (OSSL_LIB_CTX) so nothing else
 * in the process starts using legacy algorithms by accident.
 *
 * Returns as the crypto module does (crypto.h), plus -ENOTSUP: the legacy
 * provider could not be loaded (not installed, or forced off for a test).
 */
#ifndef WPAD_CRYPTO_LEGACY_H
#define WPAD_CRYPTO_LEGACY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/crypto/hash.h"

#define CRYPTO_MD4_LEN 16
#define CRYPTO_MD5_LEN 16

/* MD5 over the concatenation of n parts (default provider). */
int crypto_md5_vec(const struct crypto_iov *parts, size_t n, uint8_t out[CRYPTO_MD5_LEN]);
/* SHA-1 over the concatenation of n parts. */
int crypto_sha1_vec(const struct crypto_iov *parts, size_t n, uint8_t out[CRYPTO_SHA1_LEN]);

/* MD4 (legacy provider): -ENOTSUP when it is unavailable. */
int crypto_md4(const void *data, size_t len, uint8_t out[CRYPTO_MD4_LEN]);
/* One DES-ECB block with an 8-octet key (parity ignored), legacy provider. */
int crypto_des_block(const uint8_t key[8], const uint8_t in[8], uint8_t out[8]);

/* RC4 keystream over in (len octets) into out, legacy provider: only for
 * RFC 3079's key derivation, never for data. */
int crypto_rc4(const uint8_t *key, size_t key_len, const uint8_t *in, size_t len, uint8_t *out);

/* Whether the legacy provider loaded (loads it on first use). */
bool crypto_legacy_available(void);
/* Tests only: behave as if the legacy provider were missing. */
void crypto_legacy_force_unavailable(bool off);

#endif
