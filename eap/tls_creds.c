/* Trust anchors, client credentials and server name checks for
 * eap/tls_conn.c. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509v3.h>

#include "daemon/crypto/secure.h"
#include "daemon/crypto/cred_blob.h"
#include "eap/tls_creds.h"

/* A path, or blob://NAME from memory (cred_blob.h). */
static BIO *open_cred(const char *path, const char *mode)
{
	const char *name;
	size_t len;
	const uint8_t *b;
	if (!cred_blob_ref(path, &name))
		return BIO_new_file(path, mode);
	b = cred_blob_get(name, &len);
	return b && len <= INT32_MAX ? BIO_new_mem_buf(b, (int)len) : NULL;
}

/* CA certificates from a blob: PEM (one or more) or one DER. */
static bool load_ca_blob(SSL_CTX *ctx, const char *path)
{
	BIO *bio = open_cred(path, "rb");
	X509_STORE *store = SSL_CTX_get_cert_store(ctx);
	X509 *cert;
	int n = 0;
	if (!bio)
		return false;
	while ((cert = PEM_read_bio_X509(bio, NULL, NULL, NULL))) {
		n += X509_STORE_add_cert(store, cert) == 1;
		X509_free(cert);
	}
	if (n == 0) {
		(void)BIO_reset(bio);
		if ((cert = d2i_X509_bio(bio, NULL))) {
			n += X509_STORE_add_cert(store, cert) == 1;
			X509_free(cert);
		}
	}
	ERR_clear_error();
	BIO_free(bio);
	return n > 0;
}

__attribute__((format(printf, 3, 4))) static void set_status(struct tls_conn_status *st,
								  enum eap_peer_err err,
								  const char *fmt, ...)
{
	va_list ap;

	st->err = err;
	va_start(ap, fmt);
	vsnprintf(st->detail, sizeof(st->detail), fmt, ap);
	va_end(ap);
}

int tls_creds_load_ca(SSL_CTX *ctx, const struct eap_tls_policy *p, struct tls_conn_status *st)
{
	bool any = false;

	const char *blob;
	if (p->ca_file && cred_blob_ref(p->ca_file, &blob)) {
		if (!load_ca_blob(ctx, p->ca_file)) {
			set_status(st, EAP_PEER_ERR_SERVER_UNTRUSTED,
				   "no CA certificate in the blob %s", blob);
			return -1;
		}
	} else if ((p->ca_file || p->ca_dir) &&
		   SSL_CTX_load_verify_locations(ctx, p->ca_file, p->ca_dir) != 1) {
		set_status(st, EAP_PEER_ERR_SERVER_UNTRUSTED, "cannot load CA certificates from %s",
			   p->ca_file ? p->ca_file : p->ca_dir);
		return -1;
	}
	any = p->ca_file || p->ca_dir;
	if (p->ca_system) {
		/* A public CA vouches for anyone's name: insist on ours. */
		if (!p->server_name && !p->domain_suffix) {
			set_status(st, EAP_PEER_ERR_SERVER_NAME,
				   "the system CA store needs a server name or domain suffix");
			return -1;
		}
		if (SSL_CTX_set_default_verify_paths(ctx) != 1) {
			set_status(st, EAP_PEER_ERR_SERVER_UNTRUSTED,
				   "cannot load the system CA store");
			return -1;
		}
		any = true;
	}
	if (!any && !p->allow_unverified) {
		set_status(st, EAP_PEER_ERR_SERVER_UNTRUSTED,
			   "no CA certificate configured (and allow_unverified not set)");
		return -1;
	}
	return 0;
}

/* PEM callback: the policy's passphrase, or note that one is needed. */
struct pass_ask {
	const char *pass;
	bool asked;
};

static int pem_pass_cb(char *buf, int size, int rwflag, void *u)
{
	struct pass_ask *a = u;
	size_t n;

	a->asked = true;
	if (!a->pass)
		return -1;
	n = strlen(a->pass);
	if (n >= (size_t)size)
		return -1;
	memcpy(buf, a->pass, n);
	return (int)n;
}

static int load_pkcs12(SSL_CTX *ctx, BIO *bio, const struct eap_tls_policy *p,
		       struct tls_conn_status *st)
{
	PKCS12 *p12 = d2i_PKCS12_bio(bio, NULL);
	EVP_PKEY *key = NULL;
	X509 *cert = NULL;
	STACK_OF(X509) *ca = NULL;
	const char *pass = p->key_passphrase;
	int ret = -1;

	if (!p12) {
		set_status(st, EAP_PEER_ERR_CREDENTIALS,
			   "client certificate %s is neither PEM nor PKCS#12", p->client_cert);
		return -1;
	}
	if (!pass) {
		/* Unprotected files use no password or the empty one. */
		if (PKCS12_verify_mac(p12, NULL, 0))
			pass = NULL;
		else if (PKCS12_verify_mac(p12, "", 0))
			pass = "";
		else {
			st->err = EAP_PEER_ERR_CREDENTIALS;
			st->need_passphrase = true;
			snprintf(st->detail, sizeof(st->detail),
				 "%s needs a passphrase", p->client_cert);
			goto out;
		}
	} else if (!PKCS12_verify_mac(p12, pass, -1)) {
		set_status(st, EAP_PEER_ERR_CREDENTIALS, "wrong passphrase for %s", p->client_cert);
		goto out;
	}
	if (!PKCS12_parse(p12, pass, &key, &cert, &ca) || !key || !cert) {
		set_status(st, EAP_PEER_ERR_CREDENTIALS, "cannot read key and certificate from %s",
			   p->client_cert);
		goto out;
	}
	if (SSL_CTX_use_certificate(ctx, cert) != 1 || SSL_CTX_use_PrivateKey(ctx, key) != 1) {
		set_status(st, EAP_PEER_ERR_CREDENTIALS, "unusable key or certificate in %s",
			   p->client_cert);
		goto out;
	}
	for (int i = 0; ca && i < sk_X509_num(ca); i++) {
		if (SSL_CTX_add1_chain_cert(ctx, sk_X509_value(ca, i)) != 1)
			goto out;
	}
	ret = 0;
out:
	EVP_PKEY_free(key);
	X509_free(cert);
	sk_X509_pop_free(ca, X509_free);
	PKCS12_free(p12);
	return ret;
}

static int load_pem_key(SSL_CTX *ctx, const struct eap_tls_policy *p, struct tls_conn_status *st)
{
	struct pass_ask ask = { .pass = p->key_passphrase };
	BIO *bio = open_cred(p->private_key, "r");
	EVP_PKEY *key;
	int ret = -1;

	if (!bio) {
		set_status(st, EAP_PEER_ERR_CREDENTIALS, "cannot open private key %s",
			   p->private_key);
		return -1;
	}
	key = PEM_read_bio_PrivateKey(bio, NULL, pem_pass_cb, &ask);
	BIO_free(bio);
	if (!key) {
		if (ask.asked && !p->key_passphrase) {
			st->err = EAP_PEER_ERR_CREDENTIALS;
			st->need_passphrase = true;
			snprintf(st->detail, sizeof(st->detail), "%s needs a passphrase",
				 p->private_key);
		} else if (ask.asked) {
			set_status(st, EAP_PEER_ERR_CREDENTIALS, "wrong passphrase for %s",
				   p->private_key);
		} else {
			set_status(st, EAP_PEER_ERR_CREDENTIALS, "cannot read private key %s",
				   p->private_key);
		}
		return -1;
	}
	if (SSL_CTX_use_PrivateKey(ctx, key) == 1)
		ret = 0;
	else
		set_status(st, EAP_PEER_ERR_CREDENTIALS,
			   "private key %s does not match client certificate %s", p->private_key,
			   p->client_cert);
	EVP_PKEY_free(key);
	return ret;
}

int tls_creds_load_client(SSL_CTX *ctx, const struct eap_tls_policy *p,
			  struct tls_conn_status *st)
{
	BIO *bio;
	X509 *cert;
	int ret;

	if (!p->client_cert)
		return 0;
	bio = open_cred(p->client_cert, "rb");
	if (!bio) {
		set_status(st, EAP_PEER_ERR_CREDENTIALS, "cannot open client certificate %s",
			   p->client_cert);
		return -1;
	}
	cert = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	if (!cert) {
		/* Not PEM: a PKCS#12 bundle holds key and chain. */
		ERR_clear_error();
		(void)BIO_reset(bio);
		ret = load_pkcs12(ctx, bio, p, st);
		BIO_free(bio);
		goto check;
	}
	ret = SSL_CTX_use_certificate(ctx, cert) == 1 ? 0 : -1;
	X509_free(cert);
	/* Intermediate certificates after the leaf go out with it. */
	while (ret == 0 && (cert = PEM_read_bio_X509(bio, NULL, NULL, NULL))) {
		if (SSL_CTX_add0_chain_cert(ctx, cert) != 1) {
			X509_free(cert);
			ret = -1;
		}
	}
	ERR_clear_error();
	BIO_free(bio);
	if (ret < 0) {
		set_status(st, EAP_PEER_ERR_CREDENTIALS, "unusable client certificate %s",
			   p->client_cert);
		return -1;
	}
	if (!p->private_key) {
		set_status(st, EAP_PEER_ERR_CREDENTIALS,
			   "client certificate %s is PEM but no private key is set", p->client_cert);
		return -1;
	}
	ret = load_pem_key(ctx, p, st);
check:
	if (ret == 0 && SSL_CTX_check_private_key(ctx) != 1) {
		set_status(st, EAP_PEER_ERR_CREDENTIALS,
			   "private key does not match client certificate %s", p->client_cert);
		ret = -1;
	}
	ERR_clear_error();
	return ret;
}

/* --- names --- */

bool tls_name_exact(const char *name, const char *want)
{
	return strcasecmp(name, want) == 0;
}

bool tls_name_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix);

	if (s == 0)
		return false;
	if (n == s)
		return strcasecmp(name, suffix) == 0;
	/* "ab.example.com" matches "example.com", "badexample.com" does not. */
	return n > s && name[n - s - 1] == '.' && strcasecmp(name + n - s, suffix) == 0;
}

/* Calls fn for each DNS name (SAN DNS, else subject CN); names with an
 * embedded NUL are skipped. Stops when fn returns true. */
static int for_each_name(X509 *cert, bool (*fn)(const char *name, void *arg), void *arg)
{
	GENERAL_NAMES *sans = X509_get_ext_d2i(cert, NID_subject_alt_name, NULL, NULL);
	int count = 0;

	for (int i = 0; sans && i < sk_GENERAL_NAME_num(sans); i++) {
		const GENERAL_NAME *gn = sk_GENERAL_NAME_value(sans, i);
		const char *s;
		int len;

		if (gn->type != GEN_DNS)
			continue;
		s = (const char *)ASN1_STRING_get0_data(gn->d.dNSName);
		len = ASN1_STRING_length(gn->d.dNSName);
		if (len <= 0 || (size_t)len != strnlen(s, (size_t)len + 1))
			continue;
		count++;
		if (fn(s, arg))
			break;
	}
	GENERAL_NAMES_free(sans);
	if (count == 0) {
		X509_NAME *subj = X509_get_subject_name(cert);
		int idx = X509_NAME_get_index_by_NID(subj, NID_commonName, -1);
		char cn[256];

		if (idx >= 0) {
			ASN1_STRING *d = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(subj, idx));
			int len = ASN1_STRING_length(d);

			if (len > 0 && (size_t)len < sizeof(cn)) {
				memcpy(cn, ASN1_STRING_get0_data(d), (size_t)len);
				cn[len] = '\0';
				if (strlen(cn) == (size_t)len) {
					count++;
					fn(cn, arg);
				}
			}
		}
	}
	return count;
}

struct name_list {
	char *out;
	size_t max, used;
};

static bool append_name(const char *name, void *arg)
{
	struct name_list *l = arg;
	int n = snprintf(l->out + l->used, l->max - l->used, "%s%s", l->used ? ", " : "", name);

	if (n < 0 || (size_t)n >= l->max - l->used) {
		l->used = l->max - 1;
		return true;
	}
	l->used += (size_t)n;
	return false;
}

int tls_cert_names(X509 *cert, char *out, size_t max)
{
	struct name_list l = { out, max, 0 };

	if (max == 0)
		return 0;
	out[0] = '\0';
	return for_each_name(cert, append_name, &l);
}

struct name_match {
	const struct eap_tls_policy *p;
	bool exact_ok, suffix_ok;
};

static bool match_name(const char *name, void *arg)
{
	struct name_match *m = arg;

	if (m->p->server_name && tls_name_exact(name, m->p->server_name))
		m->exact_ok = true;
	if (m->p->domain_suffix && tls_name_suffix(name, m->p->domain_suffix))
		m->suffix_ok = true;
	return false;
}

bool tls_cert_name_ok(X509 *cert, const struct eap_tls_policy *p)
{
	struct name_match m = { .p = p };

	if (!p->server_name && !p->domain_suffix)
		return true;
	for_each_name(cert, match_name, &m);
	return (!p->server_name || m.exact_ok) && (!p->domain_suffix || m.suffix_ok);
}
