/* The shared process() of EAP-TLS, PEAP and TTLS (eap_tls_method.h). */
#include <errno.h>
#include <stdlib.h>

#include "daemon/crypto/secure.h"
#include "eap/eap_tls_method.h"

/* A whole message was fed and the handshake stepped. -1: fail the method. */
static int on_data(struct eap_tls_common *t, void *priv, uint8_t id, struct eap_buf *resp)
{
	if (!tls_conn_established(t->conn))
		return 0;
	if (!t->keys_ready && eap_tls_common_derive(t) < 0)
		return -1;
	if (t->ops->app_data(priv, id) < 0) {
		eap_tls_common_fail(t, resp, EAP_PEER_ERR_PROTOCOL, t->ops->app_data_error);
		return -1;
	}
	return 0;
}

int eap_tls_method_process(void *priv, uint8_t id, const uint8_t *req, size_t req_len,
			   struct eap_buf *resp, enum eap_method_state *state,
			   enum eap_decision *decision)
{
	struct eap_tls_common *t = priv;
	const struct eap_tls_method_ops *ops = t->ops;
	int r;

	if (ops->check_start && req_len >= 1 && (req[0] & EAP_TLS_FLAG_START)) {
		r = ops->check_start(priv);
		if (r == -EAGAIN)
			return r;
		if (r < 0)
			goto fail;
	}
	switch (eap_tls_common_rx(t, req, req_len, resp)) {
	case EAP_TLS_COMMON_AGAIN:
		return -EAGAIN;
	case EAP_TLS_COMMON_FAILED:
		goto fail;
	case EAP_TLS_COMMON_STARTED:
		/* A new authentication on this instance: an earlier
		 * handshake's verdict must not judge its Success. */
		*decision = EAP_DECISION_FAIL;
		ops->started(priv);
		break;
	case EAP_TLS_COMMON_SENT:
		goto out;
	case EAP_TLS_COMMON_DATA:
		if (on_data(t, priv, id, resp) < 0)
			goto fail;
		break;
	}
	r = eap_tls_common_flush(t, resp);
	if (r < 0)
		return r;
out:
	ops->verdict(priv, state, decision);
	return 0;
fail:
	*state = EAP_METHOD_DONE;
	*decision = EAP_DECISION_FAIL;
	return 0;
}

int eap_tls_method_msk(void *priv, uint8_t *out, size_t max)
{
	return eap_tls_common_msk(priv, out, max);
}

int eap_tls_method_emsk(void *priv, uint8_t *out, size_t max)
{
	return eap_tls_common_emsk(priv, out, max);
}

int eap_tls_method_session_id(void *priv, uint8_t *out, size_t max)
{
	return eap_tls_common_session_id(priv, out, max);
}

int eap_tls_method_read_tunnel(struct eap_tls_common *t,
			       int (*rx)(void *priv, uint8_t id, const uint8_t *d, size_t len),
			       void *priv, uint8_t id)
{
	static const size_t max = 16384;
	uint8_t *buf = malloc(max);
	int n, r = 0;

	if (!buf)
		return -ENOMEM;
	while (r == 0 && (n = tls_conn_read(t->conn, buf, max)) > 0)
		r = rx(priv, id, buf, (size_t)n);
	if (r == 0 && n < 0)
		r = n;
	crypto_zero(buf, max);
	free(buf);
	return r;
}
