/* Loading what a TLS policy names into an SSL_CTX: trust anchors (CA
 * file, directory, system store) and the client certificate and key (PEM
 * or PKCS#12, encrypted or not). Private to eap/tls_conn.c.
 */
#ifndef WPAD_EAP_TLS_CREDS_H
#define WPAD_EAP_TLS_CREDS_H

#include "eap/libssl.h"

#include "eap/tls_conn.h"

/* 0, or -1 with *st filled (SERVER_UNTRUSTED: no CA usable). */
int tls_creds_load_ca(SSL_CTX *ctx, const struct eap_tls_policy *p, struct tls_conn_status *st);
/* 0 (also when the policy has no client certificate), or -1 with *st
 * filled: CREDENTIALS, need_passphrase when the key wants one. */
int tls_creds_load_client(SSL_CTX *ctx, const struct eap_tls_policy *p,
			  struct tls_conn_status *st);

/* The DNS names a certificate answers to: its SAN DNS entries, or its
 * subject CN when it has no SAN DNS entry (RFC 6125 6.4.4). Written as
 * "a, b, c" into out for messages; returns how many names. */
int tls_cert_names(X509 *cert, char *out, size_t max);
/* Policy check of the leaf: exact server_name and/or domain_suffix
 * (equal, or ending in "." suffix: label boundaries). true if it passes. */
bool tls_cert_name_ok(X509 *cert, const struct eap_tls_policy *p);
/* RFC 6125-style comparison pieces, exposed for unit tests. */
bool tls_name_exact(const char *name, const char *want);
bool tls_name_suffix(const char *name, const char *suffix);

#endif
