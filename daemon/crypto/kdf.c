/* PBKDF2-HMAC-SHA1 (EVP_KDF "PBKDF2"), 802.11 PRF (HMAC-SHA1) and the
 * 802.11 KDF (HMAC-SHA-256/384). */
#include "daemon/crypto/kdf.h"

#include "daemon/crypto/lib.h"

#include <errno.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <string.h>

#include "daemon/crypto/secure.h"

/* Largest PRF output: the iteration counter is a single octet. */
#define PRF_SHA1_MAX_OUT (255u * CRYPTO_SHA1_LEN)
/* Largest KDF output: the Length field counts bits in 16 bits. */
#define KDF_MAX_OUT (65535u / 8u)

int crypto_pbkdf2_sha1(const void *pass, size_t pass_len, const void *salt, size_t salt_len,
		       unsigned int iterations, uint8_t *out, size_t out_len)
{
	static const uint8_t empty;
	OSSL_PARAM params[6];
	EVP_KDF *kdf;
	EVP_KDF_CTX *ctx = NULL;
	uint64_t iter = iterations;
	int pkcs5 = 1; /* no SP 800-132 minimums: WPA and RFC 6070 need short inputs */
	int ret = -EIO;

	if ((!pass && pass_len) || (!salt && salt_len) || !out || !out_len || !iterations)
		return -EINVAL;

	kdf = crypto_alg_pbkdf2();
	if (!kdf)
		goto out;
	ctx = EVP_KDF_CTX_new(kdf);
	if (!ctx) {
		ret = -ENOMEM;
		goto out;
	}
	params[0] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PASSWORD,
						      (void *)(pass_len ? pass : &empty), pass_len);
	params[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT,
						      (void *)(salt_len ? salt : &empty), salt_len);
	params[2] = OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_ITER, &iter);
	params[3] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA1", 0);
	params[4] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_PKCS5, &pkcs5);
	params[5] = OSSL_PARAM_construct_end();
	if (EVP_KDF_derive(ctx, out, out_len, params) != 1) {
		crypto_zero(out, out_len);
		goto out;
	}
	ret = 0;
out:
	if (ret)
		ERR_clear_error();
	EVP_KDF_CTX_free(ctx);
	return ret;
}

int crypto_psk_from_passphrase(const char *passphrase, const uint8_t *ssid, size_t ssid_len,
			       uint8_t psk[CRYPTO_PSK_LEN])
{
	size_t len;

	if (!passphrase || !ssid || !psk || ssid_len < 1 || ssid_len > CRYPTO_SSID_MAX)
		return -EINVAL;
	len = strnlen(passphrase, CRYPTO_PASSPHRASE_MAX + 1);
	if (len < CRYPTO_PASSPHRASE_MIN || len > CRYPTO_PASSPHRASE_MAX)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)passphrase[i];

		if (c < 32 || c > 126)
			return -EINVAL;
	}
	return crypto_pbkdf2_sha1(passphrase, len, ssid, ssid_len, 4096, psk, CRYPTO_PSK_LEN);
}

int crypto_prf_sha1(const void *key, size_t key_len, const char *label, const void *data,
		    size_t data_len, uint8_t *out, size_t out_len)
{
	uint8_t block[CRYPTO_SHA1_LEN];
	uint8_t counter = 0;
	struct crypto_iov parts[3];
	struct crypto_hmac_ctx *h;
	size_t done = 0;
	int ret = 0;

	if (!label || (!key && key_len) || (!data && data_len) || !out || !out_len ||
	    out_len > PRF_SHA1_MAX_OUT)
		return -EINVAL;
	/* One keyed context for every block: keying costs as much as a block. */
	if (!(h = crypto_hmac_ctx_new(CRYPTO_HASH_SHA1)))
		return -ENOMEM;

	/* The label's terminating NUL is the 0x00 octet between A and B. */
	parts[0] = (struct crypto_iov){ label, strlen(label) + 1 };
	parts[1] = (struct crypto_iov){ data, data_len };
	parts[2] = (struct crypto_iov){ &counter, 1 };
	while (done < out_len) {
		size_t take = out_len - done < sizeof(block) ? out_len - done : sizeof(block);

		ret = counter ? crypto_hmac_ctx_next(h, parts, 3, block)
			      : crypto_hmac_ctx_run(h, key, key_len, parts, 3, block);
		if (ret)
			break;
		memcpy(out + done, block, take);
		done += take;
		counter++;
	}
	crypto_hmac_ctx_free(h);
	crypto_zero(block, sizeof(block));
	if (ret)
		crypto_zero(out, out_len);
	return ret;
}

int crypto_kdf(enum crypto_hash_alg alg, const void *key, size_t key_len, const char *label,
	       const void *context, size_t context_len, uint8_t *out, size_t out_len)
{
	uint8_t block[CRYPTO_HASH_MAX_LEN];
	uint8_t counter[2], length[2];
	size_t hlen = crypto_hash_len(alg);
	struct crypto_iov parts[4];
	struct crypto_hmac_ctx *h;
	size_t done = 0;
	unsigned int i = 1;
	int ret = 0;

	if ((alg != CRYPTO_HASH_SHA256 && alg != CRYPTO_HASH_SHA384 && alg != CRYPTO_HASH_SHA512) ||
	    !label ||
	    (!key && key_len) || (!context && context_len) || !out || !out_len ||
	    out_len > KDF_MAX_OUT)
		return -EINVAL;
	if (!(h = crypto_hmac_ctx_new(alg))) /* keyed once, as the PRF's */
		return -ENOMEM;

	length[0] = (uint8_t)((out_len * 8) & 0xff);
	length[1] = (uint8_t)((out_len * 8) >> 8);
	parts[0] = (struct crypto_iov){ counter, sizeof(counter) };
	parts[1] = (struct crypto_iov){ label, strlen(label) };
	parts[2] = (struct crypto_iov){ context, context_len };
	parts[3] = (struct crypto_iov){ length, sizeof(length) };
	while (done < out_len) {
		size_t take = out_len - done < hlen ? out_len - done : hlen;

		counter[0] = (uint8_t)(i & 0xff);
		counter[1] = (uint8_t)(i >> 8);
		ret = i > 1 ? crypto_hmac_ctx_next(h, parts, 4, block)
			    : crypto_hmac_ctx_run(h, key, key_len, parts, 4, block);
		if (ret)
			break;
		memcpy(out + done, block, take);
		done += take;
		i++;
	}
	crypto_hmac_ctx_free(h);
	crypto_zero(block, sizeof(block));
	if (ret)
		crypto_zero(out, out_len);
	return ret;
}

int crypto_kdf_sha256(const void *key, size_t key_len, const char *label, const void *context,
		      size_t context_len, uint8_t *out, size_t out_len)
{
	return crypto_kdf(CRYPTO_HASH_SHA256, key, key_len, label, context, context_len, out,
			  out_len);
}

int crypto_kdf_sha384(const void *key, size_t key_len, const char *label, const void *context,
		      size_t context_len, uint8_t *out, size_t out_len)
{
	return crypto_kdf(CRYPTO_HASH_SHA384, key, key_len, label, context, context_len, out,
			  out_len);
}
