/* Pairwise key expansion (IEEE 802.11-2020 12.7.1.3):
 *     PTK = PRF-Length(PMK, "Pairwise key expansion",
 *                      Min(AA, SPA) || Max(AA, SPA) ||
 *                      Min(ANonce, SNonce) || Max(ANonce, SNonce))
 * with PRF = the HMAC-SHA1 PRF (crypto_prf_sha1) or KDF-SHA-256/384
 * (crypto_kdf) depending on the AKM, and Length = KCK + KEK + TK (+ KDK,
 * 802.11az) bits. The PTK is split, in that order, into KCK, KEK, TK, KDK.
 * Min/Max compare the byte strings as big-endian unsigned integers.
 * All lengths are in bytes.
 */
#ifndef WPAD_CRYPTO_PTK_H
#define WPAD_CRYPTO_PTK_H

#include <stddef.h>
#include <stdint.h>

#define CRYPTO_PTK_KCK_MAX 32
#define CRYPTO_PTK_KEK_MAX 32
#define CRYPTO_PTK_TK_MAX 32
#define CRYPTO_PTK_KDK_MAX 48
#define CRYPTO_PMK_MAX 64
#define CRYPTO_NONCE_LEN 32
#define CRYPTO_ADDR_LEN 6

enum crypto_ptk_kdf {
	CRYPTO_PTK_PRF_SHA1,   /* AKM 00-0F-AC:1, :2 */
	CRYPTO_PTK_KDF_SHA256, /* AKM 00-0F-AC:5, :6, :8 (SAE), ... */
	CRYPTO_PTK_KDF_SHA384, /* AKM 00-0F-AC:12, :20, ... */
	CRYPTO_PTK_KDF_SHA512, /* AKM 00-0F-AC:18 (OWE) with group 21 */
};

/* Which PRF, and how long each part is. kck_len 1..32, kek_len 0..32,
 * tk_len 1..32 (16 CCMP-128/GCMP-128, 32 CCMP-256/GCMP-256/TKIP),
 * kdk_len 0..48. */
struct crypto_ptk_spec {
	enum crypto_ptk_kdf kdf;
	size_t kck_len;
	size_t kek_len;
	size_t tk_len;
	size_t kdk_len;
};

struct crypto_ptk {
	uint8_t kck[CRYPTO_PTK_KCK_MAX];
	uint8_t kek[CRYPTO_PTK_KEK_MAX];
	uint8_t tk[CRYPTO_PTK_TK_MAX];
	uint8_t kdk[CRYPTO_PTK_KDK_MAX];
	size_t kck_len;
	size_t kek_len;
	size_t tk_len;
	size_t kdk_len;
};

/* Derive the PTK from the PMK (pmk_len 1..64), the authenticator and
 * supplicant addresses and the two 32-byte nonces. The argument order of
 * AA/SPA and ANonce/SNonce does not matter to the result (Min/Max), but
 * keep them straight for readability. On error ptk is zeroed.
 * Returns 0, -EINVAL, -ENOMEM or -EIO. */
int crypto_ptk_derive(const struct crypto_ptk_spec *spec, const uint8_t *pmk, size_t pmk_len,
		      const uint8_t aa[CRYPTO_ADDR_LEN], const uint8_t spa[CRYPTO_ADDR_LEN],
		      const uint8_t anonce[CRYPTO_NONCE_LEN],
		      const uint8_t snonce[CRYPTO_NONCE_LEN], struct crypto_ptk *ptk);

/* Wipe a PTK (all key bytes and lengths). ptk may be NULL. */
void crypto_ptk_clear(struct crypto_ptk *ptk);

#endif /* WPAD_CRYPTO_PTK_H */
