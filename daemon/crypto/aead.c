/* AES-CCM and AES-GCM through EVP_CIPHER (EVP_aes_*_ccm, EVP_aes_*_gcm). */
#include "daemon/crypto/aead.h"

#include <errno.h>
#include <limits.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "daemon/crypto/secure.h"

/* EVP wants a real pointer even for zero-length input. */
static const uint8_t empty_buf[1];

static const EVP_CIPHER *ccm_cipher(size_t key_len)
{
	if (key_len == 16)
		return EVP_aes_128_ccm();
	if (key_len == 32)
		return EVP_aes_256_ccm();
	return NULL;
}

static const EVP_CIPHER *gcm_cipher(size_t key_len)
{
	if (key_len == 16)
		return EVP_aes_128_gcm();
	if (key_len == 32)
		return EVP_aes_256_gcm();
	return NULL;
}

static int ccm_args_ok(const uint8_t *key, size_t key_len, const uint8_t *nonce,
		       size_t nonce_len, const uint8_t *aad, size_t aad_len, const uint8_t *in,
		       size_t len, const uint8_t *out, const uint8_t *tag, size_t tag_len)
{
	if (!key || !ccm_cipher(key_len) || !nonce || nonce_len < 7 || nonce_len > 13)
		return 0;
	if (tag_len < 4 || tag_len > 16 || tag_len % 2 || !tag)
		return 0;
	if ((!aad && aad_len) || (len && (!in || !out)))
		return 0;
	return aad_len <= INT_MAX && len <= INT_MAX;
}

/* Cipher, nonce length and tag (length or value) set; key and nonce loaded. */
static int ccm_setup(EVP_CIPHER_CTX *ctx, int enc, const uint8_t *key, size_t key_len,
		     const uint8_t *nonce, size_t nonce_len, const uint8_t *tag, size_t tag_len)
{
	if (EVP_CipherInit_ex(ctx, ccm_cipher(key_len), NULL, NULL, NULL, enc) != 1)
		return -EIO;
	if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)nonce_len, NULL) != 1)
		return -EIO;
	if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)tag_len, (void *)tag) != 1)
		return -EIO;
	if (EVP_CipherInit_ex(ctx, NULL, NULL, key, nonce, enc) != 1)
		return -EIO;
	return 0;
}

int crypto_aes_ccm_encrypt(const uint8_t *key, size_t key_len, const uint8_t *nonce,
			   size_t nonce_len, const uint8_t *aad, size_t aad_len,
			   const uint8_t *plain, size_t len, uint8_t *out, uint8_t *tag,
			   size_t tag_len)
{
	EVP_CIPHER_CTX *ctx;
	uint8_t sink[1];
	int outl = 0, ret;

	if (!ccm_args_ok(key, key_len, nonce, nonce_len, aad, aad_len, plain, len, out, tag,
			 tag_len))
		return -EINVAL;
	ctx = EVP_CIPHER_CTX_new();
	if (!ctx)
		return -ENOMEM;
	ret = ccm_setup(ctx, 1, key, key_len, nonce, nonce_len, NULL, tag_len);
	/* CCM needs the total message length before the AAD. */
	if (!ret && EVP_EncryptUpdate(ctx, NULL, &outl, NULL, (int)len) != 1)
		ret = -EIO;
	if (!ret && aad_len && EVP_EncryptUpdate(ctx, NULL, &outl, aad, (int)aad_len) != 1)
		ret = -EIO;
	if (!ret && EVP_EncryptUpdate(ctx, len ? out : sink, &outl, len ? plain : empty_buf,
				      (int)len) != 1)
		ret = -EIO;
	if (!ret && EVP_EncryptFinal_ex(ctx, sink, &outl) != 1)
		ret = -EIO;
	if (!ret && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)tag_len, tag) != 1)
		ret = -EIO;
	EVP_CIPHER_CTX_free(ctx);
	if (ret) {
		ERR_clear_error();
		crypto_zero(out, len);
		crypto_zero(tag, tag_len);
	}
	return ret;
}

int crypto_aes_ccm_decrypt(const uint8_t *key, size_t key_len, const uint8_t *nonce,
			   size_t nonce_len, const uint8_t *aad, size_t aad_len,
			   const uint8_t *cipher, size_t len, const uint8_t *tag, size_t tag_len,
			   uint8_t *out)
{
	EVP_CIPHER_CTX *ctx;
	uint8_t sink[1];
	int outl = 0, ret;

	if (!ccm_args_ok(key, key_len, nonce, nonce_len, aad, aad_len, cipher, len, out, tag,
			 tag_len))
		return -EINVAL;
	ctx = EVP_CIPHER_CTX_new();
	if (!ctx)
		return -ENOMEM;
	ret = ccm_setup(ctx, 0, key, key_len, nonce, nonce_len, tag, tag_len);
	if (!ret && EVP_DecryptUpdate(ctx, NULL, &outl, NULL, (int)len) != 1)
		ret = -EIO;
	if (!ret && aad_len && EVP_DecryptUpdate(ctx, NULL, &outl, aad, (int)aad_len) != 1)
		ret = -EIO;
	/* With everything set up, a failure here is the tag check. */
	if (!ret && EVP_DecryptUpdate(ctx, len ? out : sink, &outl, len ? cipher : empty_buf,
				      (int)len) != 1)
		ret = -EBADMSG;
	EVP_CIPHER_CTX_free(ctx);
	if (ret) {
		ERR_clear_error();
		crypto_zero(out, len);
	}
	return ret;
}

static int gcm_args_ok(const uint8_t *key, size_t key_len, const uint8_t *iv, size_t iv_len,
		       const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
		       const uint8_t *out, const uint8_t *tag)
{
	if (!key || !gcm_cipher(key_len) || !iv || !iv_len || iv_len > INT_MAX || !tag)
		return 0;
	if ((!aad && aad_len) || (len && (!in || !out)))
		return 0;
	return aad_len <= INT_MAX && len <= INT_MAX;
}

static int gcm_setup(EVP_CIPHER_CTX *ctx, int enc, const uint8_t *key, size_t key_len,
		     const uint8_t *iv, size_t iv_len, const uint8_t *aad, size_t aad_len)
{
	int outl = 0;

	if (EVP_CipherInit_ex(ctx, gcm_cipher(key_len), NULL, NULL, NULL, enc) != 1)
		return -EIO;
	if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)iv_len, NULL) != 1)
		return -EIO;
	if (EVP_CipherInit_ex(ctx, NULL, NULL, key, iv, enc) != 1)
		return -EIO;
	if (aad_len && EVP_CipherUpdate(ctx, NULL, &outl, aad, (int)aad_len) != 1)
		return -EIO;
	return 0;
}

int crypto_aes_gcm_encrypt(const uint8_t *key, size_t key_len, const uint8_t *iv, size_t iv_len,
			   const uint8_t *aad, size_t aad_len, const uint8_t *plain, size_t len,
			   uint8_t *out, uint8_t tag[16])
{
	EVP_CIPHER_CTX *ctx;
	uint8_t sink[16];
	int outl = 0, ret;

	if (!gcm_args_ok(key, key_len, iv, iv_len, aad, aad_len, plain, len, out, tag))
		return -EINVAL;
	ctx = EVP_CIPHER_CTX_new();
	if (!ctx)
		return -ENOMEM;
	ret = gcm_setup(ctx, 1, key, key_len, iv, iv_len, aad, aad_len);
	if (!ret && len && (EVP_EncryptUpdate(ctx, out, &outl, plain, (int)len) != 1 ||
			    (size_t)outl != len))
		ret = -EIO;
	if (!ret && EVP_EncryptFinal_ex(ctx, sink, &outl) != 1)
		ret = -EIO;
	if (!ret && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) != 1)
		ret = -EIO;
	EVP_CIPHER_CTX_free(ctx);
	if (ret) {
		ERR_clear_error();
		crypto_zero(out, len);
		crypto_zero(tag, 16);
	}
	return ret;
}

int crypto_aes_gcm_decrypt(const uint8_t *key, size_t key_len, const uint8_t *iv, size_t iv_len,
			   const uint8_t *aad, size_t aad_len, const uint8_t *cipher, size_t len,
			   const uint8_t tag[16], uint8_t *out)
{
	EVP_CIPHER_CTX *ctx;
	uint8_t sink[16];
	int outl = 0, ret;

	if (!gcm_args_ok(key, key_len, iv, iv_len, aad, aad_len, cipher, len, out, tag))
		return -EINVAL;
	ctx = EVP_CIPHER_CTX_new();
	if (!ctx)
		return -ENOMEM;
	ret = gcm_setup(ctx, 0, key, key_len, iv, iv_len, aad, aad_len);
	if (!ret && len && (EVP_DecryptUpdate(ctx, out, &outl, cipher, (int)len) != 1 ||
			    (size_t)outl != len))
		ret = -EIO;
	if (!ret && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, (void *)tag) != 1)
		ret = -EIO;
	/* The tag is checked in Final. */
	if (!ret && EVP_DecryptFinal_ex(ctx, sink, &outl) != 1)
		ret = -EBADMSG;
	EVP_CIPHER_CTX_free(ctx);
	if (ret) {
		ERR_clear_error();
		crypto_zero(out, len);
	}
	return ret;
}
