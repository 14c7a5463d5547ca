/* A TLS client for the TLS-based EAP methods (EAP-TLS, PEAP, TTLS):
 * OpenSSL 3 over memory BIOs, so the EAP framing feeds it whole TLS
 * messages and takes its output to fragment.
 *
 * The policy (struct eap_tls_policy, eap_peer.h) decides what we trust:
 * a CA file/directory or the system store (only when chosen), an exact
 * server name or a domain suffix checked against the leaf certificate in
 * the verify callback, TLS versions (default 1.2 to 1.3), an optional
 * client certificate (PEM or PKCS#12). Without a CA the handshake is
 * refused unless allow_unverified says otherwise.
 *
 * Errors: the first failure of a connection is kept as an enum
 * eap_peer_err with a detail for the user (the names seen, the alert
 * description, the untrusted subject); tls_conn_error() reads it.
 *
 * Sessions: a connection resumes the session kept under its cache key
 * (policy + method + identity, built by the caller) and, once the caller
 * says the authentication succeeded (tls_conn_keep_session), keeps its
 * own for the next run.
 *
 * Ownership: tls_conn_new() returns a connection freed by tls_conn_free().
 * The policy is borrowed for the connection's life.
 */
#ifndef WPAD_EAP_TLS_CONN_H
#define WPAD_EAP_TLS_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eap/eap_peer.h"

#define TLS_CONN_DETAIL_MAX 256

struct tls_conn;

/* Why tls_conn_new() or a step failed. */
struct tls_conn_status {
	enum eap_peer_err err;
	bool need_passphrase; /* the key is encrypted and no passphrase given */
	char detail[TLS_CONN_DETAIL_MAX];
};

/* NULL on failure, with *st saying why (CREDENTIALS with need_passphrase
 * for a missing key passphrase; SERVER_UNTRUSTED when there is no CA and
 * no allow_unverified; SERVER_NAME for the system store without a name). */
struct tls_conn *tls_conn_new(const struct eap_tls_policy *policy, const char *cache_key,
			      struct tls_conn_status *st);
void tls_conn_free(struct tls_conn *c);

/* Bytes received from the server (one reassembled TLS message). */
int tls_conn_feed(struct tls_conn *c, const uint8_t *in, size_t len);
/* Run the handshake on what was fed: 1 established, 0 needs more input,
 * -EPROTO failed (tls_conn_error says why). Idempotent once established. */
int tls_conn_handshake(struct tls_conn *c);
bool tls_conn_established(const struct tls_conn *c);
/* Application data: read returns the octets copied (0: none buffered) or
 * -EPROTO; write queues a record for tls_conn_out_take. */
int tls_conn_read(struct tls_conn *c, uint8_t *buf, size_t max);
int tls_conn_write(struct tls_conn *c, const uint8_t *data, size_t len);
/* Our output (records to send): octets waiting, and take them. */
size_t tls_conn_out_pending(const struct tls_conn *c);
size_t tls_conn_out_take(struct tls_conn *c, uint8_t *buf, size_t max);

/* The first failure seen (EAP_PEER_ERR_NONE if none) and its detail. */
enum eap_peer_err tls_conn_error(const struct tls_conn *c, const char **detail);

/* After the handshake. */
int tls_conn_version(const struct tls_conn *c); /* TLS1_2_VERSION, ... */
bool tls_conn_resumed(const struct tls_conn *c);
/* RFC 5705 exporter: context NULL means "no context" (RFC 5216's PRF
 * call for TLS <= 1.2); TLS 1.3 always uses a context (empty if NULL). */
int tls_conn_export(const struct tls_conn *c, const char *label, const uint8_t *context,
		    size_t context_len, uint8_t *out, size_t len);
/* client.random || server.random (64 octets), for Session-Ids. */
int tls_conn_randoms(const struct tls_conn *c, uint8_t out[64]);
void tls_conn_info(const struct tls_conn *c, struct eap_peer_tls_info *info);

/* The authentication succeeded: keep the session for the next run. */
void tls_conn_keep_session(struct tls_conn *c);
bool tls_conn_has_session(const struct tls_conn *c);
/* Forget every kept session and TLS context (tests, and a profile change). */
void tls_conn_cache_flush(void);

#endif
