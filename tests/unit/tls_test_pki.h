/* Certificates for the TLS-based EAP tests, made at run time with OpenSSL
 * (nothing committed that could expire): a CA, a server certificate
 * (SAN DNS radius.example.com, auth.example.com), one with only a CN, a
 * client certificate (PEM plain, PEM encrypted, PKCS#12 plain and
 * encrypted), and a second CA with a server certificate of its own (the
 * "untrusted" case). Files go to a fresh directory under /tmp.
 *
 * An in-process TLS server on memory BIOs sits beside it: a server
 * SSL_CTX (keep it across connections for resumption) and connections fed
 * and drained like the client's.
 */
#ifndef WPAD_TESTS_TLS_TEST_PKI_H
#define WPAD_TESTS_TLS_TEST_PKI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/ssl.h>

#define TLS_TEST_PASSPHRASE "test passphrase"

struct tls_test_pki {
	char dir[64];
	char ca[128];
	char server_cert[128], server_key[128];	    /* SAN radius.example.com, auth.example.com */
	char cn_cert[128], cn_key[128];		    /* CN only: cn.example.com */
	char client_cert[128], client_key[128];	    /* CN user@example.com */
	char client_key_enc[128];		    /* the same key, TLS_TEST_PASSPHRASE */
	char client_p12[128], client_p12_enc[128];  /* key + cert, plain / TLS_TEST_PASSPHRASE */
	char other_ca[128];
	char other_cert[128], other_key[128];	    /* radius.example.com, by other_ca */
};

/* 0 or -1. */
int tls_test_pki_make(struct tls_test_pki *pki);
void tls_test_pki_remove(struct tls_test_pki *pki);

struct tls_test_server_cfg {
	const char *cert, *key;
	const char *client_ca; /* request and verify a client certificate */
	int min_version, max_version;
	bool no_tickets;
};
SSL_CTX *tls_test_server_ctx(const struct tls_test_server_cfg *cfg);

struct tls_test_server {
	SSL *ssl;
	BIO *rbio, *wbio;
};
int tls_test_server_init(struct tls_test_server *s, SSL_CTX *ctx);
void tls_test_server_deinit(struct tls_test_server *s);
void tls_test_server_feed(struct tls_test_server *s, const uint8_t *in, size_t len);
/* 1 established, 0 wants more, -1 failed. */
int tls_test_server_handshake(struct tls_test_server *s);
/* Drain everything the server wrote into buf; returns the length. */
size_t tls_test_server_take(struct tls_test_server *s, uint8_t *buf, size_t max);

#endif
