/* OWE key agreement on OpenSSL 3; see owe.h. EC_GROUP/EC_POINT (not
 * deprecated in OpenSSL 3) check and decompress the peer's x; EVP does
 * key generation, ECDH (EVP_PKEY_derive) and HKDF. */
#include "daemon/crypto/owe.h"
#include "daemon/crypto/lib.h"

#include "daemon/crypto/secure.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>

struct owe_key {
	uint16_t group;
	EVP_PKEY *pkey;
};

struct group_info {
	uint16_t id;
	int nid;
	const char *name; /* OpenSSL group name */
	const char *digest;
	size_t prime_len;
	size_t hash_len;
};

static const struct group_info groups[] = {
	{ OWE_GROUP_P256, NID_X9_62_prime256v1, "P-256", "SHA256", 32, 32 },
	{ OWE_GROUP_P384, NID_secp384r1, "P-384", "SHA384", 48, 48 },
	{ OWE_GROUP_P521, NID_secp521r1, "P-521", "SHA512", 66, 64 },
};

static const struct group_info *group_find(uint16_t id)
{
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (groups[i].id == id)
			return &groups[i];
	return NULL;
}

bool owe_group_supported(uint16_t group)
{
	return group_find(group) != NULL;
}

size_t owe_pubkey_len(uint16_t group)
{
	const struct group_info *g = group_find(group);
	return g ? g->prime_len : 0;
}

size_t owe_pmk_len(uint16_t group)
{
	const struct group_info *g = group_find(group);
	return g ? g->hash_len : 0;
}

uint16_t owe_key_group(const struct owe_key *k)
{
	return k->group;
}

struct owe_key *owe_key_new(uint16_t group)
{
	const struct group_info *g = group_find(group);
	if (!g)
		return NULL;
	struct owe_key *k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->group = group;
	k->pkey = EVP_PKEY_Q_keygen(NULL, NULL, "EC", g->name);
	if (!k->pkey) {
		free(k);
		return NULL;
	}
	return k;
}

/* An EVP key of the group from the encoded public point and, optionally,
 * the private scalar. */
static EVP_PKEY *pkey_from(const struct group_info *g, const uint8_t *pub, size_t pub_len,
			   const BIGNUM *priv)
{
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	EVP_PKEY *pkey = NULL;

	if (!bld ||
	    !OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, g->name, 0) ||
	    !OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub, pub_len) ||
	    (priv && !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, priv)) ||
	    !(params = OSSL_PARAM_BLD_to_param(bld)) ||
	    !(ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) || EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, &pkey, priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) <= 0)
		pkey = NULL;
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	return pkey;
}

struct owe_key *owe_key_from_private(uint16_t group, const uint8_t *priv, size_t len)
{
	const struct group_info *g = group_find(group);
	uint8_t pub[1 + 2 * OWE_PUBKEY_MAX];
	struct owe_key *k = NULL;
	EC_GROUP *ecg = NULL;
	EC_POINT *pt = NULL;
	BIGNUM *d = NULL;

	if (!g || !priv || !len || len > g->prime_len)
		return NULL;
	if (!(ecg = EC_GROUP_new_by_curve_name(g->nid)) || !(pt = EC_POINT_new(ecg)) ||
	    !(d = BN_secure_new()) || !BN_bin2bn(priv, (int)len, d))
		goto out;
	if (BN_is_zero(d) || BN_cmp(d, EC_GROUP_get0_order(ecg)) >= 0 ||
	    !EC_POINT_mul(ecg, pt, d, NULL, NULL, NULL))
		goto out;
	size_t pub_len = EC_POINT_point2oct(ecg, pt, POINT_CONVERSION_UNCOMPRESSED, pub,
					    sizeof(pub), NULL);
	if (!pub_len || !(k = calloc(1, sizeof(*k))))
		goto out;
	k->group = group;
	if (!(k->pkey = pkey_from(g, pub, pub_len, d))) {
		free(k);
		k = NULL;
	}
out:
	BN_clear_free(d);
	EC_POINT_free(pt);
	EC_GROUP_free(ecg);
	return k;
}

void owe_key_free(struct owe_key *k)
{
	if (!k)
		return;
	EVP_PKEY_free(k->pkey); /* OpenSSL clears the private scalar */
	free(k);
}

int owe_key_public(const struct owe_key *k, uint8_t *out, size_t cap, size_t *len)
{
	const struct group_info *g = k ? group_find(k->group) : NULL;
	BIGNUM *x = NULL;

	if (!g || !out || cap < g->prime_len)
		return -EINVAL;
	if (!EVP_PKEY_get_bn_param(k->pkey, OSSL_PKEY_PARAM_EC_PUB_X, &x))
		return -EIO;
	int ok = BN_bn2binpad(x, out, (int)g->prime_len) == (int)g->prime_len;
	BN_free(x);
	if (!ok)
		return -EIO;
	*len = g->prime_len;
	return 0;
}

/* The peer's x as the compressed point 02 | x, after checking x < p and
 * that it is on the curve (decompression finds no y otherwise). */
static int peer_point(const struct group_info *g, const uint8_t *x, size_t len,
		      uint8_t point[1 + OWE_PUBKEY_MAX])
{
	EC_GROUP *ecg = NULL;
	EC_POINT *pt = NULL;
	BIGNUM *bx = NULL, *p = NULL;
	int ret = -EBADMSG;

	if (!x || len != g->prime_len)
		return -EBADMSG;
	if (!(ecg = EC_GROUP_new_by_curve_name(g->nid)) || !(pt = EC_POINT_new(ecg)) ||
	    !(bx = BN_bin2bn(x, (int)len, NULL)) || !(p = BN_new()) ||
	    !EC_GROUP_get_curve(ecg, p, NULL, NULL, NULL)) {
		ret = -EIO;
		goto out;
	}
	if (BN_cmp(bx, p) >= 0 || !EC_POINT_set_compressed_coordinates(ecg, pt, bx, 0, NULL) ||
	    EC_POINT_is_at_infinity(ecg, pt) || EC_POINT_is_on_curve(ecg, pt, NULL) != 1)
		goto out;
	point[0] = 0x02;
	memcpy(point + 1, x, len);
	ret = 0;
out:
	BN_free(p);
	BN_free(bx);
	EC_POINT_free(pt);
	EC_GROUP_free(ecg);
	return ret;
}

int owe_check_peer(uint16_t group, const uint8_t *x, size_t len)
{
	const struct group_info *g = group_find(group);
	uint8_t point[1 + OWE_PUBKEY_MAX];
	return g ? peer_point(g, x, len, point) : -EINVAL;
}

/* z = x of the shared point, prime_len octets. */
static int ecdh(const struct owe_key *own, const struct group_info *g, const uint8_t *peer,
		size_t peer_len, uint8_t *z)
{
	uint8_t point[1 + OWE_PUBKEY_MAX];
	int ret = peer_point(g, peer, peer_len, point);
	if (ret < 0)
		return ret;
	EVP_PKEY *pk = pkey_from(g, point, 1 + peer_len, NULL);
	EVP_PKEY_CTX *ctx = pk ? EVP_PKEY_CTX_new_from_pkey(NULL, own->pkey, NULL) : NULL;
	size_t zlen = g->prime_len;
	ret = -EIO;
	if (ctx && EVP_PKEY_derive_init(ctx) > 0 && EVP_PKEY_derive_set_peer_ex(ctx, pk, 1) > 0 &&
	    EVP_PKEY_derive(ctx, z, &zlen) > 0 && zlen == g->prime_len)
		ret = 0;
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(pk);
	return pk ? ret : -EBADMSG;
}

static int hkdf(const struct group_info *g, const uint8_t *salt, size_t salt_len,
		const uint8_t *ikm, size_t ikm_len, uint8_t *out, size_t out_len)
{
	static const char info[] = "OWE Key Generation";
	EVP_KDF *kdf = crypto_alg_hkdf();
	EVP_KDF_CTX *ctx = kdf ? EVP_KDF_CTX_new(kdf) : NULL;
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)g->digest, 0),
		OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, salt_len),
		OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)ikm, ikm_len),
		OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info,
						  sizeof(info) - 1),
		OSSL_PARAM_construct_end(),
	};
	int ret = ctx && EVP_KDF_derive(ctx, out, out_len, params) > 0 ? 0 : -EIO;
	EVP_KDF_CTX_free(ctx);
	return ret;
}

int owe_derive(const struct owe_key *own, bool own_is_sta, const uint8_t *peer, size_t peer_len,
	       struct owe_result *out)
{
	const struct group_info *g = own && out ? group_find(own->group) : NULL;
	uint8_t salt[2 * OWE_PUBKEY_MAX + 2], z[OWE_PUBKEY_MAX], hash[EVP_MAX_MD_SIZE];
	unsigned hash_len = 0;
	size_t n;
	int ret;

	if (!g)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (peer_len != g->prime_len)
		return -EBADMSG;
	/* salt = C | A | group */
	uint8_t *c = own_is_sta ? salt : salt + g->prime_len;
	uint8_t *a = own_is_sta ? salt + g->prime_len : salt;
	if ((ret = owe_key_public(own, c, g->prime_len, &n)) < 0)
		return ret;
	memcpy(a, peer, peer_len);
	salt[2 * g->prime_len] = (uint8_t)own->group;
	salt[2 * g->prime_len + 1] = (uint8_t)(own->group >> 8);
	if ((ret = ecdh(own, g, peer, peer_len, z)) < 0)
		goto out;
	if ((ret = hkdf(g, salt, 2 * g->prime_len + 2, z, g->prime_len, out->pmk, g->hash_len)) < 0)
		goto out;
	const EVP_MD *md = EVP_get_digestbyname(g->digest);
	if (!md || !EVP_Digest(salt, 2 * g->prime_len, hash, &hash_len, md, NULL) ||
	    hash_len < OWE_PMKID_LEN) {
		ret = -EIO;
		goto out;
	}
	memcpy(out->pmkid, hash, OWE_PMKID_LEN);
	out->pmk_len = g->hash_len;
	ret = 0;
out:
	crypto_zero(z, sizeof(z));
	if (ret < 0)
		crypto_zero(out, sizeof(*out));
	return ret;
}
