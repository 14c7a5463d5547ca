/* The EAP peer (RFC 3748, RFC 4137 peer state machine): one per
 * authentication attempt on a port, Wi-Fi or wired. It is fed EAP packets
 * (eap_peer_rx) by the 802.1X supplicant PAE and sends its Responses
 * through ops->tx; it ends in success (keys exported) or failure with an
 * error that names the stage that failed.
 *
 * The profile says who we are and what we accept: outer method(s),
 * identities, the inner method of PEAP/TTLS, the TLS policy. It is
 * borrowed for the life of the peer; secrets in it are the caller's to
 * wipe.
 *
 * Ownership: eap_peer_new() returns a peer the caller frees with
 * eap_peer_free(), which wipes the keys. ops callbacks must not free the
 * peer.
 */
#ifndef WPAD_EAP_PEER_H
#define WPAD_EAP_PEER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eap/eap_peer_method.h"

#define EAP_MSK_LEN 64
#define EAP_EMSK_LEN 64
#define EAP_PROFILE_METHODS_MAX 8
#define EAP_SESSION_ID_MAX 128

/* What failed, for LastError and the D-Bus catalogue: one per stage. */
enum eap_peer_err {
	EAP_PEER_ERR_NONE = 0,
	EAP_PEER_ERR_NO_RESPONSE,	/* the authenticator never asked / stopped answering */
	EAP_PEER_ERR_METHOD_REFUSED,	/* server offered only methods the profile disallows (detail: offered) */
	EAP_PEER_ERR_SERVER_UNTRUSTED,	/* server certificate does not chain to the CA (detail: subject) */
	EAP_PEER_ERR_SERVER_NAME,	/* name mismatch (detail: the names seen) */
	EAP_PEER_ERR_TLS_ALERT,		/* a TLS alert (detail: its description) */
	EAP_PEER_ERR_INNER_REJECTED,	/* inner authentication rejected: wrong identity or password */
	EAP_PEER_ERR_FAILURE,		/* EAP-Failure with no better reason */
	EAP_PEER_ERR_CREDENTIALS,	/* a credential missing or unusable (key, cert, passphrase) */
	EAP_PEER_ERR_METHOD_UNAVAILABLE,/* a method this build cannot run (MD4 missing for MSCHAPv2) */
	EAP_PEER_ERR_PROTOCOL,		/* malformed exchange from the server */
};
const char *eap_peer_err_name(enum eap_peer_err err);

/* Secrets a method may have to ask for (eap_peer_ctx_need_secret). */
enum eap_peer_secret {
	EAP_SECRET_PASSWORD = 1,
	EAP_SECRET_KEY_PASSPHRASE,
};

/* TLS policy of the TLS-based methods (EAP-TLS, PEAP, TTLS). */
struct eap_tls_policy {
	const char *ca_file;	   /* PEM bundle, or NULL */
	const char *ca_dir;	   /* hashed directory, or NULL */
	bool ca_system;		   /* the system store, by explicit choice */
	bool allow_unverified;	   /* "no CA check" said in as many words */
	const char *server_name;   /* exact match of a SAN DNS name (or CN if no SAN) */
	const char *domain_suffix; /* SAN DNS name equal to it or ending in ".suffix" */
	int min_version;	   /* TLS1_2_VERSION (default) or TLS1_3_VERSION */
	int max_version;	   /* 0: the highest OpenSSL offers (TLS 1.3) */
	const char *client_cert;   /* PEM, or a PKCS#12 holding key and cert */
	const char *private_key;   /* PEM; NULL with a PKCS#12 client_cert */
	const char *key_passphrase;
};

struct eap_peer_profile {
	/* Outer methods allowed, in preference order, by name ("TLS"). */
	const char *methods[EAP_PROFILE_METHODS_MAX];
	size_t n_methods;
	/* No methods: every Request for a method is answered with an empty
	 * Nak, so the attempt ends in METHOD_REFUSED (never "anything goes"). */
	const char *identity;		/* inner identity (and outer if no anonymous) */
	const char *anonymous_identity; /* outer identity for tunnels */
	const char *password;
	size_t password_len;
	const char *phase2; /* PEAP/TTLS inner: "MSCHAPV2", "GTC", "PAP", "CHAP", "MD5", ... */
	bool phase2_eap;    /* TTLS: the inner is an EAP method (else a TTLS AVP method) */
	struct eap_tls_policy tls;
};

/* What a user may see of the last TLS-based authentication. */
struct eap_peer_tls_info {
	char version[16];	  /* "TLSv1.3" */
	char server_subject[256]; /* one line */
	char server_sha256[65];	  /* certificate fingerprint, hex */
	bool resumed;
};

enum eap_peer_result {
	EAP_PEER_RUNNING,
	EAP_PEER_SUCCESS,
	EAP_PEER_FAILURE,
};

struct eap_peer_ops {
	/* A whole EAP packet (Response) to send. */
	int (*tx)(void *ctx, const uint8_t *pkt, size_t len);
	/* The attempt ended (success: keys ready; failure: eap_peer_error). */
	void (*done)(void *ctx, enum eap_peer_result result);
	/* A secret is needed; answer with eap_peer_set_secret() (or fail). */
	void (*need_secret)(void *ctx, enum eap_peer_secret which);
};

/* The RFC 4137 4.3 peer states, plus WAIT_SECRET: a Request is held until
 * the agent answers need_secret. */
enum eap_peer_state {
	EAP_PEER_S_INITIALIZE,
	EAP_PEER_S_IDLE,
	EAP_PEER_S_RECEIVED,
	EAP_PEER_S_GET_METHOD,
	EAP_PEER_S_METHOD,
	EAP_PEER_S_SEND_RESPONSE,
	EAP_PEER_S_DISCARD,
	EAP_PEER_S_IDENTITY,
	EAP_PEER_S_NOTIFICATION,
	EAP_PEER_S_RETRANSMIT,
	EAP_PEER_S_WAIT_SECRET,
	EAP_PEER_S_SUCCESS,
	EAP_PEER_S_FAILURE,
};
const char *eap_peer_state_to_string(enum eap_peer_state s);

struct eap_peer_stats {
	unsigned rx, rx_malformed, rx_discarded, tx, retransmits, naks, notifications;
};

struct eap_peer;
/* NULL on allocation failure or a NULL profile/ops/ops->tx. Profile method
 * names the registry does not know are skipped (logged). */
struct eap_peer *eap_peer_new(const struct eap_peer_profile *profile,
			      const struct eap_peer_ops *ops, void *ctx);
void eap_peer_free(struct eap_peer *peer);

/* One received EAP packet (whole, header included; octets past its Length
 * are link padding). Returns 0 (handled, answered or silently discarded as
 * RFC 4137 says: see eap_peer_stats), -EBADMSG (malformed: dropped) or
 * -EALREADY (the attempt already ended). */
int eap_peer_rx(struct eap_peer *peer, const uint8_t *pkt, size_t len);
/* The answer to need_secret; NULL: the user refused (failure). The value
 * is copied (wiped at free) and seen by methods through
 * eap_peer_ctx_profile() (password / tls.key_passphrase); a held Request
 * is processed again at once. Returns 0 or -EINVAL/-ENOMEM. */
int eap_peer_set_secret(struct eap_peer *peer, enum eap_peer_secret which, const char *value);

/* Lower-layer indications (RFC 4137 4.1.2, the IDLE state's exits):
 * altAccept (the link took us as authenticated: e.g. EAPOL-Key message 1
 * arrived while the EAP-Success was lost), altReject, and the timeout the
 * lower layer runs (idleWhile / the supplicant's authWhile): failure with
 * EAP_PEER_ERR_NO_RESPONSE. Ignored once the attempt ended. */
void eap_peer_alt_accept(struct eap_peer *peer);
void eap_peer_alt_reject(struct eap_peer *peer);
void eap_peer_timeout(struct eap_peer *peer);
/* eapRestart: a new attempt on the same peer (INITIALIZE); a method with
 * reauthentication data (has_reauth_data) is kept for it. */
void eap_peer_restart(struct eap_peer *peer);
enum eap_peer_state eap_peer_state(const struct eap_peer *peer);
const struct eap_peer_stats *eap_peer_stats(const struct eap_peer *peer);

enum eap_peer_result eap_peer_result(const struct eap_peer *peer);
/* detail (never NULL when asked): METHOD_REFUSED lists the methods the
 * server proposed, comma-separated ("TTLS, PEAP"); others a short text. */
enum eap_peer_err eap_peer_error(const struct eap_peer *peer, const char **detail);
/* After success: MSK/EMSK (EAP_MSK_LEN), Session-Id. Length or -ENOENT. */
int eap_peer_msk(const struct eap_peer *peer, uint8_t *out, size_t max);
int eap_peer_emsk(const struct eap_peer *peer, uint8_t *out, size_t max);
int eap_peer_session_id(const struct eap_peer *peer, uint8_t *out, size_t max);
/* The method that ran ("PEAP"), NULL before one was chosen. */
const char *eap_peer_method_name(const struct eap_peer *peer);
const struct eap_peer_tls_info *eap_peer_tls_info(const struct eap_peer *peer);

#endif
