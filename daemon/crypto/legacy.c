/* MD5, SHA-1 over parts, and the legacy provider's MD4 and DES in a private
 * library context (see legacy.h for why private). */
#include "daemon/crypto/legacy.h"

#include <errno.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <stdlib.h>

#include "daemon/crypto/secure.h"

static struct {
	bool tried, forced_off;
	OSSL_LIB_CTX *libctx;
	OSSL_PROVIDER *legacy;
} lg;

static void legacy_unload(void)
{
	if (lg.legacy)
		OSSL_PROVIDER_unload(lg.legacy);
	OSSL_LIB_CTX_free(lg.libctx);
	lg.legacy = NULL;
	lg.libctx = NULL;
}

static OSSL_LIB_CTX *legacy_ctx(void)
{
	if (lg.forced_off)
		return NULL;
	if (!lg.tried) {
		lg.tried = true;
		lg.libctx = OSSL_LIB_CTX_new();
		if (lg.libctx)
			lg.legacy = OSSL_PROVIDER_load(lg.libctx, "legacy");
		if (!lg.legacy) {
			ERR_clear_error();
			OSSL_LIB_CTX_free(lg.libctx);
			lg.libctx = NULL;
		} else {
			atexit(legacy_unload);
		}
	}
	return lg.legacy ? lg.libctx : NULL;
}

bool crypto_legacy_available(void)
{
	return legacy_ctx() != NULL;
}

void crypto_legacy_force_unavailable(bool off)
{
	lg.forced_off = off;
}

static int digest_vec(OSSL_LIB_CTX *libctx, const char *name, const struct crypto_iov *parts,
		      size_t n, uint8_t *out, unsigned want)
{
	EVP_MD *md = EVP_MD_fetch(libctx, name, NULL);
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	unsigned outl = 0;
	int ret = -EIO;

	if (!md || !c || EVP_DigestInit_ex(c, md, NULL) != 1)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (parts[i].len && EVP_DigestUpdate(c, parts[i].data, parts[i].len) != 1)
			goto out;
	if (EVP_DigestFinal_ex(c, out, &outl) == 1 && outl == want)
		ret = 0;
out:
	if (ret)
		ERR_clear_error();
	EVP_MD_CTX_free(c);
	EVP_MD_free(md);
	return ret;
}

int crypto_md5_vec(const struct crypto_iov *parts, size_t n, uint8_t out[CRYPTO_MD5_LEN])
{
	if (!out || !crypto_iov_valid(parts, n))
		return -EINVAL;
	return digest_vec(NULL, "MD5", parts, n, out, CRYPTO_MD5_LEN);
}

int crypto_sha1_vec(const struct crypto_iov *parts, size_t n, uint8_t out[CRYPTO_SHA1_LEN])
{
	if (!out || !crypto_iov_valid(parts, n))
		return -EINVAL;
	return digest_vec(NULL, "SHA1", parts, n, out, CRYPTO_SHA1_LEN);
}

int crypto_md4(const void *data, size_t len, uint8_t out[CRYPTO_MD4_LEN])
{
	if (!out || (!data && len))
		return -EINVAL;
	OSSL_LIB_CTX *libctx = legacy_ctx();
	if (!libctx)
		return -ENOTSUP;
	struct crypto_iov part = { data, len };
	return digest_vec(libctx, "MD4", &part, 1, out, CRYPTO_MD4_LEN);
}

/* One pass of a legacy cipher without padding; out holds len octets. */
static int legacy_cipher(const char *name, const uint8_t *key, size_t key_len,
			 const uint8_t *in, size_t len, uint8_t *out)
{
	OSSL_LIB_CTX *libctx = legacy_ctx();
	if (!libctx)
		return -ENOTSUP;
	if (len > 4096 || key_len > 64)
		return -EINVAL;
	EVP_CIPHER *ciph = EVP_CIPHER_fetch(libctx, name, NULL);
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int l1 = 0, l2 = 0, ret = -EIO;

	if (!ciph || !c || EVP_EncryptInit_ex(c, ciph, NULL, NULL, NULL) != 1 ||
	    EVP_CIPHER_CTX_set_key_length(c, (int)key_len) != 1 ||
	    EVP_EncryptInit_ex(c, NULL, NULL, key, NULL) != 1 ||
	    EVP_CIPHER_CTX_set_padding(c, 0) != 1 ||
	    EVP_EncryptUpdate(c, out, &l1, in, (int)len) != 1 ||
	    EVP_EncryptFinal_ex(c, out + l1, &l2) != 1 || (size_t)(l1 + l2) != len)
		goto out;
	ret = 0;
out:
	if (ret) {
		ERR_clear_error();
		crypto_zero(out, len);
	}
	EVP_CIPHER_CTX_free(c);
	EVP_CIPHER_free(ciph);
	return ret;
}

int crypto_des_block(const uint8_t key[8], const uint8_t in[8], uint8_t out[8])
{
	if (!key || !in || !out)
		return -EINVAL;
	return legacy_cipher("DES-ECB", key, 8, in, 8, out);
}

int crypto_rc4(const uint8_t *key, size_t key_len, const uint8_t *in, size_t len, uint8_t *out)
{
	if (!key || !key_len || (!in && len) || (!out && len))
		return -EINVAL;
	return legacy_cipher("RC4", key, key_len, in, len, out);
}
