/* EAP-MSCHAPv2, peer side: the packet format of
 * draft-kamath-pppext-eap-mschapv2-02 around MS-CHAPv2 (RFC 2759), keys as
 * RFC 3079 derives them. Outer method or PEAP/TTLS inner method alike.
 *
 * Every Request starts OpCode (1), MS-CHAPv2-ID (1), MS-Length (2):
 *   Challenge (1): Value-Size 16, the authenticator challenge, server Name
 *   Success (3):   "S=<40 hex> M=<message>"; we check S= (mutual auth)
 *   Failure (4):   "E=<code> R=<retry> C=<challenge> V=<version> M=<text>"
 * and our Responses: Response (2) with Value-Size 49 (peer challenge,
 * 8 reserved octets, NT-Response, flags) and our Name; a one-octet
 * Success (3) or Failure (4) acknowledgement.
 */
#define LOG_TAG "eap-mschapv2"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/core/log.h"
#include "daemon/crypto/legacy.h"
#include "daemon/crypto/mschapv2.h"
#include "daemon/crypto/secure.h"
#include "eap/eap_methods_i.h"
#include "eap/eap_peer.h"

enum {
	OP_CHALLENGE = 1,
	OP_RESPONSE = 2,
	OP_SUCCESS = 3,
	OP_FAILURE = 4,
};
#define MS_HDR_LEN 4
#define RESP_VALUE_LEN 49
#define KEY_LEN 16

enum ms_stage {
	MS_WAIT_CHALLENGE,
	MS_WAIT_RESULT, /* our Response went: Success or Failure next */
	MS_DONE,
};

struct ms_peer {
	struct eap_peer_ctx *ctx;
	enum ms_stage stage;
	uint8_t auth_chal[MSCHAPV2_CHAL_LEN], peer_chal[MSCHAPV2_CHAL_LEN];
	uint8_t nt_resp[MSCHAPV2_NT_RESP_LEN];
	uint8_t auth_resp[MSCHAPV2_AUTH_RESP_LEN]; /* what S= must say */
	uint8_t master[MSCHAPV2_MASTER_KEY_LEN];
	bool keys;
};

static void *ms_init(struct eap_peer_ctx *ctx)
{
	if (!crypto_legacy_available()) {
		eap_peer_ctx_set_error(ctx, EAP_PEER_ERR_METHOD_UNAVAILABLE,
				       "MSCHAPV2: MD4/DES unavailable (OpenSSL legacy provider "
				       "could not be loaded)");
		log_error("MSCHAPV2 cannot run: OpenSSL's legacy provider (MD4, DES) is missing");
		return NULL;
	}
	struct ms_peer *m = calloc(1, sizeof(*m));
	if (m)
		m->ctx = ctx;
	return m;
}

static void ms_deinit(void *priv)
{
	struct ms_peer *m = priv;
	crypto_zero(m, sizeof(*m));
	free(m);
}

static int put_header(struct eap_buf *resp, uint8_t op, uint8_t ms_id, size_t ms_len)
{
	int r = eap_buf_put_u8(resp, op);
	r = r ? r : eap_buf_put_u8(resp, ms_id);
	return r ? r : eap_buf_put_be16(resp, (uint16_t)ms_len);
}

static int challenge(struct ms_peer *m, uint8_t ms_id, const uint8_t *d, size_t len,
		     struct eap_buf *resp)
{
	const struct eap_peer_profile *prof = eap_peer_ctx_profile(m->ctx);
	uint8_t hash[MSCHAPV2_HASH_LEN], hh[MSCHAPV2_HASH_LEN];
	const char *user = prof->identity ? prof->identity : "";
	size_t user_len = strlen(user);
	int r;

	if (len < 1 + MSCHAPV2_CHAL_LEN || d[0] != MSCHAPV2_CHAL_LEN) {
		log_debug("Challenge with a bad Value-Size dropped");
		return -EBADMSG;
	}
	if (!prof->password) {
		eap_peer_ctx_need_secret(m->ctx, EAP_SECRET_PASSWORD);
		return -EAGAIN;
	}
	if (user_len > 0xffff - MS_HDR_LEN - 1 - RESP_VALUE_LEN)
		return -EMSGSIZE;
	memcpy(m->auth_chal, d + 1, MSCHAPV2_CHAL_LEN);
	r = crypto_random(m->peer_chal, sizeof(m->peer_chal));
	r = r ? r : mschapv2_nt_password_hash(prof->password, prof->password_len, hash);
	if (r == -EINVAL)
		eap_peer_ctx_set_error(m->ctx, EAP_PEER_ERR_CREDENTIALS,
				       "MSCHAPV2: the password is not UTF-8 or is too long");
	r = r ? r : mschapv2_nt_response(m->auth_chal, m->peer_chal, user, user_len, hash,
					 m->nt_resp);
	r = r ? r : mschapv2_authenticator_response(hash, m->nt_resp, m->peer_chal, m->auth_chal,
						    user, user_len, m->auth_resp);
	r = r ? r : mschapv2_hash_nt_password_hash(hash, hh);
	r = r ? r : mschapv2_master_key(hh, m->nt_resp, m->master);
	crypto_zero(hash, sizeof(hash));
	crypto_zero(hh, sizeof(hh));
	if (r)
		return r;

	static const uint8_t reserved[8], flags;
	r = put_header(resp, OP_RESPONSE, ms_id, MS_HDR_LEN + 1 + RESP_VALUE_LEN + user_len);
	r = r ? r : eap_buf_put_u8(resp, RESP_VALUE_LEN);
	r = r ? r : eap_buf_put(resp, m->peer_chal, sizeof(m->peer_chal));
	r = r ? r : eap_buf_put(resp, reserved, sizeof(reserved));
	r = r ? r : eap_buf_put(resp, m->nt_resp, sizeof(m->nt_resp));
	r = r ? r : eap_buf_put_u8(resp, flags);
	r = r ? r : eap_buf_put(resp, user, user_len);
	if (r == 0)
		m->stage = MS_WAIT_RESULT;
	return r;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* "S=" and 40 hex digits at the start of the message (RFC 2759 5). */
static bool auth_string_ok(const struct ms_peer *m, const uint8_t *msg, size_t len)
{
	uint8_t got[MSCHAPV2_AUTH_RESP_LEN];
	if (len < 2 + 2 * sizeof(got) || msg[0] != 'S' || msg[1] != '=')
		return false;
	for (size_t i = 0; i < sizeof(got); i++) {
		int hi = hexval((char)msg[2 + 2 * i]), lo = hexval((char)msg[3 + 2 * i]);
		if (hi < 0 || lo < 0)
			return false;
		got[i] = (uint8_t)(hi << 4 | lo);
	}
	return crypto_memeq(got, m->auth_resp, sizeof(got));
}

/* The failure's E= code, and a detail naming it for the user. */
static void failure_detail(struct ms_peer *m, const uint8_t *msg, size_t len)
{
	char text[160], detail[200];
	size_t n = 0;
	for (size_t i = 0; i < len && n + 1 < sizeof(text); i++)
		text[n++] = msg[i] >= 0x20 && msg[i] < 0x7f ? (char)msg[i] : '?';
	text[n] = '\0';
	int code = 0;
	if (sscanf(text, "E=%d", &code) != 1)
		code = 0;
	const char *what = "authentication failure (wrong identity or password)";
	enum eap_peer_err err = EAP_PEER_ERR_INNER_REJECTED;
	switch (code) {
	case 646:
		what = "restricted logon hours";
		break;
	case 647:
		what = "account disabled";
		break;
	case 648:
		what = "password expired";
		err = EAP_PEER_ERR_CREDENTIALS;
		break;
	case 649:
		what = "no dial-in permission";
		break;
	}
	snprintf(detail, sizeof(detail), "MSCHAPV2 E=%d: %s", code, what);
	log_info("server refused: %s (\"%s\")", detail, text);
	eap_peer_ctx_set_error(m->ctx, err, detail);
}

static int ms_process(void *priv, uint8_t id, const uint8_t *req, size_t req_len,
		      struct eap_buf *resp, enum eap_method_state *state,
		      enum eap_decision *decision)
{
	struct ms_peer *m = priv;
	if (req_len < MS_HDR_LEN)
		return -EBADMSG;
	uint8_t op = req[0], ms_id = req[1];
	size_t ms_len = (size_t)req[2] << 8 | req[3];
	if (ms_len != req_len)
		log_debug("MS-Length %zu, packet %zu: using the packet's", ms_len, req_len);
	const uint8_t *d = req + MS_HDR_LEN;
	size_t len = req_len - MS_HDR_LEN;
	int r;

	switch (op) {
	case OP_CHALLENGE:
		if (m->stage != MS_WAIT_CHALLENGE)
			return -EPROTO;
		r = challenge(m, ms_id, d, len, resp);
		if (r)
			return r;
		*state = EAP_METHOD_CONT;
		*decision = EAP_DECISION_FAIL;
		return 0;
	case OP_SUCCESS:
		if (m->stage != MS_WAIT_RESULT)
			return -EPROTO;
		m->stage = MS_DONE;
		*state = EAP_METHOD_DONE;
		if (!auth_string_ok(m, d, len)) {
			/* The server does not know the password: end here, sending
			 * nothing (RFC 2759 5: the peer must not go on). */
			eap_peer_ctx_set_error(m->ctx, EAP_PEER_ERR_PROTOCOL,
					       "MSCHAPV2: the server's authenticator response is "
					       "wrong (server not authenticated)");
			*decision = EAP_DECISION_FAIL;
			return 0;
		}
		m->keys = true;
		*decision = EAP_DECISION_UNCOND_SUCC;
		return eap_buf_put_u8(resp, OP_SUCCESS);
	case OP_FAILURE:
		if (m->stage == MS_DONE)
			return -EPROTO;
		m->stage = MS_DONE;
		failure_detail(m, d, len);
		*state = EAP_METHOD_DONE;
		*decision = EAP_DECISION_FAIL;
		return eap_buf_put_u8(resp, OP_FAILURE);
	default:
		log_debug("OpCode %u dropped", op);
		return -EBADMSG;
	}
}

/* MSK = the peer's MS-MPPE-Send-Key || MS-MPPE-Recv-Key (32 octets), the
 * inner key PEAP's crypto binding and TTLS use (as hostapd exports it). */
static int ms_get_msk(void *priv, uint8_t *out, size_t max)
{
	struct ms_peer *m = priv;
	if (!m->keys)
		return -ENOENT;
	if (max < 2 * KEY_LEN)
		return -ENOSPC;
	int r = mschapv2_asymmetric_start_key(m->master, out, KEY_LEN, true, false);
	r = r ? r : mschapv2_asymmetric_start_key(m->master, out + KEY_LEN, KEY_LEN, false, false);
	if (r) {
		crypto_zero(out, 2 * KEY_LEN);
		return r;
	}
	return 2 * KEY_LEN;
}

const struct eap_peer_method eap_peer_mschapv2 = {
	.type = EAP_T_MSCHAPV2,
	.name = "MSCHAPV2",
	.init = ms_init,
	.deinit = ms_deinit,
	.process = ms_process,
	.get_msk = ms_get_msk,
};
