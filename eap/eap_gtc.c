/* EAP-GTC, peer side (RFC 3748 5.6): the Request's text is a prompt, the
 * Response the token or password. Used inside PEAP mostly; the server may
 * ask again (next token), so the method stays open (MAY_CONT). */
#define LOG_TAG "eap-gtc"
#include <errno.h>
#include <stdlib.h>

#include "daemon/core/log.h"
#include "eap/eap_methods_i.h"
#include "eap/eap_peer.h"

struct gtc_peer {
	struct eap_peer_ctx *ctx;
};

static void *gtc_init(struct eap_peer_ctx *ctx)
{
	struct gtc_peer *g = calloc(1, sizeof(*g));
	if (g)
		g->ctx = ctx;
	return g;
}

static void gtc_deinit(void *priv)
{
	free(priv);
}

static int gtc_process(void *priv, uint8_t id, const uint8_t *req, size_t req_len,
		       struct eap_buf *resp, enum eap_method_state *state,
		       enum eap_decision *decision)
{
	struct gtc_peer *g = priv;
	const struct eap_peer_profile *prof = eap_peer_ctx_profile(g->ctx);

	if (!prof->password) {
		eap_peer_ctx_need_secret(g->ctx, EAP_SECRET_PASSWORD);
		return -EAGAIN;
	}
	int r = eap_buf_put(resp, prof->password, prof->password_len);
	if (r)
		return r;
	*state = EAP_METHOD_MAY_CONT;
	*decision = EAP_DECISION_COND_SUCC;
	return 0;
}

const struct eap_peer_method eap_peer_gtc = {
	.type = EAP_T_GTC,
	.name = "GTC",
	.init = gtc_init,
	.deinit = gtc_deinit,
	.process = gtc_process,
};
