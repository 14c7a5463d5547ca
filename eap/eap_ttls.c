/* EAP-TTLSv0, peer side (RFC 5281; TLS 1.3 keys per RFC 9427): a TLS
 * tunnel (eap_tls_common), then phase 2 as AVPs (eap_ttls_avp.h), which
 * the peer starts once the handshake is done:
 *
 *   PAP       User-Name, User-Password (zero-padded to 16n, 11.2.5)
 *   CHAP      User-Name, CHAP-Challenge, CHAP-Password (11.2.2), the
 *             challenge and identifier from the TLS exporter ("ttls
 *             challenge", 17 octets: 11.1)
 *   MSCHAPV2  User-Name, MS-CHAP-Challenge, MS-CHAP2-Response (11.2.4,
 *             RFC 2548), the server's MS-CHAP2-Success verified (a server
 *             that does not know the password fails here)
 *   EAP       EAP-Message carrying an inner EAP method through a phase-2
 *             ctx (profile->phase2_eap): Identity first, Nak for other
 *             types; tunnels inside refused
 *
 * Keys: "ttls keying material" (RFC 5281 8), exporter with Type 21 for
 * TLS 1.3.
 */
#define LOG_TAG "eap-ttls"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "daemon/core/log.h"
#include "daemon/crypto/legacy.h"
#include "daemon/crypto/mschapv2.h"
#include "daemon/crypto/secure.h"
#include "eap/eap_methods_i.h"
#include "eap/eap_tls_method.h"
#include "eap/eap_ttls_avp.h"

enum ttls_inner {
	TTLS_IN_PAP,
	TTLS_IN_CHAP,
	TTLS_IN_MSCHAPV2,
	TTLS_IN_EAP,
};

enum ttls_state {
	TTLS_S_HANDSHAKE, /* TLS not up yet */
	TTLS_S_PHASE2,	  /* our credentials sent, the server's answer awaited */
	TTLS_S_ACCEPTED,  /* the inner method says success: Success awaited */
};

static const char *ttls_state_to_string(enum ttls_state s)
{
	switch (s) {
	case TTLS_S_HANDSHAKE:
		return "handshake";
	case TTLS_S_PHASE2:
		return "phase2";
	case TTLS_S_ACCEPTED:
		return "accepted";
	}
	return "?";
}

struct ttls_peer {
	struct eap_tls_common t;
	enum ttls_state state;
	enum ttls_inner kind;
	bool failed;
	/* inner EAP */
	struct eap_tunnel_inner in;
	/* MSCHAPv2 */
	uint8_t ms_auth_chal[MSCHAPV2_CHAL_LEN], ms_peer_chal[MSCHAPV2_CHAL_LEN];
	uint8_t ms_nt_resp[MSCHAPV2_NT_RESP_LEN], ms_hash[MSCHAPV2_HASH_LEN];
	uint8_t ms_ident;
};
EAP_TLS_METHOD_STATE(struct ttls_peer, t);

static const struct eap_tls_method_ops ttls_ops;

static void ttls_enter(struct ttls_peer *p, enum ttls_state s)
{
	log_debug("%s -> %s", ttls_state_to_string(p->state), ttls_state_to_string(s));
	p->state = s;
}

static void *ttls_init(struct eap_peer_ctx *ctx)
{
	struct ttls_peer *p;

	if (eap_peer_ctx_phase(ctx) != 0) {
		eap_peer_ctx_set_error(ctx, EAP_PEER_ERR_PROTOCOL, "TTLS inside a tunnel refused");
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	eap_tls_common_init(&p->t, ctx, EAP_T_TTLS, "ttls keying material", &ttls_ops);
	return p;
}

static void ttls_deinit(void *priv)
{
	struct ttls_peer *p = priv;

	eap_tunnel_inner_end(&p->in);
	eap_tls_common_deinit(&p->t);
	crypto_zero(p->ms_hash, sizeof(p->ms_hash));
	crypto_zero(p->ms_nt_resp, sizeof(p->ms_nt_resp));
	free(p);
}

static int unavailable(struct ttls_peer *p, const char *what)
{
	char msg[128];

	snprintf(msg, sizeof(msg), "TTLS inner method %s", what);
	eap_peer_ctx_set_error(p->t.ctx, EAP_PEER_ERR_METHOD_UNAVAILABLE, msg);
	return -ENOENT;
}

/* At Start: which phase 2, and its password (asked now: once TLS has
 * consumed a Request it cannot be replayed). */
static int check_inner(struct ttls_peer *p)
{
	const struct eap_peer_profile *prof = eap_peer_ctx_profile(p->t.ctx);
	const char *name = prof->phase2 ? prof->phase2 : "";

	if (prof->phase2_eap) {
		p->kind = TTLS_IN_EAP;
		p->in.method = eap_peer_method_by_name(name);
		if (!p->in.method)
			return unavailable(p, "not available");
		if (eap_tls_common_is_tunnel_type((uint8_t)p->in.method->type))
			return unavailable(p, "is a tunnel: refused");
	} else if (strcasecmp(name, "PAP") == 0) {
		p->kind = TTLS_IN_PAP;
	} else if (strcasecmp(name, "CHAP") == 0) {
		p->kind = TTLS_IN_CHAP;
	} else if (strcasecmp(name, "MSCHAPV2") == 0) {
		p->kind = TTLS_IN_MSCHAPV2;
		if (!crypto_legacy_available())
			return unavailable(p, "MSCHAPV2 needs MD4/DES (OpenSSL legacy provider)");
	} else {
		return unavailable(p, "unknown (PAP, CHAP, MSCHAPV2 or an EAP method)");
	}
	if (!prof->password) {
		eap_peer_ctx_need_secret(p->t.ctx, EAP_SECRET_PASSWORD);
		return -EAGAIN;
	}
	return 0;
}

static const char *user_name(struct ttls_peer *p)
{
	const char *id = eap_peer_ctx_profile(p->t.ctx)->identity;

	return id ? id : "";
}

static int put_pap(struct ttls_peer *p, struct eap_buf *avps)
{
	const struct eap_peer_profile *prof = eap_peer_ctx_profile(p->t.ctx);
	size_t len = prof->password_len, padded = len ? (len + 15) & ~(size_t)15 : 16;
	uint8_t *pw;
	int r;

	if (padded > 253)
		return unavailable(p, "PAP: password longer than 253 octets");
	pw = calloc(1, padded);
	if (!pw)
		return -ENOMEM;
	memcpy(pw, prof->password, len);
	r = ttls_avp_put(avps, TTLS_AVP_USER_PASSWORD, 0, true, pw, padded);
	crypto_zero(pw, padded);
	free(pw);
	return r;
}

static int put_chap(struct ttls_peer *p, struct eap_buf *avps)
{
	const struct eap_peer_profile *prof = eap_peer_ctx_profile(p->t.ctx);
	uint8_t chal[17], resp[17];
	int r;

	r = tls_conn_export(p->t.conn, "ttls challenge", NULL, 0, chal, sizeof(chal));
	if (r == 0) {
		/* RFC 1994: MD5(Identifier | secret | challenge). */
		struct crypto_iov parts[3] = {
			{ chal + 16, 1 },
			{ prof->password, prof->password_len },
			{ chal, 16 },
		};
		resp[0] = chal[16];
		r = crypto_md5_vec(parts, 3, resp + 1);
	}
	r = r ? r : ttls_avp_put(avps, TTLS_AVP_CHAP_CHALLENGE, 0, true, chal, 16);
	r = r ? r : ttls_avp_put(avps, TTLS_AVP_CHAP_PASSWORD, 0, true, resp, sizeof(resp));
	crypto_zero(resp, sizeof(resp));
	return r;
}

static int put_mschapv2(struct ttls_peer *p, struct eap_buf *avps)
{
	const struct eap_peer_profile *prof = eap_peer_ctx_profile(p->t.ctx);
	const char *user = user_name(p);
	uint8_t chal[17], resp[50];
	int r;

	r = tls_conn_export(p->t.conn, "ttls challenge", NULL, 0, chal, sizeof(chal));
	r = r ? r : crypto_random(p->ms_peer_chal, sizeof(p->ms_peer_chal));
	r = r ? r : mschapv2_nt_password_hash(prof->password, prof->password_len, p->ms_hash);
	if (r == 0) {
		memcpy(p->ms_auth_chal, chal, 16);
		p->ms_ident = chal[16];
		r = mschapv2_nt_response(p->ms_auth_chal, p->ms_peer_chal, user, strlen(user),
					 p->ms_hash, p->ms_nt_resp);
	}
	if (r < 0)
		return r == -ENOTSUP ? unavailable(p, "MSCHAPV2: MD4/DES unavailable") : r;
	/* MS-CHAP2-Response (RFC 2548 2.3.2): Ident, Flags, Peer-Challenge,
	 * Reserved (8), NT-Response. */
	memset(resp, 0, sizeof(resp));
	resp[0] = p->ms_ident;
	memcpy(resp + 2, p->ms_peer_chal, 16);
	memcpy(resp + 26, p->ms_nt_resp, 24);
	r = ttls_avp_put(avps, TTLS_MS_CHAP_CHALLENGE, TTLS_VENDOR_MICROSOFT, true, chal, 16);
	r = r ? r : ttls_avp_put(avps, TTLS_MS_CHAP2_RESPONSE, TTLS_VENDOR_MICROSOFT, true, resp,
				 sizeof(resp));
	return r;
}

static int put_eap(struct ttls_peer *p, struct eap_buf *avps, uint8_t id, const uint8_t *td,
		   size_t len)
{
	uint8_t hdr[4] = { 2, id, (uint8_t)((4 + len) >> 8), (uint8_t)(4 + len) };
	struct eap_buf pkt = { 0 };
	int r;

	r = eap_buf_put(&pkt, hdr, 4);
	r = r ? r : eap_buf_put(&pkt, td, len);
	r = r ? r : ttls_avp_put(avps, TTLS_AVP_EAP_MESSAGE, 0, true, pkt.data, pkt.len);
	eap_buf_release(&pkt);
	return r;
}

static int send_avps(struct ttls_peer *p, struct eap_buf *avps)
{
	int r = avps->len ? tls_conn_write(p->t.conn, avps->data, avps->len) : 0;

	eap_buf_release(avps);
	return r;
}

/* The handshake is done: our phase-2 opening. */
static int phase2_start(struct ttls_peer *p)
{
	const char *user = user_name(p);
	struct eap_buf avps = { 0 };
	int r = 0;

	if (p->kind != TTLS_IN_EAP)
		r = ttls_avp_put(&avps, TTLS_AVP_USER_NAME, 0, true, user, strlen(user));
	switch (p->kind) {
	case TTLS_IN_PAP:
		r = r ? r : put_pap(p, &avps);
		break;
	case TTLS_IN_CHAP:
		r = r ? r : put_chap(p, &avps);
		break;
	case TTLS_IN_MSCHAPV2:
		r = r ? r : put_mschapv2(p, &avps);
		break;
	case TTLS_IN_EAP: {
		/* EAP-Response/Identity, unsolicited (RFC 5281 11.3.1). */
		uint8_t td[1] = { EAP_T_IDENTITY };
		struct eap_buf id = { 0 };

		r = eap_buf_put(&id, td, 1);
		r = r ? r : eap_buf_put(&id, user, strlen(user));
		r = r ? r : put_eap(p, &avps, 0, id.data, id.len);
		eap_buf_release(&id);
		break;
	}
	}
	if (r < 0) {
		eap_buf_release(&avps);
		return r;
	}
	if (p->kind == TTLS_IN_PAP || p->kind == TTLS_IN_CHAP) {
		/* The server answers bad credentials with a bare EAP-Failure;
		 * name the stage now, since nothing else will (the first error
		 * of an attempt wins; a Success makes it moot). */
		eap_peer_ctx_set_error(p->t.ctx, EAP_PEER_ERR_INNER_REJECTED,
				       p->kind == TTLS_IN_PAP
					       ? "the server refused the TTLS/PAP credentials"
					       : "the server refused the TTLS/CHAP credentials");
	}
	ttls_enter(p, TTLS_S_PHASE2);
	return send_avps(p, &avps);
}

static int ms_success(struct ttls_peer *p, const uint8_t *d, size_t len)
{
	uint8_t want[MSCHAPV2_AUTH_RESP_LEN];
	char hex[2 * MSCHAPV2_AUTH_RESP_LEN + 1];
	const char *user = user_name(p);
	int r;

	/* Ident | "S=" 40 hex digits [" M=" message] */
	if (len < 43 || d[0] != p->ms_ident || d[1] != 'S' || d[2] != '=') {
		eap_peer_ctx_set_error(p->t.ctx, EAP_PEER_ERR_PROTOCOL, "malformed MS-CHAP2-Success");
		return -EPROTO;
	}
	r = mschapv2_authenticator_response(p->ms_hash, p->ms_nt_resp, p->ms_peer_chal,
					    p->ms_auth_chal, user, strlen(user), want);
	if (r < 0)
		return r;
	for (int i = 0; i < MSCHAPV2_AUTH_RESP_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02X", want[i]);
	if (strncasecmp((const char *)d + 3, hex, 40) != 0) {
		eap_peer_ctx_set_error(p->t.ctx, EAP_PEER_ERR_PROTOCOL,
				       "MS-CHAP2-Success does not prove the server knows the "
				       "password");
		return -EPROTO;
	}
	ttls_enter(p, TTLS_S_ACCEPTED);
	return 0;
}

static int ms_error(struct ttls_peer *p, const uint8_t *d, size_t len)
{
	char msg[128];
	size_t n;

	len = ttls_ms_chap_error_text(d, len, p->ms_ident, &d);
	n = len > 100 ? 100 : len;
	snprintf(msg, sizeof(msg), "TTLS/MSCHAPV2 rejected: %.*s", (int)n,
		 n ? (const char *)d : "");
	for (char *c = msg; *c; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
			*c = '?';
	eap_peer_ctx_set_error(p->t.ctx, EAP_PEER_ERR_INNER_REJECTED, msg);
	p->failed = true;
	return 0;
}

/* One inner EAP Request from an EAP-Message. */
static int inner_eap(struct ttls_peer *p, const uint8_t *pkt, size_t len, struct eap_buf *avps)
{
	const char *user = user_name(p);
	struct eap_buf out = { 0 };
	int r;

	if (len < 4 || (size_t)(pkt[2] << 8 | pkt[3]) != len) {
		eap_peer_ctx_set_error(p->t.ctx, EAP_PEER_ERR_PROTOCOL, "malformed inner EAP packet");
		return -EPROTO;
	}
	if (pkt[0] == 4) {
		eap_peer_ctx_set_error(p->t.ctx, EAP_PEER_ERR_INNER_REJECTED, "inner EAP-Failure");
		p->failed = true;
		return 0;
	}
	if (pkt[0] != 1 || len < 5)
		return 0; /* an inner Success or a Response: nothing to answer */
	r = eap_tunnel_inner_rx(&p->in, p->t.ctx, pkt[1], pkt + 4, len - 4, user, &out);
	if (r == 1) {
		if (p->in.state == EAP_METHOD_DONE && p->in.decision == EAP_DECISION_FAIL)
			p->failed = true;
		else if (p->in.decision != EAP_DECISION_FAIL)
			ttls_enter(p, TTLS_S_ACCEPTED);
		r = 0;
	}
	if (r == 0 && out.len > 1)
		r = put_eap(p, avps, pkt[1], out.data, out.len);
	eap_buf_release(&out);
	return r;
}

static int phase2_data(struct ttls_peer *p, const uint8_t *d, size_t len)
{
	struct ttls_avps a;
	struct eap_buf avps = { 0 };
	char err[128];
	int r = 0;

	if (ttls_avps_parse(d, len, &a, err, sizeof(err)) < 0) {
		eap_peer_ctx_set_error(p->t.ctx, EAP_PEER_ERR_PROTOCOL, err);
		return -EPROTO;
	}
	switch (p->kind) {
	case TTLS_IN_MSCHAPV2:
		if (a.ms_error)
			r = ms_error(p, a.ms_error, a.ms_error_len);
		else if (a.ms_success)
			r = ms_success(p, a.ms_success, a.ms_success_len);
		else
			r = 0;
		break;
	case TTLS_IN_EAP:
		r = a.eap ? inner_eap(p, a.eap, a.eap_len, &avps) : 0;
		break;
	case TTLS_IN_PAP:
	case TTLS_IN_CHAP:
		r = 0; /* a Reply-Message at most: nothing to answer */
		break;
	}
	ttls_avps_free(&a);
	if (r == 0)
		r = send_avps(p, &avps);
	eap_buf_release(&avps);
	return r;
}

static int ttls_rx_tunnel(void *priv, uint8_t id, const uint8_t *d, size_t len)
{
	(void)id;
	return phase2_data(priv, d, len);
}

/* The handshake is done: phase 2 opens, then whatever the server sent. */
static int ttls_app_data(void *priv, uint8_t id)
{
	struct ttls_peer *p = priv;
	int r = 0;

	if (p->state == TTLS_S_HANDSHAKE)
		r = phase2_start(p);
	return r ? r : eap_tls_method_read_tunnel(&p->t, ttls_rx_tunnel, p, id);
}

static int ttls_check_start(void *priv)
{
	return check_inner(priv);
}

static void ttls_started(void *priv)
{
	struct ttls_peer *p = priv;

	eap_tunnel_inner_end(&p->in);
	p->failed = false;
	ttls_enter(p, TTLS_S_HANDSHAKE);
}

static void ttls_verdict(void *priv, enum eap_method_state *state, enum eap_decision *decision)
{
	struct ttls_peer *p = priv;

	if (p->failed) {
		*state = EAP_METHOD_DONE;
		*decision = EAP_DECISION_FAIL;
	} else if (eap_tls_frag_out_pending(&p->t.frag) || p->state == TTLS_S_HANDSHAKE) {
		*state = EAP_METHOD_MAY_CONT; /* an EAP-Failure ends us, a Success not yet */
	} else if (p->state == TTLS_S_ACCEPTED ||
		   p->kind == TTLS_IN_PAP || p->kind == TTLS_IN_CHAP) {
		/* PAP/CHAP: the server's Success or Failure is the verdict. */
		*state = EAP_METHOD_MAY_CONT;
		*decision = EAP_DECISION_COND_SUCC;
	} else {
		*state = EAP_METHOD_MAY_CONT;
	}
}

static const struct eap_tls_method_ops ttls_ops = {
	.check_start = ttls_check_start,
	.started = ttls_started,
	.app_data = ttls_app_data,
	.app_data_error = "TTLS phase 2 failed",
	.verdict = ttls_verdict,
};

const struct eap_peer_method eap_peer_ttls = {
	.type = EAP_T_TTLS,
	.name = "TTLS",
	.init = ttls_init,
	.deinit = ttls_deinit,
	.process = eap_tls_method_process,
	.get_msk = eap_tls_method_msk,
	.get_emsk = eap_tls_method_emsk,
	.get_session_id = eap_tls_method_session_id,
};
