/* SHA digests and HMAC through EVP_Digest and EVP_MAC("HMAC"). */
#include "daemon/crypto/hash.h"

#include "daemon/crypto/lib.h"

#include <errno.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdlib.h>

static const char *digest_name(enum crypto_hash_alg alg)
{
	switch (alg) {
	case CRYPTO_HASH_SHA1:
		return "SHA1";
	case CRYPTO_HASH_SHA256:
		return "SHA256";
	case CRYPTO_HASH_SHA384:
		return "SHA384";
	case CRYPTO_HASH_SHA512:
		return "SHA512";
	}
	return NULL;
}

size_t crypto_hash_len(enum crypto_hash_alg alg)
{
	switch (alg) {
	case CRYPTO_HASH_SHA1:
		return CRYPTO_SHA1_LEN;
	case CRYPTO_HASH_SHA256:
		return CRYPTO_SHA256_LEN;
	case CRYPTO_HASH_SHA384:
		return CRYPTO_SHA384_LEN;
	case CRYPTO_HASH_SHA512:
		return CRYPTO_SHA512_LEN;
	}
	return 0;
}

int crypto_digest(enum crypto_hash_alg alg, const void *data, size_t len, uint8_t *out)
{
	static const uint8_t empty;
	const char *name = digest_name(alg);
	EVP_MD *md;
	unsigned int outl = 0;
	int ok;

	if (!name || !out || (!data && len))
		return -EINVAL;
	md = crypto_alg_md(alg);
	if (!md)
		return -EIO;
	ok = EVP_Digest(len ? data : &empty, len, out, &outl, md, NULL);
	if (ok != 1 || outl != crypto_hash_len(alg)) {
		ERR_clear_error();
		return -EIO;
	}
	return 0;
}

struct crypto_hmac_ctx {
	enum crypto_hash_alg alg;
	bool keyed; /* the last run succeeded: its key may be reused */
	EVP_MAC_CTX *ctx;
};

bool crypto_iov_valid(const struct crypto_iov *parts, size_t n)
{
	if (!parts && n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!parts[i].data && parts[i].len)
			return false;
	return true;
}

/* key: set it (non-NULL even when empty), or NULL to restart under the key
 * h has, which copies the keyed inner and outer states instead of
 * hashing the padded key again. */
static int hmac_ctx_mac(struct crypto_hmac_ctx *h, const void *key, size_t key_len,
			const struct crypto_iov *parts, size_t n, uint8_t *out)
{
	size_t want = crypto_hash_len(h->alg), outl = 0;

	h->keyed = false;
	if (EVP_MAC_init(h->ctx, key, key_len, NULL) != 1)
		goto fail;
	for (size_t i = 0; i < n; i++)
		if (parts[i].len && EVP_MAC_update(h->ctx, parts[i].data, parts[i].len) != 1)
			goto fail;
	if (EVP_MAC_final(h->ctx, out, &outl, want) != 1 || outl != want)
		goto fail;
	h->keyed = true;
	return 0;
fail:
	ERR_clear_error();
	return -EIO;
}

static const uint8_t empty_key;

int crypto_hmac_vec(enum crypto_hash_alg alg, const void *key, size_t key_len,
		    const struct crypto_iov *parts, size_t n, uint8_t *out)
{
	struct crypto_hmac_ctx h = { .alg = alg };
	const EVP_MAC_CTX *tmpl;
	int ret;

	if (!digest_name(alg) || !out || (!key && key_len) || !crypto_iov_valid(parts, n))
		return -EINVAL;
	/* A copy of the digest's template: a fresh context would fetch the
	 * digest by name again (~1.6k instructions, twice per MIC). */
	tmpl = crypto_alg_hmac_template(alg);
	h.ctx = tmpl ? EVP_MAC_CTX_dup(tmpl) : NULL;
	if (!h.ctx) {
		ERR_clear_error();
		return tmpl ? -ENOMEM : -EIO;
	}
	ret = hmac_ctx_mac(&h, key_len ? key : &empty_key, key_len, parts, n, out);
	EVP_MAC_CTX_free(h.ctx); /* cleanses the keyed state */
	return ret;
}

struct crypto_hmac_ctx *crypto_hmac_ctx_new(enum crypto_hash_alg alg)
{
	const EVP_MAC_CTX *tmpl = crypto_alg_hmac_template(alg);
	struct crypto_hmac_ctx *h;

	if (!digest_name(alg))
		return NULL;
	h = calloc(1, sizeof(*h));
	/* The digest comes with the template; runs only change the key. */
	if (h && tmpl)
		h->ctx = EVP_MAC_CTX_dup(tmpl);
	if (!h || !h->ctx) {
		ERR_clear_error();
		crypto_hmac_ctx_free(h);
		return NULL;
	}
	h->alg = alg;
	return h;
}

int crypto_hmac_ctx_run(struct crypto_hmac_ctx *h, const void *key, size_t key_len,
			const struct crypto_iov *parts, size_t n, uint8_t *out)
{
	if (!h || !out || (!key && key_len) || !crypto_iov_valid(parts, n))
		return -EINVAL;
	return hmac_ctx_mac(h, key_len ? key : &empty_key, key_len, parts, n, out);
}

int crypto_hmac_ctx_next(struct crypto_hmac_ctx *h, const struct crypto_iov *parts, size_t n,
			 uint8_t *out)
{
	if (!h || !h->keyed || !out || !crypto_iov_valid(parts, n))
		return -EINVAL;
	return hmac_ctx_mac(h, NULL, 0, parts, n, out);
}

size_t crypto_hmac_ctx_len(const struct crypto_hmac_ctx *h)
{
	return h ? crypto_hash_len(h->alg) : 0;
}

void crypto_hmac_ctx_free(struct crypto_hmac_ctx *h)
{
	if (!h)
		return;
	EVP_MAC_CTX_free(h->ctx); /* cleanses the keyed state */
	free(h);
}

int crypto_hmac(enum crypto_hash_alg alg, const void *key, size_t key_len, const void *data,
		size_t len, uint8_t *out)
{
	struct crypto_iov part = { data, len };

	return crypto_hmac_vec(alg, key, key_len, &part, 1, out);
}

int crypto_hmac_sha1(const void *key, size_t key_len, const void *data, size_t len,
		     uint8_t out[CRYPTO_SHA1_LEN])
{
	return crypto_hmac(CRYPTO_HASH_SHA1, key, key_len, data, len, out);
}

int crypto_hmac_sha256(const void *key, size_t key_len, const void *data, size_t len,
		       uint8_t out[CRYPTO_SHA256_LEN])
{
	return crypto_hmac(CRYPTO_HASH_SHA256, key, key_len, data, len, out);
}

int crypto_hmac_sha384(const void *key, size_t key_len, const void *data, size_t len,
		       uint8_t out[CRYPTO_SHA384_LEN])
{
	return crypto_hmac(CRYPTO_HASH_SHA384, key, key_len, data, len, out);
}
