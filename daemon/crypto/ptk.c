/* 802.11 pairwise key expansion: PTK = PRF(PMK, "Pairwise key expansion",
 * Min(AA,SPA) || Max(AA,SPA) || Min(ANonce,SNonce) || Max(ANonce,SNonce)),
 * split into KCK | KEK | TK | KDK. */
#include "daemon/crypto/ptk.h"

#include <errno.h>
#include <string.h>

#include "daemon/crypto/kdf.h"
#include "daemon/crypto/secure.h"

#define PTK_LABEL "Pairwise key expansion"
#define PTK_MAX_LEN \
	(CRYPTO_PTK_KCK_MAX + CRYPTO_PTK_KEK_MAX + CRYPTO_PTK_TK_MAX + CRYPTO_PTK_KDK_MAX)
#define PTK_DATA_LEN (2 * CRYPTO_ADDR_LEN + 2 * CRYPTO_NONCE_LEN)

/* Append the smaller of a and b, then the larger (memcmp order is the
 * big-endian unsigned order the standard asks for). */
static uint8_t *put_min_max(uint8_t *pos, const uint8_t *a, const uint8_t *b, size_t len)
{
	const uint8_t *lo = memcmp(a, b, len) <= 0 ? a : b;
	const uint8_t *hi = lo == a ? b : a;

	memcpy(pos, lo, len);
	memcpy(pos + len, hi, len);
	return pos + 2 * len;
}

void crypto_ptk_clear(struct crypto_ptk *ptk)
{
	if (ptk)
		crypto_zero(ptk, sizeof(*ptk));
}

int crypto_ptk_derive(const struct crypto_ptk_spec *spec, const uint8_t *pmk, size_t pmk_len,
		      const uint8_t aa[CRYPTO_ADDR_LEN], const uint8_t spa[CRYPTO_ADDR_LEN],
		      const uint8_t anonce[CRYPTO_NONCE_LEN],
		      const uint8_t snonce[CRYPTO_NONCE_LEN], struct crypto_ptk *ptk)
{
	uint8_t data[PTK_DATA_LEN];
	uint8_t buf[PTK_MAX_LEN];
	uint8_t *pos;
	size_t total;
	int ret;

	if (!ptk)
		return -EINVAL;
	crypto_ptk_clear(ptk);
	if (!spec || !pmk || !pmk_len || pmk_len > CRYPTO_PMK_MAX || !aa || !spa || !anonce ||
	    !snonce)
		return -EINVAL;
	if (!spec->kck_len || spec->kck_len > CRYPTO_PTK_KCK_MAX ||
	    spec->kek_len > CRYPTO_PTK_KEK_MAX || !spec->tk_len ||
	    spec->tk_len > CRYPTO_PTK_TK_MAX || spec->kdk_len > CRYPTO_PTK_KDK_MAX)
		return -EINVAL;
	total = spec->kck_len + spec->kek_len + spec->tk_len + spec->kdk_len;

	pos = put_min_max(data, aa, spa, CRYPTO_ADDR_LEN);
	put_min_max(pos, anonce, snonce, CRYPTO_NONCE_LEN);

	switch (spec->kdf) {
	case CRYPTO_PTK_PRF_SHA1:
		ret = crypto_prf_sha1(pmk, pmk_len, PTK_LABEL, data, sizeof(data), buf, total);
		break;
	case CRYPTO_PTK_KDF_SHA256:
		ret = crypto_kdf_sha256(pmk, pmk_len, PTK_LABEL, data, sizeof(data), buf, total);
		break;
	case CRYPTO_PTK_KDF_SHA384:
		ret = crypto_kdf_sha384(pmk, pmk_len, PTK_LABEL, data, sizeof(data), buf, total);
		break;
	case CRYPTO_PTK_KDF_SHA512:
		ret = crypto_kdf(CRYPTO_HASH_SHA512, pmk, pmk_len, PTK_LABEL, data, sizeof(data), buf,
				 total);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	if (!ret) {
		pos = buf;
		memcpy(ptk->kck, pos, spec->kck_len);
		pos += spec->kck_len;
		memcpy(ptk->kek, pos, spec->kek_len);
		pos += spec->kek_len;
		memcpy(ptk->tk, pos, spec->tk_len);
		pos += spec->tk_len;
		memcpy(ptk->kdk, pos, spec->kdk_len);
		ptk->kck_len = spec->kck_len;
		ptk->kek_len = spec->kek_len;
		ptk->tk_len = spec->tk_len;
		ptk->kdk_len = spec->kdk_len;
	}
	crypto_zero(buf, sizeof(buf));
	crypto_zero(data, sizeof(data));
	return ret;
}
