/* eap/tls_conn: the TLS client of the TLS-based EAP methods against an
 * in-process OpenSSL server on memory BIOs, with certificates made at run
 * time (tls_test_pki.h). RFC 5216 and RFC 9190 give no numeric key
 * vectors (their keys depend on the handshake's randoms), so key export
 * is checked against the server side's exporter on the same handshake.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/pem.h>
#include <openssl/ssl.h>

#include "daemon/crypto/cred_blob.h"
#include "eap/tls_conn.h"
#include "eap/tls_creds.h"
#include "eap/tls_ctx.h"
#include "tls_test_pki.h"

static struct tls_test_pki pki;

static void pki_setup(void)
{
	ck_assert_int_eq(tls_test_pki_make(&pki), 0);
}

static void pki_teardown(void)
{
	tls_test_pki_remove(&pki);
}

static void conn_setup(void)
{
	tls_conn_cache_flush();
}

static void conn_teardown(void)
{
	tls_conn_cache_flush();
}

static struct eap_tls_policy base_policy(void)
{
	struct eap_tls_policy p = { .ca_file = pki.ca, .server_name = "radius.example.com" };
	return p;
}

static SSL_CTX *server_ctx(const char *cert, const char *key, int max, const char *client_ca)
{
	struct tls_test_server_cfg cfg = {
		.cert = cert, .key = key, .max_version = max, .client_ca = client_ca,
	};
	SSL_CTX *ctx = tls_test_server_ctx(&cfg);

	ck_assert_ptr_nonnull(ctx);
	return ctx;
}

/* Exchange flights until neither side has anything to say. Returns 1
 * when both are established, -1 when the client failed, -2 when only the
 * server failed. */
static int pump(struct tls_conn *c, struct tls_test_server *s)
{
	static uint8_t buf[65536];
	int cr = 0, sr = 0;

	for (int round = 0; round < 20; round++) {
		size_t n;
		bool moved = false;

		cr = tls_conn_handshake(c);
		if (cr == 1) {
			uint8_t app[64];
			/* Post-handshake messages (tickets, alerts). */
			if (tls_conn_read(c, app, sizeof(app)) < 0)
				return -1;
		}
		if (cr < 0)
			return -1;
		n = tls_conn_out_take(c, buf, sizeof(buf));
		if (n) {
			tls_test_server_feed(s, buf, n);
			moved = true;
		}
		sr = tls_test_server_handshake(s);
		n = tls_test_server_take(s, buf, sizeof(buf));
		if (n) {
			ck_assert_int_eq(tls_conn_feed(c, buf, n), 0);
			moved = true;
		}
		if (!moved && cr == 1 && sr == 1)
			return 1;
		if (!moved && sr < 0) {
			return -2;
		}
	}
	return cr == 1 && sr == 1 ? 1 : -3;
}

/* A full run: returns pump()'s result; *out_c keeps the client. */
static int run(const struct eap_tls_policy *p, SSL_CTX *sctx, struct tls_conn **out_c,
	       struct tls_test_server *s)
{
	struct tls_conn_status st;
	struct tls_conn *c = tls_conn_new(p, "test", &st);

	ck_assert_msg(c != NULL, "tls_conn_new: %s", st.detail);
	ck_assert_int_eq(tls_test_server_init(s, sctx), 0);
	*out_c = c;
	return pump(c, s);
}

static void check_export_agrees(struct tls_conn *c, struct tls_test_server *s,
				const char *label, const uint8_t *context, size_t context_len)
{
	uint8_t a[128], b[128];

	ck_assert_int_eq(tls_conn_export(c, label, context, context_len, a, sizeof(a)), 0);
	ck_assert_int_eq(SSL_export_keying_material(s->ssl, b, sizeof(b), label, strlen(label),
						    context, context_len, context != NULL),
			 1);
	ck_assert_mem_eq(a, b, sizeof(a));
}

START_TEST(handshake_tls12_export)
{
	struct eap_tls_policy p = base_policy();
	SSL_CTX *sctx = server_ctx(pki.server_cert, pki.server_key, TLS1_2_VERSION, NULL);
	struct tls_test_server s;
	struct tls_conn *c;
	uint8_t r[64], other[128];

	ck_assert_int_eq(run(&p, sctx, &c, &s), 1);
	ck_assert_int_eq(tls_conn_version(c), TLS1_2_VERSION);
	/* RFC 5216 2.3: PRF(master, "client EAP encryption", randoms), no context. */
	check_export_agrees(c, &s, "client EAP encryption", NULL, 0);
	check_export_agrees(c, &s, "ttls keying material", NULL, 0);
	/* A different label gives different keys (the exporter is not a constant). */
	ck_assert_int_eq(tls_conn_export(c, "ttls keying material", NULL, 0, other, 128), 0);
	uint8_t k[128];
	ck_assert_int_eq(tls_conn_export(c, "client EAP encryption", NULL, 0, k, 128), 0);
	ck_assert(memcmp(k, other, 128) != 0);
	ck_assert_int_eq(tls_conn_randoms(c, r), 0);
	uint8_t sr[32];
	SSL_get_server_random(s.ssl, sr, 32);
	ck_assert_mem_eq(r + 32, sr, 32);
	ck_assert_int_eq(tls_conn_error(c, NULL), EAP_PEER_ERR_NONE);
	tls_conn_free(c);
	tls_test_server_deinit(&s);
	SSL_CTX_free(sctx);
}
END_TEST

START_TEST(handshake_tls13_export_and_info)
{
	struct eap_tls_policy p = base_policy();
	SSL_CTX *sctx = server_ctx(pki.server_cert, pki.server_key, 0, NULL);
	struct tls_test_server s;
	struct tls_conn *c;
	struct eap_peer_tls_info info;
	const uint8_t type_tls = 0x0d;

	ck_assert_int_eq(run(&p, sctx, &c, &s), 1);
	ck_assert_int_eq(tls_conn_version(c), TLS1_3_VERSION);
	/* RFC 9190 2.3: TLS-Exporter("EXPORTER_EAP_TLS_Key_Material", 0x0D, 128). */
	check_export_agrees(c, &s, "EXPORTER_EAP_TLS_Key_Material", &type_tls, 1);
	check_export_agrees(c, &s, "EXPORTER_EAP_TLS_Method-Id", &type_tls, 1);

	tls_conn_info(c, &info);
	ck_assert_str_eq(info.version, "TLSv1.3");
	ck_assert_ptr_nonnull(strstr(info.server_subject, "CN=radius.example.com"));
	ck_assert(!info.resumed);
	/* The fingerprint is the SHA-256 of the server certificate's DER. */
	FILE *f = fopen(pki.server_cert, "r");
	X509 *cert = PEM_read_X509(f, NULL, NULL, NULL);
	unsigned char md[32];
	unsigned int md_len;
	char hex[65];
	fclose(f);
	X509_digest(cert, EVP_sha256(), md, &md_len);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	ck_assert_str_eq(info.server_sha256, hex);
	X509_free(cert);
	tls_conn_free(c);
	tls_test_server_deinit(&s);
	SSL_CTX_free(sctx);
}
END_TEST

static void resume_case(int max)
{
	struct eap_tls_policy p = base_policy();
	SSL_CTX *sctx = server_ctx(pki.server_cert, pki.server_key, max, NULL);
	struct tls_test_server s;
	struct tls_conn *c;

	ck_assert_int_eq(run(&p, sctx, &c, &s), 1);
	ck_assert(!tls_conn_resumed(c));
	ck_assert(tls_conn_has_session(c));
	tls_conn_keep_session(c);
	tls_conn_free(c);
	tls_test_server_deinit(&s);

	ck_assert_int_eq(run(&p, sctx, &c, &s), 1);
	ck_assert(tls_conn_resumed(c));
	ck_assert_int_eq(SSL_session_reused(s.ssl), 1);
	check_export_agrees(c, &s, "client EAP encryption", NULL, 0);
	tls_conn_free(c);
	tls_test_server_deinit(&s);

	/* Not kept after the second run: still resumable from the first? A
	 * flush forgets it, and the third run is a full handshake. */
	tls_conn_cache_flush();
	ck_assert_int_eq(run(&p, sctx, &c, &s), 1);
	ck_assert(!tls_conn_resumed(c));
	tls_conn_free(c);
	tls_test_server_deinit(&s);
	SSL_CTX_free(sctx);
}

START_TEST(resume_tls12)
{
	resume_case(TLS1_2_VERSION);
}
END_TEST

START_TEST(resume_tls13)
{
	resume_case(0);
}
END_TEST

START_TEST(no_session_kept_without_success)
{
	struct eap_tls_policy p = base_policy();
	SSL_CTX *sctx = server_ctx(pki.server_cert, pki.server_key, 0, NULL);
	struct tls_test_server s;
	struct tls_conn *c;

	ck_assert_int_eq(run(&p, sctx, &c, &s), 1);
	tls_conn_free(c); /* no tls_conn_keep_session: the authentication failed */
	tls_test_server_deinit(&s);
	ck_assert_int_eq(run(&p, sctx, &c, &s), 1);
	ck_assert(!tls_conn_resumed(c));
	tls_conn_free(c);
	tls_test_server_deinit(&s);
	SSL_CTX_free(sctx);
}
END_TEST

static void expect_fail(struct eap_tls_policy *p, const char *cert, const char *key,
			enum eap_peer_err want, const char *detail_has)
{
	SSL_CTX *sctx = server_ctx(cert, key, 0, NULL);
	struct tls_test_server s;
	struct tls_conn *c;
	const char *detail;

	ck_assert_int_lt(run(p, sctx, &c, &s), 0);
	ck_assert_int_eq(tls_conn_error(c, &detail), want);
	ck_assert_msg(strstr(detail, detail_has) != NULL, "detail '%s' lacks '%s'", detail,
		      detail_has);
	ck_assert(!tls_conn_established(c));
	tls_conn_free(c);
	tls_test_server_deinit(&s);
	SSL_CTX_free(sctx);
}

START_TEST(name_mismatch_reports_names_seen)
{
	struct eap_tls_policy p = base_policy();

	p.server_name = "wrong.example.com";
	expect_fail(&p, pki.server_cert, pki.server_key, EAP_PEER_ERR_SERVER_NAME,
		    "radius.example.com, auth.example.com");
}
END_TEST

START_TEST(suffix_on_label_boundary)
{
	struct eap_tls_policy p = base_policy();
	SSL_CTX *sctx = server_ctx(pki.server_cert, pki.server_key, 0, NULL);
	struct tls_test_server s;
	struct tls_conn *c;

	p.server_name = NULL;
	p.domain_suffix = "EXAMPLE.com";
	ck_assert_int_eq(run(&p, sctx, &c, &s), 1);
	tls_conn_free(c);
	tls_test_server_deinit(&s);
	SSL_CTX_free(sctx);

	p.domain_suffix = "ample.com"; /* not on a label boundary */
	expect_fail(&p, pki.server_cert, pki.server_key, EAP_PEER_ERR_SERVER_NAME,
		    "radius.example.com");
}
END_TEST

START_TEST(cn_without_san)
{
	struct eap_tls_policy p = base_policy();
	SSL_CTX *sctx = server_ctx(pki.cn_cert, pki.cn_key, 0, NULL);
	struct tls_test_server s;
	struct tls_conn *c;

	p.server_name = "cn.example.com";
	ck_assert_int_eq(run(&p, sctx, &c, &s), 1);
	tls_conn_free(c);
	tls_test_server_deinit(&s);
	SSL_CTX_free(sctx);

	p.server_name = "radius.example.com";
	expect_fail(&p, pki.cn_cert, pki.cn_key, EAP_PEER_ERR_SERVER_NAME, "cn.example.com");
}
END_TEST

START_TEST(untrusted_ca)
{
	struct eap_tls_policy p = base_policy();

	expect_fail(&p, pki.other_cert, pki.other_key, EAP_PEER_ERR_SERVER_UNTRUSTED,
		    "CN=radius.example.com");
}
END_TEST

START_TEST(no_ca_refused_unless_allowed)
{
	struct eap_tls_policy p = { .server_name = "radius.example.com" };
	struct tls_conn_status st;
	SSL_CTX *sctx;
	struct tls_test_server s;
	struct tls_conn *c;

	ck_assert_ptr_null(tls_conn_new(&p, "k", &st));
	ck_assert_int_eq(st.err, EAP_PEER_ERR_SERVER_UNTRUSTED);
	ck_assert_ptr_nonnull(strstr(st.detail, "no CA"));

	p.allow_unverified = true; /* said in as many words */
	sctx = server_ctx(pki.other_cert, pki.other_key, 0, NULL);
	ck_assert_int_eq(run(&p, sctx, &c, &s), 1);
	tls_conn_free(c);
	tls_test_server_deinit(&s);
	SSL_CTX_free(sctx);

	/* The name is still checked without a CA. */
	p.server_name = "nope.example.org";
	expect_fail(&p, pki.other_cert, pki.other_key, EAP_PEER_ERR_SERVER_NAME,
		    "radius.example.com");
}
END_TEST

START_TEST(system_store_needs_a_name)
{
	struct eap_tls_policy p = { .ca_system = true };
	struct tls_conn_status st;

	ck_assert_ptr_null(tls_conn_new(&p, "k", &st));
	ck_assert_int_eq(st.err, EAP_PEER_ERR_SERVER_NAME);
	p.domain_suffix = "example.com";
	struct tls_conn *c = tls_conn_new(&p, "k", &st);
	ck_assert_ptr_nonnull(c);
	tls_conn_free(c);
}
END_TEST

START_TEST(alert_is_captured)
{
	/* TLS 1.2 server wanting a client certificate we do not have: it
	 * answers our flight with an alert. */
	struct eap_tls_policy p = base_policy();
	SSL_CTX *sctx = server_ctx(pki.server_cert, pki.server_key, TLS1_2_VERSION, pki.ca);
	struct tls_test_server s;
	struct tls_conn *c;
	const char *detail;

	ck_assert_int_lt(run(&p, sctx, &c, &s), 0);
	ck_assert_int_eq(tls_conn_error(c, &detail), EAP_PEER_ERR_TLS_ALERT);
	ck_assert_msg(strstr(detail, "server sent alert") != NULL, "%s", detail);
	ck_assert_msg(strstr(detail, "handshake failure") != NULL, "%s", detail);
	tls_conn_free(c);
	tls_test_server_deinit(&s);
	SSL_CTX_free(sctx);
}
END_TEST

START_TEST(version_floor)
{
	struct eap_tls_policy p = base_policy();

	p.min_version = TLS1_3_VERSION;
	SSL_CTX *sctx = server_ctx(pki.server_cert, pki.server_key, TLS1_2_VERSION, NULL);
	struct tls_test_server s;
	struct tls_conn *c;
	const char *detail;

	ck_assert_int_lt(run(&p, sctx, &c, &s), 0);
	ck_assert_int_eq(tls_conn_error(c, &detail), EAP_PEER_ERR_TLS_ALERT);
	ck_assert_msg(strstr(detail, "protocol version") != NULL, "%s", detail);
	tls_conn_free(c);
	tls_test_server_deinit(&s);
	SSL_CTX_free(sctx);
}
END_TEST

static void client_cert_case(const char *cert, const char *key, const char *pass, int max)
{
	struct eap_tls_policy p = base_policy();
	SSL_CTX *sctx = server_ctx(pki.server_cert, pki.server_key, max, pki.ca);
	struct tls_test_server s;
	struct tls_conn *c;
	uint8_t app[16];

	p.client_cert = cert;
	p.private_key = key;
	p.key_passphrase = pass;
	ck_assert_int_eq(run(&p, sctx, &c, &s), 1);
	/* The server saw and verified our certificate. */
	X509 *peer = SSL_get0_peer_certificate(s.ssl);
	ck_assert_ptr_nonnull(peer);
	ck_assert_int_eq(SSL_get_verify_result(s.ssl), X509_V_OK);
	ck_assert_int_eq(tls_conn_read(c, app, sizeof(app)), 0);
	tls_conn_free(c);
	tls_test_server_deinit(&s);
	SSL_CTX_free(sctx);
}

/* A file's bytes as a blob named name (the front's AddBlob). */
static void blob_of_file(const char *name, const char *path)
{
	static uint8_t buf[16384];
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	ck_assert_int_eq(cred_blob_put(name, buf, n), 0);
}

/* blob://NAME instead of files: the CA as PEM and as DER, the client
 * certificate and its encrypted key, a PKCS#12 bundle; a blob that is not
 * there leaves the server untrusted. */
START_TEST(credentials_from_blobs)
{
	blob_of_file("t/ca", pki.ca);
	blob_of_file("t/cert", pki.client_cert);
	blob_of_file("t/key", pki.client_key_enc);
	blob_of_file("t/p12", pki.client_p12);
	FILE *f = fopen(pki.ca, "r");
	ck_assert_ptr_nonnull(f);
	X509 *ca = PEM_read_X509(f, NULL, NULL, NULL);
	fclose(f);
	ck_assert_ptr_nonnull(ca);
	unsigned char *der = NULL;
	int der_len = i2d_X509(ca, &der);
	ck_assert_int_gt(der_len, 0);
	ck_assert_int_eq(cred_blob_put("t/ca-der", der, (size_t)der_len), 0);
	OPENSSL_free(der);
	X509_free(ca);

	client_cert_case("blob://t/cert", "blob://t/key", TLS_TEST_PASSPHRASE, 0);
	client_cert_case("blob://t/p12", NULL, NULL, TLS1_2_VERSION);

	struct eap_tls_policy p = base_policy();
	SSL_CTX *sctx = server_ctx(pki.server_cert, pki.server_key, 0, NULL);
	struct tls_test_server s;
	struct tls_conn *c;
	const char *cas[] = { "blob://t/ca", "blob://t/ca-der" };
	for (size_t i = 0; i < 2; i++) {
		p.ca_file = cas[i];
		ck_assert_int_eq(run(&p, sctx, &c, &s), 1);
		tls_conn_free(c);
		tls_test_server_deinit(&s);
	}
	p.ca_file = "blob://t/none";
	struct tls_conn_status st;
	c = tls_conn_new(&p, "test", &st);
	ck_assert_ptr_null(c);
	ck_assert_int_eq(st.err, EAP_PEER_ERR_SERVER_UNTRUSTED);
	ck_assert_msg(strstr(st.detail, "t/none"), "%s", st.detail);
	SSL_CTX_free(sctx);
	cred_blob_drop_prefix("t/");
}
END_TEST

START_TEST(client_cert_pem)
{
	client_cert_case(pki.client_cert, pki.client_key, NULL, TLS1_2_VERSION);
	client_cert_case(pki.client_cert, pki.client_key_enc, TLS_TEST_PASSPHRASE, 0);
}
END_TEST

START_TEST(client_cert_pkcs12)
{
	client_cert_case(pki.client_p12, NULL, NULL, 0);
	client_cert_case(pki.client_p12_enc, NULL, TLS_TEST_PASSPHRASE, TLS1_2_VERSION);
}
END_TEST

START_TEST(passphrase_missing_or_wrong)
{
	struct eap_tls_policy p = base_policy();
	struct tls_conn_status st;

	p.client_cert = pki.client_cert;
	p.private_key = pki.client_key_enc;
	ck_assert_ptr_null(tls_conn_new(&p, "k", &st));
	ck_assert_int_eq(st.err, EAP_PEER_ERR_CREDENTIALS);
	ck_assert(st.need_passphrase);
	p.key_passphrase = "not it";
	ck_assert_ptr_null(tls_conn_new(&p, "k", &st));
	ck_assert(!st.need_passphrase);
	ck_assert_ptr_nonnull(strstr(st.detail, "wrong passphrase"));

	p.client_cert = pki.client_p12_enc;
	p.private_key = NULL;
	p.key_passphrase = NULL;
	ck_assert_ptr_null(tls_conn_new(&p, "k", &st));
	ck_assert(st.need_passphrase);
	p.key_passphrase = "not it";
	ck_assert_ptr_null(tls_conn_new(&p, "k", &st));
	ck_assert(!st.need_passphrase);
	ck_assert_int_eq(st.err, EAP_PEER_ERR_CREDENTIALS);

	/* A key that is not the certificate's. */
	p.client_cert = pki.client_cert;
	p.private_key = pki.server_key;
	p.key_passphrase = NULL;
	ck_assert_ptr_null(tls_conn_new(&p, "k", &st));
	ck_assert_ptr_nonnull(strstr(st.detail, "does not match"));
}
END_TEST

static unsigned long ctx_builds(void)
{
	unsigned long built, reused;

	tls_ctx_cache_stats(&built, &reused);
	return built;
}

/* A new connection of builds, connected to a fresh server and freed. */
static void connect_once(const struct eap_tls_policy *p, SSL_CTX *sctx, unsigned long builds)
{
	unsigned long before = ctx_builds();
	struct tls_test_server s;
	struct tls_conn *c;

	ck_assert_int_eq(run(p, sctx, &c, &s), 1);
	ck_assert_uint_eq(ctx_builds() - before, builds);
	tls_conn_free(c);
	tls_test_server_deinit(&s);
}

/* from's bytes into to, in place, with the modification time given (the
 * file clock ticks coarsely: two writes in one tick could share one). */
static void copy_file(const char *from, const char *to, time_t mtime)
{
	char buf[16384];
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	const struct timespec t[2] = { { mtime, 0 }, { mtime, 0 } };
	size_t n;

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(out);
	n = fread(buf, 1, sizeof(buf), in);
	ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
	fclose(in);
	fflush(out);
	ck_assert_int_eq(futimens(fileno(out), t), 0);
	fclose(out);
}

/* The TLS context (CA store, client key) is built once per policy and
 * reused by the next attempt; a changed file, another passphrase, another
 * trust setting each build a new one, and a key that cannot be read is
 * never served from the cache. */
START_TEST(context_built_once_per_policy)
{
	struct eap_tls_policy p = base_policy();
	SSL_CTX *sctx = server_ctx(pki.server_cert, pki.server_key, 0, pki.ca);
	char ca_copy[160];
	struct tls_conn_status st;

	p.client_cert = pki.client_cert;
	p.private_key = pki.client_key_enc;
	p.key_passphrase = TLS_TEST_PASSPHRASE;
	connect_once(&p, sctx, 1);
	connect_once(&p, sctx, 0);
	connect_once(&p, sctx, 0);

	/* A wrong passphrase is not answered by the context of the right one. */
	p.key_passphrase = "not it";
	ck_assert_ptr_null(tls_conn_new(&p, "k", &st));
	ck_assert_ptr_nonnull(strstr(st.detail, "wrong passphrase"));
	p.key_passphrase = NULL;
	ck_assert_ptr_null(tls_conn_new(&p, "k", &st));
	ck_assert(st.need_passphrase);
	p.key_passphrase = TLS_TEST_PASSPHRASE;
	connect_once(&p, sctx, 0);

	/* The CA file rewritten on disk (the same path): built again. */
	snprintf(ca_copy, sizeof(ca_copy), "%s/ca-copy.pem", pki.dir);
	copy_file(pki.ca, ca_copy, 1000000);
	p.ca_file = ca_copy;
	connect_once(&p, sctx, 1);
	connect_once(&p, sctx, 0);
	copy_file(pki.other_ca, ca_copy, 1000001); /* now trusts another CA only */
	{
		struct tls_test_server s;
		struct tls_conn *c;

		ck_assert_int_eq(run(&p, sctx, &c, &s), -1);
		ck_assert_int_eq(tls_conn_error(c, NULL), EAP_PEER_ERR_SERVER_UNTRUSTED);
		tls_conn_free(c);
		tls_test_server_deinit(&s);
	}
	copy_file(pki.ca, ca_copy, 1000002);
	connect_once(&p, sctx, 1);

	/* Another TLS floor: another context. */
	p.min_version = TLS1_3_VERSION;
	connect_once(&p, sctx, 1);
	unlink(ca_copy);
	SSL_CTX_free(sctx);
}
END_TEST

START_TEST(name_helpers)
{
	static const struct {
		const char *name, *suffix;
		bool ok;
	} t[] = {
		{ "radius.example.com", "example.com", true },
		{ "example.com", "example.com", true },
		{ "EXAMPLE.COM", "example.com", true },
		{ "badexample.com", "example.com", false },
		{ "example.com.evil.org", "example.com", false },
		{ "com", "example.com", false },
		{ "a.example.com", "", false },
		{ ".example.com", "example.com", true },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		ck_assert_msg(tls_name_suffix(t[i].name, t[i].suffix) == t[i].ok, "%s / %s",
			      t[i].name, t[i].suffix);
	ck_assert(tls_name_exact("Radius.Example.com", "radius.example.com"));
	ck_assert(!tls_name_exact("radius.example.com.", "radius.example.com"));
}
END_TEST

Suite *make_eap_tls_conn_suite(void)
{
	Suite *s = suite_create("eap_tls_conn");
	TCase *tc = tcase_create("tls_conn");

	tcase_add_unchecked_fixture(tc, pki_setup, pki_teardown);
	tcase_add_checked_fixture(tc, conn_setup, conn_teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, handshake_tls12_export);
	tcase_add_test(tc, handshake_tls13_export_and_info);
	tcase_add_test(tc, resume_tls12);
	tcase_add_test(tc, resume_tls13);
	tcase_add_test(tc, no_session_kept_without_success);
	tcase_add_test(tc, name_mismatch_reports_names_seen);
	tcase_add_test(tc, suffix_on_label_boundary);
	tcase_add_test(tc, cn_without_san);
	tcase_add_test(tc, untrusted_ca);
	tcase_add_test(tc, no_ca_refused_unless_allowed);
	tcase_add_test(tc, system_store_needs_a_name);
	tcase_add_test(tc, alert_is_captured);
	tcase_add_test(tc, version_floor);
	tcase_add_test(tc, client_cert_pem);
	tcase_add_test(tc, credentials_from_blobs);
	tcase_add_test(tc, client_cert_pkcs12);
	tcase_add_test(tc, context_built_once_per_policy);
	tcase_add_test(tc, passphrase_missing_or_wrong);
	tcase_add_test(tc, name_helpers);
	suite_add_tcase(s, tc);
	return s;
}
