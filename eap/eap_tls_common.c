/* The part EAP-TLS, PEAP and TTLS share (eap_tls_common.h). */
#define LOG_TAG "eap-tls"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/ssl.h>

#include "daemon/core/log.h"
#include "daemon/crypto/secure.h"
#include "eap/eap_tls_common.h"

int eap_tls_common_init(struct eap_tls_common *t, struct eap_peer_ctx *ctx, uint8_t type,
			const char *label_tls12, const struct eap_tls_method_ops *ops)
{
	memset(t, 0, sizeof(*t));
	t->ctx = ctx;
	t->ops = ops;
	t->type = type;
	t->label_tls12 = label_tls12;
	eap_tls_frag_init(&t->frag);
	if (eap_peer_ctx_phase(ctx) != 0) {
		/* Inner fragments travel in the outer tunnel's records. */
		t->frag.frag_size -= 100;
	}
	return 0;
}

void eap_tls_common_deinit(struct eap_tls_common *t)
{
	tls_conn_free(t->conn);
	t->conn = NULL;
	eap_tls_frag_reset(&t->frag);
	crypto_zero(t->key_material, sizeof(t->key_material));
	t->keys_ready = false;
}

/* The cache key: one session per trust policy, method and identity. */
static void cache_key(const struct eap_tls_common *t, char *out, size_t max)
{
	const struct eap_peer_profile *p = eap_peer_ctx_profile(t->ctx);
	const struct eap_tls_policy *tp = &p->tls;

	snprintf(out, max, "%u|%s|%s|%s|%s|%s|%s|%d|%d|%d", t->type,
		 p->anonymous_identity ? p->anonymous_identity : "",
		 p->identity ? p->identity : "", tp->ca_file ? tp->ca_file : "",
		 tp->ca_dir ? tp->ca_dir : "", tp->server_name ? tp->server_name : "",
		 tp->domain_suffix ? tp->domain_suffix : "", tp->ca_system, tp->min_version,
		 tp->max_version);
}

static enum eap_tls_common_ev start(struct eap_tls_common *t)
{
	const struct eap_peer_profile *p = eap_peer_ctx_profile(t->ctx);
	struct tls_conn_status st;
	char key[1024];

	/* PEAP/TTLS: answer with the highest version we speak (0) not
	 * above the server's. */
	t->version = 0;
	tls_conn_free(t->conn);
	t->keys_ready = false;
	t->session_kept = false; /* the new connection's session is kept on its own success */
	crypto_zero(t->key_material, sizeof(t->key_material));
	cache_key(t, key, sizeof(key));
	t->conn = tls_conn_new(&p->tls, key, &st);
	if (!t->conn) {
		if (st.need_passphrase) {
			eap_peer_ctx_need_secret(t->ctx, EAP_SECRET_KEY_PASSPHRASE);
			return EAP_TLS_COMMON_AGAIN;
		}
		log_info("cannot start TLS: %s", st.detail);
		eap_peer_ctx_set_error(t->ctx, st.err ? st.err : EAP_PEER_ERR_CREDENTIALS,
				       st.detail);
		return EAP_TLS_COMMON_FAILED;
	}
	if (tls_conn_handshake(t->conn) < 0) {
		const char *detail;

		tls_conn_error(t->conn, &detail);
		eap_peer_ctx_set_error(t->ctx, EAP_PEER_ERR_PROTOCOL, detail);
		return EAP_TLS_COMMON_FAILED;
	}
	return EAP_TLS_COMMON_STARTED;
}

static int put_next(struct eap_tls_common *t, struct eap_buf *resp)
{
	size_t room = t->frag.frag_size + 8;
	uint8_t *tmp;
	int n, r;

	tmp = malloc(room);
	if (!tmp)
		return -ENOMEM;
	n = eap_tls_frag_next(&t->frag, t->version, tmp, room);
	r = n < 0 ? n : eap_buf_put(resp, tmp, (size_t)n);
	crypto_zero(tmp, room);
	free(tmp);
	return r;
}

enum eap_tls_common_ev eap_tls_common_rx(struct eap_tls_common *t, const uint8_t *req,
					 size_t len, struct eap_buf *resp)
{
	const uint8_t *msg;
	size_t msg_len;

	switch (eap_tls_frag_rx(&t->frag, req, len)) {
	case EAP_TLS_RX_START:
		return start(t);
	case EAP_TLS_RX_ACK:
	case EAP_TLS_RX_NEED_MORE:
		return put_next(t, resp) < 0 ? EAP_TLS_COMMON_FAILED : EAP_TLS_COMMON_SENT;
	case EAP_TLS_RX_ERROR:
		log_info("malformed %s message: %s", t->type == EAP_T_TLS ? "EAP-TLS" : "tunnel",
			 t->frag.error);
		eap_peer_ctx_set_error(t->ctx, EAP_PEER_ERR_PROTOCOL, t->frag.error);
		return EAP_TLS_COMMON_FAILED;
	case EAP_TLS_RX_MESSAGE:
		break;
	}
	if (!t->conn) {
		eap_peer_ctx_set_error(t->ctx, EAP_PEER_ERR_PROTOCOL,
				       "TLS data before the server's Start");
		return EAP_TLS_COMMON_FAILED;
	}
	msg = eap_tls_frag_msg(&t->frag, &msg_len);
	if (tls_conn_feed(t->conn, msg, msg_len) < 0)
		return EAP_TLS_COMMON_FAILED;
	if (tls_conn_handshake(t->conn) < 0) {
		eap_tls_common_fail(t, resp, EAP_PEER_ERR_PROTOCOL, "TLS handshake failed");
		return EAP_TLS_COMMON_FAILED;
	}
	return EAP_TLS_COMMON_DATA;
}

int eap_tls_common_flush(struct eap_tls_common *t, struct eap_buf *resp)
{
	size_t n = t->conn ? tls_conn_out_pending(t->conn) : 0;
	int r = 0;

	if (n) {
		uint8_t *tmp = malloc(n);

		if (!tmp)
			return -ENOMEM;
		n = tls_conn_out_take(t->conn, tmp, n);
		r = eap_tls_frag_set_out(&t->frag, tmp, n);
		crypto_zero(tmp, n);
		free(tmp);
		if (r < 0)
			return r;
	}
	return put_next(t, resp);
}

void eap_tls_common_fail(struct eap_tls_common *t, struct eap_buf *resp, int fallback_err,
			 const char *fallback_detail)
{
	const char *detail = NULL;
	enum eap_peer_err err = t->conn ? tls_conn_error(t->conn, &detail) : EAP_PEER_ERR_NONE;

	if (err == EAP_PEER_ERR_NONE) {
		err = fallback_err;
		detail = fallback_detail;
	}
	log_info("TLS failed: %s", detail);
	eap_peer_ctx_set_error(t->ctx, err, detail);
	/* Our alert tells the server why (RFC 5216 2.1.3). */
	eap_buf_clear(resp);
	if (t->conn && tls_conn_out_pending(t->conn))
		(void)eap_tls_common_flush(t, resp);
}

bool eap_tls_common_is_tunnel_type(uint8_t type)
{
	return type == EAP_T_TLS || type == EAP_T_TTLS || type == EAP_T_PEAP || type == 43 ||
	       type == 55;
}

bool eap_tls_common_is_tls13(const struct eap_tls_common *t)
{
	return t->conn && tls_conn_version(t->conn) >= TLS1_3_VERSION;
}

int eap_tls_common_derive(struct eap_tls_common *t)
{
	struct eap_peer_tls_info info;
	const uint8_t type = t->type;
	int r;

	if (eap_tls_common_is_tls13(t)) {
		/* RFC 9190 2.3 (EAP-TLS), RFC 9427 2.1 (PEAP, TTLS): the
		 * exporter with the Type-Code as context. */
		r = tls_conn_export(t->conn, "EXPORTER_EAP_TLS_Key_Material", &type, 1,
				    t->key_material, sizeof(t->key_material));
		if (r == 0)
			r = tls_conn_export(t->conn, "EXPORTER_EAP_TLS_Method-Id", &type, 1,
					    t->session_id + 1, 64);
	} else {
		/* RFC 5216 2.3: TLS-PRF(master, label, client.random ||
		 * server.random); Session-Id = Type || randoms (RFC 5247). */
		r = tls_conn_export(t->conn, t->label_tls12, NULL, 0, t->key_material,
				    sizeof(t->key_material));
		if (r == 0)
			r = tls_conn_randoms(t->conn, t->session_id + 1);
	}
	t->session_id[0] = type;
	if (r < 0) {
		eap_peer_ctx_set_error(t->ctx, EAP_PEER_ERR_PROTOCOL, "TLS key export failed");
		return r;
	}
	t->keys_ready = true;
	tls_conn_info(t->conn, &info);
	eap_peer_ctx_set_tls_info(t->ctx, &info);
	log_info("%s with %s (%s)%s", info.version, info.server_subject, info.server_sha256,
		 info.resumed ? ", resumed" : "");
	return 0;
}

/* The framework asks for keys only after EAP-Success: keep the session. */
static void mark_success(struct eap_tls_common *t)
{
	if (t->session_kept || !t->conn)
		return;
	t->session_kept = true;
	tls_conn_keep_session(t->conn);
}

int eap_tls_common_msk(struct eap_tls_common *t, uint8_t *out, size_t max)
{
	if (!t->keys_ready || max < EAP_MSK_LEN)
		return -ENOENT;
	mark_success(t);
	memcpy(out, t->key_material, EAP_MSK_LEN);
	return EAP_MSK_LEN;
}

int eap_tls_common_emsk(struct eap_tls_common *t, uint8_t *out, size_t max)
{
	if (!t->keys_ready || max < EAP_EMSK_LEN)
		return -ENOENT;
	mark_success(t);
	memcpy(out, t->key_material + EAP_MSK_LEN, EAP_EMSK_LEN);
	return EAP_EMSK_LEN;
}

int eap_tls_common_session_id(struct eap_tls_common *t, uint8_t *out, size_t max)
{
	if (!t->keys_ready || max < sizeof(t->session_id))
		return -ENOENT;
	memcpy(out, t->session_id, sizeof(t->session_id));
	return (int)sizeof(t->session_id);
}

/* ---- the inner method of a tunnel ---- */

int eap_tunnel_inner_rx(struct eap_tunnel_inner *in, struct eap_peer_ctx *outer, uint8_t id,
			const uint8_t *d, size_t len, const char *identity, struct eap_buf *out)
{
	uint8_t type = d[0];
	enum eap_method_state st;
	enum eap_decision dec;
	int r;

	if (type == EAP_T_IDENTITY) {
		r = eap_buf_put_u8(out, EAP_T_IDENTITY);
		return r ? r : eap_buf_put(out, identity, strlen(identity));
	}
	if (type != in->method->type) {
		/* Nak with the one inner method we run (a tunnel type asked
		 * for lands here too: refused). */
		log_info("server proposed inner type %u, we run %s: Nak", type, in->method->name);
		r = eap_buf_put_u8(out, EAP_T_NAK);
		return r ? r : eap_buf_put_u8(out, (uint8_t)in->method->type);
	}
	if (!in->priv) {
		in->ctx = eap_peer_ctx_new_inner(outer);
		in->priv = in->ctx ? in->method->init(in->ctx) : NULL;
		if (!in->priv)
			return -ENOMEM;
		in->state = EAP_METHOD_CONT;
		in->decision = EAP_DECISION_FAIL;
	}
	st = in->state;
	dec = in->decision;
	r = eap_buf_put_u8(out, type);
	r = r ? r : in->method->process(in->priv, id, d + 1, len - 1, out, &st, &dec);
	if (r == -EAGAIN) {
		eap_peer_ctx_set_error(outer, EAP_PEER_ERR_CREDENTIALS,
				       "a secret was missing inside the tunnel");
		return -EPROTO;
	}
	if (r < 0)
		return r;
	in->ran = true;
	in->state = st;
	in->decision = dec;
	return 1;
}

void eap_tunnel_inner_end(struct eap_tunnel_inner *in)
{
	if (in->method && in->priv)
		in->method->deinit(in->priv);
	in->priv = NULL;
	eap_peer_ctx_free_inner(in->ctx);
	in->ctx = NULL;
}
