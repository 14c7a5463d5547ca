/* SAE groups 19/20/21 on OpenSSL EC_GROUP/BN, and the constant-time
 * arithmetic the password-element derivations share. */
#include "daemon/crypto/sae_group.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/rand.h>

#include "daemon/crypto/secure.h"

struct group_desc {
	int id, nid;
	enum crypto_hash_alg hash;
	int z;
};

/* 802.11-2020 12.4.2 (hash by prime length), 12.4.4.2.3 Table 12-1 (z). */
static const struct group_desc groups[] = {
	{ 19, NID_X9_62_prime256v1, CRYPTO_HASH_SHA256, -10 },
	{ 20, NID_secp384r1, CRYPTO_HASH_SHA384, -12 },
	{ 21, NID_secp521r1, CRYPTO_HASH_SHA512, -4 },
};

static const struct group_desc *group_find(int id)
{
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (groups[i].id == id)
			return &groups[i];
	return NULL;
}

bool sae_group_supported(int group)
{
	return group_find(group) != NULL;
}

size_t sae_group_prime_len(int group)
{
	switch (group) {
	case 19:
		return 32;
	case 20:
		return 48;
	case 21:
		return 66;
	}
	return 0;
}

size_t sae_group_order_len(int group)
{
	return sae_group_prime_len(group); /* the NIST curves: |r| = |p| */
}

size_t sae_group_hash_len(int group)
{
	const struct group_desc *d = group_find(group);

	return d ? crypto_hash_len(d->hash) : 0;
}

BIGNUM *sae_bn_new(void)
{
	BIGNUM *bn = BN_secure_new();

	if (bn)
		BN_set_flags(bn, BN_FLG_CONSTTIME);
	return bn;
}

BIGNUM *sae_bn_ctx_get(BN_CTX *ctx)
{
	BIGNUM *bn = BN_CTX_get(ctx);

	if (bn)
		BN_set_flags(bn, BN_FLG_CONSTTIME);
	return bn;
}

void sae_group_clear(struct sae_group *g)
{
	EC_GROUP_free(g->ec);
	BN_free(g->p);
	BN_free(g->a);
	BN_free(g->b);
	BN_free(g->r);
	BN_free(g->pm1);
	BN_free(g->legendre_exp);
	BN_free(g->sqrt_exp);
	BN_MONT_CTX_free(g->mont);
	BN_free(g->qr);
	BN_free(g->qnr);
	memset(g, 0, sizeof(*g));
}

int sae_group_init(struct sae_group *g, int id, BN_CTX *ctx)
{
	const struct group_desc *d = group_find(id);

	memset(g, 0, sizeof(*g));
	if (!d)
		return -ENOTSUP;
	g->id = id;
	g->hash = d->hash;
	g->hash_len = crypto_hash_len(d->hash);
	g->z = d->z;
	g->ec = EC_GROUP_new_by_curve_name(d->nid);
	g->p = BN_new();
	g->a = BN_new();
	g->b = BN_new();
	g->r = BN_new();
	g->pm1 = BN_new();
	g->legendre_exp = BN_new();
	g->sqrt_exp = BN_new();
	g->mont = BN_MONT_CTX_new();
	g->qr = BN_new();
	g->qnr = BN_new();
	if (!g->ec || !g->p || !g->a || !g->b || !g->r || !g->pm1 || !g->legendre_exp ||
	    !g->sqrt_exp || !g->mont || !g->qr || !g->qnr)
		goto fail;
	if (!EC_GROUP_get_curve(g->ec, g->p, g->a, g->b, ctx) || !EC_GROUP_get_order(g->ec, g->r, ctx))
		goto fail;
	g->prime_len = (size_t)BN_num_bytes(g->p);
	g->prime_bits = (size_t)BN_num_bits(g->p);
	g->order_len = (size_t)BN_num_bytes(g->r);
	if (g->prime_len != sae_group_prime_len(id) || g->order_len != sae_group_order_len(id))
		goto fail;
	/* (p - 1) / 2 and (p + 1) / 4 */
	if (!BN_rshift1(g->legendre_exp, g->p) || !BN_copy(g->pm1, g->p) ||
	    !BN_sub_word(g->pm1, 1) || !BN_copy(g->sqrt_exp, g->p) ||
	    !BN_add_word(g->sqrt_exp, 1) || !BN_rshift(g->sqrt_exp, g->sqrt_exp, 2) ||
	    !BN_MONT_CTX_set(g->mont, g->p, ctx))
		goto fail;
	if (sae_bn_to_bin(g->p, g->p_bin, g->prime_len) || sae_group_qr_qnr(g, g->qr, g->qnr, ctx))
		goto fail;
	memset(g->one_bin, 0, g->prime_len);
	g->one_bin[g->prime_len - 1] = 1;
	memcpy(g->pm1_bin, g->p_bin, g->prime_len);
	g->pm1_bin[g->prime_len - 1] -= 1; /* p is odd: no borrow */
	return 0;
fail:
	ERR_clear_error();
	sae_group_clear(g);
	return -EIO;
}

#define N_GROUPS (sizeof(groups) / sizeof(groups[0]))

static struct {
	pthread_once_t once;
	int err[N_GROUPS];
	struct sae_group g[N_GROUPS];
} shared = { .once = PTHREAD_ONCE_INIT };

static void shared_free(void)
{
	for (size_t i = 0; i < N_GROUPS; i++)
		sae_group_clear(&shared.g[i]);
}

static void shared_init(void)
{
	BN_CTX *ctx;

	/* OpenSSL registers its exit handler here if it has not yet: ours,
	 * registered below, then runs before OpenSSL's cleanup. */
	OPENSSL_init_crypto(0, NULL);
	ctx = BN_CTX_new();

	for (size_t i = 0; i < N_GROUPS; i++)
		shared.err[i] = ctx ? sae_group_init(&shared.g[i], groups[i].id, ctx) : -ENOMEM;
	BN_CTX_free(ctx);
	atexit(shared_free);
}

const struct sae_group *sae_group_get(int id, int *err)
{
	const struct group_desc *d = group_find(id);
	size_t i;

	if (!d) {
		*err = -ENOTSUP;
		return NULL;
	}
	i = (size_t)(d - groups);
	if (pthread_once(&shared.once, shared_init) != 0) {
		*err = -EIO;
		return NULL;
	}
	*err = shared.err[i];
	return shared.err[i] ? NULL : &shared.g[i];
}

unsigned sae_ct_eq(const uint8_t *a, const uint8_t *b, size_t len)
{
	unsigned diff = 0;

	for (size_t i = 0; i < len; i++)
		diff |= (unsigned)(a[i] ^ b[i]);
	return 1u & ((diff - 1u) >> 8); /* diff is 0..255 */
}

unsigned sae_ct_lt(const uint8_t *a, const uint8_t *b, size_t len)
{
	unsigned borrow = 0;

	/* a - b from the last octet up: a borrow out of the top means a < b. */
	for (size_t i = len; i-- > 0;)
		borrow = ((unsigned)a[i] - (unsigned)b[i] - borrow) >> 31;
	return borrow;
}

void sae_ct_select(unsigned bit, uint8_t *dst, const uint8_t *a, const uint8_t *b, size_t len)
{
	uint8_t mask = (uint8_t)(0u - (bit & 1u));

	for (size_t i = 0; i < len; i++)
		dst[i] = (uint8_t)((a[i] & mask) | (b[i] & (uint8_t)~mask));
}

int sae_bn_to_bin(const BIGNUM *bn, uint8_t *out, size_t len)
{
	return BN_bn2binpad(bn, out, (int)len) == (int)len ? 0 : -EIO;
}

int sae_group_curve_rhs(const struct sae_group *g, BIGNUM *y2, const BIGNUM *x, BN_CTX *ctx)
{
	BIGNUM *t;
	int ret = -EIO;

	BN_CTX_start(ctx);
	t = sae_bn_ctx_get(ctx);
	if (t && BN_mod_sqr(t, x, g->p, ctx) && BN_mod_add(t, t, g->a, g->p, ctx) &&
	    BN_mod_mul(t, t, x, g->p, ctx) && BN_mod_add(y2, t, g->b, g->p, ctx))
		ret = 0;
	BN_CTX_end(ctx);
	return ret;
}

/* The Legendre symbol's exponentiation: v^((p-1)/2) as prime_len octets
 * (1, p - 1, or 0). */
static int legendre_bin(const struct sae_group *g, const BIGNUM *v, uint8_t *out, BN_CTX *ctx)
{
	BIGNUM *t;
	int ret = -EIO;

	BN_CTX_start(ctx);
	t = sae_bn_ctx_get(ctx);
	if (t && BN_mod_exp_mont_consttime(t, v, g->legendre_exp, g->p, ctx, g->mont))
		ret = sae_bn_to_bin(t, out, g->prime_len);
	BN_CTX_end(ctx);
	return ret;
}

int sae_group_is_qr(const struct sae_group *g, const BIGNUM *v, BN_CTX *ctx)
{
	uint8_t t[SAE_MAX_PRIME_LEN];
	int ret = legendre_bin(g, v, t, ctx);

	if (ret)
		return ret;
	ret = (int)sae_ct_eq(t, g->one_bin, g->prime_len);
	crypto_zero(t, sizeof(t));
	return ret;
}

int sae_group_is_qr_blind(const struct sae_group *g, const BIGNUM *v, const BIGNUM *qr,
			  const BIGNUM *qnr, const uint8_t *rnd, BN_CTX *ctx)
{
	uint8_t with_qr[SAE_MAX_PRIME_LEN], with_qnr[SAE_MAX_PRIME_LEN], t[SAE_MAX_PRIME_LEN];
	uint8_t want[SAE_MAX_PRIME_LEN];
	BIGNUM *r, *num, *x;
	unsigned odd;
	int ret = -EIO;

	BN_CTX_start(ctx);
	r = sae_bn_ctx_get(ctx);
	num = sae_bn_ctx_get(ctx);
	x = sae_bn_ctx_get(ctx);
	/* r in [1, p): 64 bits beyond p's length make the bias negligible. */
	if (!x || !BN_bin2bn(rnd, (int)SAE_BLIND_RAND_LEN(g), r) || !BN_mod(r, r, g->pm1, ctx) ||
	    !BN_add_word(r, 1))
		goto out;
	odd = (unsigned)BN_is_odd(r);
	/* num = v * r^2; both products computed, one kept by r's parity:
	 * times a residue keeps v's character, times a non-residue flips it. */
	if (!BN_mod_mul(num, v, r, g->p, ctx) || !BN_mod_mul(num, num, r, g->p, ctx) ||
	    !BN_mod_mul(x, num, qr, g->p, ctx) || sae_bn_to_bin(x, with_qr, g->prime_len) ||
	    !BN_mod_mul(x, num, qnr, g->p, ctx) || sae_bn_to_bin(x, with_qnr, g->prime_len))
		goto out;
	sae_ct_select(odd, t, with_qr, with_qnr, g->prime_len);
	if (!BN_bin2bn(t, (int)g->prime_len, x) || legendre_bin(g, x, t, ctx))
		goto out;
	sae_ct_select(odd, want, g->one_bin, g->pm1_bin, g->prime_len);
	ret = (int)sae_ct_eq(t, want, g->prime_len);
out:
	crypto_zero(with_qr, sizeof(with_qr));
	crypto_zero(with_qnr, sizeof(with_qnr));
	crypto_zero(t, sizeof(t));
	BN_clear(r);
	BN_CTX_end(ctx);
	if (ret < 0)
		ERR_clear_error();
	return ret;
}

int sae_group_qr_qnr(const struct sae_group *g, BIGNUM *qr, BIGNUM *qnr, BN_CTX *ctx)
{
	bool have_qr = false, have_qnr = false;
	BIGNUM *t;
	int ret = -EIO;

	BN_CTX_start(ctx);
	t = BN_CTX_get(ctx);
	/* Half of [1, p) is each: a few draws, all public values. */
	for (int i = 0; t && i < 128 && !(have_qr && have_qnr); i++) {
		int k;

		if (!BN_rand_range(t, g->p))
			break;
		if (BN_is_zero(t))
			continue;
		k = BN_kronecker(t, g->p, ctx);
		if (k == 1 && !have_qr)
			have_qr = BN_copy(qr, t) != NULL;
		else if (k == -1 && !have_qnr)
			have_qnr = BN_copy(qnr, t) != NULL;
		else if (k == -2)
			break;
	}
	if (have_qr && have_qnr)
		ret = 0;
	BN_CTX_end(ctx);
	if (ret)
		ERR_clear_error();
	return ret;
}

int sae_group_sqrt(const struct sae_group *g, BIGNUM *root, const BIGNUM *v, BN_CTX *ctx)
{
	return BN_mod_exp_mont_consttime(root, v, g->sqrt_exp, g->p, ctx, g->mont) ? 0 : -EIO;
}

int sae_group_point_from_x(const struct sae_group *g, EC_POINT *pt, const BIGNUM *x,
			   unsigned odd, BN_CTX *ctx)
{
	uint8_t y_bin[SAE_MAX_PRIME_LEN], ny_bin[SAE_MAX_PRIME_LEN];
	BIGNUM *y, *ny;
	int ret = -EIO;

	BN_CTX_start(ctx);
	y = sae_bn_ctx_get(ctx);
	ny = sae_bn_ctx_get(ctx);
	if (!ny || sae_group_curve_rhs(g, y, x, ctx) || sae_group_sqrt(g, y, y, ctx) ||
	    !BN_sub(ny, g->p, y) || sae_bn_to_bin(y, y_bin, g->prime_len) ||
	    sae_bn_to_bin(ny, ny_bin, g->prime_len))
		goto out;
	/* Keep y if its parity is the one asked for, else p - y. */
	sae_ct_select((unsigned)(y_bin[g->prime_len - 1] & 1) ^ odd ^ 1u, y_bin, y_bin, ny_bin,
		      g->prime_len);
	if (!BN_bin2bn(y_bin, (int)g->prime_len, y) ||
	    !EC_POINT_set_affine_coordinates(g->ec, pt, x, y, ctx))
		goto out;
	ret = 0;
out:
	crypto_zero(y_bin, sizeof(y_bin));
	crypto_zero(ny_bin, sizeof(ny_bin));
	BN_CTX_end(ctx);
	if (ret)
		ERR_clear_error();
	return ret;
}

int sae_point_to_bin(const struct sae_group *g, const EC_POINT *pt, uint8_t *out, BN_CTX *ctx)
{
	BIGNUM *x, *y;
	int ret = -EIO;

	BN_CTX_start(ctx);
	x = sae_bn_ctx_get(ctx);
	y = sae_bn_ctx_get(ctx);
	if (y && !EC_POINT_is_at_infinity(g->ec, pt) &&
	    EC_POINT_get_affine_coordinates(g->ec, pt, x, y, ctx) &&
	    !sae_bn_to_bin(x, out, g->prime_len) && !sae_bn_to_bin(y, out + g->prime_len, g->prime_len))
		ret = 0;
	BN_CTX_end(ctx);
	if (ret)
		ERR_clear_error();
	return ret;
}

int sae_point_from_bin(const struct sae_group *g, EC_POINT *pt, const uint8_t *in, BN_CTX *ctx)
{
	BIGNUM *x, *y;
	int ret = -EIO;

	BN_CTX_start(ctx);
	x = BN_CTX_get(ctx);
	y = BN_CTX_get(ctx);
	if (!y || !BN_bin2bn(in, (int)g->prime_len, x) ||
	    !BN_bin2bn(in + g->prime_len, (int)g->prime_len, y))
		goto out;
	ret = -EBADMSG;
	if (BN_cmp(x, g->p) >= 0 || BN_cmp(y, g->p) >= 0)
		goto out;
	/* set_affine_coordinates refuses a point off the curve; checked again
	 * so the rule does not rest on that. */
	if (!EC_POINT_set_affine_coordinates(g->ec, pt, x, y, ctx) ||
	    EC_POINT_is_on_curve(g->ec, pt, ctx) != 1 || EC_POINT_is_at_infinity(g->ec, pt))
		goto out;
	ret = 0;
out:
	BN_CTX_end(ctx);
	if (ret)
		ERR_clear_error();
	return ret;
}

int sae_kdf(struct crypto_hmac_ctx *h, const uint8_t *key, size_t key_len, const char *label,
	    const uint8_t *context, size_t context_len, uint8_t *out, size_t bits)
{
	size_t len = (bits + 7) / 8, pos = 0;
	uint8_t block[CRYPTO_HASH_MAX_LEN], ctr[2], length[2];
	size_t hlen;
	int ret = 0;

	if (!h || !bits || bits > 0xffff)
		return -EINVAL;
	length[0] = (uint8_t)(bits & 0xff);
	length[1] = (uint8_t)(bits >> 8);
	for (unsigned i = 1; pos < len; i++) {
		struct crypto_iov parts[4] = {
			{ ctr, 2 }, { label, strlen(label) }, { context, context_len }, { length, 2 }
		};

		ctr[0] = (uint8_t)(i & 0xff);
		ctr[1] = (uint8_t)(i >> 8);
		ret = crypto_hmac_ctx_run(h, key, key_len, parts, 4, block);
		if (ret)
			break;
		hlen = len - pos < sizeof(block) ? len - pos : sizeof(block);
		hlen = hlen < crypto_hmac_ctx_len(h) ? hlen : crypto_hmac_ctx_len(h);
		memcpy(out + pos, block, hlen);
		pos += hlen;
	}
	crypto_zero(block, sizeof(block));
	if (ret)
		return ret;
	if (bits % 8)
		out[len - 1] &= (uint8_t)(0xff << (8 - bits % 8));
	return 0;
}

void sae_addrs_sorted(const uint8_t a[SAE_ADDR_LEN], const uint8_t b[SAE_ADDR_LEN],
		      uint8_t out[2 * SAE_ADDR_LEN])
{
	bool a_first = memcmp(a, b, SAE_ADDR_LEN) > 0;

	memcpy(out, a_first ? a : b, SAE_ADDR_LEN);
	memcpy(out + SAE_ADDR_LEN, a_first ? b : a, SAE_ADDR_LEN);
}
