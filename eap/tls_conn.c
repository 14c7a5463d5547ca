/* TLS client over memory BIOs for the TLS-based EAP methods (tls_conn.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/x509v3.h>

#include "daemon/crypto/secure.h"
#include "eap/libssl.h"
#include "eap/tls_conn.h"
#include "eap/tls_creds.h"
#include "eap/tls_ctx.h"

struct tls_conn {
	const struct eap_tls_policy *policy;
	SSL_CTX *ctx;
	SSL *ssl;
	BIO *rbio, *wbio; /* owned by ssl */
	char *cache_key;
	SSL_SESSION *new_session; /* the server's latest ticket/session, not kept yet */
	bool established;
	struct tls_conn_status st;
};

/* --- the session cache: a few sessions, by key, process-wide --- */

#define SESSION_CACHE_SIZE 16

static struct cached_session {
	char *key;
	SSL_SESSION *sess;
	unsigned long age;
} session_cache[SESSION_CACHE_SIZE];
static unsigned long session_clock;

static struct cached_session *cache_find(const char *key)
{
	for (size_t i = 0; i < SESSION_CACHE_SIZE; i++)
		if (session_cache[i].key && strcmp(session_cache[i].key, key) == 0)
			return &session_cache[i];
	return NULL;
}

static void cache_drop(struct cached_session *e)
{
	free(e->key);
	SSL_SESSION_free(e->sess);
	memset(e, 0, sizeof(*e));
}

static void cache_put(const char *key, SSL_SESSION *sess)
{
	struct cached_session *e = cache_find(key);

	if (!e) {
		e = &session_cache[0];
		for (size_t i = 1; i < SESSION_CACHE_SIZE && e->key; i++)
			if (!session_cache[i].key || session_cache[i].age < e->age)
				e = &session_cache[i];
	}
	if (e->key)
		cache_drop(e);
	e->key = strdup(key);
	if (!e->key) {
		SSL_SESSION_free(sess);
		return;
	}
	e->sess = sess;
	e->age = ++session_clock;
}

void tls_conn_cache_flush(void)
{
	for (size_t i = 0; i < SESSION_CACHE_SIZE; i++)
		if (session_cache[i].key)
			cache_drop(&session_cache[i]);
	tls_ctx_cache_flush();
}

/* --- errors --- */

static int conn_idx = -1;

static void conn_fail(struct tls_conn *c, enum eap_peer_err err, const char *detail)
{
	if (c->st.err != EAP_PEER_ERR_NONE)
		return; /* the first failure is the one to report */
	c->st.err = err;
	snprintf(c->st.detail, sizeof(c->st.detail), "%s", detail);
}

static struct tls_conn *conn_of(const SSL *ssl)
{
	return SSL_get_ex_data(ssl, conn_idx);
}

static void info_cb(const SSL *ssl, int where, int ret)
{
	struct tls_conn *c = conn_of(ssl);
	char msg[TLS_CONN_DETAIL_MAX];

	if (!c || !(where & SSL_CB_ALERT))
		return;
	const char *desc = SSL_alert_desc_string_long(ret);

	/* OpenSSL 3.0 has no text for some TLS 1.3 alerts: the number helps. */
	if ((ret & 0xff) == 116)
		desc = "certificate required";
	snprintf(msg, sizeof(msg), "%s alert: %s (%d)",
		 (where & SSL_CB_READ) ? "server sent" : "we sent", desc, ret & 0xff);
	/* close_notify is no failure; our own alerts follow an error kept already. */
	if ((ret & 0xff) != SSL_AD_CLOSE_NOTIFY)
		conn_fail(c, EAP_PEER_ERR_TLS_ALERT, msg);
}

static void subject_line(X509 *cert, char *out, size_t max)
{
	BIO *b = BIO_new(BIO_s_mem());
	int n;

	out[0] = '\0';
	if (!b)
		return;
	X509_NAME_print_ex(b, X509_get_subject_name(cert), 0, XN_FLAG_RFC2253);
	n = BIO_read(b, out, (int)max - 1);
	out[n > 0 ? n : 0] = '\0';
	BIO_free(b);
}

static int verify_cb(int ok, X509_STORE_CTX *x)
{
	SSL *ssl = X509_STORE_CTX_get_ex_data(x, SSL_get_ex_data_X509_STORE_CTX_idx());
	struct tls_conn *c = ssl ? conn_of(ssl) : NULL;
	X509 *leaf = X509_STORE_CTX_get0_cert(x);
	char subj[160], names[200], msg[TLS_CONN_DETAIL_MAX];

	if (!c || !leaf)
		return 0;
	if (!ok && !c->policy->allow_unverified) {
		subject_line(leaf, subj, sizeof(subj));
		snprintf(msg, sizeof(msg), "%s (%s)", subj,
			 X509_verify_cert_error_string(X509_STORE_CTX_get_error(x)));
		conn_fail(c, EAP_PEER_ERR_SERVER_UNTRUSTED, msg);
		return 0;
	}
	if (X509_STORE_CTX_get_error_depth(x) != 0)
		return 1;
	if (!tls_cert_name_ok(leaf, c->policy)) {
		tls_cert_names(leaf, names, sizeof(names));
		snprintf(msg, sizeof(msg), "server certificate names: %s",
			 names[0] ? names : "(none)");
		conn_fail(c, EAP_PEER_ERR_SERVER_NAME, msg);
		return 0;
	}
	return 1;
}

static int new_session_cb(SSL *ssl, SSL_SESSION *sess)
{
	struct tls_conn *c = conn_of(ssl);

	if (!c)
		return 0;
	SSL_SESSION_free(c->new_session);
	c->new_session = sess;
	return 1; /* we hold the reference */
}

/* --- set-up --- */

/* Built once per policy (tls_ctx.h): nothing here may depend on one
 * connection; what does is set on the SSL or read in the callbacks. */
static SSL_CTX *ctx_new(const struct eap_tls_policy *p, struct tls_conn_status *st)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	int min = p->min_version ? p->min_version : TLS1_2_VERSION;

	if (!ctx) {
		st->err = EAP_PEER_ERR_CREDENTIALS;
		snprintf(st->detail, sizeof(st->detail), "TLS context: out of memory");
		return NULL;
	}
	if (SSL_CTX_set_min_proto_version(ctx, min) != 1 ||
	    SSL_CTX_set_max_proto_version(ctx, p->max_version) != 1) {
		st->err = EAP_PEER_ERR_CREDENTIALS;
		snprintf(st->detail, sizeof(st->detail), "unsupported TLS version bounds 0x%x-0x%x",
			 min, p->max_version);
		goto fail;
	}
	if (tls_creds_load_ca(ctx, p, st) < 0 || tls_creds_load_client(ctx, p, st) < 0)
		goto fail;
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, verify_cb);
	SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
	SSL_CTX_sess_set_new_cb(ctx, new_session_cb);
	SSL_CTX_set_info_callback(ctx, info_cb);
	return ctx;
fail:
	ERR_clear_error();
	SSL_CTX_free(ctx);
	return NULL;
}

struct tls_conn *tls_conn_new(const struct eap_tls_policy *policy, const char *cache_key,
			      struct tls_conn_status *st)
{
	struct tls_conn *c;
	struct cached_session *cached;

	memset(st, 0, sizeof(*st));
	/* libssl is loaded with the first TLS connection (eap/libssl.h). */
	if (libssl_load(st->detail, sizeof(st->detail)) < 0) {
		st->err = EAP_PEER_ERR_METHOD_UNAVAILABLE;
		return NULL;
	}
	if (conn_idx < 0)
		conn_idx = SSL_get_ex_new_index(0, NULL, NULL, NULL, NULL);
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->policy = policy;
	c->ctx = tls_ctx_get(policy, ctx_new, st);
	if (!c->ctx)
		goto fail;
	c->cache_key = strdup(cache_key ? cache_key : "");
	c->ssl = SSL_new(c->ctx);
	c->rbio = BIO_new(BIO_s_mem());
	c->wbio = BIO_new(BIO_s_mem());
	if (!c->cache_key || !c->ssl || !c->rbio || !c->wbio) {
		BIO_free(c->rbio);
		BIO_free(c->wbio);
		st->err = EAP_PEER_ERR_CREDENTIALS;
		snprintf(st->detail, sizeof(st->detail), "TLS connection: out of memory");
		goto fail;
	}
	/* An empty read BIO means "wait for the next EAP message", not EOF. */
	BIO_set_mem_eof_return(c->rbio, -1);
	BIO_set_mem_eof_return(c->wbio, -1);
	SSL_set_bio(c->ssl, c->rbio, c->wbio);
	SSL_set_ex_data(c->ssl, conn_idx, c);
	SSL_set_connect_state(c->ssl);
	if (policy->server_name)
		SSL_set_tlsext_host_name(c->ssl, policy->server_name);
	cached = cache_find(c->cache_key);
	if (cached && SSL_SESSION_is_resumable(cached->sess))
		SSL_set_session(c->ssl, cached->sess);
	return c;
fail:
	ERR_clear_error();
	tls_conn_free(c);
	return NULL;
}

void tls_conn_free(struct tls_conn *c)
{
	if (!c)
		return;
	SSL_SESSION_free(c->new_session);
	SSL_free(c->ssl);
	SSL_CTX_free(c->ctx);
	free(c->cache_key);
	free(c);
}

/* --- data path --- */

int tls_conn_feed(struct tls_conn *c, const uint8_t *in, size_t len)
{
	if (len == 0)
		return 0;
	if (len > INT32_MAX || BIO_write(c->rbio, in, (int)len) != (int)len)
		return -ENOMEM;
	return 0;
}

/* An SSL call failed: keep why (unless the callbacks already did). */
static int step_failed(struct tls_conn *c, int r, const char *what)
{
	int e = SSL_get_error(c->ssl, r);
	unsigned long code;
	const char *reason;
	char msg[TLS_CONN_DETAIL_MAX];

	if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE)
		return 0;
	code = ERR_peek_error();
	reason = code ? ERR_reason_error_string(code) : "connection closed";
	/* libcrypto's reason texts are not loaded (crypto/lib.c): its codes print as numbers. */
	if (reason)
		snprintf(msg, sizeof(msg), "%s failed: %s", what, reason);
	else
		snprintf(msg, sizeof(msg), "%s failed: OpenSSL error %d:%d", what,
			 ERR_GET_LIB(code), ERR_GET_REASON(code));
	if (e == SSL_ERROR_ZERO_RETURN)
		conn_fail(c, EAP_PEER_ERR_PROTOCOL, "server closed the TLS connection");
	else
		conn_fail(c, EAP_PEER_ERR_PROTOCOL, msg);
	ERR_clear_error();
	/* A session that led to a failure is not offered again. */
	struct cached_session *cached = cache_find(c->cache_key);
	if (cached && !c->established)
		cache_drop(cached);
	return -EPROTO;
}

int tls_conn_handshake(struct tls_conn *c)
{
	int r;

	if (c->established)
		return 1;
	if (c->st.err != EAP_PEER_ERR_NONE)
		return -EPROTO;
	r = SSL_do_handshake(c->ssl);
	if (r == 1) {
		c->established = true;
		return 1;
	}
	return step_failed(c, r, "TLS handshake") < 0 ? -EPROTO : 0;
}

bool tls_conn_established(const struct tls_conn *c)
{
	return c->established;
}

int tls_conn_read(struct tls_conn *c, uint8_t *buf, size_t max)
{
	int r;

	if (!c->established)
		return -EPROTO;
	if (max == 0)
		return 0;
	r = SSL_read(c->ssl, buf, max > INT32_MAX ? INT32_MAX : (int)max);
	if (r > 0)
		return r;
	return step_failed(c, r, "TLS read");
}

int tls_conn_write(struct tls_conn *c, const uint8_t *data, size_t len)
{
	int r;

	if (!c->established || len == 0 || len > INT32_MAX)
		return -EINVAL;
	r = SSL_write(c->ssl, data, (int)len);
	if (r == (int)len)
		return 0;
	return step_failed(c, r, "TLS write") < 0 ? -EPROTO : -EIO;
}

size_t tls_conn_out_pending(const struct tls_conn *c)
{
	return BIO_ctrl_pending(c->wbio);
}

size_t tls_conn_out_take(struct tls_conn *c, uint8_t *buf, size_t max)
{
	int r;

	if (max == 0)
		return 0;
	r = BIO_read(c->wbio, buf, max > INT32_MAX ? INT32_MAX : (int)max);
	return r > 0 ? (size_t)r : 0;
}

enum eap_peer_err tls_conn_error(const struct tls_conn *c, const char **detail)
{
	if (detail)
		*detail = c->st.detail;
	return c->st.err;
}

/* --- after the handshake --- */

int tls_conn_version(const struct tls_conn *c)
{
	return SSL_version(c->ssl);
}

bool tls_conn_resumed(const struct tls_conn *c)
{
	return SSL_session_reused(c->ssl) == 1;
}

int tls_conn_export(const struct tls_conn *c, const char *label, const uint8_t *context,
		    size_t context_len, uint8_t *out, size_t len)
{
	if (!c->established)
		return -EINVAL;
	if (SSL_export_keying_material(c->ssl, out, len, label, strlen(label), context,
				       context_len, context != NULL) != 1) {
		ERR_clear_error();
		return -EIO;
	}
	return 0;
}

int tls_conn_randoms(const struct tls_conn *c, uint8_t out[64])
{
	if (!c->established || SSL_get_client_random(c->ssl, out, 32) != 32 ||
	    SSL_get_server_random(c->ssl, out + 32, 32) != 32)
		return -EINVAL;
	return 0;
}

void tls_conn_info(const struct tls_conn *c, struct eap_peer_tls_info *info)
{
	X509 *cert = SSL_get0_peer_certificate(c->ssl);
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int md_len = 0;

	memset(info, 0, sizeof(*info));
	snprintf(info->version, sizeof(info->version), "%s", SSL_get_version(c->ssl));
	info->resumed = tls_conn_resumed(c);
	if (!cert)
		return;
	subject_line(cert, info->server_subject, sizeof(info->server_subject));
	if (X509_digest(cert, EVP_sha256(), md, &md_len) == 1 && md_len == 32)
		for (unsigned i = 0; i < md_len; i++)
			snprintf(info->server_sha256 + 2 * i, 3, "%02x", md[i]);
}

void tls_conn_keep_session(struct tls_conn *c)
{
	SSL_SESSION *sess = c->new_session;

	c->new_session = NULL;
	if (!sess)
		sess = SSL_get1_session(c->ssl);
	if (!sess)
		return;
	if (!SSL_SESSION_is_resumable(sess)) {
		SSL_SESSION_free(sess);
		return;
	}
	/* EAP ends without close_notify; without this SSL_free would mark
	 * the session not resumable. */
	SSL_set_shutdown(c->ssl, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
	cache_put(c->cache_key, sess);
}

bool tls_conn_has_session(const struct tls_conn *c)
{
	return c->new_session || (c->established && SSL_get0_session(c->ssl) &&
				  SSL_SESSION_is_resumable(SSL_get0_session(c->ssl)));
}
