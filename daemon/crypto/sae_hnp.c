/* The password element by hunting-and-pecking (IEEE 802.11-2020
 * 12.4.4.2.2), in constant time: every one of the iterations runs the
 * same work whatever the password, the iteration that finds x is kept by
 * masked copies, and the quadratic-residue test is blinded. */
#include <errno.h>
#include <string.h>

#include <openssl/err.h>

#include "daemon/crypto/sae_group.h"
#include "daemon/crypto/secure.h"

#define HNP_LABEL "SAE Hunting and Pecking"
#define HNP_MAX_COUNTER 255 /* the counter is one octet */

struct hnp_state {
	const struct sae_group *g;
	const BIGNUM *qr, *qnr;
	BIGNUM *x, *y2;
	struct crypto_hmac_ctx *h; /* HMAC-SHA-256, reused by every iteration */
	/* The blinding randomness of SAE_HNP_MIN_ITERATIONS tests, one draw. */
	uint8_t rnd[SAE_HNP_MIN_ITERATIONS * (SAE_MAX_PRIME_LEN + 8)];
	uint8_t seed[CRYPTO_SHA256_LEN];
	uint8_t value[SAE_MAX_PRIME_LEN];
	unsigned qr_tests; /* blinded residue tests that ran (test hook) */
};

/* One iteration: pwd-seed = H(MAX||MIN, password || identifier ||
 * counter); pwd-value = KDF-z(pwd-seed, label, p) with z = len(p) in bits;
 * 1 when pwd-value < p and pwd-value^3 + a*pwd-value + b is a residue. */
static int hnp_try(struct hnp_state *s, const uint8_t addrs[12], const uint8_t *password,
		   size_t password_len, const uint8_t *identifier, size_t identifier_len,
		   uint8_t counter, BN_CTX *ctx)
{
	const struct sae_group *g = s->g;
	struct crypto_iov parts[3] = {
		{ password, password_len }, { identifier, identifier_len }, { &counter, 1 }
	};
	size_t rlen = SAE_BLIND_RAND_LEN(g);
	const uint8_t *rnd;
	unsigned below_p;
	int ret, qr;

	/* H&P always hashes with SHA-256, whatever the group (12.4.4.2.2). */
	ret = crypto_hmac_ctx_run(s->h, addrs, 12, parts, 3, s->seed);
	if (!ret)
		ret = sae_kdf(s->h, s->seed, sizeof(s->seed), HNP_LABEL, g->p_bin, g->prime_len,
			      s->value, g->prime_bits);
	if (ret)
		return ret;
	if (g->prime_bits % 8) { /* P-521: the KDF's 521 bits as an integer */
		unsigned shift = 8 - (unsigned)(g->prime_bits % 8);

		for (size_t i = g->prime_len; i-- > 1;)
			s->value[i] = (uint8_t)((s->value[i] >> shift) | (s->value[i - 1] << (8 - shift)));
		s->value[0] >>= shift;
	}
	below_p = sae_ct_lt(s->value, g->p_bin, g->prime_len);
	/* The residue test runs even when pwd-value >= p (then on a value
	 * reduced mod p whose result is ignored): the same work either way. */
	if (!BN_bin2bn(s->value, (int)g->prime_len, s->x) ||
	    sae_group_curve_rhs(g, s->y2, s->x, ctx))
		return -EIO;
	if (counter <= SAE_HNP_MIN_ITERATIONS) {
		rnd = s->rnd + (counter - 1) * rlen;
	} else { /* past the fixed count (about 2^-40): draw anew */
		ret = crypto_random(s->rnd, rlen);
		if (ret)
			return ret;
		rnd = s->rnd;
	}
	qr = sae_group_is_qr_blind(g, s->y2, s->qr, s->qnr, rnd, ctx);
	if (qr < 0)
		return qr;
	s->qr_tests++;
	return (int)(below_p & (unsigned)qr);
}

int sae_hnp_derive(const struct sae_group *g, EC_POINT *pwe, const uint8_t addrs[12],
		   const uint8_t *password, size_t password_len, const uint8_t *identifier,
		   size_t identifier_len, BN_CTX *ctx, unsigned *iterations, unsigned *qr_tests)
{
	struct hnp_state s = { .g = g, .qr = g->qr, .qnr = g->qnr };
	uint8_t x_found[SAE_MAX_PRIME_LEN] = { 0 };
	unsigned found = 0, found_odd = 0, counter;
	int ret = -EIO;

	*iterations = 0;
	*qr_tests = 0;
	BN_CTX_start(ctx);
	s.x = sae_bn_ctx_get(ctx);
	s.y2 = sae_bn_ctx_get(ctx);
	s.h = crypto_hmac_ctx_new(CRYPTO_HASH_SHA256);
	if (!s.y2 || !s.h)
		goto out;
	ret = crypto_random(s.rnd, SAE_HNP_MIN_ITERATIONS * SAE_BLIND_RAND_LEN(g));
	if (ret)
		goto out;
	ret = -EIO;
	/* At least SAE_HNP_MIN_ITERATIONS, all run; more only in the rare
	 * case (about 2^-40) that none of them found a point. */
	for (counter = 1; counter <= HNP_MAX_COUNTER; counter++) {
		int hit;

		if (counter > SAE_HNP_MIN_ITERATIONS && found)
			break;
		hit = hnp_try(&s, addrs, password, password_len, identifier, identifier_len,
			      (uint8_t)counter, ctx);
		if (hit < 0) {
			ret = hit;
			goto out;
		}
		(*iterations)++;
		/* Keep the first hit: new = hit && !found. */
		unsigned take = (unsigned)hit & (found ^ 1u);
		uint8_t odd = (uint8_t)(s.seed[sizeof(s.seed) - 1] & 1);

		sae_ct_select(take, x_found, s.value, x_found, g->prime_len);
		found_odd = (take & odd) | ((take ^ 1u) & found_odd);
		found |= take;
	}
	if (!found)
		goto out;
	/* y: the root whose parity is pwd-seed's (save = pwd-seed). */
	if (!BN_bin2bn(x_found, (int)g->prime_len, s.x))
		goto out;
	ret = sae_group_point_from_x(g, pwe, s.x, found_odd, ctx);
out:
	*qr_tests = s.qr_tests;
	crypto_hmac_ctx_free(s.h);
	crypto_zero(s.rnd, sizeof(s.rnd));
	crypto_zero(&s.seed, sizeof(s.seed));
	crypto_zero(&s.value, sizeof(s.value));
	crypto_zero(x_found, sizeof(x_found));
	BN_CTX_end(ctx);
	if (ret)
		ERR_clear_error();
	return ret;
}
