/* RFC 3394 AES Key Wrap, written out over single-block AES-ECB (EVP). */
#include "daemon/crypto/keywrap.h"

#include <errno.h>
#include <limits.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <string.h>

#include "daemon/crypto/secure.h"

static const uint8_t default_iv[8] = { 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6 };

static const EVP_CIPHER *ecb_cipher(size_t kek_len)
{
	switch (kek_len) {
	case 16:
		return EVP_aes_128_ecb();
	case 24:
		return EVP_aes_192_ecb();
	case 32:
		return EVP_aes_256_ecb();
	}
	return NULL;
}

/* A ^= t, with t as a 64-bit big-endian integer (RFC 3394 2.2.1). */
static void xor_counter(uint8_t a[8], uint64_t t)
{
	for (int k = 7; k >= 0; k--) {
		a[k] ^= (uint8_t)(t & 0xff);
		t >>= 8;
	}
}

/* One AES block, in place, through an ECB context without padding. */
static int aes_block(EVP_CIPHER_CTX *ctx, uint8_t b[16], int enc)
{
	int outl = 0;
	int ok = enc ? EVP_EncryptUpdate(ctx, b, &outl, b, 16) : EVP_DecryptUpdate(ctx, b, &outl, b, 16);

	return ok == 1 && outl == 16 ? 0 : -EIO;
}

static EVP_CIPHER_CTX *ecb_ctx(const uint8_t *kek, size_t kek_len, int enc, int *err)
{
	const EVP_CIPHER *cipher = ecb_cipher(kek_len);
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

	if (!ctx) {
		*err = -ENOMEM;
		return NULL;
	}
	if (EVP_CipherInit_ex(ctx, cipher, NULL, kek, NULL, enc) != 1 ||
	    EVP_CIPHER_CTX_set_padding(ctx, 0) != 1) {
		EVP_CIPHER_CTX_free(ctx);
		ERR_clear_error();
		*err = -EIO;
		return NULL;
	}
	return ctx;
}

int crypto_aes_wrap(const uint8_t *kek, size_t kek_len, const uint8_t *plain, size_t plain_len,
		    uint8_t *out)
{
	uint8_t a[8], b[16];
	uint8_t *r;
	size_t n;
	EVP_CIPHER_CTX *ctx;
	int ret = 0;

	if (!kek || !ecb_cipher(kek_len) || !plain || !out || plain_len < 16 || plain_len % 8 ||
	    plain_len > (size_t)INT_MAX)
		return -EINVAL;
	ctx = ecb_ctx(kek, kek_len, 1, &ret);
	if (!ctx)
		return ret;

	n = plain_len / 8;
	r = out + 8;
	memcpy(a, default_iv, sizeof(a));
	memmove(r, plain, plain_len);
	for (uint64_t j = 0; j <= 5 && !ret; j++) {
		for (size_t i = 1; i <= n; i++) {
			memcpy(b, a, 8);
			memcpy(b + 8, r + (i - 1) * 8, 8);
			ret = aes_block(ctx, b, 1);
			if (ret)
				break;
			memcpy(a, b, 8);
			xor_counter(a, n * j + i);
			memcpy(r + (i - 1) * 8, b + 8, 8);
		}
	}
	memcpy(out, a, 8);
	crypto_zero(b, sizeof(b));
	crypto_zero(a, sizeof(a));
	EVP_CIPHER_CTX_free(ctx);
	if (ret) {
		ERR_clear_error();
		crypto_zero(out, plain_len + 8);
	}
	return ret;
}

int crypto_aes_unwrap(const uint8_t *kek, size_t kek_len, const uint8_t *in, size_t in_len,
		      uint8_t *out)
{
	uint8_t a[8], b[16];
	size_t n;
	EVP_CIPHER_CTX *ctx;
	int ret = 0;

	if (!kek || !ecb_cipher(kek_len) || !in || !out || in_len < 24 || in_len % 8 ||
	    in_len > (size_t)INT_MAX)
		return -EINVAL;
	ctx = ecb_ctx(kek, kek_len, 0, &ret);
	if (!ctx)
		return ret;

	n = in_len / 8 - 1;
	memcpy(a, in, 8);
	memmove(out, in + 8, n * 8);
	for (uint64_t j = 6; j-- > 0 && !ret;) {
		for (size_t i = n; i >= 1; i--) {
			xor_counter(a, n * j + i);
			memcpy(b, a, 8);
			memcpy(b + 8, out + (i - 1) * 8, 8);
			ret = aes_block(ctx, b, 0);
			if (ret)
				break;
			memcpy(a, b, 8);
			memcpy(out + (i - 1) * 8, b + 8, 8);
		}
	}
	EVP_CIPHER_CTX_free(ctx);
	if (ret)
		ERR_clear_error();
	else if (!crypto_memeq(a, default_iv, sizeof(a)))
		ret = -EBADMSG;
	if (ret)
		crypto_zero(out, in_len - 8);
	crypto_zero(b, sizeof(b));
	crypto_zero(a, sizeof(a));
	return ret;
}
