/* One SAE exchange (IEEE 802.11-2020 12.4.5): commit, the peer's commit
 * and the keys, confirm. The password element comes from sae_hnp.c or
 * sae_h2e.c; the group arithmetic from sae_group.c. */
#include "daemon/crypto/sae.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>

#include "daemon/crypto/sae_group.h"
#include "daemon/crypto/secure.h"

#define KEYS_LABEL "SAE KCK and PMK"

struct sae_crypto {
	const struct sae_group *g; /* shared, read-only */
	BN_CTX *ctx;
	/* PWE = pwe_mul * pwe_base: the PWE itself and 1 for H&P, PT and val
	 * for H2E, so that H2E multiplies by PT directly and never spends a
	 * scalar multiplication on PWE (val is public: the addresses' hash). */
	EC_POINT *pwe_base;
	BIGNUM *pwe_mul;
	bool have_pwe, pwe_h2e;
	BIGNUM *rand; /* secret until the exchange ends */
	bool have_commit, have_keys, confirmed;
	uint8_t own_scalar[SAE_MAX_ORDER_LEN], own_element[2 * SAE_MAX_PRIME_LEN];
	uint8_t peer_scalar[SAE_MAX_ORDER_LEN], peer_element[2 * SAE_MAX_PRIME_LEN];
	enum crypto_hash_alg kck_hash; /* SHA-256 for H&P, the group's for H2E */
	size_t kck_len;
	uint8_t kck[SAE_MAX_HASH_LEN];
	uint8_t pmk[SAE_PMK_LEN];
	uint8_t pmkid[SAE_PMKID_LEN];
	/* Tests only (sae_crypto_set_rand_mask_for_test). */
	bool fixed;
	uint8_t fixed_rand[SAE_MAX_ORDER_LEN], fixed_mask[SAE_MAX_ORDER_LEN];
	unsigned hnp_iterations, hnp_qr_tests;
};

struct sae_crypto *sae_crypto_new(int group, int *err)
{
	struct sae_crypto *c = calloc(1, sizeof(*c));
	int ret = -ENOMEM;

	if (!sae_group_supported(group)) {
		ret = -ENOTSUP;
		goto fail;
	}
	if (!c)
		goto fail;
	c->ctx = BN_CTX_secure_new();
	if (!c->ctx)
		goto fail;
	c->g = sae_group_get(group, &ret);
	if (!c->g)
		goto fail;
	ret = -ENOMEM;
	c->pwe_base = EC_POINT_new(c->g->ec);
	c->pwe_mul = BN_new();
	c->rand = sae_bn_new();
	if (!c->pwe_base || !c->pwe_mul || !c->rand)
		goto fail;
	if (err)
		*err = 0;
	return c;
fail:
	ERR_clear_error();
	sae_crypto_free(c);
	if (err)
		*err = ret;
	return NULL;
}

void sae_crypto_free(struct sae_crypto *c)
{
	if (!c)
		return;
	EC_POINT_clear_free(c->pwe_base);
	BN_free(c->pwe_mul);
	BN_clear_free(c->rand);
	BN_CTX_free(c->ctx);
	crypto_zero(c, sizeof(*c));
	free(c);
}

int sae_crypto_group(const struct sae_crypto *c)
{
	return c ? c->g->id : 0;
}

/* A new PWE ends whatever commit and keys the exchange had. */
static void reset_exchange(struct sae_crypto *c)
{
	c->have_commit = c->have_keys = c->confirmed = false;
	BN_zero(c->rand);
	crypto_zero(c->kck, sizeof(c->kck));
	crypto_zero(c->pmk, sizeof(c->pmk));
	crypto_zero(c->pmkid, sizeof(c->pmkid));
}

int sae_crypto_pwe_hnp(struct sae_crypto *c, const uint8_t own[SAE_ADDR_LEN],
		       const uint8_t peer[SAE_ADDR_LEN], const uint8_t *password,
		       size_t password_len, const uint8_t *identifier, size_t identifier_len)
{
	uint8_t addrs[2 * SAE_ADDR_LEN];
	int ret;

	if (!c || !own || !peer || (!password && password_len) ||
	    (!identifier && identifier_len))
		return -EINVAL;
	reset_exchange(c);
	c->have_pwe = false;
	sae_addrs_sorted(own, peer, addrs);
	ret = sae_hnp_derive(c->g, c->pwe_base, addrs, password, password_len, identifier,
			     identifier_len, c->ctx, &c->hnp_iterations, &c->hnp_qr_tests);
	if (ret)
		return ret;
	if (!BN_one(c->pwe_mul))
		return -EIO;
	c->have_pwe = true;
	c->pwe_h2e = false;
	return 0;
}

int sae_crypto_pwe_h2e(struct sae_crypto *c, const struct sae_pt *pt,
		       const uint8_t own[SAE_ADDR_LEN], const uint8_t peer[SAE_ADDR_LEN])
{
	uint8_t addrs[2 * SAE_ADDR_LEN];
	int ret;

	if (!c || !pt || !own || !peer || sae_pt_group(pt) != c->g->id)
		return -EINVAL;
	reset_exchange(c);
	c->have_pwe = false;
	sae_addrs_sorted(own, peer, addrs);
	ret = sae_h2e_pwe(c->g, c->pwe_base, c->pwe_mul, pt, addrs, c->ctx);
	if (ret)
		return ret;
	c->have_pwe = true;
	c->pwe_h2e = true;
	return 0;
}

/* rand and mask uniformly in [2, r). */
static int draw_secret(const struct sae_group *g, BIGNUM *out, BN_CTX *ctx)
{
	BIGNUM *range;
	int ok;

	BN_CTX_start(ctx);
	range = BN_CTX_get(ctx);
	ok = range && BN_copy(range, g->r) && BN_sub_word(range, 2) &&
	     BN_priv_rand_range_ex(out, range, 0, ctx) && BN_add_word(out, 2);
	BN_CTX_end(ctx);
	return ok ? 0 : -EIO;
}

/* scalar = (rand + mask) mod r, element = -(mask * PWE), into the own_*
 * encodings; 1 when the scalar came out <= 1 (draw again). */
static int make_commit(struct sae_crypto *c, BIGNUM *mask)
{
	const struct sae_group *g = c->g;
	EC_POINT *elem = EC_POINT_new(g->ec);
	BIGNUM *scalar;
	int ret = -EIO;

	BN_CTX_start(c->ctx);
	scalar = sae_bn_ctx_get(c->ctx);
	if (!elem || !scalar)
		goto out;
	if (!BN_mod_add(scalar, c->rand, mask, g->r, c->ctx))
		goto out;
	if (BN_is_zero(scalar) || BN_is_one(scalar)) {
		ret = 1;
		goto out;
	}
	if (sae_bn_to_bin(scalar, c->own_scalar, g->order_len))
		goto out;
	/* element = -(mask * PWE) = -((mask * pwe_mul) * pwe_base) */
	if (!BN_mod_mul(scalar, mask, c->pwe_mul, g->r, c->ctx) ||
	    !EC_POINT_mul(g->ec, elem, NULL, c->pwe_base, scalar, c->ctx) ||
	    !EC_POINT_invert(g->ec, elem, c->ctx) ||
	    sae_point_to_bin(g, elem, c->own_element, c->ctx))
		goto out;
	ret = 0;
out:
	BN_CTX_end(c->ctx);
	EC_POINT_clear_free(elem);
	return ret;
}

static int copy_commit(const struct sae_crypto *c, uint8_t *scalar, size_t scalar_max,
		       uint8_t *element, size_t element_max)
{
	if (scalar_max < c->g->order_len || element_max < 2 * c->g->prime_len)
		return -EINVAL;
	memcpy(scalar, c->own_scalar, c->g->order_len);
	memcpy(element, c->own_element, 2 * c->g->prime_len);
	return 0;
}

int sae_crypto_commit(struct sae_crypto *c, uint8_t *scalar, size_t scalar_max,
		      uint8_t *element, size_t element_max)
{
	BIGNUM *mask;
	int ret = -EIO;

	if (!c || !scalar || !element || !c->have_pwe)
		return -EINVAL;
	if (scalar_max < c->g->order_len || element_max < 2 * c->g->prime_len)
		return -EINVAL;
	reset_exchange(c);
	BN_CTX_start(c->ctx);
	mask = sae_bn_ctx_get(c->ctx);
	if (!mask)
		goto out;
	for (int tries = 0; tries < 100; tries++) {
		if (c->fixed) {
			if (!BN_bin2bn(c->fixed_rand, (int)c->g->order_len, c->rand) ||
			    !BN_bin2bn(c->fixed_mask, (int)c->g->order_len, mask))
				goto out;
		} else if (draw_secret(c->g, c->rand, c->ctx) ||
			   draw_secret(c->g, mask, c->ctx)) {
			goto out;
		}
		ret = make_commit(c, mask);
		if (ret <= 0 || c->fixed)
			break;
	}
	if (ret == 1)
		ret = c->fixed ? -EINVAL : -EIO;
	if (!ret) {
		c->have_commit = true;
		ret = copy_commit(c, scalar, scalar_max, element, element_max);
	}
out:
	if (mask)
		BN_clear(mask);
	BN_CTX_end(c->ctx);
	if (ret)
		ERR_clear_error();
	return ret;
}

int sae_crypto_own_commit(const struct sae_crypto *c, uint8_t *scalar, size_t scalar_max,
			  uint8_t *element, size_t element_max)
{
	if (!c || !scalar || !element || !c->have_commit)
		return -EINVAL;
	return copy_commit(c, scalar, scalar_max, element, element_max);
}

/* K = rand * (peer_scalar * PWE + PEER-ELEMENT); k = x(K). */
static int shared_secret(struct sae_crypto *c, const BIGNUM *peer_scalar,
			 const EC_POINT *peer_elem, uint8_t *k)
{
	const struct sae_group *g = c->g;
	EC_POINT *t = EC_POINT_new(g->ec);
	uint8_t kxy[2 * SAE_MAX_PRIME_LEN];
	BIGNUM *m;
	int ret = -EIO;

	BN_CTX_start(c->ctx);
	m = BN_CTX_get(c->ctx);
	if (!t || !m)
		goto out;
	/* peer_scalar * PWE = (peer_scalar * pwe_mul) * pwe_base */
	if (!BN_mod_mul(m, peer_scalar, c->pwe_mul, g->r, c->ctx) ||
	    !EC_POINT_mul(g->ec, t, NULL, c->pwe_base, m, c->ctx) ||
	    !EC_POINT_add(g->ec, t, t, peer_elem, c->ctx) ||
	    !EC_POINT_mul(g->ec, t, NULL, t, c->rand, c->ctx))
		goto out;
	/* K at infinity: the peer's values cancel ours (12.4.5.4 rejects). */
	if (EC_POINT_is_at_infinity(g->ec, t)) {
		ret = -EBADMSG;
		goto out;
	}
	ret = sae_point_to_bin(g, t, kxy, c->ctx);
	if (!ret)
		memcpy(k, kxy, g->prime_len);
out:
	crypto_zero(kxy, sizeof(kxy));
	EC_POINT_clear_free(t);
	BN_CTX_end(c->ctx);
	return ret;
}

/* What a processed commit yields, kept apart until it all succeeded. */
struct sae_keys {
	enum crypto_hash_alg kck_hash;
	size_t kck_len;
	uint8_t kck[SAE_MAX_HASH_LEN];
	uint8_t pmk[SAE_PMK_LEN];
	uint8_t pmkid[SAE_PMKID_LEN];
};

/* keyseed = H(salt, k); KCK || PMK = KDF-Hash-Length(keyseed, "SAE KCK and
 * PMK", (scalar + peer-scalar) mod r); PMKID = L(that sum, 0, 128). */
static int derive_keys(struct sae_crypto *c, const uint8_t *k, const BIGNUM *peer_scalar,
		       bool h2e, const uint8_t *salt, size_t salt_len, struct sae_keys *out)
{
	const struct sae_group *g = c->g;
	uint8_t keyseed[SAE_MAX_HASH_LEN], zeros[SAE_MAX_HASH_LEN] = { 0 };
	uint8_t sum_bin[SAE_MAX_ORDER_LEN], keys[SAE_MAX_HASH_LEN + SAE_PMK_LEN];
	struct crypto_hmac_ctx *h = NULL;
	BIGNUM *own, *sum;
	int ret = -EIO;

	/* 12.4.5.4: H&P keeps SHA-256 and a 256-bit KCK for every group;
	 * H2E uses the group's hash and a KCK of its length. */
	out->kck_hash = h2e ? g->hash : CRYPTO_HASH_SHA256;
	out->kck_len = crypto_hash_len(out->kck_hash);
	if (!salt_len) {
		salt = zeros;
		salt_len = out->kck_len;
	}
	BN_CTX_start(c->ctx);
	own = BN_CTX_get(c->ctx);
	sum = BN_CTX_get(c->ctx);
	if (!sum || !BN_bin2bn(c->own_scalar, (int)g->order_len, own) ||
	    !BN_mod_add(sum, own, peer_scalar, g->r, c->ctx) ||
	    sae_bn_to_bin(sum, sum_bin, g->order_len))
		goto out;
	ret = -ENOMEM;
	h = crypto_hmac_ctx_new(out->kck_hash);
	if (!h)
		goto out;
	ret = crypto_hmac_ctx_run(h, salt, salt_len, &(struct crypto_iov){ k, g->prime_len }, 1,
				  keyseed);
	if (!ret)
		ret = sae_kdf(h, keyseed, out->kck_len, KEYS_LABEL, sum_bin, g->order_len, keys,
			      8 * (out->kck_len + SAE_PMK_LEN));
	if (ret)
		goto out;
	memcpy(out->kck, keys, out->kck_len);
	memcpy(out->pmk, keys + out->kck_len, SAE_PMK_LEN);
	memcpy(out->pmkid, sum_bin, SAE_PMKID_LEN);
out:
	crypto_hmac_ctx_free(h);
	crypto_zero(keyseed, sizeof(keyseed));
	crypto_zero(keys, sizeof(keys));
	BN_CTX_end(c->ctx);
	return ret;
}

int sae_crypto_process_commit(struct sae_crypto *c, const uint8_t *peer_scalar,
			      size_t scalar_len, const uint8_t *peer_element, size_t element_len,
			      bool h2e, const uint8_t *rejected_groups, size_t rejected_len)
{
	const struct sae_group *g;
	struct sae_keys keys;
	uint8_t k[SAE_MAX_PRIME_LEN];
	EC_POINT *elem = NULL;
	BIGNUM *s;
	int ret;

	if (!c || !peer_scalar || !peer_element || (!rejected_groups && rejected_len))
		return -EINVAL;
	if (!c->have_commit || h2e != c->pwe_h2e)
		return -EINVAL;
	g = c->g;
	/* A refused commit changes nothing: the exchange keeps what it had. */
	if (scalar_len != g->order_len || element_len != 2 * g->prime_len)
		return -EBADMSG;
	/* Our own commit reflected back: scalar or element equal to ours. */
	if (sae_ct_eq(peer_scalar, c->own_scalar, scalar_len) ||
	    sae_ct_eq(peer_element, c->own_element, element_len))
		return -EBADMSG;
	memset(&keys, 0, sizeof(keys));
	BN_CTX_start(c->ctx);
	s = BN_CTX_get(c->ctx);
	elem = EC_POINT_new(g->ec);
	ret = -EIO;
	if (!s || !elem || !BN_bin2bn(peer_scalar, (int)scalar_len, s))
		goto out;
	ret = -EBADMSG;
	if (BN_is_zero(s) || BN_is_one(s) || BN_cmp(s, g->r) >= 0)
		goto out;
	ret = sae_point_from_bin(g, elem, peer_element, c->ctx);
	if (!ret)
		ret = shared_secret(c, s, elem, k);
	if (!ret)
		ret = derive_keys(c, k, s, h2e, h2e ? rejected_groups : NULL,
				  h2e ? rejected_len : 0, &keys);
	if (ret)
		goto out;
	memcpy(c->peer_scalar, peer_scalar, scalar_len);
	memcpy(c->peer_element, peer_element, element_len);
	c->kck_hash = keys.kck_hash;
	c->kck_len = keys.kck_len;
	memcpy(c->kck, keys.kck, sizeof(c->kck));
	memcpy(c->pmk, keys.pmk, sizeof(c->pmk));
	memcpy(c->pmkid, keys.pmkid, sizeof(c->pmkid));
	c->have_keys = true;
	c->confirmed = false;
out:
	crypto_zero(k, sizeof(k));
	crypto_zero(&keys, sizeof(keys));
	EC_POINT_free(elem);
	BN_CTX_end(c->ctx);
	if (ret)
		ERR_clear_error();
	return ret;
}

/* CN(KCK, send-confirm, scalar1, element1, scalar2, element2) of 12.4.5.5:
 * the counter as two octets little-endian, then the values in order. */
static int cn(const struct sae_crypto *c, uint16_t send_confirm, const uint8_t *s1,
	      const uint8_t *e1, const uint8_t *s2, const uint8_t *e2, uint8_t *out)
{
	uint8_t sc[2] = { (uint8_t)(send_confirm & 0xff), (uint8_t)(send_confirm >> 8) };
	size_t sl = c->g->order_len, el = 2 * c->g->prime_len;
	struct crypto_iov parts[5] = { { sc, 2 }, { s1, sl }, { e1, el }, { s2, sl }, { e2, el } };

	return crypto_hmac_vec(c->kck_hash, c->kck, c->kck_len, parts, 5, out);
}

int sae_crypto_confirm(const struct sae_crypto *c, uint16_t send_confirm, uint8_t *confirm,
		       size_t max)
{
	if (!c || !confirm || !c->have_keys || max < c->kck_len)
		return -EINVAL;
	return cn(c, send_confirm, c->own_scalar, c->own_element, c->peer_scalar,
		  c->peer_element, confirm);
}

int sae_crypto_verify_confirm(struct sae_crypto *c, uint16_t peer_send_confirm,
			      const uint8_t *confirm, size_t len)
{
	uint8_t want[SAE_MAX_HASH_LEN];
	int ret;

	if (!c || !confirm || !c->have_keys)
		return -EINVAL;
	if (len != c->kck_len)
		return -EACCES;
	ret = cn(c, peer_send_confirm, c->peer_scalar, c->peer_element, c->own_scalar,
		 c->own_element, want);
	if (!ret)
		ret = CRYPTO_memcmp(want, confirm, len) == 0 ? 0 : -EACCES;
	crypto_zero(want, sizeof(want));
	if (!ret)
		c->confirmed = true;
	return ret;
}

const uint8_t *sae_crypto_pmk(const struct sae_crypto *c)
{
	return c && c->confirmed ? c->pmk : NULL;
}

const uint8_t *sae_crypto_pmkid(const struct sae_crypto *c)
{
	return c && c->confirmed ? c->pmkid : NULL;
}

const uint8_t *sae_crypto_kck(const struct sae_crypto *c, size_t *len)
{
	if (!c || !c->have_keys)
		return NULL;
	if (len)
		*len = c->kck_len;
	return c->kck;
}

size_t sae_crypto_confirm_len(const struct sae_crypto *c)
{
	return c && c->have_keys ? c->kck_len : 0;
}

int sae_crypto_set_rand_mask_for_test(struct sae_crypto *c, const uint8_t *rand,
				      const uint8_t *mask, size_t len)
{
	if (!c || !rand || !mask || len != c->g->order_len)
		return -EINVAL;
	memcpy(c->fixed_rand, rand, len);
	memcpy(c->fixed_mask, mask, len);
	c->fixed = true;
	return 0;
}

unsigned sae_crypto_hnp_iterations_for_test(const struct sae_crypto *c, unsigned *qr_tests)
{
	if (qr_tests)
		*qr_tests = c ? c->hnp_qr_tests : 0;
	return c ? c->hnp_iterations : 0;
}

int sae_crypto_pwe_for_test(const struct sae_crypto *c, uint8_t *out, size_t max)
{
	if (!c || !out || !c->have_pwe || max < 2 * c->g->prime_len)
		return -EINVAL;
	EC_POINT *pwe = EC_POINT_new(c->g->ec);
	int ret = -EIO;

	if (pwe && EC_POINT_mul(c->g->ec, pwe, NULL, c->pwe_base, c->pwe_mul, c->ctx))
		ret = sae_point_to_bin(c->g, pwe, out, c->ctx);
	EC_POINT_clear_free(pwe);
	return ret ? ret : (int)(2 * c->g->prime_len);
}
