/* Constant-time compare and random bytes over OpenSSL (wiping is in
 * zero.c, which needs no OpenSSL). */
#include "daemon/crypto/secure.h"

#include <errno.h>
#include <limits.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <stdint.h>

bool crypto_memeq(const void *a, const void *b, size_t len)
{
	if (len == 0)
		return true;
	return CRYPTO_memcmp(a, b, len) == 0;
}

int crypto_random(void *buf, size_t len)
{
	uint8_t *pos = buf;

	if (!buf && len)
		return -EINVAL;
	while (len) {
		int chunk = len > (size_t)INT_MAX ? INT_MAX : (int)len;

		if (RAND_bytes(pos, chunk) != 1) {
			ERR_clear_error();
			return -EIO;
		}
		pos += chunk;
		len -= (size_t)chunk;
	}
	return 0;
}
