/* SAE's elliptic-curve groups (IEEE 802.11-2020 12.4.4.2.1) and the
 * constant-time helpers the password-element derivations share: the
 * curve's constants, the blinded quadratic-residue test, the square root,
 * point and scalar encodings, the KDF of 12.7.1.7.2 with a length in bits.
 * Internal to daemon/crypto/sae*.c.
 *
 * Every BIGNUM that may hold a secret carries BN_FLG_CONSTTIME (sae_bn_new
 * and sae_bn_ctx_get set it).
 */
#ifndef WPAD_CRYPTO_SAE_GROUP_H
#define WPAD_CRYPTO_SAE_GROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/bn.h>
#include <openssl/ec.h>

#include "daemon/crypto/hash.h"
#include "daemon/crypto/sae.h"

struct sae_group {
	int id;
	EC_GROUP *ec;
	BIGNUM *p, *a, *b, *r;
	BIGNUM *pm1;          /* p - 1 */
	BIGNUM *legendre_exp; /* (p - 1) / 2 */
	BIGNUM *sqrt_exp;     /* (p + 1) / 4: the three primes are 3 mod 4 */
	BN_MONT_CTX *mont;    /* Montgomery form of p, for the exponentiations */
	/* A random residue and non-residue for the blinded test, drawn once
	 * per group: public values (12.4.4.2.2), the test's secrecy is its
	 * fresh r; drawing them per derivation cost ~3 BN_kronecker calls. */
	BIGNUM *qr, *qnr;
	uint8_t p_bin[SAE_MAX_PRIME_LEN];
	uint8_t one_bin[SAE_MAX_PRIME_LEN];
	uint8_t pm1_bin[SAE_MAX_PRIME_LEN]; /* p - 1 */
	size_t prime_len, prime_bits, order_len;
	enum crypto_hash_alg hash; /* the group's hash, for H2E (12.4.2) */
	size_t hash_len;
	int z; /* the SSWU constant of 12.4.4.2.3 / RFC 9380 8.2 */
};

/* The process's shared, read-only instance of a group, built on first
 * use (an EC_GROUP and its constants cost ~20 us to build: once, not per
 * exchange) and freed at exit. NULL with *err = -ENOTSUP or -EIO. */
const struct sae_group *sae_group_get(int id, int *err);

/* Builds the group (ctx for the precomputations). 0, -ENOTSUP, -ENOMEM or
 * -EIO. sae_group_clear() frees it (also after a failed init). */
int sae_group_init(struct sae_group *g, int id, BN_CTX *ctx);
void sae_group_clear(struct sae_group *g);

/* A BIGNUM from BN_CTX_get with BN_FLG_CONSTTIME (NULL on failure). */
BIGNUM *sae_bn_ctx_get(BN_CTX *ctx);
/* A fresh BIGNUM with BN_FLG_CONSTTIME, freed with BN_clear_free. */
BIGNUM *sae_bn_new(void);

/* Constant-time byte helpers: all-ones/all-zeros masks, no branches on
 * data. */
unsigned sae_ct_eq(const uint8_t *a, const uint8_t *b, size_t len); /* 1 if equal */
unsigned sae_ct_lt(const uint8_t *a, const uint8_t *b, size_t len); /* 1 if a < b (BE) */
/* dst = bit ? a : b, len octets; bit is 0 or 1. dst may alias a or b. */
void sae_ct_select(unsigned bit, uint8_t *dst, const uint8_t *a, const uint8_t *b, size_t len);

/* y2 = x^3 + a*x + b mod p. */
int sae_group_curve_rhs(const struct sae_group *g, BIGNUM *y2, const BIGNUM *x, BN_CTX *ctx);
/* 1 if v is a quadratic residue mod p, 0 if not (or v = 0), in constant
 * time (Legendre symbol by a constant-time exponentiation). Negative errno
 * on failure. */
int sae_group_is_qr(const struct sae_group *g, const BIGNUM *v, BN_CTX *ctx);
/* The blinded test of 12.4.4.2.2: v * r^2 times qr (r odd) or qnr (r
 * even), with r random, so the exponentiation never sees v itself.
 * r = rnd mod (p - 1) + 1 from SAE_BLIND_RAND_LEN(g) random octets (the
 * caller draws them for many tests at once: one DRBG call, not forty). */
#define SAE_BLIND_RAND_LEN(g) ((g)->prime_len + 8)
int sae_group_is_qr_blind(const struct sae_group *g, const BIGNUM *v, const BIGNUM *qr,
			  const BIGNUM *qnr, const uint8_t *rnd, BN_CTX *ctx);
/* A random quadratic residue and non-residue mod p (not secret). */
int sae_group_qr_qnr(const struct sae_group *g, BIGNUM *qr, BIGNUM *qnr, BN_CTX *ctx);
/* root = sqrt(v) mod p for a residue v. */
int sae_group_sqrt(const struct sae_group *g, BIGNUM *root, const BIGNUM *v, BN_CTX *ctx);
/* The point (x, y) with y = sqrt(x^3 + ax + b) or p - y, whichever has
 * the least significant bit odd (0 or 1), chosen in constant time. */
int sae_group_point_from_x(const struct sae_group *g, EC_POINT *pt, const BIGNUM *x,
			   unsigned odd, BN_CTX *ctx);

/* x || y, prime_len octets each. 0 or -EIO (the point at infinity). */
int sae_point_to_bin(const struct sae_group *g, const EC_POINT *pt, uint8_t *out, BN_CTX *ctx);
/* From x || y: -EBADMSG if a coordinate is >= p or the point is not on
 * the curve (which includes the all-zero encoding of no point). */
int sae_point_from_bin(const struct sae_group *g, EC_POINT *pt, const uint8_t *in, BN_CTX *ctx);
/* A BIGNUM as len octets big-endian. 0 or -EIO. */
int sae_bn_to_bin(const BIGNUM *bn, uint8_t *out, size_t len);

/* KDF-Hash-Length of 12.7.1.7.2 with Length in bits: ceil(bits/8)
 * octets, the bits past Length in the last octet cleared. Hash = h's. */
int sae_kdf(struct crypto_hmac_ctx *h, const uint8_t *key, size_t key_len, const char *label,
	    const uint8_t *context, size_t context_len, uint8_t *out, size_t bits);

/* MAX(a, b) || MIN(a, b), the two addresses as 802.11 orders them. */
void sae_addrs_sorted(const uint8_t a[SAE_ADDR_LEN], const uint8_t b[SAE_ADDR_LEN],
		      uint8_t out[2 * SAE_ADDR_LEN]);

/* The password element by hunting-and-pecking (sae_hnp.c); *iterations
 * (and *qr_tests) count what ran, for the tests' constant-time check. */
int sae_hnp_derive(const struct sae_group *g, EC_POINT *pwe, const uint8_t addrs[12],
		   const uint8_t *password, size_t password_len, const uint8_t *identifier,
		   size_t identifier_len, BN_CTX *ctx, unsigned *iterations, unsigned *qr_tests);

/* The simplified SWU map of 12.4.4.2.3 (RFC 9380 6.6.2) for u in
 * [0, p) (sae_h2e.c). */
int sae_sswu(const struct sae_group *g, EC_POINT *pt, const BIGNUM *u, BN_CTX *ctx);

/* PWE = val * PT of 12.4.4.2.3 (sae_h2e.c), as its factors: PT into
 * pt_out, val (public: a hash of the addresses) into val. */
int sae_h2e_pwe(const struct sae_group *g, EC_POINT *pt_out, BIGNUM *val, const struct sae_pt *pt,
		const uint8_t addrs[12], BN_CTX *ctx);

/* The minimum H&P iteration count (12.4.4.2.2 "k"). */
#define SAE_HNP_MIN_ITERATIONS 40

#endif
