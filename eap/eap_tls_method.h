/* The one process() of the TLS-based methods (EAP-TLS, PEAP, TTLS): the
 * TLS phase -- Start, fragments, ACKs, the handshake, key derivation,
 * failure with our alert, sending what TLS wrote -- is driven here, once;
 * a method adds only what differs, through its ops table.
 *
 * The method's state begins with its struct eap_tls_common (checked with
 * EAP_TLS_METHOD_STATE), so its priv is also the common part: its
 * eap_peer_method table points process/get_msk/get_emsk/get_session_id
 * straight at the functions below. init/deinit stay the method's own.
 */
#ifndef WPAD_EAP_TLS_METHOD_H
#define WPAD_EAP_TLS_METHOD_H

#include <stddef.h>
#include <stdint.h>

#include "eap/eap_tls_common.h"

struct eap_tls_method_ops {
	/* The server's Start, before the connection is made: what the
	 * method needs must be there now (a Request consumed by TLS cannot
	 * be replayed). 0, -EAGAIN (a secret was asked for), or another
	 * negative errno (error set on the ctx: the method fails). NULL: none. */
	int (*check_start)(void *priv);
	/* A new handshake began: forget the previous one. The verdict is
	 * reset by the caller (decision FAIL) before this runs. */
	void (*started)(void *priv);
	/* A whole message came once the handshake is done and the keys are
	 * derived: read (and answer) the application data. id is the outer
	 * Request's. A negative errno fails the method with the
	 * connection's error, or app_data_error when it has none. */
	int (*app_data)(void *priv, uint8_t id);
	const char *app_data_error;
	/* A Request was answered (not failed): where the method stands. */
	void (*verdict)(void *priv, enum eap_method_state *state, enum eap_decision *decision);
};

/* In the method's file, after its state struct: priv must be the common part. */
#define EAP_TLS_METHOD_STATE(type, member)                                                    \
	_Static_assert(offsetof(type, member) == 0,                                           \
		       #type " must begin with its struct eap_tls_common")

/* eap_peer_method ops for a state beginning with struct eap_tls_common,
 * its ops set with eap_tls_common_init(). */
int eap_tls_method_process(void *priv, uint8_t id, const uint8_t *req, size_t req_len,
			   struct eap_buf *resp, enum eap_method_state *state,
			   enum eap_decision *decision);
int eap_tls_method_msk(void *priv, uint8_t *out, size_t max);
int eap_tls_method_emsk(void *priv, uint8_t *out, size_t max);
int eap_tls_method_session_id(void *priv, uint8_t *out, size_t max);

/* PEAP/TTLS: read every record TLS has decrypted, handing each to rx,
 * until rx fails or none is left. 0 or a negative errno. */
int eap_tls_method_read_tunnel(struct eap_tls_common *t,
			       int (*rx)(void *priv, uint8_t id, const uint8_t *d, size_t len),
			       void *priv, uint8_t id);

#endif
