/* Hash-to-element (IEEE 802.11-2020 12.4.4.2.3): the password element
 * seed PT from the SSID, password and identifier through HKDF and the
 * simplified SWU map (RFC 9380 6.6.2, with 802.11's constant-time
 * selections), and PWE = val * PT for one pair of addresses. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>

#include "daemon/crypto/sae_group.h"
#include "daemon/crypto/secure.h"

#define U1_LABEL "SAE Hash to Element u1 P1"
#define U2_LABEL "SAE Hash to Element u2 P2"

struct sae_pt {
	int group;
	size_t prime_len;
	uint8_t xy[2 * SAE_MAX_PRIME_LEN]; /* PT, x || y */
};

int sae_pt_group(const struct sae_pt *pt)
{
	return pt ? pt->group : 0;
}

int sae_pt_encode(const struct sae_pt *pt, uint8_t *out, size_t max)
{
	if (!pt || !out || max < 2 * pt->prime_len)
		return -EINVAL;
	memcpy(out, pt->xy, 2 * pt->prime_len);
	return (int)(2 * pt->prime_len);
}

void sae_pt_free(struct sae_pt *pt)
{
	if (!pt)
		return;
	crypto_zero(pt, sizeof(*pt));
	free(pt);
}

/* HKDF-Expand of RFC 5869: T(i) = HMAC(prk, T(i-1) || info || i). */
static int hkdf_expand(enum crypto_hash_alg alg, const uint8_t *prk, size_t prk_len,
		       const char *info, uint8_t *out, size_t len)
{
	size_t hlen = crypto_hash_len(alg), pos = 0;
	uint8_t t[CRYPTO_HASH_MAX_LEN];
	int ret = 0;

	for (uint8_t i = 1; pos < len; i++) {
		struct crypto_iov parts[3] = {
			{ t, i > 1 ? hlen : 0 }, { info, strlen(info) }, { &i, 1 }
		};
		size_t n = len - pos < hlen ? len - pos : hlen;

		ret = crypto_hmac_vec(alg, prk, prk_len, parts, 3, t);
		if (ret)
			break;
		memcpy(out + pos, t, n);
		pos += n;
	}
	crypto_zero(t, sizeof(t));
	return ret;
}

/* The constants of the map: z (as p + z), b / (z * a) and -b / a. */
struct sswu_consts {
	BIGNUM *z, *b_za, *mb_a;
};

static int sswu_consts(const struct sae_group *g, struct sswu_consts *k, BN_CTX *ctx)
{
	BIGNUM *t = BN_CTX_get(ctx);

	k->z = BN_CTX_get(ctx);
	k->b_za = BN_CTX_get(ctx);
	k->mb_a = BN_CTX_get(ctx);
	if (!k->mb_a || !BN_set_word(t, (BN_ULONG)-g->z) || !BN_sub(k->z, g->p, t))
		return -EIO;
	/* b_za = b / (z * a); mb_a = -b / a = (p - b) / a */
	if (!BN_mod_mul(t, k->z, g->a, g->p, ctx) || !BN_mod_inverse(t, t, g->p, ctx) ||
	    !BN_mod_mul(k->b_za, g->b, t, g->p, ctx) || !BN_mod_inverse(t, g->a, g->p, ctx) ||
	    !BN_mod_mul(k->mb_a, g->b, t, g->p, ctx) || !BN_sub(k->mb_a, g->p, k->mb_a))
		return -EIO;
	return 0;
}

/* Select between two residues mod p in constant time: dst = bit ? a : b. */
static int bn_select(const struct sae_group *g, unsigned bit, BIGNUM *dst, const BIGNUM *a,
		     const BIGNUM *b)
{
	uint8_t ab[SAE_MAX_PRIME_LEN], bb[SAE_MAX_PRIME_LEN];
	int ret = -EIO;

	if (!sae_bn_to_bin(a, ab, g->prime_len) && !sae_bn_to_bin(b, bb, g->prime_len)) {
		sae_ct_select(bit, ab, ab, bb, g->prime_len);
		if (BN_bin2bn(ab, (int)g->prime_len, dst))
			ret = 0;
	}
	crypto_zero(ab, sizeof(ab));
	crypto_zero(bb, sizeof(bb));
	return ret;
}

/* SSWU(u) of 12.4.4.2.3:
 *   m = z^2 u^4 + z u^2; t = inverse(m) (0 for m = 0)
 *   x1 = m == 0 ? b / (z a) : (-b / a) (1 + t)
 *   x2 = z u^2 x1; x = gx1 is a residue ? x1 : x2
 *   y = sqrt(x^3 + a x + b), negated unless LSB(y) == LSB(u). */
int sae_sswu(const struct sae_group *g, EC_POINT *pt, const BIGNUM *u, BN_CTX *ctx)
{
	struct sswu_consts k;
	BIGNUM *zu2, *m, *t, *x1, *x2, *gx1;
	uint8_t u_bin[SAE_MAX_PRIME_LEN], m_bin[SAE_MAX_PRIME_LEN] = { 0 }, zero[SAE_MAX_PRIME_LEN] = { 0 };
	int ret = -EIO, qr;

	BN_CTX_start(ctx);
	zu2 = sae_bn_ctx_get(ctx);
	m = sae_bn_ctx_get(ctx);
	t = sae_bn_ctx_get(ctx);
	x1 = sae_bn_ctx_get(ctx);
	x2 = sae_bn_ctx_get(ctx);
	gx1 = sae_bn_ctx_get(ctx);
	if (!gx1 || sswu_consts(g, &k, ctx) || sae_bn_to_bin(u, u_bin, g->prime_len))
		goto out;
	/* zu2 = z u^2; m = zu2^2 + zu2 */
	if (!BN_mod_sqr(zu2, u, g->p, ctx) || !BN_mod_mul(zu2, zu2, k.z, g->p, ctx) ||
	    !BN_mod_sqr(m, zu2, g->p, ctx) || !BN_mod_add(m, m, zu2, g->p, ctx) ||
	    sae_bn_to_bin(m, m_bin, g->prime_len))
		goto out;
	/* t = m^(p-2): Fermat's inverse, constant time, and 0 for m = 0. */
	if (!BN_copy(t, g->p) || !BN_sub_word(t, 2) ||
	    !BN_mod_exp_mont_consttime(t, m, t, g->p, ctx, g->mont))
		goto out;
	if (!BN_add_word(t, 1) || !BN_mod_mul(x1, k.mb_a, t, g->p, ctx) ||
	    bn_select(g, sae_ct_eq(m_bin, zero, g->prime_len), x1, k.b_za, x1))
		goto out;
	if (!BN_mod_mul(x2, zu2, x1, g->p, ctx) || sae_group_curve_rhs(g, gx1, x1, ctx))
		goto out;
	qr = sae_group_is_qr(g, gx1, ctx);
	if (qr < 0 || bn_select(g, (unsigned)qr, x1, x1, x2))
		goto out;
	ret = sae_group_point_from_x(g, pt, x1, u_bin[g->prime_len - 1] & 1u, ctx);
out:
	crypto_zero(u_bin, sizeof(u_bin));
	crypto_zero(m_bin, sizeof(m_bin));
	BN_CTX_end(ctx);
	if (ret)
		ERR_clear_error();
	return ret;
}

/* u = HKDF-Expand(pwd-seed, label, len) mod p, len = olen(p) + olen(p)/2;
 * P = SSWU(u). */
static int hash_to_point(const struct sae_group *g, const uint8_t *seed, const char *label,
			 EC_POINT *p, BN_CTX *ctx)
{
	uint8_t value[SAE_MAX_PRIME_LEN + SAE_MAX_PRIME_LEN / 2];
	size_t len = g->prime_len + g->prime_len / 2;
	BIGNUM *u;
	int ret;

	BN_CTX_start(ctx);
	u = sae_bn_ctx_get(ctx);
	ret = u ? hkdf_expand(g->hash, seed, g->hash_len, label, value, len) : -EIO;
	if (!ret && (!BN_bin2bn(value, (int)len, u) || !BN_nnmod(u, u, g->p, ctx)))
		ret = -EIO;
	if (!ret)
		ret = sae_sswu(g, p, u, ctx);
	crypto_zero(value, sizeof(value));
	BN_CTX_end(ctx);
	return ret;
}

static int derive_pt(const struct sae_group *g, struct sae_pt *out, const uint8_t *ssid,
		     size_t ssid_len, const uint8_t *password, size_t password_len,
		     const uint8_t *identifier, size_t identifier_len, BN_CTX *ctx)
{
	struct crypto_iov ikm[2] = { { password, password_len }, { identifier, identifier_len } };
	uint8_t seed[CRYPTO_HASH_MAX_LEN];
	EC_POINT *p1 = EC_POINT_new(g->ec), *p2 = EC_POINT_new(g->ec);
	int ret = -ENOMEM;

	if (!p1 || !p2)
		goto out;
	/* pwd-seed = HKDF-Extract(ssid, password [|| identifier]) */
	ret = crypto_hmac_vec(g->hash, ssid, ssid_len, ikm, 2, seed);
	if (!ret)
		ret = hash_to_point(g, seed, U1_LABEL, p1, ctx);
	if (!ret)
		ret = hash_to_point(g, seed, U2_LABEL, p2, ctx);
	if (ret)
		goto out;
	ret = -EIO;
	if (EC_POINT_add(g->ec, p1, p1, p2, ctx))
		ret = sae_point_to_bin(g, p1, out->xy, ctx);
out:
	crypto_zero(seed, sizeof(seed));
	EC_POINT_clear_free(p1);
	EC_POINT_clear_free(p2);
	return ret;
}

struct sae_pt *sae_pt_derive(int group, const uint8_t *ssid, size_t ssid_len,
			     const uint8_t *password, size_t password_len,
			     const uint8_t *identifier, size_t identifier_len, int *err)
{
	const struct sae_group *g;
	struct sae_pt *pt = NULL;
	BN_CTX *ctx = NULL;
	int ret = -EINVAL;

	if (!ssid || !ssid_len || ssid_len > 32 || (!password && password_len) ||
	    (!identifier && identifier_len))
		goto out_noctx;
	ret = -ENOTSUP;
	if (!sae_group_supported(group))
		goto out_noctx;
	ret = -ENOMEM;
	ctx = BN_CTX_secure_new();
	pt = calloc(1, sizeof(*pt));
	if (!ctx || !pt)
		goto out_noctx;
	g = sae_group_get(group, &ret);
	if (!g)
		goto out_noctx;
	pt->group = group;
	pt->prime_len = g->prime_len;
	ret = derive_pt(g, pt, ssid, ssid_len, password, password_len, identifier, identifier_len,
			ctx);
out_noctx:
	BN_CTX_free(ctx);
	if (ret) {
		sae_pt_free(pt);
		pt = NULL;
		ERR_clear_error();
	}
	if (err)
		*err = ret;
	return pt;
}

/* val = H(0^n, MAX(A,B) || MIN(A,B)) mod (r - 1) + 1; PWE = val * PT,
 * returned as its two factors (the caller folds val into its scalars). */
int sae_h2e_pwe(const struct sae_group *g, EC_POINT *pt_out, BIGNUM *val, const struct sae_pt *pt,
		const uint8_t addrs[12], BN_CTX *ctx)
{
	uint8_t zeros[CRYPTO_HASH_MAX_LEN] = { 0 }, h[CRYPTO_HASH_MAX_LEN];
	BIGNUM *rm1;
	int ret;

	BN_CTX_start(ctx);
	rm1 = BN_CTX_get(ctx);
	ret = rm1 ? sae_point_from_bin(g, pt_out, pt->xy, ctx) : -EIO;
	if (!ret)
		ret = crypto_hmac(g->hash, zeros, g->hash_len, addrs, 12, h);
	if (!ret && (!BN_bin2bn(h, (int)g->hash_len, val) || !BN_copy(rm1, g->r) ||
		     !BN_sub_word(rm1, 1) || !BN_nnmod(val, val, rm1, ctx) || !BN_add_word(val, 1)))
		ret = -EIO;
	BN_CTX_end(ctx);
	if (ret)
		ERR_clear_error();
	return ret;
}
