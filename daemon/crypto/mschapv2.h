/* MS-CHAPv2's cryptography (RFC 2759 8) and the MPPE keys derived from it
 * (RFC 3079 3). MD4, DES and RC4 come from the legacy provider
 * (daemon/crypto/legacy.h): every function that needs them returns
 * -ENOTSUP when it is unavailable.
 *
 * Passwords are UTF-8 here and converted to the UTF-16LE (Unicode) string
 * RFC 2759 hashes; at most MSCHAPV2_PASSWORD_MAX characters (RFC 2759 8.1,
 * a Windows limit: 256). Returns 0 or a negative errno (crypto.h); every
 * intermediate secret is wiped.
 */
#ifndef WPAD_CRYPTO_MSCHAPV2_H
#define WPAD_CRYPTO_MSCHAPV2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MSCHAPV2_CHAL_LEN 16
#define MSCHAPV2_NT_RESP_LEN 24
#define MSCHAPV2_HASH_LEN 16
#define MSCHAPV2_AUTH_RESP_LEN 20 /* the 20 octets "S=" carries in hex */
#define MSCHAPV2_MASTER_KEY_LEN 16
#define MSCHAPV2_PASSWORD_MAX 256

/* NtPasswordHash (RFC 2759 8.3): MD4 of the UTF-16LE password. -EINVAL
 * for a password that is not UTF-8 or is too long. */
int mschapv2_nt_password_hash(const char *password, size_t len,
			      uint8_t hash[MSCHAPV2_HASH_LEN]);
/* HashNtPasswordHash (8.4): MD4 of the hash. */
int mschapv2_hash_nt_password_hash(const uint8_t hash[MSCHAPV2_HASH_LEN],
				   uint8_t hash_hash[MSCHAPV2_HASH_LEN]);
/* ChallengeHash (8.2): the first 8 octets of SHA-1(peer || auth ||
 * user name without any "DOMAIN\" prefix). */
int mschapv2_challenge_hash(const uint8_t peer_chal[MSCHAPV2_CHAL_LEN],
			    const uint8_t auth_chal[MSCHAPV2_CHAL_LEN], const char *user,
			    size_t user_len, uint8_t challenge[8]);
/* ChallengeResponse (8.5): three DES encryptions of the 8-octet challenge
 * with the zero-padded 21-octet password hash. */
int mschapv2_challenge_response(const uint8_t challenge[8],
				const uint8_t hash[MSCHAPV2_HASH_LEN],
				uint8_t response[MSCHAPV2_NT_RESP_LEN]);
/* GenerateNTResponse (8.1). */
int mschapv2_nt_response(const uint8_t auth_chal[MSCHAPV2_CHAL_LEN],
			 const uint8_t peer_chal[MSCHAPV2_CHAL_LEN], const char *user,
			 size_t user_len, const uint8_t hash[MSCHAPV2_HASH_LEN],
			 uint8_t response[MSCHAPV2_NT_RESP_LEN]);
/* GenerateAuthenticatorResponse (8.7): the 20 octets of "S=<40 hex>". */
int mschapv2_authenticator_response(const uint8_t hash[MSCHAPV2_HASH_LEN],
				    const uint8_t nt_resp[MSCHAPV2_NT_RESP_LEN],
				    const uint8_t peer_chal[MSCHAPV2_CHAL_LEN],
				    const uint8_t auth_chal[MSCHAPV2_CHAL_LEN],
				    const char *user, size_t user_len,
				    uint8_t auth_resp[MSCHAPV2_AUTH_RESP_LEN]);

/* GetMasterKey (RFC 3079 3.4). */
int mschapv2_master_key(const uint8_t hash_hash[MSCHAPV2_HASH_LEN],
			const uint8_t nt_resp[MSCHAPV2_NT_RESP_LEN],
			uint8_t master[MSCHAPV2_MASTER_KEY_LEN]);
/* GetAsymmetricStartKey (3.4): len 8 or 16; send/server pick Magic2 or
 * Magic3 (the client's send key is the server's receive key). */
int mschapv2_asymmetric_start_key(const uint8_t master[MSCHAPV2_MASTER_KEY_LEN], uint8_t *key,
				  size_t len, bool send, bool server);
/* The first MPPE session key from a start key (RFC 3079 3.5, RFC 3078
 * 7.3: GetNewKeyFromSHA(StartKey, StartKey)), len 8 or 16; no 40/56-bit
 * salt applied. */
int mschapv2_mppe_session_key(const uint8_t *start_key, size_t len, uint8_t *session_key);

#endif
