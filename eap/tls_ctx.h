/* The SSL_CTX of a TLS policy, built once and shared by the policy's
 * connections (eap/tls_conn.c). Building one reads and parses the CA
 * file and the client certificate and key (the PEM key decoders alone
 * cost about as much as the TLS handshake's own RSA signature), and a
 * freshly loaded RSA key sets up its blinding again on its first use: per
 * attempt, that was a third of an EAP-TLS authentication's CPU.
 *
 * A context is reused while everything it was built from is the same:
 * the versions, the trust and credential settings, the passphrase, and
 * each named file's identity (device, inode, size, modification time) or
 * a blob's bytes. A file changed on disk, or a new passphrase, builds a
 * new one. At most TLS_CTX_CACHE_SIZE policies are kept, the least
 * recently used dropped. A policy whose build fails is not kept.
 *
 * Ownership: tls_ctx_get() returns a reference the caller frees with
 * SSL_CTX_free(); the cache keeps its own until it drops the entry,
 * tls_ctx_cache_flush() runs, or the process exits.
 */
#ifndef WPAD_EAP_TLS_CTX_H
#define WPAD_EAP_TLS_CTX_H

#include "eap/libssl.h"

#include "eap/tls_conn.h"

#define TLS_CTX_CACHE_SIZE 4

typedef SSL_CTX *(*tls_ctx_build_fn)(const struct eap_tls_policy *p, struct tls_conn_status *st);

/* The context for p: the cached one, or build(p, st) kept for next time.
 * NULL with *st filled by build when it fails. */
SSL_CTX *tls_ctx_get(const struct eap_tls_policy *p, tls_ctx_build_fn build,
		     struct tls_conn_status *st);
/* Drop every cached context (tests; a profile change does not need it:
 * its fingerprint differs). */
void tls_ctx_cache_flush(void);
/* How many builds and reuses so far (tests, benches). */
void tls_ctx_cache_stats(unsigned long *built, unsigned long *reused);

#endif
