/* Run-time certificates and an in-process TLS server for the EAP TLS tests
 * (tls_test_pki.h). EC P-256 keys: fast to make. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509v3.h>

#include "tls_test_pki.h"

static EVP_PKEY *new_key(void)
{
	return EVP_EC_gen("P-256");
}

static int add_ext(X509 *cert, X509 *issuer, int nid, const char *value)
{
	X509V3_CTX v3;
	X509_EXTENSION *ext;
	int ok;

	X509V3_set_ctx(&v3, issuer, cert, NULL, NULL, 0);
	ext = X509V3_EXT_conf_nid(NULL, &v3, nid, value);
	if (!ext)
		return -1;
	ok = X509_add_ext(cert, ext, -1);
	X509_EXTENSION_free(ext);
	return ok ? 0 : -1;
}

/* A certificate for key, issued by issuer (NULL: self-signed), valid
 * from an hour ago for a day. */
static X509 *make_cert(EVP_PKEY *key, const char *cn, const char *san, X509 *issuer,
		       EVP_PKEY *issuer_key, bool ca, long serial)
{
	X509 *cert = X509_new();
	X509_NAME *name;

	if (!cert)
		return NULL;
	X509_set_version(cert, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(cert), serial);
	X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
	X509_gmtime_adj(X509_getm_notAfter(cert), 86400);
	X509_set_pubkey(cert, key);
	name = X509_get_subject_name(cert);
	X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, (const unsigned char *)"wpad tests", -1,
				   -1, 0);
	X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)cn, -1, -1, 0);
	X509_set_issuer_name(cert, issuer ? X509_get_subject_name(issuer) : name);
	if (add_ext(cert, issuer ? issuer : cert, NID_basic_constraints,
		    ca ? "critical,CA:TRUE" : "CA:FALSE") < 0 ||
	    add_ext(cert, issuer ? issuer : cert, NID_key_usage,
		    ca ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature") < 0 ||
	    add_ext(cert, issuer ? issuer : cert, NID_subject_key_identifier, "hash") < 0)
		goto fail;
	if (!ca && add_ext(cert, issuer, NID_ext_key_usage, "serverAuth,clientAuth") < 0)
		goto fail;
	if (san && add_ext(cert, issuer ? issuer : cert, NID_subject_alt_name, san) < 0)
		goto fail;
	if (!X509_sign(cert, issuer_key ? issuer_key : key, EVP_sha256()))
		goto fail;
	return cert;
fail:
	X509_free(cert);
	return NULL;
}

static int write_cert(const char *path, X509 *cert)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = PEM_write_X509(f, cert);
	fclose(f);
	return ok ? 0 : -1;
}

static int write_key(const char *path, EVP_PKEY *key, const char *pass)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = PEM_write_PrivateKey(f, key, pass ? EVP_aes_256_cbc() : NULL, NULL, 0, NULL,
				  (void *)pass);
	fclose(f);
	return ok ? 0 : -1;
}

static int write_p12(const char *path, EVP_PKEY *key, X509 *cert, const char *pass)
{
	/* AES-256 / SHA-256 MAC: the default provider reads it. */
	PKCS12 *p12 = PKCS12_create(pass, "client", key, cert, NULL, NID_aes_256_cbc,
				    NID_aes_256_cbc, 2048, 2048, 0);
	FILE *f;
	int ok = 0;

	if (!p12)
		return -1;
	f = fopen(path, "wb");
	if (f) {
		ok = i2d_PKCS12_fp(f, p12);
		fclose(f);
	}
	PKCS12_free(p12);
	return ok ? 0 : -1;
}

#define PATH(field, name) snprintf(pki->field, sizeof(pki->field), "%s/" name, pki->dir)

int tls_test_pki_make(struct tls_test_pki *pki)
{
	EVP_PKEY *ca_key = new_key(), *srv_key = new_key(), *cn_key = new_key(),
		 *cli_key = new_key(), *oca_key = new_key(), *oth_key = new_key();
	X509 *ca = NULL, *srv = NULL, *cn = NULL, *cli = NULL, *oca = NULL, *oth = NULL;
	int ret = -1;

	memset(pki, 0, sizeof(*pki));
	snprintf(pki->dir, sizeof(pki->dir), "/tmp/eaptls-pki.XXXXXX");
	if (!mkdtemp(pki->dir))
		goto out;
	PATH(ca, "ca.pem");
	PATH(server_cert, "server.pem");
	PATH(server_key, "server.key");
	PATH(cn_cert, "cn.pem");
	PATH(cn_key, "cn.key");
	PATH(client_cert, "client.pem");
	PATH(client_key, "client.key");
	PATH(client_key_enc, "client-enc.key");
	PATH(client_p12, "client.p12");
	PATH(client_p12_enc, "client-enc.p12");
	PATH(other_ca, "other-ca.pem");
	PATH(other_cert, "other.pem");
	PATH(other_key, "other.key");
	if (!ca_key || !srv_key || !cn_key || !cli_key || !oca_key || !oth_key)
		goto out;
	ca = make_cert(ca_key, "wpad test CA", NULL, NULL, NULL, true, 1);
	oca = make_cert(oca_key, "wpad other CA", NULL, NULL, NULL, true, 1);
	if (!ca || !oca)
		goto out;
	srv = make_cert(srv_key, "radius.example.com",
			"DNS:radius.example.com,DNS:auth.example.com", ca, ca_key, false, 2);
	cn = make_cert(cn_key, "cn.example.com", NULL, ca, ca_key, false, 3);
	cli = make_cert(cli_key, "user@example.com", NULL, ca, ca_key, false, 4);
	oth = make_cert(oth_key, "radius.example.com", "DNS:radius.example.com", oca, oca_key,
			false, 2);
	if (!srv || !cn || !cli || !oth)
		goto out;
	if (write_cert(pki->ca, ca) || write_cert(pki->server_cert, srv) ||
	    write_key(pki->server_key, srv_key, NULL) || write_cert(pki->cn_cert, cn) ||
	    write_key(pki->cn_key, cn_key, NULL) || write_cert(pki->client_cert, cli) ||
	    write_key(pki->client_key, cli_key, NULL) ||
	    write_key(pki->client_key_enc, cli_key, TLS_TEST_PASSPHRASE) ||
	    write_p12(pki->client_p12, cli_key, cli, NULL) ||
	    write_p12(pki->client_p12_enc, cli_key, cli, TLS_TEST_PASSPHRASE) ||
	    write_cert(pki->other_ca, oca) || write_cert(pki->other_cert, oth) ||
	    write_key(pki->other_key, oth_key, NULL))
		goto out;
	ret = 0;
out:
	X509_free(ca);
	X509_free(srv);
	X509_free(cn);
	X509_free(cli);
	X509_free(oca);
	X509_free(oth);
	EVP_PKEY_free(ca_key);
	EVP_PKEY_free(srv_key);
	EVP_PKEY_free(cn_key);
	EVP_PKEY_free(cli_key);
	EVP_PKEY_free(oca_key);
	EVP_PKEY_free(oth_key);
	ERR_clear_error();
	return ret;
}

void tls_test_pki_remove(struct tls_test_pki *pki)
{
	const char *files[] = { pki->ca,	  pki->server_cert, pki->server_key,
				pki->cn_cert,	  pki->cn_key,	    pki->client_cert,
				pki->client_key,  pki->client_key_enc, pki->client_p12,
				pki->client_p12_enc, pki->other_ca,   pki->other_cert,
				pki->other_key };

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (files[i][0])
			unlink(files[i]);
	if (pki->dir[0])
		rmdir(pki->dir);
}

/* --- the server --- */

SSL_CTX *tls_test_server_ctx(const struct tls_test_server_cfg *cfg)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());

	if (!ctx)
		return NULL;
	if (SSL_CTX_use_certificate_file(ctx, cfg->cert, SSL_FILETYPE_PEM) != 1 ||
	    SSL_CTX_use_PrivateKey_file(ctx, cfg->key, SSL_FILETYPE_PEM) != 1)
		goto fail;
	SSL_CTX_set_min_proto_version(ctx, cfg->min_version ? cfg->min_version : TLS1_2_VERSION);
	SSL_CTX_set_max_proto_version(ctx, cfg->max_version);
	if (cfg->client_ca) {
		if (SSL_CTX_load_verify_locations(ctx, cfg->client_ca, NULL) != 1)
			goto fail;
		SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
	}
	SSL_CTX_set_session_id_context(ctx, (const unsigned char *)"eaptls", 6);
	if (cfg->no_tickets) {
		SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET);
		SSL_CTX_set_num_tickets(ctx, 0);
	} else {
		SSL_CTX_set_num_tickets(ctx, 1);
	}
	return ctx;
fail:
	ERR_clear_error();
	SSL_CTX_free(ctx);
	return NULL;
}

int tls_test_server_init(struct tls_test_server *s, SSL_CTX *ctx)
{
	memset(s, 0, sizeof(*s));
	s->ssl = SSL_new(ctx);
	s->rbio = BIO_new(BIO_s_mem());
	s->wbio = BIO_new(BIO_s_mem());
	if (!s->ssl || !s->rbio || !s->wbio)
		return -1;
	BIO_set_mem_eof_return(s->rbio, -1);
	BIO_set_mem_eof_return(s->wbio, -1);
	SSL_set_bio(s->ssl, s->rbio, s->wbio);
	SSL_set_accept_state(s->ssl);
	return 0;
}

void tls_test_server_deinit(struct tls_test_server *s)
{
	SSL_free(s->ssl);
	memset(s, 0, sizeof(*s));
}

void tls_test_server_feed(struct tls_test_server *s, const uint8_t *in, size_t len)
{
	if (len)
		BIO_write(s->rbio, in, (int)len);
}

int tls_test_server_handshake(struct tls_test_server *s)
{
	int r = SSL_do_handshake(s->ssl);
	int e;

	if (r == 1)
		return 1;
	e = SSL_get_error(s->ssl, r);
	if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE)
		return 0;
	ERR_clear_error();
	return -1;
}

size_t tls_test_server_take(struct tls_test_server *s, uint8_t *buf, size_t max)
{
	int r = BIO_read(s->wbio, buf, (int)max);

	return r > 0 ? (size_t)r : 0;
}
