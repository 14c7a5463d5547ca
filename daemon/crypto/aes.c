/* AES-CMAC through EVP_MAC("CMAC") with an AES-CBC cipher. */
#include "daemon/crypto/aes.h"

#include "daemon/crypto/lib.h"

#include <errno.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

int crypto_aes_cmac_vec(const uint8_t *key, size_t key_len, const struct crypto_iov *parts,
			size_t n, uint8_t mac[CRYPTO_CMAC_LEN])
{
	const char *cipher;
	OSSL_PARAM params[2];
	EVP_MAC *m;
	EVP_MAC_CTX *ctx = NULL;
	size_t outl = 0;
	int ret = -EIO;

	if (!key || !mac || !crypto_iov_valid(parts, n))
		return -EINVAL;
	if (key_len == 16)
		cipher = "AES-128-CBC";
	else if (key_len == 32)
		cipher = "AES-256-CBC";
	else
		return -EINVAL;

	m = crypto_alg_cmac();
	if (!m)
		goto out;
	ctx = EVP_MAC_CTX_new(m);
	if (!ctx) {
		ret = -ENOMEM;
		goto out;
	}
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, (char *)cipher, 0);
	params[1] = OSSL_PARAM_construct_end();
	if (EVP_MAC_init(ctx, key, key_len, params) != 1)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (parts[i].len && EVP_MAC_update(ctx, parts[i].data, parts[i].len) != 1)
			goto out;
	}
	if (EVP_MAC_final(ctx, mac, &outl, CRYPTO_CMAC_LEN) != 1 || outl != CRYPTO_CMAC_LEN)
		goto out;
	ret = 0;
out:
	if (ret)
		ERR_clear_error();
	EVP_MAC_CTX_free(ctx);
	return ret;
}

int crypto_aes_cmac(const uint8_t *key, size_t key_len, const void *data, size_t len,
		    uint8_t mac[CRYPTO_CMAC_LEN])
{
	struct crypto_iov part = { data, len };

	return crypto_aes_cmac_vec(key, key_len, &part, 1, mac);
}
