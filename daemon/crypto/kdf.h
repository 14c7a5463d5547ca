/* Key derivation: PBKDF2-HMAC-SHA1 (passphrase -> PSK), the IEEE 802.11
 * PRF with HMAC-SHA1 (802.11-2020 12.7.1.2) and the IEEE 802.11 KDF with
 * HMAC-SHA-256/384 (802.11-2020 12.7.1.7.2).
 *
 * All lengths are in bytes.
 */
#ifndef WPAD_CRYPTO_KDF_H
#define WPAD_CRYPTO_KDF_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/crypto/hash.h"

#define CRYPTO_PSK_LEN 32
#define CRYPTO_PASSPHRASE_MIN 8
#define CRYPTO_PASSPHRASE_MAX 63
#define CRYPTO_SSID_MAX 32

/* PBKDF2 (RFC 8018) with HMAC-SHA1: out = DK of out_len bytes.
 * iterations >= 1; pass and salt may be empty. Returns 0, -EINVAL, -ENOMEM
 * or -EIO. */
int crypto_pbkdf2_sha1(const void *pass, size_t pass_len, const void *salt, size_t salt_len,
		       unsigned int iterations, uint8_t *out, size_t out_len);

/* WPA pass-phrase to PSK mapping (802.11-2020 J.4.1):
 * PSK = PBKDF2(passphrase, ssid, 4096, 256 bits).
 * passphrase: NUL-terminated, 8..63 characters, each 32..126;
 * ssid_len 1..32. Returns 0, -EINVAL or -EIO. */
int crypto_psk_from_passphrase(const char *passphrase, const uint8_t *ssid, size_t ssid_len,
			       uint8_t psk[CRYPTO_PSK_LEN]);

/* PRF-n of 802.11 with HMAC-SHA1:
 * R = HMAC-SHA1(K, label || 0x00 || data || i) for i = 0, 1, ...,
 * truncated to out_len bytes. label is a NUL-terminated string (the NUL is
 * the 0x00 separator). out_len 1..5100 (i is one octet).
 * Returns 0, -EINVAL, -ENOMEM or -EIO. */
int crypto_prf_sha1(const void *key, size_t key_len, const char *label, const void *data,
		    size_t data_len, uint8_t *out, size_t out_len);

/* KDF-Hash-Length of 802.11:
 * R = HMAC-Hash(K, i || label || context || Length) for i = 1, 2, ...,
 * with i and Length (= out_len * 8 bits) as 16-bit little-endian integers
 * and label without its NUL; truncated to out_len bytes.
 * alg is CRYPTO_HASH_SHA256 or CRYPTO_HASH_SHA384; out_len 1..8191.
 * Returns 0, -EINVAL, -ENOMEM or -EIO. */
int crypto_kdf(enum crypto_hash_alg alg, const void *key, size_t key_len, const char *label,
	       const void *context, size_t context_len, uint8_t *out, size_t out_len);

/* Shorthands of crypto_kdf() for KDF-SHA-256 and KDF-SHA-384. */
int crypto_kdf_sha256(const void *key, size_t key_len, const char *label, const void *context,
		      size_t context_len, uint8_t *out, size_t out_len);
int crypto_kdf_sha384(const void *key, size_t key_len, const char *label, const void *context,
		      size_t context_len, uint8_t *out, size_t out_len);

#endif /* WPAD_CRYPTO_KDF_H */
