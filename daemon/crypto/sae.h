/* SAE's cryptography (IEEE 802.11-2020 12.4.4, 12.4.5): the password
 * element by hunting-and-pecking or by hash-to-element, the commit
 * (scalar, element), the shared secret, KCK, PMK and PMKID, and the
 * confirm. Elliptic-curve groups 19, 20 and 21 (NIST P-256/384/521) on
 * OpenSSL 3; nothing here knows frames, timers or retransmissions (that is
 * daemon/rsn/auth_sae.c, on the codec of daemon/codec/sae.h).
 *
 * Constant time: the password element is found with a fixed number of
 * iterations and no early exit, the quadratic-residue test is blinded, and
 * secrets are compared with a constant-time compare; the scalar
 * multiplications use OpenSSL's constant-time ladder (BN_FLG_CONSTTIME on
 * every secret BIGNUM).
 *
 * Files: sae.c (the exchange), sae_group.c (the groups, shared read-only
 * by all exchanges, and the constant-time helpers), sae_hnp.c
 * (hunting-and-pecking), sae_h2e.c (PT and PWE by hash-to-element);
 * internal interface in sae_group.h.
 *
 * Encodings are the frames' own: a scalar is order_len octets big-endian,
 * an element is x || y, each prime_len octets big-endian.
 *
 * One exchange, either role (the protocol is symmetric):
 *   c = sae_crypto_new(group)
 *   sae_crypto_pwe_hnp(c, ...)  or  sae_crypto_pwe_h2e(c, pt, ...)
 *   sae_crypto_commit(c, ...)            -> our Commit's scalar, element
 *   sae_crypto_process_commit(c, peer's) -> KCK, PMK (held back), PMKID
 *   sae_crypto_confirm(c, send_confirm)  -> our Confirm
 *   sae_crypto_verify_confirm(c, peer's send_confirm, peer's confirm)
 *   sae_crypto_pmk(c), sae_crypto_pmkid(c)
 * A retransmitted Commit resends sae_crypto_own_commit(); a new
 * sae_crypto_commit() draws new values and forgets the keys; a new PWE
 * forgets the commit. The PT of H2E is per (group, SSID, password,
 * identifier): derive it once, keep it, share it between exchanges
 * (read-only). Groups are built once per process and shared; one
 * exchange belongs to one thread at a time.
 *
 * Ownership: sae_pt_derive() returns a PT the caller frees with
 * sae_pt_free(); sae_crypto_new() returns an exchange the caller frees
 * with sae_crypto_free(). Both wipe their secrets when freed.
 *
 * Errors are negative errno: -EINVAL bad arguments, -ENOTSUP a group not
 * implemented, -EBADMSG a peer's commit that must be rejected (scalar out
 * of range, element not on the curve or the identity, a reflection of our
 * own commit, wrong lengths; the exchange is left as it was), -EACCES a
 * confirm that does not verify (the wrong password), -ENOMEM, -EIO an
 * OpenSSL failure.
 */
#ifndef WPAD_CRYPTO_SAE_H
#define WPAD_CRYPTO_SAE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SAE_MAX_PRIME_LEN 66 /* group 21 */
#define SAE_MAX_ORDER_LEN 66
#define SAE_MAX_HASH_LEN 64 /* SHA-512 for group 21 */
#define SAE_PMK_LEN 32
#define SAE_PMKID_LEN 16
#define SAE_ADDR_LEN 6

/* Whether group (IANA "Group Description", 19/20/21) is implemented. */
bool sae_group_supported(int group);
/* Octets of a scalar / of one coordinate, and of the group's hash (SHA-256
 * for 19, SHA-384 for 20, SHA-512 for 21: 12.4.2); 0 for an unsupported
 * group. */
size_t sae_group_order_len(int group);
size_t sae_group_prime_len(int group);
size_t sae_group_hash_len(int group);

/* Hash-to-element's password element seed PT (12.4.4.2.3), derived once
 * per (group, SSID, password, identifier) and cached by the caller:
 * PT = SSWU(u1) + SSWU(u2) with pwd-seed = HKDF-Extract(ssid,
 * password || identifier). identifier may be NULL/0. */
struct sae_pt;
struct sae_pt *sae_pt_derive(int group, const uint8_t *ssid, size_t ssid_len,
			     const uint8_t *password, size_t password_len,
			     const uint8_t *identifier, size_t identifier_len, int *err);
void sae_pt_free(struct sae_pt *pt);
int sae_pt_group(const struct sae_pt *pt);
/* PT as x || y (2 * prime_len octets), for tests against published
 * vectors. Returns the length written or a negative errno. */
int sae_pt_encode(const struct sae_pt *pt, uint8_t *out, size_t max);

/* One SAE exchange with one peer. */
struct sae_crypto;
struct sae_crypto *sae_crypto_new(int group, int *err);
void sae_crypto_free(struct sae_crypto *c);
int sae_crypto_group(const struct sae_crypto *c);

/* The password element, hunting-and-pecking (12.4.4.2.2 / 12.4.4.3.2):
 * 40 iterations at least, all of them run whatever the iteration that
 * found the point. The addresses are the two MACs in any order (they are
 * sorted inside). identifier may be NULL/0; when given it is hashed into
 * pwd-seed after the password (the 802.11REVmd drafts' rule, which older
 * hostap follows; 802.11-2020 uses a password identifier with H2E only,
 * a policy the caller applies). Always SHA-256, whatever the group. */
int sae_crypto_pwe_hnp(struct sae_crypto *c, const uint8_t own[SAE_ADDR_LEN],
		       const uint8_t peer[SAE_ADDR_LEN], const uint8_t *password,
		       size_t password_len, const uint8_t *identifier, size_t identifier_len);
/* The password element from PT (12.4.4.2.3): PWE = val * PT with
 * val = H(0^n, max(A,B) || min(A,B)) mod (r-1) + 1. pt's group must be
 * the exchange's. */
int sae_crypto_pwe_h2e(struct sae_crypto *c, const struct sae_pt *pt,
		       const uint8_t own[SAE_ADDR_LEN], const uint8_t peer[SAE_ADDR_LEN]);

/* Our commit (12.4.5.3): random rand and mask in [2, r), scalar =
 * (rand + mask) mod r, element = inverse(mask * PWE); drawn again until
 * scalar > 1. Needs a PWE. scalar: order_len octets; element: 2 *
 * prime_len octets. The same values are returned until a new
 * sae_crypto_commit() (a retransmission resends them). */
int sae_crypto_commit(struct sae_crypto *c, uint8_t *scalar, size_t scalar_max,
		      uint8_t *element, size_t element_max);
/* Our last commit again (for retransmission), without drawing anew. */
int sae_crypto_own_commit(const struct sae_crypto *c, uint8_t *scalar, size_t scalar_max,
			  uint8_t *element, size_t element_max);

/* The peer's commit (12.4.5.4): checks the lengths (order_len, 2 *
 * prime_len), 1 < scalar < r, the element's coordinates < p, on the
 * curve and not the identity, and that it is not our own commit reflected
 * (its scalar or its element equal to ours) — -EBADMSG for any of these,
 * and a refused commit leaves the exchange as it was (keys from an
 * earlier commit stay); then K = rand * (peer_scalar * PWE +
 * peer_element), k = x(K), keyseed = H(salt, k) with salt = 0^hash_len
 * (hunting-and-pecking) or the rejected groups list (H2E: the octets of
 * the Rejected Groups element's body, NULL/0 when none were rejected),
 * KCK || PMK = KDF-Hash(keyseed, "SAE KCK and PMK", (scalar +
 * peer_scalar) mod r), PMKID = the first 16 octets of that sum.
 * h2e selects the salt and the KDF rule of 12.4.5.4 (H&P: SHA-256 and a
 * 32-octet KCK in every group; H2E: the group's hash, KCK of its length;
 * PMK 32 octets in both); it must match how the PWE was derived
 * (-EINVAL otherwise). Needs our commit (-EINVAL before). A new processed
 * commit needs a new verified confirm before the PMK is released. */
int sae_crypto_process_commit(struct sae_crypto *c, const uint8_t *peer_scalar,
			      size_t scalar_len, const uint8_t *peer_element, size_t element_len,
			      bool h2e, const uint8_t *rejected_groups, size_t rejected_len);

/* Our confirm (12.4.5.5): CN(KCK, send_confirm, our scalar, our element,
 * peer scalar, peer element), sae_crypto_confirm_len() octets (32 for
 * hunting-and-pecking in every group, the group's hash_len for H2E: the
 * KCK's length). Needs a processed commit. */
int sae_crypto_confirm(const struct sae_crypto *c, uint16_t send_confirm, uint8_t *confirm,
		       size_t max);
/* The confirm's length: the KCK's (0 before a processed commit). */
size_t sae_crypto_confirm_len(const struct sae_crypto *c);
/* The peer's confirm (12.4.5.6) with its send-confirm counter; compared
 * in constant time. 0 or -EACCES (it does not verify: wrong password, or
 * a wrong length). Not const: a verified confirm releases the PMK. */
int sae_crypto_verify_confirm(struct sae_crypto *c, uint16_t peer_send_confirm,
			      const uint8_t *confirm, size_t len);

/* After a verified confirm: the PMK (SAE_PMK_LEN) and PMKID
 * (SAE_PMKID_LEN); NULL before. */
const uint8_t *sae_crypto_pmk(const struct sae_crypto *c);
const uint8_t *sae_crypto_pmkid(const struct sae_crypto *c);
/* The KCK, for the Annex J vectors only. */
const uint8_t *sae_crypto_kck(const struct sae_crypto *c, size_t *len);

/* Tests only: fix rand and mask (order_len octets each) instead of
 * drawing them, to reproduce IEEE 802.11-2020 Annex J.10. */
int sae_crypto_set_rand_mask_for_test(struct sae_crypto *c, const uint8_t *rand,
				      const uint8_t *mask, size_t len);
/* Tests only: how many hunting-and-pecking iterations (and blinded
 * residue tests) the last sae_crypto_pwe_hnp() ran; the PWE as x || y
 * (returns the length written). */
unsigned sae_crypto_hnp_iterations_for_test(const struct sae_crypto *c, unsigned *qr_tests);
int sae_crypto_pwe_for_test(const struct sae_crypto *c, uint8_t *out, size_t max);

#endif
