/* EAP-MD5-Challenge, peer side (RFC 3748 5.4, with CHAP's Response of RFC
 * 1994 4.1: MD5 over Identifier || secret || Challenge). No keys, no server
 * authentication: a profile chooses it only where nothing better exists. */
#define LOG_TAG "eap-md5"
#include <errno.h>
#include <stdlib.h>

#include "daemon/core/log.h"
#include "daemon/crypto/legacy.h"
#include "daemon/crypto/secure.h"
#include "eap/eap_methods_i.h"
#include "eap/eap_peer.h"

struct md5_peer {
	struct eap_peer_ctx *ctx;
};

static void *md5_init(struct eap_peer_ctx *ctx)
{
	struct md5_peer *m = calloc(1, sizeof(*m));
	if (m)
		m->ctx = ctx;
	return m;
}

static void md5_deinit(void *priv)
{
	free(priv);
}

/* Type data: Value-Size (1), Value (Value-Size), Name (the rest). */
static int md5_process(void *priv, uint8_t id, const uint8_t *req, size_t req_len,
		       struct eap_buf *resp, enum eap_method_state *state,
		       enum eap_decision *decision)
{
	struct md5_peer *m = priv;
	const struct eap_peer_profile *prof = eap_peer_ctx_profile(m->ctx);

	if (req_len < 1 || req[0] == 0 || (size_t)req[0] > req_len - 1) {
		log_debug("challenge with a bad Value-Size dropped");
		return -EBADMSG;
	}
	if (!prof->password) {
		eap_peer_ctx_need_secret(m->ctx, EAP_SECRET_PASSWORD);
		return -EAGAIN;
	}
	struct crypto_iov parts[] = {
		{ &id, 1 },
		{ prof->password, prof->password_len },
		{ req + 1, req[0] },
	};
	uint8_t value[CRYPTO_MD5_LEN];
	int r = crypto_md5_vec(parts, 3, value);
	if (r == 0) {
		r = eap_buf_put_u8(resp, sizeof(value));
		r = r ? r : eap_buf_put(resp, value, sizeof(value));
	}
	crypto_zero(value, sizeof(value));
	if (r)
		return r;
	/* One round: the server's Success or Failure decides. */
	*state = EAP_METHOD_DONE;
	*decision = EAP_DECISION_COND_SUCC;
	return 0;
}

const struct eap_peer_method eap_peer_md5 = {
	.type = EAP_T_MD5,
	.name = "MD5",
	.init = md5_init,
	.deinit = md5_deinit,
	.process = md5_process,
};
