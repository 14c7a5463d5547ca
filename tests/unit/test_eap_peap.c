/* PEAPv0 (eap/eap_peap.c, eap/eap_peap_tlv.c): the cryptobinding
 * arithmetic against [MS-PEAP]'s published example and computed vectors,
 * the TLV parser's malformed table, and whole runs through the EAP peer
 * against the scripted server (eap_tls_test_server.h) with GTC inside:
 * with and without cryptobinding, TLS 1.2 and 1.3, a wrong password, a
 * server claiming success early, a bad Compound MAC, a tunnel offered
 * inside the tunnel. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "daemon/crypto/mschapv2.h"
#include "daemon/crypto/secure.h"
#include "eap/eap_peap_tlv.h"
#include "eap/eap_peer.h"
#include "eap_tls_test_server.h"
#include "tests/unit/test_hex.h"
#include "tls_test_pki.h"

/* [MS-PEAP] 4.4.1.3.2.3 "IPMK and CMK": CMK = T3 of the example, the
 * server's Crypto-Binding TLV request and its Compound MAC. */
START_TEST(compound_mac_ms_peap_example)
{
	uint8_t cmk[20], tlv[60], mac[20], want[20];

	ck_assert_int_eq((int)unhex("3355353B6920D074C782E475DFB0999D4DB467EB", cmk, 20), 20);
	ck_assert_int_eq((int)unhex("000C003800000000BDA7A599FA816521AD3064C2BDDBD16E"
				    "AA949E7D98A8D7943147CF425D85DA7B"
				    "0CBF105E91755748224FBB83000626911CFB1B0F",
				    tlv, 60),
			 60);
	ck_assert_int_eq((int)unhex("0CBF105E91755748224FBB83000626911CFB1B0F", want, 20), 20);
	ck_assert_int_eq(peap_compound_mac(cmk, tlv, mac), 0);
	ck_assert_mem_eq(mac, want, 20);
}
END_TEST

/* Computed (no published PRF+ input/output pair was found): TK = 00..3b,
 * ISK = 80..9f, with Python's hmac/hashlib following [MS-PEAP]
 * 3.1.5.5.2.2 and 3.1.5.7. */
START_TEST(cmk_and_csk_computed)
{
	uint8_t tk[60], isk[32], ipmk[40], cmk[20], csk[128], want[128];

	for (int i = 0; i < 60; i++)
		tk[i] = (uint8_t)i;
	for (int i = 0; i < 32; i++)
		isk[i] = (uint8_t)(0x80 + i);
	ck_assert_int_eq(peap_derive_cmk(tk, isk, ipmk, cmk), 0);
	unhex("d09f95bdc82242ef082b01f379ec2eb46d49f01f84b975865dfa0b65faf67b052dabc6c496f8a9b3",
		   want, 40);
	ck_assert_mem_eq(ipmk, want, 40);
	unhex("8adb63fcbe7efe4b3ce82a8a53aab6bac090a9df", want, 20);
	ck_assert_mem_eq(cmk, want, 20);
	ck_assert_int_eq(peap_csk(ipmk, csk), 0);
	unhex("94837390de739189a0c465b3ec52b6315a22204bfd7f4f0b648f2b5a74e5f7fc"
		   "94e476e3c573e8e69be2610f1d372981c466771655f6b43582531def8869c3ca"
		   "34cfeea63bce282d9bc8501164dfaf2b6f5807c647ea8825f4b23a181eef98bb"
		   "9d8bd458400d140575c21d8e135d38a118a2cb99152230efca1e17b9024ee724",
		   want, 128);
	ck_assert_mem_eq(csk, want, 128);
}
END_TEST

START_TEST(tlv_malformed_table)
{
	static const struct {
		const char *name, *hex, *err;
	} t[] = {
		{ "header truncated", "8003", "truncated" },
		{ "length past the end", "800300040001", "past the end" },
		{ "result too short", "8003000100", "not 2 octets" },
		{ "result twice", "800300020001800300020001", "twice" },
		{ "binding short", "000c0004" "00000000", "not 56 octets" },
		{ "unknown mandatory", "80070000", "unknown mandatory TLV 7" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint8_t buf[64];
		struct peap_tlvs tlvs;
		char err[96];
		int n = (int)unhex(t[i].hex, buf, sizeof(buf));

		ck_assert_int_gt(n, 0);
		ck_assert_msg(peap_tlv_parse(buf, (size_t)n, &tlvs, err, sizeof(err)) == -EBADMSG,
			      "%s accepted", t[i].name);
		ck_assert_msg(strstr(err, t[i].err) != NULL, "%s: '%s'", t[i].name, err);
	}
	/* An optional unknown TLV is skipped. */
	uint8_t ok[10];
	struct peap_tlvs tlvs;
	char err[96];
	int n = (int)unhex("0007000080030002" "0001", ok, sizeof(ok));
	ck_assert_int_eq(peap_tlv_parse(ok, (size_t)n, &tlvs, err, sizeof(err)), 0);
	ck_assert(tlvs.has_result);
	ck_assert_uint_eq(tlvs.result, 1);
}
END_TEST

/* --- the server's PEAP script --- */

struct peap_script {
	const char *password;	 /* what the server accepts */
	bool binding;		 /* offer cryptobinding */
	bool early_success;	 /* Result success before any inner method */
	bool corrupt_mac;	 /* a wrong Compound MAC */
	bool offer_ttls_inner;	 /* propose TTLS inside (must be refused) */
	bool mschapv2;		 /* MSCHAPv2 inside instead of GTC */
	int step;
	uint8_t isk[32];	 /* the inner keys (GTC: none) */
	uint8_t auth_chal[16];
	uint8_t cmk[20], ipmk[40];
	uint8_t nonce[32];
	bool saw_nak, binding_ok;
};

static void send_extensions(struct ets *e, struct peap_script *s, uint16_t status)
{
	uint8_t pkt[5 + 6 + 60];
	size_t n = 5;
	uint8_t tk[128];

	n += peap_tlv_build_result(pkt + n, sizeof(pkt) - n, status);
	if (s->binding && status == PEAP_RESULT_SUCCESS) {
		uint8_t *b = pkt + n;
		const uint8_t peap = 25;

		/* TK as hostapd's server derives it: a 64-octet export. */
		if (ets_tls13(e))
			ets_export(e, "EXPORTER_EAP_TLS_Key_Material", &peap, 1, tk, 64);
		else
			ets_export(e, "client EAP encryption", NULL, 0, tk, sizeof(tk));
		/* GTC exports no keys: ISK is 32 zeros. */
		ck_assert_int_eq(peap_derive_cmk(tk, s->isk, s->ipmk, s->cmk), 0);
		memset(b, 0, 60);
		b[1] = 12;
		b[3] = 56;
		for (int i = 0; i < 32; i++)
			s->nonce[i] = (uint8_t)(0xa0 + i);
		memcpy(b + 8, s->nonce, 32);
		ck_assert_int_eq(peap_compound_mac(s->cmk, b, b + 40), 0);
		if (s->corrupt_mac)
			b[45] ^= 1;
		n += 60;
	}
	pkt[0] = 1;
	pkt[1] = 42;
	pkt[2] = 0;
	pkt[3] = (uint8_t)n;
	pkt[4] = 33;
	ets_tunnel_write(e, pkt, n);
}

/* The server's MSCHAPv2 check, with daemon/crypto's primitives (their
 * RFC 2759 vectors are in the mschapv2 suite). */
static int ms_check_response(struct ets *e, struct peap_script *s, const uint8_t *d, size_t len)
{
	const char *user = "user@example.com";
	uint8_t hash[16], hh[16], nt[24], auth[20], master[16];
	char msg[80];
	uint8_t out[1 + 4 + 80];
	size_t n;

	ck_assert_uint_ge(len, 55);
	ck_assert_uint_eq(d[0], 26);
	ck_assert_uint_eq(d[1], 2);
	ck_assert_uint_eq(d[2], 5);
	ck_assert_uint_eq(d[5], 49);
	ck_assert_int_eq(mschapv2_nt_password_hash(s->password, strlen(s->password), hash), 0);
	ck_assert_int_eq(mschapv2_nt_response(s->auth_chal, d + 6, user, strlen(user), hash, nt), 0);
	if (memcmp(nt, d + 30, 24) != 0) {
		snprintf(msg, sizeof(msg), "E=691 R=0 C=%032d V=3 M=bad password", 0);
		s->step = 8;
		n = strlen(msg);
		out[1] = 4;
	} else {
		ck_assert_int_eq(mschapv2_authenticator_response(hash, nt, d + 6, s->auth_chal, user,
								 strlen(user), auth),
				 0);
		memcpy(msg, "S=", 2);
		for (int i = 0; i < 20; i++)
			snprintf(msg + 2 + 2 * i, 3, "%02X", auth[i]);
		memcpy(msg + 42, " M=ok", 6);
		n = 47;
		out[1] = 3;
		/* Server ISK = its Recv | Send key = the peer's Send | Recv. */
		ck_assert_int_eq(mschapv2_hash_nt_password_hash(hash, hh), 0);
		ck_assert_int_eq(mschapv2_master_key(hh, nt, master), 0);
		ck_assert_int_eq(mschapv2_asymmetric_start_key(master, s->isk, 16, true, false), 0);
		ck_assert_int_eq(mschapv2_asymmetric_start_key(master, s->isk + 16, 16, false, false), 0);
		s->step = 7;
	}
	out[0] = 26;
	out[2] = 5;
	out[3] = (uint8_t)((4 + n) >> 8);
	out[4] = (uint8_t)(4 + n);
	memcpy(out + 5, msg, n);
	ets_tunnel_write(e, out, 5 + n);
	return 0;
}

static int peap_phase2(struct ets *e, const uint8_t *d, size_t len)
{
	struct peap_script *s = e->phase2_state;

	switch (s->step) {
	case 0: /* the tunnel is up: Identity (header stripped) */
		if (d)
			return -1;
		if (s->early_success) {
			send_extensions(e, s, PEAP_RESULT_SUCCESS);
			s->step = 3;
			return 0;
		}
		ets_tunnel_write(e, "\x01", 1);
		s->step = 1;
		return 0;
	case 1:
		ck_assert_uint_eq(len, 1 + strlen("user@example.com"));
		ck_assert_uint_eq(d[0], 1);
		ck_assert_mem_eq(d + 1, "user@example.com", len - 1);
		if (s->offer_ttls_inner) {
			ets_tunnel_write(e, "\x15\x20", 2);
			s->step = 5;
			return 0;
		}
		if (s->mschapv2) {
			/* Challenge: OpCode 1, MS-CHAPv2-ID 5, MS-Length, 16, challenge, "srv". */
			uint8_t c[1 + 4 + 1 + 16 + 3] = { 26, 1, 5, 0, 24, 16 };
			for (int i = 0; i < 16; i++)
				s->auth_chal[i] = (uint8_t)(0x11 * i);
			memcpy(c + 6, s->auth_chal, 16);
			memcpy(c + 22, "srv", 3);
			ets_tunnel_write(e, c, sizeof(c));
			s->step = 6;
			return 0;
		}
		ets_tunnel_write(e, "\x06Password: ", 11);
		s->step = 2;
		return 0;
	case 6:
		return ms_check_response(e, s, d, len);
	case 7: /* the peer's Success acknowledgement */
		ck_assert_uint_eq(len, 2);
		ck_assert_uint_eq(d[0], 26);
		ck_assert_uint_eq(d[1], 3);
		send_extensions(e, s, PEAP_RESULT_SUCCESS);
		s->step = 3;
		return 0;
	case 8: /* the peer's Failure acknowledgement */
		ck_assert_uint_eq(len, 2);
		ck_assert_uint_eq(d[1], 4);
		send_extensions(e, s, PEAP_RESULT_FAILURE);
		s->step = 3;
		return 0;
	case 2: /* the GTC answer */
		ck_assert_uint_eq(d[0], 6);
		if (len - 1 == strlen(s->password) && memcmp(d + 1, s->password, len - 1) == 0) {
			send_extensions(e, s, PEAP_RESULT_SUCCESS);
		} else {
			send_extensions(e, s, PEAP_RESULT_FAILURE);
		}
		s->step = 3;
		return 0;
	case 3: /* the peer's Extensions Response */
		ck_assert_uint_ge(len, 11);
		ck_assert_uint_eq(d[0], 2);
		ck_assert_uint_eq(d[4], 33);
		if (d[10] != PEAP_RESULT_SUCCESS)
			return -1;
		if (s->binding) {
			uint8_t mac[20];
			ck_assert_uint_eq(len, 5 + 6 + 60);
			ck_assert_uint_eq(d[11 + 7], 1); /* SubType: response */
			ck_assert_mem_eq(d + 11 + 8, s->nonce, 32);
			ck_assert_int_eq(peap_compound_mac(s->cmk, d + 11, mac), 0);
			ck_assert_mem_eq(mac, d + 11 + 40, 20);
			s->binding_ok = true;
		}
		return 1;
	case 5: /* our TTLS offer: the peer must Nak with GTC */
		ck_assert_uint_eq(len, 2);
		ck_assert_uint_eq(d[0], 3);
		ck_assert_uint_eq(d[1], 6);
		s->saw_nak = true;
		return -1;
	}
	return -1;
}

static struct eap_peer_profile peap_profile(void)
{
	struct eap_peer_profile p = {
		.methods = { "PEAP" },
		.n_methods = 1,
		.identity = "user@example.com",
		.anonymous_identity = "anonymous@example.com",
		.password = "secret123",
		.password_len = 9,
		.phase2 = "GTC",
		.tls = { .ca_file = ets_pki.ca, .domain_suffix = "example.com" },
	};
	return p;
}

static enum eap_peer_result run_peap(struct ets *e, SSL_CTX *sctx, struct peap_script *s,
				     const struct eap_peer_profile *p)
{
	return ets_run_script(e, 25, sctx, peap_phase2, s, p);
}

static void success_case(int max, bool binding)
{
	struct eap_peer_profile p = peap_profile();
	SSL_CTX *sctx = ets_sctx_new(max, false);
	struct peap_script s = { .password = "secret123", .binding = binding };
	struct ets e;
	uint8_t msk[64], want[128];
	const uint8_t peap = 25;

	ck_assert_int_eq(run_peap(&e, sctx, &s, &p), EAP_PEER_SUCCESS);
	ck_assert_str_eq(eap_peer_method_name(e.peer), "PEAP");
	ck_assert_int_eq(eap_peer_msk(e.peer, msk, sizeof(msk)), 64);
	if (binding) {
		ck_assert(s.binding_ok);
		ck_assert_int_eq(peap_csk(s.ipmk, want), 0);
	} else if (ets_tls13(&e)) {
		ets_export(&e, "EXPORTER_EAP_TLS_Key_Material", &peap, 1, want, 128);
	} else {
		ets_export(&e, "client EAP encryption", NULL, 0, want, 128);
	}
	ck_assert_mem_eq(msk, want, 64);
	ets_deinit(&e);
	SSL_CTX_free(sctx);
}

START_TEST(gtc_binding_tls12)
{
	success_case(TLS1_2_VERSION, true);
}
END_TEST

START_TEST(gtc_binding_tls13)
{
	success_case(0, true);
}
END_TEST

START_TEST(gtc_no_binding)
{
	success_case(TLS1_2_VERSION, false);
	success_case(0, false);
}
END_TEST

static void failure_case(struct peap_script *s, struct eap_peer_profile *p,
			 enum eap_peer_err want, const char *detail_has)
{
	SSL_CTX *sctx = ets_sctx_new(0, false);
	struct ets e;
	const char *detail;
	uint8_t msk[64];

	ck_assert_int_eq(run_peap(&e, sctx, s, p), EAP_PEER_FAILURE);
	ck_assert_int_eq(eap_peer_error(e.peer, &detail), want);
	ck_assert_msg(strstr(detail, detail_has) != NULL, "'%s' lacks '%s'", detail, detail_has);
	ck_assert_int_lt(eap_peer_msk(e.peer, msk, sizeof(msk)), 0);
	ets_deinit(&e);
	SSL_CTX_free(sctx);
}

START_TEST(mschapv2_binding)
{
	struct eap_peer_profile p = peap_profile();
	SSL_CTX *sctx = ets_sctx_new(TLS1_2_VERSION, false);
	struct peap_script s = { .password = "secret123", .binding = true, .mschapv2 = true };
	struct ets e;
	uint8_t msk[64], want[128];

	p.phase2 = "MSCHAPV2";
	ck_assert_int_eq(run_peap(&e, sctx, &s, &p), EAP_PEER_SUCCESS);
	ck_assert(s.binding_ok);
	/* The ISK was the MSCHAPv2 keys, not zeros: the MAC proved both
	 * sides used the same. */
	uint8_t zeros[32] = { 0 };
	ck_assert(memcmp(s.isk, zeros, 32) != 0);
	ck_assert_int_eq(peap_csk(s.ipmk, want), 0);
	ck_assert_int_eq(eap_peer_msk(e.peer, msk, sizeof(msk)), 64);
	ck_assert_mem_eq(msk, want, 64);
	ets_deinit(&e);
	SSL_CTX_free(sctx);

	sctx = ets_sctx_new(0, false);
	s = (struct peap_script){ .password = "secret123", .binding = true, .mschapv2 = true };
	ck_assert_int_eq(run_peap(&e, sctx, &s, &p), EAP_PEER_SUCCESS);
	ets_deinit(&e);
	SSL_CTX_free(sctx);
}
END_TEST

START_TEST(mschapv2_wrong_password)
{
	struct eap_peer_profile p = peap_profile();
	struct peap_script s = { .password = "other", .binding = true, .mschapv2 = true };

	p.phase2 = "MSCHAPV2";
	/* The inner method's own reason wins over the Result TLV's. */
	failure_case(&s, &p, EAP_PEER_ERR_INNER_REJECTED, "MSCHAPV2 E=691");
}
END_TEST

START_TEST(wrong_password)
{
	struct eap_peer_profile p = peap_profile();
	struct peap_script s = { .password = "other", .binding = true };

	failure_case(&s, &p, EAP_PEER_ERR_INNER_REJECTED, "rejected the inner");
}
END_TEST

START_TEST(early_success_refused)
{
	struct eap_peer_profile p = peap_profile();
	struct peap_script s = { .password = "secret123", .early_success = true };

	failure_case(&s, &p, EAP_PEER_ERR_PROTOCOL, "before the inner method");
}
END_TEST

START_TEST(bad_compound_mac)
{
	struct eap_peer_profile p = peap_profile();
	struct peap_script s = { .password = "secret123", .binding = true, .corrupt_mac = true };

	failure_case(&s, &p, EAP_PEER_ERR_PROTOCOL, "Crypto-Binding MAC mismatch");
}
END_TEST

START_TEST(nested_tunnel_refused)
{
	struct eap_peer_profile p = peap_profile();
	struct peap_script s = { .password = "secret123", .offer_ttls_inner = true };
	SSL_CTX *sctx = ets_sctx_new(0, false);
	struct ets e;

	ck_assert_int_eq(run_peap(&e, sctx, &s, &p), EAP_PEER_FAILURE);
	ck_assert(s.saw_nak);
	ets_deinit(&e);

	/* A tunnel as the configured inner method is refused before TLS. */
	p.phase2 = "TLS";
	ets_init(&e, 25, sctx);
	ck_assert_int_eq(ets_run(&e, &p), EAP_PEER_FAILURE);
	const char *detail;
	ck_assert_int_eq(eap_peer_error(e.peer, &detail), EAP_PEER_ERR_METHOD_UNAVAILABLE);
	ck_assert_ptr_nonnull(strstr(detail, "is a tunnel"));
	ets_deinit(&e);
	SSL_CTX_free(sctx);
}
END_TEST

START_TEST(password_asked_before_tls)
{
	struct eap_peer_profile p = peap_profile();
	struct peap_script s = { .password = "from agent", .binding = true };
	SSL_CTX *sctx = ets_sctx_new(0, false);
	struct ets e;

	p.password = NULL;
	p.password_len = 0;
	ets_init(&e, 25, sctx);
	e.phase2 = peap_phase2;
	e.phase2_state = &s;
	e.answer_password = "from agent";
	ck_assert_int_eq(ets_run(&e, &p), EAP_PEER_SUCCESS);
	ck_assert_uint_eq(e.secrets_asked, 1);
	ets_deinit(&e);
	SSL_CTX_free(sctx);
}
END_TEST

Suite *make_eap_peap_suite(void)
{
	Suite *s = suite_create("eap_peap");
	TCase *tv = tcase_create("vectors");
	TCase *tc = tcase_create("runs");

	tcase_add_test(tv, compound_mac_ms_peap_example);
	tcase_add_test(tv, cmk_and_csk_computed);
	tcase_add_test(tv, tlv_malformed_table);
	suite_add_tcase(s, tv);
	ets_add_run_fixtures(tc);
	tcase_add_test(tc, gtc_binding_tls12);
	tcase_add_test(tc, gtc_binding_tls13);
	tcase_add_test(tc, gtc_no_binding);
	tcase_add_test(tc, wrong_password);
	tcase_add_test(tc, mschapv2_binding);
	tcase_add_test(tc, mschapv2_wrong_password);
	tcase_add_test(tc, early_success_refused);
	tcase_add_test(tc, bad_compound_mac);
	tcase_add_test(tc, nested_tunnel_refused);
	tcase_add_test(tc, password_asked_before_tls);
	suite_add_tcase(s, tc);
	return s;
}
