/* RFC 2759 8 and RFC 3079 3.4-3.5, written from the RFCs' pseudocode. */
#include "daemon/crypto/mschapv2.h"

#include <errno.h>
#include <string.h>

#include "daemon/crypto/legacy.h"
#include "daemon/crypto/secure.h"

/* RFC 2759 8.7 */
static const char magic_auth1[] = "Magic server to client signing constant";
static const char magic_auth2[] = "Pad to make it do more than one iteration";
/* RFC 3079 3.4 */
static const char magic_master[] = "This is the MPPE Master Key";
static const char magic_client_send[] =
	"On the client side, this is the send key; on the server side, it is the receive key.";
static const char magic_client_recv[] =
	"On the client side, this is the receive key; on the server side, it is the send key.";

/* UTF-8 to UTF-16LE; returns the octets written or -EINVAL. */
static int utf16le(const char *s, size_t len, uint8_t *out, size_t max)
{
	size_t o = 0, units = 0;
	for (size_t i = 0; i < len;) {
		uint8_t c = (uint8_t)s[i];
		uint32_t cp;
		size_t n;
		if (c < 0x80) {
			cp = c;
			n = 1;
		} else if ((c & 0xe0) == 0xc0) {
			cp = c & 0x1f;
			n = 2;
		} else if ((c & 0xf0) == 0xe0) {
			cp = c & 0x0f;
			n = 3;
		} else if ((c & 0xf8) == 0xf0) {
			cp = c & 0x07;
			n = 4;
		} else {
			return -EINVAL;
		}
		if (n > len - i)
			return -EINVAL;
		for (size_t k = 1; k < n; k++) {
			uint8_t cc = (uint8_t)s[i + k];
			if ((cc & 0xc0) != 0x80)
				return -EINVAL;
			cp = cp << 6 | (cc & 0x3f);
		}
		static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
		if (cp < min[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return -EINVAL; /* overlong, out of range, or a lone surrogate */
		i += n;
		uint16_t u[2];
		size_t nu = 1;
		if (cp >= 0x10000) {
			cp -= 0x10000;
			u[0] = (uint16_t)(0xd800 | cp >> 10);
			u[1] = (uint16_t)(0xdc00 | (cp & 0x3ff));
			nu = 2;
		} else {
			u[0] = (uint16_t)cp;
		}
		units += nu;
		if (units > MSCHAPV2_PASSWORD_MAX || o + 2 * nu > max)
			return -EINVAL;
		for (size_t k = 0; k < nu; k++) {
			out[o++] = (uint8_t)u[k];
			out[o++] = (uint8_t)(u[k] >> 8);
		}
	}
	return (int)o;
}

int mschapv2_nt_password_hash(const char *password, size_t len, uint8_t hash[MSCHAPV2_HASH_LEN])
{
	uint8_t uni[2 * MSCHAPV2_PASSWORD_MAX];
	if ((!password && len) || !hash)
		return -EINVAL;
	int n = utf16le(password, len, uni, sizeof(uni));
	int r = n < 0 ? n : crypto_md4(uni, (size_t)n, hash);
	crypto_zero(uni, sizeof(uni));
	return r;
}

int mschapv2_hash_nt_password_hash(const uint8_t hash[MSCHAPV2_HASH_LEN],
				   uint8_t hash_hash[MSCHAPV2_HASH_LEN])
{
	return crypto_md4(hash, MSCHAPV2_HASH_LEN, hash_hash);
}

/* RFC 2759 8.2: the user name without a "DOMAIN\" prefix. */
static void strip_domain(const char **user, size_t *len)
{
	for (size_t i = *len; i > 0; i--)
		if ((*user)[i - 1] == '\\') {
			*user += i;
			*len -= i;
			return;
		}
}

int mschapv2_challenge_hash(const uint8_t peer_chal[MSCHAPV2_CHAL_LEN],
			    const uint8_t auth_chal[MSCHAPV2_CHAL_LEN], const char *user,
			    size_t user_len, uint8_t challenge[8])
{
	uint8_t d[CRYPTO_SHA1_LEN];
	if (!peer_chal || !auth_chal || (!user && user_len) || !challenge)
		return -EINVAL;
	strip_domain(&user, &user_len);
	struct crypto_iov parts[] = {
		{ peer_chal, MSCHAPV2_CHAL_LEN },
		{ auth_chal, MSCHAPV2_CHAL_LEN },
		{ user, user_len },
	};
	int r = crypto_sha1_vec(parts, 3, d);
	if (r == 0)
		memcpy(challenge, d, 8);
	crypto_zero(d, sizeof(d));
	return r;
}

/* RFC 2759 8.6: 7 key octets spread over 8, the low bit of each (parity)
 * left 0; DES ignores it. */
static void des_key(const uint8_t in[7], uint8_t k[8])
{
	k[0] = in[0];
	k[1] = (uint8_t)(in[0] << 7 | in[1] >> 1);
	k[2] = (uint8_t)(in[1] << 6 | in[2] >> 2);
	k[3] = (uint8_t)(in[2] << 5 | in[3] >> 3);
	k[4] = (uint8_t)(in[3] << 4 | in[4] >> 4);
	k[5] = (uint8_t)(in[4] << 3 | in[5] >> 5);
	k[6] = (uint8_t)(in[5] << 2 | in[6] >> 6);
	k[7] = (uint8_t)(in[6] << 1);
}

int mschapv2_challenge_response(const uint8_t challenge[8],
				const uint8_t hash[MSCHAPV2_HASH_LEN],
				uint8_t response[MSCHAPV2_NT_RESP_LEN])
{
	uint8_t z[21] = { 0 }, k[8];
	int r = 0;
	if (!challenge || !hash || !response)
		return -EINVAL;
	memcpy(z, hash, MSCHAPV2_HASH_LEN);
	for (int i = 0; i < 3 && !r; i++) {
		des_key(z + 7 * i, k);
		r = crypto_des_block(k, challenge, response + 8 * i);
	}
	crypto_zero(z, sizeof(z));
	crypto_zero(k, sizeof(k));
	if (r)
		crypto_zero(response, MSCHAPV2_NT_RESP_LEN);
	return r;
}

int mschapv2_nt_response(const uint8_t auth_chal[MSCHAPV2_CHAL_LEN],
			 const uint8_t peer_chal[MSCHAPV2_CHAL_LEN], const char *user,
			 size_t user_len, const uint8_t hash[MSCHAPV2_HASH_LEN],
			 uint8_t response[MSCHAPV2_NT_RESP_LEN])
{
	uint8_t ch[8];
	int r = mschapv2_challenge_hash(peer_chal, auth_chal, user, user_len, ch);
	if (r == 0)
		r = mschapv2_challenge_response(ch, hash, response);
	return r;
}

int mschapv2_authenticator_response(const uint8_t hash[MSCHAPV2_HASH_LEN],
				    const uint8_t nt_resp[MSCHAPV2_NT_RESP_LEN],
				    const uint8_t peer_chal[MSCHAPV2_CHAL_LEN],
				    const uint8_t auth_chal[MSCHAPV2_CHAL_LEN],
				    const char *user, size_t user_len,
				    uint8_t auth_resp[MSCHAPV2_AUTH_RESP_LEN])
{
	uint8_t hh[MSCHAPV2_HASH_LEN], d[CRYPTO_SHA1_LEN], ch[8];
	if (!hash || !nt_resp || !auth_resp)
		return -EINVAL;
	int r = mschapv2_hash_nt_password_hash(hash, hh);
	if (r == 0) {
		struct crypto_iov p1[] = {
			{ hh, sizeof(hh) },
			{ nt_resp, MSCHAPV2_NT_RESP_LEN },
			{ magic_auth1, sizeof(magic_auth1) - 1 },
		};
		r = crypto_sha1_vec(p1, 3, d);
	}
	if (r == 0)
		r = mschapv2_challenge_hash(peer_chal, auth_chal, user, user_len, ch);
	if (r == 0) {
		struct crypto_iov p2[] = {
			{ d, sizeof(d) },
			{ ch, sizeof(ch) },
			{ magic_auth2, sizeof(magic_auth2) - 1 },
		};
		r = crypto_sha1_vec(p2, 3, auth_resp);
	}
	crypto_zero(hh, sizeof(hh));
	crypto_zero(d, sizeof(d));
	return r;
}

int mschapv2_master_key(const uint8_t hash_hash[MSCHAPV2_HASH_LEN],
			const uint8_t nt_resp[MSCHAPV2_NT_RESP_LEN],
			uint8_t master[MSCHAPV2_MASTER_KEY_LEN])
{
	uint8_t d[CRYPTO_SHA1_LEN];
	if (!hash_hash || !nt_resp || !master)
		return -EINVAL;
	struct crypto_iov p[] = {
		{ hash_hash, MSCHAPV2_HASH_LEN },
		{ nt_resp, MSCHAPV2_NT_RESP_LEN },
		{ magic_master, sizeof(magic_master) - 1 },
	};
	int r = crypto_sha1_vec(p, 3, d);
	if (r == 0)
		memcpy(master, d, MSCHAPV2_MASTER_KEY_LEN);
	crypto_zero(d, sizeof(d));
	return r;
}

/* SHSpad1 and SHSpad2 of RFC 3079 3.4 around a key and a magic/second key. */
static int shs_pad(const uint8_t *a, size_t a_len, const void *b, size_t b_len,
		   uint8_t d[CRYPTO_SHA1_LEN])
{
	static const uint8_t pad1[40] = { 0 };
	uint8_t pad2[40];
	memset(pad2, 0xf2, sizeof(pad2));
	struct crypto_iov p[] = {
		{ a, a_len }, { pad1, sizeof(pad1) }, { b, b_len }, { pad2, sizeof(pad2) },
	};
	return crypto_sha1_vec(p, 4, d);
}

int mschapv2_asymmetric_start_key(const uint8_t master[MSCHAPV2_MASTER_KEY_LEN], uint8_t *key,
				  size_t len, bool send, bool server)
{
	uint8_t d[CRYPTO_SHA1_LEN];
	if (!master || !key || (len != 8 && len != 16))
		return -EINVAL;
	const char *magic = send == server ? magic_client_recv : magic_client_send;
	int r = shs_pad(master, MSCHAPV2_MASTER_KEY_LEN, magic, strlen(magic), d);
	if (r == 0)
		memcpy(key, d, len);
	crypto_zero(d, sizeof(d));
	return r;
}

int mschapv2_mppe_session_key(const uint8_t *start_key, size_t len, uint8_t *session_key)
{
	uint8_t d[CRYPTO_SHA1_LEN];
	if (!start_key || !session_key || (len != 8 && len != 16))
		return -EINVAL;
	/* RFC 3078 7.3 / RFC 3079 3.5: the first session key is
	 * GetNewKeyFromSHA(StartKey, StartKey); RC4 enters only at key
	 * changes, and 128-bit keys are not salted. */
	int r = shs_pad(start_key, len, start_key, len, d);
	if (r == 0)
		memcpy(session_key, d, len);
	crypto_zero(d, sizeof(d));
	return r;
}
