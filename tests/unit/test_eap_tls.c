/* EAP-TLS (eap/eap_tls.c) through the EAP peer against the scripted server
 * (eap_tls_test_server.h): TLS 1.3 (RFC 9190) and 1.2 (RFC 5216), with
 * fragmentation both ways, a client certificate, key export checked
 * against the server's exporter (neither RFC publishes numeric vectors:
 * the keys depend on the handshake's randoms), Session-Id, resumption,
 * the user-facing errors (name, trust, alert, credentials) and the
 * passphrase asked through need_secret.
 */
#include <check.h>
#include <string.h>

#include "eap/eap_peer.h"
#include "eap/eap_peer_i.h"
#include "eap_tls_test_server.h"
#include "tls_test_pki.h"

static struct eap_peer_profile tls_profile(void)
{
	struct eap_peer_profile p = {
		.methods = { "TLS" },
		.n_methods = 1,
		.identity = "user@example.com",
		.tls = {
			.ca_file = ets_pki.ca,
			.server_name = "radius.example.com",
			.client_cert = ets_pki.client_cert,
			.private_key = ets_pki.client_key,
		},
	};
	return p;
}

static void check_keys(struct ets *e)
{
	uint8_t km[128], mid[64], msk[64], emsk[64], sid[EAP_SESSION_ID_MAX];
	const uint8_t type = 13;
	int n;

	if (ets_tls13(e)) {
		ets_export(e, "EXPORTER_EAP_TLS_Key_Material", &type, 1, km, sizeof(km));
		ets_export(e, "EXPORTER_EAP_TLS_Method-Id", &type, 1, mid, sizeof(mid));
	} else {
		ets_export(e, "client EAP encryption", NULL, 0, km, sizeof(km));
		SSL_get_client_random(e->srv.ssl, mid, 32);
		SSL_get_server_random(e->srv.ssl, mid + 32, 32);
	}
	ck_assert_int_eq(eap_peer_msk(e->peer, msk, sizeof(msk)), 64);
	ck_assert_int_eq(eap_peer_emsk(e->peer, emsk, sizeof(emsk)), 64);
	ck_assert_mem_eq(msk, km, 64);
	ck_assert_mem_eq(emsk, km + 64, 64);
	n = eap_peer_session_id(e->peer, sid, sizeof(sid));
	ck_assert_int_eq(n, 65);
	ck_assert_uint_eq(sid[0], 0x0d);
	ck_assert_mem_eq(sid + 1, mid, 64);
}

static void success_case(int max, const char *want_version, size_t server_frag)
{
	struct eap_peer_profile p = tls_profile();
	SSL_CTX *sctx = ets_sctx_new(max, true);
	struct ets e;
	const struct eap_peer_tls_info *info;

	ets_init(&e, 13, sctx);
	e.frag_size = server_frag;
	ck_assert_int_eq(ets_run(&e, &p), EAP_PEER_SUCCESS);
	ck_assert_str_eq(eap_peer_method_name(e.peer), "TLS");
	/* The server verified our certificate. */
	ck_assert_ptr_nonnull(SSL_get0_peer_certificate(e.srv.ssl));
	check_keys(&e);
	info = eap_peer_tls_info(e.peer);
	ck_assert_ptr_nonnull(info);
	ck_assert_str_eq(info->version, want_version);
	ck_assert_ptr_nonnull(strstr(info->server_subject, "radius.example.com"));
	ck_assert_uint_eq(strlen(info->server_sha256), 64);
	ck_assert(!info->resumed);
	ets_deinit(&e);
	SSL_CTX_free(sctx);
}

START_TEST(tls13_success)
{
	success_case(0, "TLSv1.3", 1000);
}
END_TEST

START_TEST(tls12_success)
{
	success_case(TLS1_2_VERSION, "TLSv1.2", 1000);
}
END_TEST

START_TEST(server_fragments_small)
{
	/* 200-octet fragments: the server's flight comes in many pieces,
	 * each acknowledged by the peer. */
	struct eap_peer_profile p = tls_profile();
	SSL_CTX *sctx = ets_sctx_new(0, true);
	struct ets e;

	ets_init(&e, 13, sctx);
	e.frag_size = 200;
	ck_assert_int_eq(ets_run(&e, &p), EAP_PEER_SUCCESS);
	ck_assert_uint_ge(e.acks_from_peer, 5);
	check_keys(&e);
	ets_deinit(&e);
	SSL_CTX_free(sctx);
}
END_TEST

static void resume_case(int max)
{
	struct eap_peer_profile p = tls_profile();
	SSL_CTX *sctx = ets_sctx_new(max, true);
	struct ets e;

	ets_init(&e, 13, sctx);
	ck_assert_int_eq(ets_run(&e, &p), EAP_PEER_SUCCESS);
	ck_assert(!eap_peer_tls_info(e.peer)->resumed);
	ets_deinit(&e);

	ets_init(&e, 13, sctx);
	ck_assert_int_eq(ets_run(&e, &p), EAP_PEER_SUCCESS);
	ck_assert(eap_peer_tls_info(e.peer)->resumed);
	ck_assert_int_eq(SSL_session_reused(e.srv.ssl), 1);
	check_keys(&e);
	ets_deinit(&e);
	SSL_CTX_free(sctx);
}

START_TEST(resume_tls13)
{
	resume_case(0);
}
END_TEST

START_TEST(resume_tls12)
{
	resume_case(TLS1_2_VERSION);
}
END_TEST

static void failure_case(struct eap_peer_profile *p, SSL_CTX *sctx, enum eap_peer_err want,
			 const char *detail_has)
{
	struct ets e;
	const char *detail;

	ets_init(&e, 13, sctx);
	ck_assert_int_eq(ets_run(&e, p), EAP_PEER_FAILURE);
	ck_assert_int_eq(eap_peer_error(e.peer, &detail), want);
	ck_assert_msg(strstr(detail, detail_has) != NULL, "detail '%s' lacks '%s'", detail,
		      detail_has);
	uint8_t msk[64];
	ck_assert_int_lt(eap_peer_msk(e.peer, msk, sizeof(msk)), 0);
	ets_deinit(&e);
}

START_TEST(name_mismatch)
{
	struct eap_peer_profile p = tls_profile();
	SSL_CTX *sctx = ets_sctx_new(0, true);

	p.tls.server_name = "other.example.net";
	failure_case(&p, sctx, EAP_PEER_ERR_SERVER_NAME, "radius.example.com, auth.example.com");
	SSL_CTX_free(sctx);
}
END_TEST

START_TEST(untrusted_server)
{
	struct eap_peer_profile p = tls_profile();
	SSL_CTX *sctx = ets_sctx_new(0, true);

	p.tls.ca_file = ets_pki.other_ca;
	failure_case(&p, sctx, EAP_PEER_ERR_SERVER_UNTRUSTED, "radius.example.com");
	SSL_CTX_free(sctx);
}
END_TEST

START_TEST(no_ca_no_connection)
{
	struct eap_peer_profile p = tls_profile();
	SSL_CTX *sctx = ets_sctx_new(0, true);
	struct ets e;

	p.tls.ca_file = NULL;
	failure_case(&p, sctx, EAP_PEER_ERR_SERVER_UNTRUSTED, "no CA");
	/* The ClientHello never left. */
	ets_init(&e, 13, sctx);
	ck_assert_int_eq(ets_run(&e, &p), EAP_PEER_FAILURE);
	ck_assert_uint_eq(e.tx_count, 1); /* the Identity only */
	ets_deinit(&e);
	SSL_CTX_free(sctx);
}
END_TEST

START_TEST(server_alert_tls12)
{
	/* No client certificate for a server that wants one. */
	struct eap_peer_profile p = tls_profile();
	SSL_CTX *sctx = ets_sctx_new(TLS1_2_VERSION, true);

	p.tls.client_cert = NULL;
	p.tls.private_key = NULL;
	failure_case(&p, sctx, EAP_PEER_ERR_TLS_ALERT, "handshake failure");
	SSL_CTX_free(sctx);
}
END_TEST

START_TEST(server_alert_tls13)
{
	/* In TLS 1.3 our side is done before the server judges our (empty)
	 * certificate: its alert comes instead of the commitment. */
	struct eap_peer_profile p = tls_profile();
	SSL_CTX *sctx = ets_sctx_new(0, true);

	p.tls.client_cert = NULL;
	p.tls.private_key = NULL;
	failure_case(&p, sctx, EAP_PEER_ERR_TLS_ALERT, "server sent alert: certificate required (116)");
	SSL_CTX_free(sctx);
}
END_TEST

START_TEST(passphrase_asked)
{
	struct eap_peer_profile p = tls_profile();
	SSL_CTX *sctx = ets_sctx_new(0, true);
	struct ets e;

	p.tls.private_key = ets_pki.client_key_enc;
	ets_init(&e, 13, sctx);
	e.answer_passphrase = TLS_TEST_PASSPHRASE;
	ck_assert_int_eq(ets_run(&e, &p), EAP_PEER_SUCCESS);
	ck_assert_uint_eq(e.secrets_asked, 1);
	check_keys(&e);
	ets_deinit(&e);

	/* PKCS#12, and the user refusing to answer. */
	p.tls.client_cert = ets_pki.client_p12_enc;
	p.tls.private_key = NULL;
	ets_init(&e, 13, sctx);
	e.answer_passphrase = NULL;
	ck_assert_int_eq(ets_run(&e, &p), EAP_PEER_FAILURE);
	ck_assert_uint_eq(e.secrets_asked, 1);
	ets_deinit(&e);
	SSL_CTX_free(sctx);
}
END_TEST

START_TEST(tls13_success_before_commitment_ignored)
{
	/* RFC 9190 2.5: without the commitment the peer cannot know the
	 * handshake is over; a Success then is not believed: with the method
	 * open (MAY_CONT) and no verdict (FAIL), RFC 4137 4.3 makes it a
	 * failure, without keys. */
	struct eap_peer_profile p = tls_profile();
	SSL_CTX *sctx = ets_sctx_new(0, true);
	struct ets e;
	uint8_t msk[64];

	ets_init(&e, 13, sctx);
	e.success_before_commit = true;
	ets_run(&e, &p);
	ck_assert(e.finished); /* the server sent its Success */
	ck_assert_int_eq(eap_peer_result(e.peer), EAP_PEER_FAILURE);
	ck_assert_int_lt(eap_peer_msk(e.peer, msk, sizeof(msk)), 0);
	/* The same server with the commitment: success (the control). */
	ets_deinit(&e);
	ets_init(&e, 13, sctx);
	ck_assert_int_eq(ets_run(&e, &p), EAP_PEER_SUCCESS);
	ets_deinit(&e);
	SSL_CTX_free(sctx);
}
END_TEST

START_TEST(wrong_passphrase)
{
	struct eap_peer_profile p = tls_profile();
	SSL_CTX *sctx = ets_sctx_new(0, true);

	p.tls.private_key = ets_pki.client_key_enc;
	p.tls.key_passphrase = "wrong";
	failure_case(&p, sctx, EAP_PEER_ERR_CREDENTIALS, "wrong passphrase");
	SSL_CTX_free(sctx);
}
END_TEST

/* The method contract of the three TLS-based methods: a server's Start
 * begins a new authentication, so the verdict of an earlier handshake on
 * the same instance (left in *decision by the framework, which hands the
 * method back what it returned last) must not survive it: a Success
 * arriving before the new handshake ends would otherwise be believed, with
 * no keys behind it. */
static int no_tx(void *ctx, const uint8_t *pkt, size_t len)
{
	(void)ctx;
	(void)pkt;
	(void)len;
	return 0;
}

START_TEST(start_resets_decision)
{
	static const struct eap_peer_ops ops = { .tx = no_tx };
	static const char *const names[] = { "TLS", "PEAP", "TTLS" };
	struct eap_peer_profile p = tls_profile();
	const uint8_t start = 0x20;

	p.methods[0] = "TLS";
	p.methods[1] = "PEAP";
	p.methods[2] = "TTLS";
	p.n_methods = 3;
	p.password = "pass word";
	p.password_len = 9;
	p.phase2 = "GTC";
	p.phase2_eap = true; /* TTLS runs an EAP method inside, as PEAP does */
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct eap_peer_method *m = eap_peer_method_by_name(names[i]);
		struct eap_peer *peer = eap_peer_new(&p, &ops, NULL);
		struct eap_buf resp = { 0 };
		enum eap_method_state st = EAP_METHOD_MAY_CONT;
		enum eap_decision dec = EAP_DECISION_COND_SUCC;
		void *priv;

		ck_assert_ptr_nonnull(m);
		ck_assert_ptr_nonnull(peer);
		priv = m->init(eap_peer_ctx_of(peer));
		ck_assert_ptr_nonnull(priv);
		ck_assert_int_eq(m->process(priv, 7, &start, 1, &resp, &st, &dec), 0);
		ck_assert_msg(resp.len > 1, "%s: no ClientHello after Start", names[i]);
		ck_assert_msg(st == EAP_METHOD_MAY_CONT, "%s: state %d after Start", names[i], st);
		ck_assert_msg(dec == EAP_DECISION_FAIL, "%s: decision %d kept across Start",
			      names[i], dec);
		eap_buf_release(&resp);
		m->deinit(priv);
		eap_peer_free(peer);
	}
}
END_TEST

Suite *make_eap_tls_suite(void)
{
	Suite *s = suite_create("eap_tls");
	TCase *tc = tcase_create("eap_tls");

	ets_add_run_fixtures(tc);
	tcase_add_test(tc, tls13_success);
	tcase_add_test(tc, tls12_success);
	tcase_add_test(tc, server_fragments_small);
	tcase_add_test(tc, resume_tls13);
	tcase_add_test(tc, resume_tls12);
	tcase_add_test(tc, name_mismatch);
	tcase_add_test(tc, untrusted_server);
	tcase_add_test(tc, no_ca_no_connection);
	tcase_add_test(tc, server_alert_tls12);
	tcase_add_test(tc, server_alert_tls13);
	tcase_add_test(tc, passphrase_asked);
	tcase_add_test(tc, wrong_passphrase);
	tcase_add_test(tc, tls13_success_before_commitment_ignored);
	tcase_add_test(tc, start_resets_decision);
	suite_add_tcase(s, tc);
	return s;
}
