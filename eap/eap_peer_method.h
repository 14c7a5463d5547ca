/* The peer half of an EAP method (RFC 3748 5, RFC 4137 4.4): one ops table
 * per method, registered once in one registry (eap_peer_method_find()).
 * The server side will have its own type (struct eap_server_method) and
 * registry beside this one; a method file may implement both.
 *
 * The framework (eap/eap_peer.c) owns the EAP state machine: it answers
 * Identity and Notification itself, sends Nak with the methods the profile
 * allows, checks identifiers and duplicates, and hands a method only the
 * Requests of its own type, as type data (after the Type octet, or after
 * Vendor-Id/Vendor-Type for expanded types).
 *
 * A method's process() reads one Request and writes the Response's type
 * data into a buffer the framework owns, and decides as RFC 4137 4.4
 * says: methodState (CONT, MAY_CONT, DONE) and decision (FAIL,
 * COND_SUCC, UNCOND_SUCC). Errors a person can act on go in
 * struct eap_peer_error (eap_peer.h), set through the ctx.
 *
 * Ownership: init() returns the method's state, freed by deinit(), which
 * wipes its secrets. The profile and the credentials are borrowed from the
 * framework for the life of the method.
 */
#ifndef WPAD_EAP_PEER_METHOD_H
#define WPAD_EAP_PEER_METHOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* EAP method types (IANA "EAP Method Types"). */
enum eap_type {
	EAP_TYPE_NONE = 0,
	EAP_T_IDENTITY = 1,
	EAP_T_NOTIFICATION = 2,
	EAP_T_NAK = 3,
	EAP_T_MD5 = 4,
	EAP_T_OTP = 5,
	EAP_T_GTC = 6,
	EAP_T_TLS = 13,
	EAP_T_TTLS = 21,
	EAP_T_PEAP = 25,
	EAP_T_MSCHAPV2 = 26,
	EAP_T_TLV = 33, /* PEAPv0's Extensions, inside the tunnel */
	EAP_T_EXPANDED = 254,
};

enum eap_method_state {
	EAP_METHOD_CONT,     /* more to come; no decision yet */
	EAP_METHOD_MAY_CONT, /* the method could be done, the server may go on */
	EAP_METHOD_DONE,     /* finished: the decision holds */
};

enum eap_decision {
	EAP_DECISION_FAIL,
	EAP_DECISION_COND_SUCC,	  /* success if the server says so */
	EAP_DECISION_UNCOND_SUCC, /* success even if the Success is lost */
};

/* A growable output buffer the framework owns. */
struct eap_buf {
	uint8_t *data;
	size_t len, cap;
};
int eap_buf_put(struct eap_buf *b, const void *data, size_t len); /* 0 or -ENOMEM */
int eap_buf_put_u8(struct eap_buf *b, uint8_t v);
int eap_buf_put_be16(struct eap_buf *b, uint16_t v);
int eap_buf_put_be32(struct eap_buf *b, uint32_t v);
void eap_buf_clear(struct eap_buf *b);	 /* wipes, keeps the allocation */
void eap_buf_release(struct eap_buf *b); /* wipes and frees */

struct eap_peer_profile; /* eap_peer.h */
struct eap_peer_ctx;	 /* the framework side of one method run */

struct eap_peer_method {
	enum eap_type type;   /* EAP_T_EXPANDED for expanded types */
	uint32_t vendor_id;   /* expanded types only */
	uint32_t vendor_type; /* expanded types only */
	const char *name;     /* "TLS", "PEAP", "MSCHAPV2", as in profiles */
	/* Whether the method can run inside a tunnel only (GTC, MSCHAPv2
	 * are fine both ways; none is inner-only today). */
	bool inner_only;

	void *(*init)(struct eap_peer_ctx *ctx);
	void (*deinit)(void *priv);
	/* One Request's type data in; the Response's type data out (may stay
	 * empty to send nothing, e.g. an ignored fragment ACK). Returns 0, or
	 * a negative errno to drop the Request (ignored, as RFC 4137 isDrop).
	 * *state and *decision as RFC 4137 4.4. */
	int (*process)(void *priv, uint8_t id, const uint8_t *req, size_t req_len,
		       struct eap_buf *resp, enum eap_method_state *state,
		       enum eap_decision *decision);
	/* Keying material once the method succeeded (RFC 5247): MSK (64
	 * octets), EMSK (64), Session-Id. NULL ops: the method exports none.
	 * Return the length copied or a negative errno. */
	int (*get_msk)(void *priv, uint8_t *out, size_t max);
	int (*get_emsk)(void *priv, uint8_t *out, size_t max);
	int (*get_session_id)(void *priv, uint8_t *out, size_t max);
	/* Fast reconnect (TLS session resumption): keep what the next run may
	 * reuse; NULL: none. */
	bool (*has_reauth_data)(void *priv);
};

/* The framework services a method reaches through its ctx. */
const struct eap_peer_profile *eap_peer_ctx_profile(struct eap_peer_ctx *ctx);
/* Nonzero phase2: this method runs inside a tunnel (PEAP/TTLS). */
int eap_peer_ctx_phase(struct eap_peer_ctx *ctx);
/* The method's error for the user (see enum eap_peer_err in eap_peer.h);
 * detail is copied (server name seen, methods offered, alert text). The
 * first error set in an attempt wins. */
void eap_peer_ctx_set_error(struct eap_peer_ctx *ctx, int err, const char *detail);
/* A credential the profile lacks (password, key passphrase): the method
 * returns -EAGAIN after this, and the framework asks the agent and
 * reprocesses the Request when the answer comes. */
void eap_peer_ctx_need_secret(struct eap_peer_ctx *ctx, int which);

/* Tunnels (PEAP, TTLS with an EAP inner): a ctx for a method the tunnel
 * runs itself in phase 2, sharing the outer run's profile, error slot and
 * secrets; freed with eap_peer_ctx_free_inner(). NULL on allocation
 * failure. */
struct eap_peer_ctx *eap_peer_ctx_new_inner(struct eap_peer_ctx *outer);
void eap_peer_ctx_free_inner(struct eap_peer_ctx *inner);
/* TLS-based methods: what the user may see of the handshake (copied). */
struct eap_peer_tls_info;
void eap_peer_ctx_set_tls_info(struct eap_peer_ctx *ctx, const struct eap_peer_tls_info *info);

/* The registry: every built-in method, by type or by profile name.
 * NULL if unknown. */
const struct eap_peer_method *eap_peer_method_find(enum eap_type type, uint32_t vendor_id,
						   uint32_t vendor_type);
const struct eap_peer_method *eap_peer_method_by_name(const char *name);
/* All methods, for capabilities on D-Bus; NULL-terminated. */
const struct eap_peer_method *const *eap_peer_methods(void);

#endif
