/* Opportunistic Wireless Encryption key agreement (RFC 8110 4.4; IEEE
 * 802.11-2020 12.14.2): an unauthenticated elliptic-curve Diffie-Hellman
 * between station and AP in their (Re)Association frames, over the
 * groups 19 (P-256), 20 (P-384) and 21 (P-521), on OpenSSL 3 EVP.
 *
 *   public key on the air: the x coordinate alone, big-endian, the
 *                          group's prime length (RFC 8110 4.4; RFC 6090
 *                          compact form: either y gives the same x of
 *                          the shared point, so the receiver picks one)
 *   z      = x of (own private * peer public)
 *   PRK    = HKDF-Extract(salt = C | A | group (2 octets LE), IKM = z)
 *   PMK    = HKDF-Expand(PRK, "OWE Key Generation", n)
 *   PMKID  = Truncate-128(Hash(C | A))
 * where C is the station's public key, A the AP's, Hash and HKDF use
 * SHA-256, SHA-384 or SHA-512 for groups 19, 20, 21, and n is that
 * hash's length (32, 48, 64 octets).
 *
 * A peer key is refused unless its x is below the prime and on the curve
 * (the identity has no x, so it cannot be encoded at all).
 *
 * Ownership: owe_key_new() returns a key pair freed (and wiped by
 * OpenSSL) with owe_key_free(). Errors are negative errno: -EINVAL bad
 * arguments or an unsupported group, -EBADMSG an invalid peer key,
 * -ENOMEM, -EIO an OpenSSL failure.
 */
#ifndef WPAD_CRYPTO_OWE_H
#define WPAD_CRYPTO_OWE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OWE_GROUP_P256 19
#define OWE_GROUP_P384 20
#define OWE_GROUP_P521 21
#define OWE_PUBKEY_MAX 66 /* P-521's prime, in octets */
#define OWE_PMK_MAX 64
#define OWE_PMKID_LEN 16

struct owe_key;

bool owe_group_supported(uint16_t group);
/* Octets of a public key (the prime's length), 0 for an unknown group. */
size_t owe_pubkey_len(uint16_t group);
/* Octets of the PMK (the group's hash length), 0 for an unknown group. */
size_t owe_pmk_len(uint16_t group);

/* A fresh key pair of the group, NULL on failure or an unknown group. */
struct owe_key *owe_key_new(uint16_t group);
/* A key pair from a given private scalar (big-endian, 1..order-1), for
 * tests with fixed keys. NULL when invalid. */
struct owe_key *owe_key_from_private(uint16_t group, const uint8_t *priv, size_t len);
void owe_key_free(struct owe_key *k);
uint16_t owe_key_group(const struct owe_key *k);
/* Our public key as sent: owe_pubkey_len(group) octets into out. */
int owe_key_public(const struct owe_key *k, uint8_t *out, size_t cap, size_t *len);

/* Checks a received public key: right length, x < p, on the curve.
 * Returns 0 or -EBADMSG (-EINVAL for an unknown group). */
int owe_check_peer(uint16_t group, const uint8_t *x, size_t len);

struct owe_result {
	uint8_t pmk[OWE_PMK_MAX];
	size_t pmk_len;
	uint8_t pmkid[OWE_PMKID_LEN];
};

/* The PMK and PMKID of an exchange. own_is_sta says which of the two keys
 * is C (the station's) in the salt and the PMKID. peer is the other
 * side's public key as received. The result is the caller's to wipe. */
int owe_derive(const struct owe_key *own, bool own_is_sta, const uint8_t *peer, size_t peer_len,
	       struct owe_result *out);

#endif
