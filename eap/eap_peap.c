/* PEAPv0, peer side ([MS-PEAP], draft-kamath-pppext-peapv0): a TLS tunnel
 * (eap_tls_common), then EAP inside it with the headers stripped except
 * for the Extensions (type 33) packets, which carry the Result and, when
 * the server offers it, the Crypto-Binding TLV (eap_peap_tlv.h).
 *
 * The inner method (profile->phase2: MSCHAPV2, GTC, MD5) runs through a
 * phase-2 ctx of the framework. A tunnel method inside the tunnel is
 * refused (Nak). The server's Result "success" is believed only after the
 * inner method succeeded, or on a resumed session (fast reconnect); a
 * Crypto-Binding TLV whose MAC does not verify fails the run.
 *
 * Keys: with cryptobinding, MSK = first 64 octets of the CSK
 * ([MS-PEAP] 3.1.5.7); without, the TLS key material ("client EAP
 * encryption"; RFC 9427 exporter for TLS 1.3). EMSK: key material 64..127.
 */
#define LOG_TAG "eap-peap"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/core/log.h"
#include "daemon/crypto/secure.h"
#include "eap/eap_methods_i.h"
#include "eap/eap_peap_tlv.h"
#include "eap/eap_tls_method.h"

enum peap_state {
	PEAP_S_HANDSHAKE, /* TLS not up yet */
	PEAP_S_TUNNEL,	  /* inner EAP running */
	PEAP_S_RESULT,	  /* we answered the Result TLV */
};

static const char *peap_state_to_string(enum peap_state s)
{
	switch (s) {
	case PEAP_S_HANDSHAKE:
		return "handshake";
	case PEAP_S_TUNNEL:
		return "tunnel";
	case PEAP_S_RESULT:
		return "result";
	}
	return "?";
}

struct peap_peer {
	struct eap_tls_common t;
	enum peap_state state;
	bool failed;
	struct eap_tunnel_inner in;
	bool binding_used;
	uint8_t ipmk[40], cmk[20];
	uint8_t csk[128];
};
EAP_TLS_METHOD_STATE(struct peap_peer, t);

static const struct eap_tls_method_ops peap_ops;

static void peap_enter(struct peap_peer *p, enum peap_state s)
{
	log_debug("%s -> %s", peap_state_to_string(p->state), peap_state_to_string(s));
	p->state = s;
}

static void *peap_init(struct eap_peer_ctx *ctx)
{
	struct peap_peer *p;

	if (eap_peer_ctx_phase(ctx) != 0) {
		eap_peer_ctx_set_error(ctx, EAP_PEER_ERR_PROTOCOL, "PEAP inside a tunnel refused");
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	eap_tls_common_init(&p->t, ctx, EAP_T_PEAP, "client EAP encryption", &peap_ops);
	return p;
}

static void peap_deinit(void *priv)
{
	struct peap_peer *p = priv;

	eap_tunnel_inner_end(&p->in);
	eap_tls_common_deinit(&p->t);
	crypto_zero(p->ipmk, sizeof(p->ipmk));
	crypto_zero(p->cmk, sizeof(p->cmk));
	crypto_zero(p->csk, sizeof(p->csk));
	free(p);
}

/* Before the tunnel: the inner method must exist and have its password,
 * asked now (a Request cannot be replayed once TLS consumed it). */
static int check_inner(struct peap_peer *p)
{
	const struct eap_peer_profile *prof = eap_peer_ctx_profile(p->t.ctx);
	char msg[96];

	p->in.method = eap_peer_method_by_name(prof->phase2);
	if (!p->in.method || eap_tls_common_is_tunnel_type((uint8_t)p->in.method->type)) {
		snprintf(msg, sizeof(msg), "PEAP inner method %s %s",
			 prof->phase2 ? prof->phase2 : "(none)",
			 p->in.method ? "is a tunnel: refused" : "not available");
		eap_peer_ctx_set_error(p->t.ctx, EAP_PEER_ERR_METHOD_UNAVAILABLE, msg);
		return -ENOENT;
	}
	if (!prof->password) {
		eap_peer_ctx_need_secret(p->t.ctx, EAP_SECRET_PASSWORD);
		return -EAGAIN;
	}
	return 0;
}

/* Encrypt one inner Response for the server. */
static int tunnel_send(struct peap_peer *p, const uint8_t *data, size_t len)
{
	return tls_conn_write(p->t.conn, data, len);
}

/* A full inner EAP packet (Extensions responses keep their header). */
static int send_full(struct peap_peer *p, uint8_t id, uint8_t type, const uint8_t *data,
		     size_t len)
{
	uint8_t pkt[128];

	if (5 + len > sizeof(pkt))
		return -EMSGSIZE;
	pkt[0] = 2;
	pkt[1] = id;
	pkt[2] = (uint8_t)((5 + len) >> 8);
	pkt[3] = (uint8_t)(5 + len);
	pkt[4] = type;
	memcpy(pkt + 5, data, len);
	return tunnel_send(p, pkt, 5 + len);
}

static void get_isk(struct peap_peer *p, uint8_t isk[32])
{
	uint8_t key[EAP_MSK_LEN];
	int n = -ENOENT;

	memset(isk, 0, 32);
	if (p->in.method && p->in.priv && p->in.method->get_msk)
		n = p->in.method->get_msk(p->in.priv, key, sizeof(key));
	if (n > 0)
		memcpy(isk, key, n < 32 ? (size_t)n : 32);
	crypto_zero(key, sizeof(key));
}

/* Verify the server's Crypto-Binding and write ours after it. */
static int binding_answer(struct peap_peer *p, const struct peap_tlvs *tlvs, uint8_t *out)
{
	uint8_t isk[32], mac[20], tk[64];
	const uint8_t *b = tlvs->binding;
	const uint8_t peap = EAP_T_PEAP;
	int r;

	if (b[5] != 0 || b[7] != 0) {
		eap_peer_ctx_set_error(p->t.ctx, EAP_PEER_ERR_PROTOCOL,
				       "Crypto-Binding: unsupported version or not a request");
		return -EPROTO;
	}
	/* TK: the first 60 octets of the phase-1 key. With TLS 1.3 the
	 * exporter's output depends on its length: hostapd exports 64 octets
	 * for TK (not the 128 of MSK | EMSK), so do we. */
	r = 0;
	if (eap_tls_common_is_tls13(&p->t))
		r = tls_conn_export(p->t.conn, "EXPORTER_EAP_TLS_Key_Material", &peap, 1, tk,
				    sizeof(tk));
	else
		memcpy(tk, p->t.key_material, sizeof(tk));
	if (r < 0)
		return r;
	if (!p->in.ran && tls_conn_resumed(p->t.conn)) {
		/* Fast reconnect: IPMK | CMK straight from TK. */
		memcpy(p->ipmk, tk, 40);
		memcpy(p->cmk, tk + 40, 20);
	} else {
		get_isk(p, isk);
		r = peap_derive_cmk(tk, isk, p->ipmk, p->cmk);
		crypto_zero(isk, sizeof(isk));
	}
	crypto_zero(tk, sizeof(tk));
	if (r < 0)
		return r;
	if (peap_compound_mac(p->cmk, b, mac) < 0)
		return -EIO;
	if (!crypto_memeq(mac, b + 40, 20)) {
		eap_peer_ctx_set_error(p->t.ctx, EAP_PEER_ERR_PROTOCOL,
				       "Crypto-Binding MAC mismatch: the tunnel and the inner "
				       "authentication do not belong together");
		return -EPROTO;
	}
	/* Ours: SubType 1 (response), the same nonce, our MAC. */
	memcpy(out, b, PEAP_BINDING_TLV_LEN);
	out[7] = 1;
	if (peap_compound_mac(p->cmk, out, out + 40) < 0 || peap_csk(p->ipmk, p->csk) < 0)
		return -EIO;
	p->binding_used = true;
	return 0;
}

static int handle_extensions(struct peap_peer *p, uint8_t id, const uint8_t *tlv, size_t len)
{
	struct peap_tlvs tlvs;
	uint8_t resp[6 + PEAP_BINDING_TLV_LEN];
	size_t n;
	char err[96];
	bool inner_ok = (p->in.ran && p->in.decision != EAP_DECISION_FAIL) ||
			(!p->in.ran && tls_conn_resumed(p->t.conn));

	if (peap_tlv_parse(tlv, len, &tlvs, err, sizeof(err)) < 0 || !tlvs.has_result) {
		eap_peer_ctx_set_error(p->t.ctx, EAP_PEER_ERR_PROTOCOL,
				       tlvs.has_result ? err : "Extensions without a Result TLV");
		p->failed = true;
		n = peap_tlv_build_result(resp, sizeof(resp), PEAP_RESULT_FAILURE);
		return send_full(p, id, EAP_T_TLV, resp, n);
	}
	peap_enter(p, PEAP_S_RESULT);
	if (tlvs.result != PEAP_RESULT_SUCCESS || !inner_ok) {
		if (tlvs.result == PEAP_RESULT_SUCCESS)
			eap_peer_ctx_set_error(p->t.ctx, EAP_PEER_ERR_PROTOCOL,
					       "server claimed success before the inner method");
		else
			eap_peer_ctx_set_error(p->t.ctx, EAP_PEER_ERR_INNER_REJECTED,
					       "the server rejected the inner authentication");
		p->failed = true;
		n = peap_tlv_build_result(resp, sizeof(resp), PEAP_RESULT_FAILURE);
		return send_full(p, id, EAP_T_TLV, resp, n);
	}
	n = peap_tlv_build_result(resp, sizeof(resp), PEAP_RESULT_SUCCESS);
	if (tlvs.has_binding) {
		if (binding_answer(p, &tlvs, resp + n) < 0) {
			p->failed = true;
			n = peap_tlv_build_result(resp, sizeof(resp), PEAP_RESULT_FAILURE);
			return send_full(p, id, EAP_T_TLV, resp, n);
		}
		n += PEAP_BINDING_TLV_LEN;
	}
	return send_full(p, id, EAP_T_TLV, resp, n);
}

/* One inner Request, header stripped (type first): answer it. */
static int handle_inner_request(struct peap_peer *p, uint8_t id, const uint8_t *d, size_t len)
{
	const struct eap_peer_profile *prof = eap_peer_ctx_profile(p->t.ctx);
	struct eap_buf out = { 0 };
	int r = eap_tunnel_inner_rx(&p->in, p->t.ctx, id, d, len,
				    prof->identity ? prof->identity : "", &out);

	/* Type octet alone: the inner method chose to send nothing. */
	if (r >= 0 && out.len > 1)
		r = tunnel_send(p, out.data, out.len);
	eap_buf_release(&out);
	return r < 0 ? r : 0;
}

static int handle_tunnel_data(struct peap_peer *p, uint8_t outer_id, const uint8_t *d,
			      size_t len)
{
	if (len == 0)
		return 0;
	/* Full packets: Extensions always, an Identity some servers send
	 * whole; the rest come as Type | data (PEAPv0 header stripping). */
	if (len >= 5 && d[0] == 1 && (size_t)(d[2] << 8 | d[3]) == len &&
	    (d[4] == EAP_T_TLV || (len == 5 && d[4] == EAP_T_IDENTITY))) {
		if (d[4] == EAP_T_TLV)
			return handle_extensions(p, d[1], d + 5, len - 5);
		return handle_inner_request(p, d[1], d + 4, 1);
	}
	if (len >= 4 && (d[0] == 3 || d[0] == 4) && (size_t)(d[2] << 8 | d[3]) == 4) {
		/* An inner Success/Failure (some servers): only the Result
		 * TLV ends PEAPv0, so a Failure ends us, a Success waits. */
		if (d[0] == 4) {
			eap_peer_ctx_set_error(p->t.ctx, EAP_PEER_ERR_INNER_REJECTED,
					       "inner EAP-Failure");
			p->failed = true;
		}
		return 0;
	}
	return handle_inner_request(p, outer_id, d, len);
}

static int peap_rx_tunnel(void *priv, uint8_t id, const uint8_t *d, size_t len)
{
	return handle_tunnel_data(priv, id, d, len);
}

/* The handshake is done: the tunnel carries inner EAP. */
static int peap_app_data(void *priv, uint8_t id)
{
	struct peap_peer *p = priv;

	if (p->state == PEAP_S_HANDSHAKE)
		peap_enter(p, PEAP_S_TUNNEL);
	return eap_tls_method_read_tunnel(&p->t, peap_rx_tunnel, p, id);
}

static int peap_check_start(void *priv)
{
	return check_inner(priv);
}

static void peap_started(void *priv)
{
	struct peap_peer *p = priv;

	eap_tunnel_inner_end(&p->in);
	p->in.ran = p->binding_used = p->failed = false;
	peap_enter(p, PEAP_S_HANDSHAKE);
}

static void peap_verdict(void *priv, enum eap_method_state *state, enum eap_decision *decision)
{
	struct peap_peer *p = priv;

	if (p->failed) {
		*state = EAP_METHOD_DONE;
		*decision = EAP_DECISION_FAIL;
	} else if (p->state == PEAP_S_RESULT && !eap_tls_frag_out_pending(&p->t.frag)) {
		*state = EAP_METHOD_DONE;
		*decision = EAP_DECISION_COND_SUCC;
	} else {
		/* MAY_CONT with FAIL: an EAP-Failure ends us, a Success does not. */
		*state = EAP_METHOD_MAY_CONT;
	}
}

/* With cryptobinding the MSK comes from the CSK. */
static int peap_msk(void *priv, uint8_t *out, size_t max)
{
	struct peap_peer *p = priv;
	int r = eap_tls_common_msk(&p->t, out, max);

	if (r > 0 && p->binding_used)
		memcpy(out, p->csk, EAP_MSK_LEN);
	return r;
}

static const struct eap_tls_method_ops peap_ops = {
	.check_start = peap_check_start,
	.started = peap_started,
	.app_data = peap_app_data,
	.app_data_error = "PEAP: tunnel failed",
	.verdict = peap_verdict,
};

const struct eap_peer_method eap_peer_peap = {
	.type = EAP_T_PEAP,
	.name = "PEAP",
	.init = peap_init,
	.deinit = peap_deinit,
	.process = eap_tls_method_process,
	.get_msk = peap_msk,
	.get_emsk = eap_tls_method_emsk,
	.get_session_id = eap_tls_method_session_id,
};
