/* Message digests and HMAC (SHA-1, SHA-256, SHA-384, SHA-512) over OpenSSL
 * EVP.
 *
 * All lengths are in bytes. Outputs are written in full: the caller provides
 * crypto_hash_len(alg) bytes; truncated MACs (HMAC-SHA1-128 and so on) are
 * taken by the caller from the front of the full output.
 */
#ifndef WPAD_CRYPTO_HASH_H
#define WPAD_CRYPTO_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum crypto_hash_alg {
	CRYPTO_HASH_SHA1,
	CRYPTO_HASH_SHA256,
	CRYPTO_HASH_SHA384,
	CRYPTO_HASH_SHA512, /* group 21: SAE (802.11-2020 12.4.2), OWE (12.7.1.7.2) */
};

#define CRYPTO_SHA1_LEN 20
#define CRYPTO_SHA256_LEN 32
#define CRYPTO_SHA384_LEN 48
#define CRYPTO_SHA512_LEN 64
#define CRYPTO_HASH_MAX_LEN CRYPTO_SHA512_LEN

/* One piece of a message given in several parts (data may be NULL if len 0). */
struct crypto_iov {
	const void *data;
	size_t len;
};

/* Whether n parts can be read: parts given when n > 0, and data given
 * for every part with a length. */
bool crypto_iov_valid(const struct crypto_iov *parts, size_t n);

/* Digest output length in bytes of alg, or 0 for an unknown alg. */
size_t crypto_hash_len(enum crypto_hash_alg alg);

/* out = Hash(data). out holds crypto_hash_len(alg) bytes.
 * Returns 0, -EINVAL or -EIO. */
int crypto_digest(enum crypto_hash_alg alg, const void *data, size_t len, uint8_t *out);

/* out = HMAC-Hash(key, data). Any key length (0 allowed). out holds
 * crypto_hash_len(alg) bytes. Returns 0, -EINVAL, -ENOMEM or -EIO. */
int crypto_hmac(enum crypto_hash_alg alg, const void *key, size_t key_len, const void *data,
		size_t len, uint8_t *out);

/* HMAC over the concatenation of n parts, without copying them together.
 * Returns 0, -EINVAL, -ENOMEM or -EIO. */
int crypto_hmac_vec(enum crypto_hash_alg alg, const void *key, size_t key_len,
		    const struct crypto_iov *parts, size_t n, uint8_t *out);

/* A reusable HMAC for loops: the MAC is fetched and its context allocated
 * once, then re-keyed per message (crypto_hmac_vec pays both each call).
 * crypto_hmac_ctx_new returns NULL for an unknown alg or on failure;
 * crypto_hmac_ctx_run returns what crypto_hmac_vec does; free cleanses. */
struct crypto_hmac_ctx;
struct crypto_hmac_ctx *crypto_hmac_ctx_new(enum crypto_hash_alg alg);
int crypto_hmac_ctx_run(struct crypto_hmac_ctx *h, const void *key, size_t key_len,
			const struct crypto_iov *parts, size_t n, uint8_t *out);
/* Another message under the key of h's last successful run (the next
 * block of a PRF or KDF): the keyed state is reused, not rebuilt. Returns
 * what crypto_hmac_ctx_run does; -EINVAL when h has no key yet. */
int crypto_hmac_ctx_next(struct crypto_hmac_ctx *h, const struct crypto_iov *parts, size_t n,
			 uint8_t *out);
void crypto_hmac_ctx_free(struct crypto_hmac_ctx *h);
/* The output length of h's hash (0 for NULL). */
size_t crypto_hmac_ctx_len(const struct crypto_hmac_ctx *h);

/* Shorthands of crypto_hmac(); out holds 20, 32 or 48 bytes. */
int crypto_hmac_sha1(const void *key, size_t key_len, const void *data, size_t len,
		     uint8_t out[CRYPTO_SHA1_LEN]);
int crypto_hmac_sha256(const void *key, size_t key_len, const void *data, size_t len,
		       uint8_t out[CRYPTO_SHA256_LEN]);
int crypto_hmac_sha384(const void *key, size_t key_len, const void *data, size_t len,
		       uint8_t out[CRYPTO_SHA384_LEN]);

#endif /* WPAD_CRYPTO_HASH_H */
