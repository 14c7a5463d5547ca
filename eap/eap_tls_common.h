/* What EAP-TLS, PEAP and TTLS share: one TLS connection, the framing
 * (eap_tls_frag.h), the errors they map to the user's, and the keys
 * (RFC 5216 2.3, RFC 9190 2.3, RFC 9427 2 for TLS 1.3 PEAP/TTLS).
 *
 * The methods' one process() (eap_tls_method.c) calls eap_tls_common_rx()
 * first: Start, the server's fragments and its ACKs of ours are handled
 * there; what is left is a whole TLS message that was fed to the
 * connection (EAP_TLS_COMMON_DATA). The method's ops read/write
 * application data, then eap_tls_common_flush() sends what TLS produced
 * (or an ACK).
 *
 * Ownership: the struct is embedded in the method's state;
 * eap_tls_common_deinit() frees the connection and wipes keys.
 */
#ifndef WPAD_EAP_TLS_COMMON_H
#define WPAD_EAP_TLS_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eap/eap_peer.h"
#include "eap/eap_peer_method.h"
#include "eap/eap_tls_frag.h"
#include "eap/tls_conn.h"

#define EAP_TLS_KEY_MATERIAL_LEN 128 /* MSK (64) | EMSK (64) */

struct eap_tls_method_ops; /* eap_tls_method.h */

struct eap_tls_common {
	struct eap_peer_ctx *ctx;
	const struct eap_tls_method_ops *ops; /* what the method adds to the TLS phase */
	uint8_t type;	       /* EAP_T_TLS, EAP_T_PEAP, EAP_T_TTLS */
	const char *label_tls12; /* RFC 5216 / 5281 / PEAP key label for TLS <= 1.2 */
	struct tls_conn *conn;
	struct eap_tls_frag frag;
	uint8_t version; /* PEAP/TTLS version bits we answer with */
	bool keys_ready;
	uint8_t key_material[EAP_TLS_KEY_MATERIAL_LEN];
	uint8_t session_id[1 + 64];
	bool session_kept;
};

enum eap_tls_common_ev {
	EAP_TLS_COMMON_SENT,	/* resp holds a fragment or an ACK: done with this Request */
	EAP_TLS_COMMON_STARTED, /* Start: connection made, ClientHello queued: flush */
	EAP_TLS_COMMON_DATA,	/* a whole message fed, handshake stepped: the method's turn */
	EAP_TLS_COMMON_FAILED,	/* error set on the ctx; resp may hold our alert */
	EAP_TLS_COMMON_AGAIN,	/* a secret was asked for: return -EAGAIN */
};

int eap_tls_common_init(struct eap_tls_common *t, struct eap_peer_ctx *ctx, uint8_t type,
			const char *label_tls12, const struct eap_tls_method_ops *ops);
void eap_tls_common_deinit(struct eap_tls_common *t);

enum eap_tls_common_ev eap_tls_common_rx(struct eap_tls_common *t, const uint8_t *req,
					 size_t len, struct eap_buf *resp);
/* Queue what TLS wrote and put the first fragment (or a bare ACK when
 * TLS wrote nothing) in resp. 0 or a negative errno. */
int eap_tls_common_flush(struct eap_tls_common *t, struct eap_buf *resp);
/* A failure after the handshake started: the connection's error (or
 * fallback) goes to the ctx; our alert, if TLS wrote one, goes in resp. */
void eap_tls_common_fail(struct eap_tls_common *t, struct eap_buf *resp, int fallback_err,
			 const char *fallback_detail);

/* Once the handshake is done: derive key material and Session-Id for
 * the TLS version in use, and tell the user what the handshake was. */
int eap_tls_common_derive(struct eap_tls_common *t);
bool eap_tls_common_is_tls13(const struct eap_tls_common *t);
/* TLS, TTLS, PEAP, FAST, TEAP: never run inside a tunnel. */
bool eap_tls_common_is_tunnel_type(uint8_t type);

/* get_msk/get_emsk/get_session_id from key_material (MSK first); the
 * first key asked for marks success: the TLS session is kept then. */
int eap_tls_common_msk(struct eap_tls_common *t, uint8_t *out, size_t max);
int eap_tls_common_emsk(struct eap_tls_common *t, uint8_t *out, size_t max);
int eap_tls_common_session_id(struct eap_tls_common *t, uint8_t *out, size_t max);

/* The inner EAP method of a tunnel (PEAP, TTLS/EAP): one per tunnel,
 * created on the first Request of its type, ended with the tunnel. */
struct eap_tunnel_inner {
	const struct eap_peer_method *method; /* the profile's phase 2 */
	struct eap_peer_ctx *ctx;
	void *priv;
	enum eap_method_state state;
	enum eap_decision decision;
	bool ran; /* the method processed at least one Request */
};

/* One inner Request: d is Type | Type-Data (len >= 1). Identity is
 * answered with identity, another type with a Nak proposing ours, ours
 * runs in the inner method; out gets the Response's Type | Type-Data.
 * Returns 1 when the inner method processed it, 0 for Identity or Nak,
 * -ENOMEM, or -EPROTO (a secret missing inside the tunnel: the error is
 * set on outer). */
int eap_tunnel_inner_rx(struct eap_tunnel_inner *in, struct eap_peer_ctx *outer, uint8_t id,
			const uint8_t *d, size_t len, const char *identity, struct eap_buf *out);
void eap_tunnel_inner_end(struct eap_tunnel_inner *in);

#endif
