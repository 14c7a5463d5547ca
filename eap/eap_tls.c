/* EAP-TLS, peer side: RFC 5216 (TLS <= 1.2) and RFC 9190 (TLS 1.3, the
 * default when both sides speak it).
 *
 * TLS 1.2 ends when the handshake does: our last Response is an ACK (or
 * our Finished after a resumption) and the server answers Success.
 * TLS 1.3 ends with the server's commitment (RFC 9190 2.5): one octet
 * 0x00 of application data saying no more handshake messages follow;
 * until it comes the method stays open and an early Success is not
 * believed -- except after a resumed handshake (resumed_13()).
 */
#define LOG_TAG "eap-tls"
#include <errno.h>
#include <stdlib.h>

#include "daemon/core/log.h"
#include "eap/eap_methods_i.h"
#include "eap/eap_tls_method.h"

struct tls_peer {
	struct eap_tls_common t;
	bool committed; /* TLS 1.3: the server's 0x00 arrived */
};
EAP_TLS_METHOD_STATE(struct tls_peer, t);

static const struct eap_tls_method_ops tls_ops;

static void *tls_init(struct eap_peer_ctx *ctx)
{
	struct tls_peer *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	eap_tls_common_init(&p->t, ctx, EAP_T_TLS, "client EAP encryption", &tls_ops);
	return p;
}

static void tls_deinit(void *priv)
{
	struct tls_peer *p = priv;

	eap_tls_common_deinit(&p->t);
	free(p);
}

/* TLS 1.3: read what came after the handshake; only the commitment may. */
static int read_commitment(struct tls_peer *p)
{
	uint8_t buf[64];
	int n;

	while ((n = tls_conn_read(p->t.conn, buf, sizeof(buf))) > 0) {
		if (n != 1 || buf[0] != 0x00 || p->committed) {
			eap_peer_ctx_set_error(p->t.ctx, EAP_PEER_ERR_PROTOCOL,
					       "unexpected application data from the EAP-TLS server");
			return -EPROTO;
		}
		p->committed = true;
	}
	return n;
}

static bool finished(const struct tls_peer *p)
{
	if (!p->t.keys_ready || eap_tls_frag_out_pending(&p->t.frag))
		return false;
	return !eap_tls_common_is_tls13(&p->t) || p->committed;
}

/* TLS 1.3 resumed: hostapd 2.10 answers our Finished with EAP-Success
 * and never sends the commitment (wpa_supplicant accepts that too). The
 * server proved the resumption key with its Finished, and our Finished is
 * sent: the keys are the server's. */
static bool resumed_13(const struct tls_peer *p)
{
	return p->t.keys_ready && !eap_tls_frag_out_pending(&p->t.frag) &&
	       eap_tls_common_is_tls13(&p->t) && tls_conn_resumed(p->t.conn);
}

/* TLS 1.3: what came after the handshake, only the commitment. */
static int tls_app_data(void *priv, uint8_t id)
{
	struct tls_peer *p = priv;

	(void)id;
	return eap_tls_common_is_tls13(&p->t) ? read_commitment(p) : 0;
}

static void tls_started(void *priv)
{
	struct tls_peer *p = priv;

	p->committed = false;
}

static void tls_verdict(void *priv, enum eap_method_state *state, enum eap_decision *decision)
{
	struct tls_peer *p = priv;

	if (finished(p)) {
		*state = EAP_METHOD_DONE;
		*decision = EAP_DECISION_COND_SUCC;
	} else if (resumed_13(p)) {
		/* The commitment may still come, but a Success is believed. */
		*state = EAP_METHOD_MAY_CONT;
		*decision = EAP_DECISION_COND_SUCC;
	} else {
		/* MAY_CONT with FAIL: an EAP-Failure ends us, a Success does not. */
		*state = EAP_METHOD_MAY_CONT;
	}
}

static const struct eap_tls_method_ops tls_ops = {
	.started = tls_started,
	.app_data = tls_app_data,
	.app_data_error = "EAP-TLS: TLS failed after the handshake",
	.verdict = tls_verdict,
};

const struct eap_peer_method eap_peer_tls = {
	.type = EAP_T_TLS,
	.name = "TLS",
	.init = tls_init,
	.deinit = tls_deinit,
	.process = eap_tls_method_process,
	.get_msk = eap_tls_method_msk,
	.get_emsk = eap_tls_method_emsk,
	.get_session_id = eap_tls_method_session_id,
};
