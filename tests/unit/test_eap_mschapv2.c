/* MS-CHAPv2 (daemon/crypto/mschapv2.h) against the published vectors, and
 * EAP-MSCHAPv2 (eap/eap_mschapv2.c) through the peer with a scripted
 * authenticator: success with mutual authentication and the MSK, a wrong
 * authenticator response, E=691, and the legacy provider missing. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/crypto/legacy.h"
#include "daemon/crypto/mschapv2.h"
#include "eap/eap_peer.h"
#include "tests/unit/test_eap_script.h"
#include "tests/unit/test_hex.h"

/* RFC 2759 9.2 "Hash Function Example" inputs and outputs (the same
 * inputs feed RFC 3079 3.5.3). */
static const char v_user[] = "User";
static const char v_password[] = "clientPass";
static const char v_auth_chal[] = "5B5D7C7D7B3F2F3E3C2C602132262628";
static const char v_peer_chal[] = "21402324255E262A28295F2B3A337C7E";
static const char v_challenge[] = "D02E4386BCE91226";
static const char v_pw_hash[] = "44EBBA8D5312B8D611474411F56989AE";
static const char v_nt_resp[] = "82309ECD8D708B5EA08FAA3981CD83544233114A3D85D6DF";
static const char v_pw_hash_hash[] = "41C00C584BD2D91C4017A2A12FA59F3F";
static const char v_auth_resp[] = "407A5589115FD0D6209F510FE9C04566932CDA56"; /* after "S=" */
/* RFC 3079 3.5.3 "Sample Key Derivations", 128-bit key: MasterKey,
 * SendStartKey128 (the RFC computes it as the server: send, server; the
 * client's receive key is the same), SendSessionKey. */
static const char v_master[] = "FDECE3717A8C838CB388E527AE3CDD31";
static const char v_send_start[] = "8B7CDC149B993A1BA118CB153F56DCCB";
static const char v_send_session[] = "405CB2247A7956E6E211007AE27B22D4";

START_TEST(rfc2759_vectors)
{
	uint8_t ac[16], pc[16], want[24], got[24], hash[16], hh[16];
	unhex(v_auth_chal, ac, 16);
	unhex(v_peer_chal, pc, 16);

	ck_assert_int_eq(mschapv2_challenge_hash(pc, ac, v_user, 4, got), 0);
	unhex(v_challenge, want, 8);
	ck_assert_mem_eq(got, want, 8);
	/* RFC 2759 8.2: a "DOMAIN\" prefix is not hashed. */
	ck_assert_int_eq(mschapv2_challenge_hash(pc, ac, "CORP\\User", 9, got), 0);
	ck_assert_mem_eq(got, want, 8);

	ck_assert_int_eq(mschapv2_nt_password_hash(v_password, 10, hash), 0);
	unhex(v_pw_hash, want, 16);
	ck_assert_mem_eq(hash, want, 16);

	ck_assert_int_eq(mschapv2_nt_response(ac, pc, v_user, 4, hash, got), 0);
	unhex(v_nt_resp, want, 24);
	ck_assert_mem_eq(got, want, 24);

	ck_assert_int_eq(mschapv2_hash_nt_password_hash(hash, hh), 0);
	unhex(v_pw_hash_hash, want, 16);
	ck_assert_mem_eq(hh, want, 16);

	uint8_t ar[20], ar_want[20];
	ck_assert_int_eq(mschapv2_authenticator_response(hash, got, pc, ac, v_user, 4, ar), 0);
	unhex(v_auth_resp, ar_want, 20);
	ck_assert_mem_eq(ar, ar_want, 20);
}
END_TEST

START_TEST(rfc3079_vectors)
{
	uint8_t hh[16], nt[24], m[16], want[16], key[16], srv_send[16], cli_send[16], srv_recv[16];
	unhex(v_pw_hash_hash, hh, 16);
	unhex(v_nt_resp, nt, 24);
	ck_assert_int_eq(mschapv2_master_key(hh, nt, m), 0);
	unhex(v_master, want, 16);
	ck_assert_mem_eq(m, want, 16);

	ck_assert_int_eq(mschapv2_asymmetric_start_key(m, srv_send, 16, true, true), 0);
	unhex(v_send_start, want, 16);
	ck_assert_mem_eq(srv_send, want, 16);
	/* The client's receive key is the server's send key, and the other
	 * way round; the two directions differ. */
	ck_assert_int_eq(mschapv2_asymmetric_start_key(m, key, 16, false, false), 0);
	ck_assert_mem_eq(key, srv_send, 16);
	ck_assert_int_eq(mschapv2_asymmetric_start_key(m, cli_send, 16, true, false), 0);
	ck_assert_int_eq(mschapv2_asymmetric_start_key(m, srv_recv, 16, false, true), 0);
	ck_assert_mem_eq(cli_send, srv_recv, 16);
	ck_assert_mem_ne(cli_send, srv_send, 16);

	ck_assert_int_eq(mschapv2_mppe_session_key(srv_send, 16, key), 0);
	unhex(v_send_session, want, 16);
	ck_assert_mem_eq(key, want, 16);

	/* RFC 3079 3.5.3 "Sample Encrypted Message": rc4(SendSessionKey,
	 * "test message"). */
	uint8_t ct[12], ct_want[12];
	ck_assert_int_eq(crypto_rc4(key, 16, (const uint8_t *)"test message", 12, ct), 0);
	unhex("81848317DF68846272FB5ABE", ct_want, 12);
	ck_assert_mem_eq(ct, ct_want, 12);

	ck_assert_int_eq(mschapv2_asymmetric_start_key(m, key, 12, true, true), -EINVAL);
}
END_TEST

/* Passwords are UTF-8, hashed as UTF-16LE: a non-ASCII password hashes
 * like its UTF-16 form, and invalid UTF-8 is refused. */
START_TEST(password_encoding)
{
	uint8_t a[16], b[16];
	static const uint8_t utf16[] = { 0xe9, 0x00, 0x3d, 0xd8, 0x00, 0xde }; /* "é😀" */
	ck_assert_int_eq(mschapv2_nt_password_hash("\xc3\xa9\xf0\x9f\x98\x80", 6, a), 0);
	ck_assert_int_eq(crypto_md4(utf16, sizeof(utf16), b), 0);
	ck_assert_mem_eq(a, b, 16);
	ck_assert_int_eq(mschapv2_nt_password_hash("\xc3", 1, a), -EINVAL);
	ck_assert_int_eq(mschapv2_nt_password_hash("\xc0\xaf", 2, a), -EINVAL); /* overlong */
	ck_assert_int_eq(mschapv2_nt_password_hash("\xed\xa0\x80", 3, a), -EINVAL); /* surrogate */
	char longpw[300];
	memset(longpw, 'a', sizeof(longpw));
	ck_assert_int_eq(mschapv2_nt_password_hash(longpw, 256, a), 0);
	ck_assert_int_eq(mschapv2_nt_password_hash(longpw, 257, a), -EINVAL);
}
END_TEST

/* ---- EAP-MSCHAPv2 through the peer ---------------------------------------- */

static struct eap_peer_profile ms_profile(void)
{
	struct eap_peer_profile p = {
		.methods = { "MSCHAPV2" },
		.n_methods = 1,
		.identity = v_user,
		.password = v_password,
		.password_len = 10,
	};
	return p;
}

/* Identity, then the RFC 2759 challenge from "server" in a Challenge
 * (OpCode 1, MS-CHAPv2-ID 0x42). Checks the Response and returns the peer
 * challenge it chose. */
static void run_challenge(struct script *s, uint8_t pc[16])
{
	uint8_t req[64], ac[16], want[24], hash[16];
	unhex(v_auth_chal, ac, 16);
	send_req(s, 1, 1, NULL, 0);
	req[0] = 1;
	req[1] = 0x42;
	req[2] = 0;
	req[3] = 4 + 1 + 16 + 6;
	req[4] = 16;
	memcpy(req + 5, ac, 16);
	memcpy(req + 21, "server", 6);
	ck_assert_int_eq(send_req(s, 2, 26, req, 27), 0);
	/* Type 26, OpCode 2, the same MS-CHAPv2-ID, MS-Length 54 + 4. */
	ck_assert_uint_eq(s->last_len, 5 + 4 + 1 + 49 + 4);
	const uint8_t *r = s->last + 5;
	ck_assert_uint_eq(s->last[4], 26);
	ck_assert_uint_eq(r[0], 2);
	ck_assert_uint_eq(r[1], 0x42);
	ck_assert_uint_eq((size_t)(r[2] << 8 | r[3]), 4 + 1 + 49 + 4);
	ck_assert_uint_eq(r[4], 49);
	memcpy(pc, r + 5, 16);
	static const uint8_t zero8[8];
	ck_assert_mem_eq(r + 21, zero8, 8);
	mschapv2_nt_password_hash(v_password, 10, hash);
	mschapv2_nt_response(ac, pc, v_user, 4, hash, want);
	ck_assert_mem_eq(r + 29, want, 24);
	ck_assert_uint_eq(r[53], 0);
	ck_assert_mem_eq(r + 54, "User", 4);
}

static void success_request(struct script *s, const uint8_t pc[16], bool corrupt)
{
	uint8_t ac[16], hash[16], nt[24], ar[20];
	char msg[80];
	uint8_t req[96];
	unhex(v_auth_chal, ac, 16);
	mschapv2_nt_password_hash(v_password, 10, hash);
	mschapv2_nt_response(ac, pc, v_user, 4, hash, nt);
	mschapv2_authenticator_response(hash, nt, pc, ac, v_user, 4, ar);
	if (corrupt)
		ar[19] ^= 1;
	int n = snprintf(msg, sizeof(msg), "S=");
	for (int i = 0; i < 20; i++)
		n += snprintf(msg + n, sizeof(msg) - (size_t)n, "%02X", ar[i]);
	n += snprintf(msg + n, sizeof(msg) - (size_t)n, " M=Welcome");
	req[0] = 3;
	req[1] = 0x42;
	req[2] = 0;
	req[3] = (uint8_t)(4 + n);
	memcpy(req + 4, msg, (size_t)n);
	ck_assert_int_eq(send_req(s, 3, 26, req, 4 + (size_t)n), 0);
}

START_TEST(eap_mschapv2_success)
{
	struct script s = { 0 };
	struct eap_peer_profile p = ms_profile();
	uint8_t pc[16], msk[64], want[32], ac[16], hash[16], hh[16], nt[24], master[16];
	s.peer = eap_peer_new(&p, &script_ops, &s);
	run_challenge(&s, pc);
	success_request(&s, pc, false);
	expect_resp(&s, 3, 26, "\x03", 1);
	send_final(&s, 3, 3);
	ck_assert_int_eq(s.done_res, EAP_PEER_SUCCESS);
	/* MSK = the peer's send key || receive key (RFC 3079 3.4 start keys). */
	unhex(v_auth_chal, ac, 16);
	mschapv2_nt_password_hash(v_password, 10, hash);
	mschapv2_hash_nt_password_hash(hash, hh);
	mschapv2_nt_response(ac, pc, v_user, 4, hash, nt);
	mschapv2_master_key(hh, nt, master);
	mschapv2_asymmetric_start_key(master, want, 16, true, false);
	mschapv2_asymmetric_start_key(master, want + 16, 16, false, false);
	ck_assert_int_eq(eap_peer_msk(s.peer, msk, sizeof(msk)), 32);
	ck_assert_mem_eq(msk, want, 32);
	eap_peer_free(s.peer);
}
END_TEST

/* A server that does not know the password cannot produce S=: the peer
 * stops without answering and reports it. */
START_TEST(eap_mschapv2_bad_authenticator)
{
	struct script s = { 0 };
	struct eap_peer_profile p = ms_profile();
	uint8_t pc[16];
	const char *detail;
	s.peer = eap_peer_new(&p, &script_ops, &s);
	run_challenge(&s, pc);
	unsigned tx = s.tx;
	success_request(&s, pc, true);
	ck_assert_uint_eq(s.tx, tx);
	ck_assert_int_eq(s.done_res, EAP_PEER_FAILURE);
	ck_assert_int_eq(eap_peer_error(s.peer, &detail), EAP_PEER_ERR_PROTOCOL);
	ck_assert_ptr_nonnull(strstr(detail, "MSCHAPV2"));
	eap_peer_free(s.peer);
}
END_TEST

START_TEST(eap_mschapv2_rejected)
{
	struct script s = { 0 };
	struct eap_peer_profile p = ms_profile();
	uint8_t pc[16], req[80];
	const char *detail;
	static const char msg[] = "E=691 R=0 C=00112233445566778899AABBCCDDEEFF V=3 M=bad";
	s.peer = eap_peer_new(&p, &script_ops, &s);
	run_challenge(&s, pc);
	req[0] = 4;
	req[1] = 0x42;
	req[2] = 0;
	req[3] = (uint8_t)(4 + sizeof(msg) - 1);
	memcpy(req + 4, msg, sizeof(msg) - 1);
	send_req(&s, 3, 26, req, 4 + sizeof(msg) - 1);
	expect_resp(&s, 3, 26, "\x04", 1);
	ck_assert_uint_eq(s.done_calls, 0);
	send_final(&s, 4, 3);
	ck_assert_int_eq(s.done_res, EAP_PEER_FAILURE);
	ck_assert_int_eq(eap_peer_error(s.peer, &detail), EAP_PEER_ERR_INNER_REJECTED);
	ck_assert_ptr_nonnull(strstr(detail, "E=691"));
	uint8_t msk[64];
	ck_assert_int_eq(eap_peer_msk(s.peer, msk, sizeof(msk)), -ENOENT);
	eap_peer_free(s.peer);
}
END_TEST

/* Without the legacy provider, MSCHAPv2 cannot start: the peer Naks (with
 * the other allowed methods) and the attempt's error names MSCHAPV2. */
START_TEST(eap_mschapv2_unavailable)
{
	struct script s = { 0 };
	struct eap_peer_profile p = ms_profile();
	p.methods[1] = "GTC";
	p.n_methods = 2;
	uint8_t req[32] = { 1, 0x42, 0, 27, 16 };
	const char *detail;
	uint8_t h[16];

	crypto_legacy_force_unavailable(true);
	ck_assert_int_eq(crypto_md4("x", 1, h), -ENOTSUP);
	s.peer = eap_peer_new(&p, &script_ops, &s);
	send_req(&s, 1, 1, NULL, 0);
	send_req(&s, 2, 26, req, 27);
	expect_resp(&s, 2, 3, "\x06", 1);
	send_final(&s, 4, 2);
	crypto_legacy_force_unavailable(false);
	ck_assert_int_eq(s.done_res, EAP_PEER_FAILURE);
	ck_assert_int_eq(eap_peer_error(s.peer, &detail), EAP_PEER_ERR_METHOD_UNAVAILABLE);
	ck_assert_ptr_nonnull(strstr(detail, "MSCHAPV2"));
	eap_peer_free(s.peer);
	ck_assert_int_eq(crypto_md4("x", 1, h), 0);
}
END_TEST

/* Requests out of order or cut short are dropped by the method. */
START_TEST(eap_mschapv2_malformed)
{
	struct script s = { 0 };
	struct eap_peer_profile p = ms_profile();
	s.peer = eap_peer_new(&p, &script_ops, &s);
	send_req(&s, 1, 1, NULL, 0);
	static const struct {
		const char *name, *hex;
	} bad[] = {
		{ "zero-length type data", "" },
		{ "no MS header", "01 42 00" },
		{ "challenge without a value", "01 42 00 04" },
		{ "value size 8", "01 42 00 0d 08 00 00 00 00 00 00 00 00" },
		{ "challenge cut short", "01 42 00 15 10 00 00 00 00" },
		{ "success before a response", "03 42 00 06 53 3d" },
		{ "unknown opcode", "07 42 00 04" },
	};
	uint8_t d[64];
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t n = unhex(bad[i].hex, d, sizeof(d));
		send_req(&s, (uint8_t)(2 + i), 26, d, n);
		ck_assert_msg(s.tx == 1, "%s answered", bad[i].name);
	}
	ck_assert_int_eq(eap_peer_state(s.peer), EAP_PEER_S_IDLE);
	eap_peer_free(s.peer);
}
END_TEST

Suite *make_eap_mschapv2_suite(void)
{
	Suite *s = suite_create("eap_mschapv2");
	TCase *tc = tcase_create("mschapv2");
	tcase_add_test(tc, rfc2759_vectors);
	tcase_add_test(tc, rfc3079_vectors);
	tcase_add_test(tc, password_encoding);
	tcase_add_test(tc, eap_mschapv2_success);
	tcase_add_test(tc, eap_mschapv2_bad_authenticator);
	tcase_add_test(tc, eap_mschapv2_rejected);
	tcase_add_test(tc, eap_mschapv2_unavailable);
	tcase_add_test(tc, eap_mschapv2_malformed);
	suite_add_tcase(s, tc);
	return s;
}
