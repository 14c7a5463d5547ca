/* The EAP peer framework (eap/eap_peer.h) against a scripted authenticator:
 * Identity (outer identity), Notification, Nak (legacy and expanded, the
 * profile's list), METHOD_REFUSED with what the server offered, duplicate
 * Requests retransmitting the stored Response, Success/Failure judged with
 * the method's decision (RFC 4137 4.3), secrets asked through need_secret,
 * timeouts, and a table of malformed packets. MD5 and GTC are the methods. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "daemon/crypto/legacy.h"
#include "eap/eap_peer.h"
#include "eap/eap_peer_i.h"
#include "tests/unit/test_eap_script.h"
#include "tests/unit/test_hex.h"

static struct eap_peer_profile md5_profile(void)
{
	struct eap_peer_profile p = {
		.methods = { "MD5" },
		.n_methods = 1,
		.identity = "alice@example.org",
		.password = "password",
		.password_len = 8,
	};
	return p;
}

/* A 16-octet challenge 00..0f after Value-Size. */
static void md5_challenge(uint8_t out[17])
{
	out[0] = 16;
	for (int i = 0; i < 16; i++)
		out[1 + i] = (uint8_t)i;
}

/* Computed example (no published EAP-MD5 vector exists): RFC 3748 5.4 with
 * RFC 1994 4.1, Value = MD5(Identifier 0x02 || "password" || 00 01 .. 0f),
 * computed independently with Python's hashlib.md5. */
static const char md5_expected_hex[] = "6abede9b0307124a330bbb425a8e4733";

START_TEST(identity_outer_is_anonymous)
{
	struct script s = { 0 };
	struct eap_peer_profile p = md5_profile();
	p.anonymous_identity = "anonymous@example.org";
	s.peer = eap_peer_new(&p, &script_ops, &s);
	ck_assert_ptr_nonnull(s.peer);
	ck_assert_int_eq(eap_peer_state(s.peer), EAP_PEER_S_IDLE);
	ck_assert_int_eq(send_req(&s, 1, 1, NULL, 0), 0);
	expect_resp(&s, 1, 1, "anonymous@example.org", 21);
	eap_peer_free(s.peer);

	struct script s2 = { 0 };
	p.anonymous_identity = NULL;
	s2.peer = eap_peer_new(&p, &script_ops, &s2);
	ck_assert_int_eq(send_req(&s2, 9, 1, "hello", 5), 0);
	expect_resp(&s2, 9, 1, "alice@example.org", 17);
	eap_peer_free(s2.peer);
}
END_TEST

START_TEST(md5_success)
{
	struct script s = { 0 };
	struct eap_peer_profile p = md5_profile();
	uint8_t ch[17], want[17];
	s.peer = eap_peer_new(&p, &script_ops, &s);
	send_req(&s, 1, 1, NULL, 0);
	md5_challenge(ch);
	ck_assert_int_eq(send_req(&s, 2, 4, ch, sizeof(ch)), 0);
	want[0] = 16;
	unhex(md5_expected_hex, want + 1, 16);
	expect_resp(&s, 2, 4, want, 17);
	ck_assert_str_eq(eap_peer_method_name(s.peer), "MD5");
	ck_assert_uint_eq(s.done_calls, 0);
	ck_assert_int_eq(send_final(&s, 3, 2), 0);
	ck_assert_uint_eq(s.done_calls, 1);
	ck_assert_int_eq(s.done_res, EAP_PEER_SUCCESS);
	ck_assert_int_eq(eap_peer_result(s.peer), EAP_PEER_SUCCESS);
	ck_assert_int_eq(eap_peer_state(s.peer), EAP_PEER_S_SUCCESS);
	uint8_t msk[64];
	ck_assert_int_eq(eap_peer_msk(s.peer, msk, sizeof(msk)), -ENOENT); /* MD5 has no keys */
	ck_assert_int_eq(send_req(&s, 3, 1, NULL, 0), -EALREADY);
	eap_peer_free(s.peer);
}
END_TEST

START_TEST(md5_failure_names_method)
{
	struct script s = { 0 };
	struct eap_peer_profile p = md5_profile();
	uint8_t ch[17];
	const char *detail;
	s.peer = eap_peer_new(&p, &script_ops, &s);
	send_req(&s, 1, 1, NULL, 0);
	md5_challenge(ch);
	send_req(&s, 2, 4, ch, sizeof(ch));
	ck_assert_int_eq(send_final(&s, 4, 2), 0);
	ck_assert_int_eq(s.done_res, EAP_PEER_FAILURE);
	ck_assert_int_eq(eap_peer_error(s.peer, &detail), EAP_PEER_ERR_FAILURE);
	ck_assert_ptr_nonnull(strstr(detail, "MD5"));
	eap_peer_free(s.peer);
}
END_TEST

/* The server proposes only methods the profile does not allow: Nak with the
 * allowed list, each time; the Failure that follows is METHOD_REFUSED with
 * what was offered. */
START_TEST(nak_then_refused)
{
	struct script s = { 0 };
	struct eap_peer_profile p = md5_profile();
	p.methods[1] = "gtc";
	p.n_methods = 2;
	const char *detail;
	static const uint8_t allowed[] = { 4, 6 };

	s.peer = eap_peer_new(&p, &script_ops, &s);
	send_req(&s, 1, 1, NULL, 0);
	ck_assert_int_eq(send_req(&s, 2, 21, "\x20", 1), 0); /* TTLS Start */
	expect_resp(&s, 2, 3, allowed, sizeof(allowed));
	send_req(&s, 3, 25, "\x20", 1); /* PEAP */
	expect_resp(&s, 3, 3, allowed, sizeof(allowed));
	ck_assert_ptr_null(eap_peer_method_name(s.peer));
	ck_assert_uint_eq(eap_peer_stats(s.peer)->naks, 2);
	send_final(&s, 4, 3);
	ck_assert_int_eq(s.done_res, EAP_PEER_FAILURE);
	ck_assert_int_eq(eap_peer_error(s.peer, &detail), EAP_PEER_ERR_METHOD_REFUSED);
	ck_assert_str_eq(detail, "TTLS, PEAP");
	eap_peer_free(s.peer);
}
END_TEST

START_TEST(nak_empty_profile)
{
	struct script s = { 0 };
	struct eap_peer_profile p = md5_profile();
	p.n_methods = 0;
	s.peer = eap_peer_new(&p, &script_ops, &s);
	send_req(&s, 1, 1, NULL, 0);
	uint8_t ch[17];
	md5_challenge(ch);
	send_req(&s, 2, 4, ch, sizeof(ch));
	expect_resp(&s, 2, 3, "\x00", 1);
	eap_peer_free(s.peer);
}
END_TEST

/* RFC 3748 5.7 / 5.3.2: an expanded Request we do not know is answered with
 * an expanded Nak (254, 0, 3) listing each allowed type as 254/0/type. */
START_TEST(expanded_nak)
{
	struct script s = { 0 };
	struct eap_peer_profile p = md5_profile();
	p.methods[1] = "GTC";
	p.n_methods = 2;
	const char *detail;
	uint8_t req[] = { 0x00, 0x12, 0x34, 0x00, 0x00, 0x00, 0x07, 0xaa };
	static const uint8_t want[] = { 254, 0, 0, 0, 0, 0, 0, 3,  254, 0, 0, 0,
					0,   0, 0, 4, 254, 0, 0, 0, 0, 0, 0, 6 };

	s.peer = eap_peer_new(&p, &script_ops, &s);
	send_req(&s, 1, 1, NULL, 0);
	ck_assert_int_eq(send_req(&s, 2, 254, req, sizeof(req)), 0);
	ck_assert_uint_eq(s.last_len, 4 + sizeof(want));
	ck_assert_uint_eq(s.last[0], 2);
	ck_assert_uint_eq(s.last[1], 2);
	ck_assert_mem_eq(s.last + 4, want, sizeof(want));
	send_final(&s, 4, 2);
	ck_assert_int_eq(eap_peer_error(s.peer, &detail), EAP_PEER_ERR_METHOD_REFUSED);
	ck_assert_str_eq(detail, "expanded 4660/7");
	eap_peer_free(s.peer);

	/* No method allowed: the expanded Nak's single entry is 254/0/0. */
	struct script s2 = { 0 };
	static const uint8_t none[] = { 254, 0, 0, 0, 0, 0, 0, 3, 254, 0, 0, 0, 0, 0, 0, 0 };
	p.n_methods = 0;
	s2.peer = eap_peer_new(&p, &script_ops, &s2);
	send_req(&s2, 5, 254, req, sizeof(req));
	ck_assert_uint_eq(s2.last_len, 4 + sizeof(none));
	ck_assert_mem_eq(s2.last + 4, none, sizeof(none));
	eap_peer_free(s2.peer);
}
END_TEST

/* A Request with the identifier just answered is a retransmission: the same
 * Response goes again and the method is not run twice (RFC 3748 4.1). */
START_TEST(retransmission)
{
	struct script s = { 0 };
	struct eap_peer_profile p = md5_profile();
	uint8_t ch[17], first[64];
	s.peer = eap_peer_new(&p, &script_ops, &s);
	send_req(&s, 1, 1, NULL, 0);
	md5_challenge(ch);
	send_req(&s, 2, 4, ch, sizeof(ch));
	size_t first_len = s.last_len;
	memcpy(first, s.last, first_len);
	/* A different challenge with the same id must not be recomputed. */
	ch[5] ^= 0xff;
	ck_assert_int_eq(send_req(&s, 2, 4, ch, sizeof(ch)), 0);
	ck_assert_uint_eq(s.tx, 3);
	ck_assert_uint_eq(s.last_len, first_len);
	ck_assert_mem_eq(s.last, first, first_len);
	ck_assert_uint_eq(eap_peer_stats(s.peer)->retransmits, 1);
	/* A Request of another type once MD5 runs: discarded, nothing sent. */
	send_req(&s, 3, 6, "x", 1);
	ck_assert_uint_eq(s.tx, 3);
	ck_assert_uint_eq(eap_peer_stats(s.peer)->rx_discarded, 1);
	/* A Success with a stale id is discarded; the next id is accepted
	 * (servers that send lastId + 1). */
	send_final(&s, 3, 7);
	ck_assert_uint_eq(s.done_calls, 0);
	send_final(&s, 3, 3);
	ck_assert_int_eq(s.done_res, EAP_PEER_SUCCESS);
	eap_peer_free(s.peer);
}
END_TEST

/* RFC 4137: decision starts FAIL, so a Success before any method ran is a
 * failure (no authentication of either side happened). */
START_TEST(success_before_method_fails)
{
	struct script s = { 0 };
	struct eap_peer_profile p = md5_profile();
	const char *detail;
	s.peer = eap_peer_new(&p, &script_ops, &s);
	send_req(&s, 1, 1, NULL, 0);
	send_final(&s, 3, 1);
	ck_assert_int_eq(s.done_res, EAP_PEER_FAILURE);
	ck_assert_int_eq(eap_peer_error(s.peer, &detail), EAP_PEER_ERR_FAILURE);
	eap_peer_free(s.peer);

	/* And a Success with no Request at all is discarded. */
	struct script s2 = { 0 };
	s2.peer = eap_peer_new(&p, &script_ops, &s2);
	send_final(&s2, 3, 0);
	ck_assert_uint_eq(s2.done_calls, 0);
	ck_assert_int_eq(eap_peer_state(s2.peer), EAP_PEER_S_IDLE);
	eap_peer_free(s2.peer);
}
END_TEST

START_TEST(notification)
{
	struct script s = { 0 };
	struct eap_peer_profile p = md5_profile();
	s.peer = eap_peer_new(&p, &script_ops, &s);
	ck_assert_int_eq(send_req(&s, 4, 2, "Welcome\x01", 8), 0);
	expect_resp(&s, 4, 2, NULL, 0);
	ck_assert_uint_eq(eap_peer_stats(s.peer)->notifications, 1);
	ck_assert_int_eq(eap_peer_state(s.peer), EAP_PEER_S_IDLE);
	eap_peer_free(s.peer);
}
END_TEST

/* No password in the profile: the agent is asked, the Request held, and
 * processed when the answer comes (later, or from inside the callback). */
START_TEST(secret_asked)
{
	struct script s = { 0 };
	struct eap_peer_profile p = md5_profile();
	uint8_t ch[17], want[17];
	p.password = NULL;
	p.password_len = 0;
	s.peer = eap_peer_new(&p, &script_ops, &s);
	send_req(&s, 1, 1, NULL, 0);
	md5_challenge(ch);
	ck_assert_int_eq(send_req(&s, 2, 4, ch, sizeof(ch)), 0);
	ck_assert_uint_eq(s.asks, 1);
	ck_assert_int_eq(s.asked, EAP_SECRET_PASSWORD);
	ck_assert_uint_eq(s.tx, 1);
	ck_assert_int_eq(eap_peer_state(s.peer), EAP_PEER_S_WAIT_SECRET);
	/* The server retransmits while the user types: still one question. */
	send_req(&s, 2, 4, ch, sizeof(ch));
	ck_assert_uint_eq(s.asks, 1);
	ck_assert_uint_eq(s.tx, 1);
	ck_assert_int_eq(eap_peer_set_secret(s.peer, EAP_SECRET_PASSWORD, "password"), 0);
	want[0] = 16;
	unhex(md5_expected_hex, want + 1, 16);
	expect_resp(&s, 2, 4, want, 17);
	send_final(&s, 3, 2);
	ck_assert_int_eq(s.done_res, EAP_PEER_SUCCESS);
	eap_peer_free(s.peer);

	struct script s2 = { .answer_now = "password" };
	s2.peer = eap_peer_new(&p, &script_ops, &s2);
	send_req(&s2, 1, 1, NULL, 0);
	send_req(&s2, 2, 4, ch, sizeof(ch));
	ck_assert_uint_eq(s2.asks, 1);
	expect_resp(&s2, 2, 4, want, 17);
	eap_peer_free(s2.peer);

	struct script s3 = { .refuse_now = true };
	const char *detail;
	s3.peer = eap_peer_new(&p, &script_ops, &s3);
	send_req(&s3, 1, 1, NULL, 0);
	send_req(&s3, 2, 4, ch, sizeof(ch));
	ck_assert_int_eq(s3.done_res, EAP_PEER_FAILURE);
	ck_assert_int_eq(eap_peer_error(s3.peer, &detail), EAP_PEER_ERR_CREDENTIALS);
	eap_peer_free(s3.peer);
}
END_TEST

START_TEST(timeout_and_alt)
{
	struct script s = { 0 };
	struct eap_peer_profile p = md5_profile();
	const char *detail;
	uint8_t ch[17];
	s.peer = eap_peer_new(&p, &script_ops, &s);
	eap_peer_timeout(s.peer);
	ck_assert_int_eq(s.done_res, EAP_PEER_FAILURE);
	ck_assert_int_eq(eap_peer_error(s.peer, &detail), EAP_PEER_ERR_NO_RESPONSE);
	ck_assert_str_eq(detail, "no EAP request from the authenticator");
	/* A restart is a fresh attempt. */
	eap_peer_restart(s.peer);
	ck_assert_int_eq(eap_peer_state(s.peer), EAP_PEER_S_IDLE);
	ck_assert_int_eq(eap_peer_error(s.peer, NULL), EAP_PEER_ERR_NONE);
	send_req(&s, 1, 1, NULL, 0);
	md5_challenge(ch);
	send_req(&s, 2, 4, ch, sizeof(ch));
	/* The Success was lost; EAPOL-Key arrived: altAccept with COND_SUCC. */
	eap_peer_alt_accept(s.peer);
	ck_assert_int_eq(s.done_res, EAP_PEER_SUCCESS);
	eap_peer_free(s.peer);

	struct script s2 = { 0 };
	s2.peer = eap_peer_new(&p, &script_ops, &s2);
	send_req(&s2, 1, 1, NULL, 0);
	eap_peer_alt_accept(s2.peer); /* decision FAIL: failure */
	ck_assert_int_eq(s2.done_res, EAP_PEER_FAILURE);
	eap_peer_free(s2.peer);
}
END_TEST

START_TEST(gtc_rounds)
{
	struct script s = { 0 };
	struct eap_peer_profile p = md5_profile();
	p.methods[0] = "GTC";
	s.peer = eap_peer_new(&p, &script_ops, &s);
	send_req(&s, 1, 1, NULL, 0);
	send_req(&s, 2, 6, "Password: ", 10);
	expect_resp(&s, 2, 6, "password", 8);
	send_req(&s, 3, 6, "Next token: ", 12); /* MAY_CONT: a second round */
	expect_resp(&s, 3, 6, "password", 8);
	send_final(&s, 3, 3);
	ck_assert_int_eq(s.done_res, EAP_PEER_SUCCESS);
	eap_peer_free(s.peer);
}
END_TEST

/* Malformed packets are dropped (-EBADMSG) and change nothing. */
static const struct {
	const char *name;
	const char *hex;
} malformed[] = {
	{ "empty", "" },
	{ "three octets", "01 01 00" },
	{ "length below the header", "01 01 00 03 01" },
	{ "length past the end", "01 01 00 10 01 61" },
	{ "request without a type", "01 01 00 04" },
	{ "expanded type cut short", "01 01 00 0a fe 00 00 00 00 00" },
	{ "success with data", "03 01 00 05 00" },
	{ "failure with data", "04 01 00 06 00 00" },
	{ "length 0", "01 01 00 00 01" },
	{ "length 65535, 6 octets", "01 01 ff ff 01 00" },
};

START_TEST(malformed_table)
{
	struct script s = { 0 };
	struct eap_peer_profile p = md5_profile();
	uint8_t pkt[64];
	s.peer = eap_peer_new(&p, &script_ops, &s);
	for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		size_t n = unhex(malformed[i].hex, pkt, sizeof(pkt));
		ck_assert_msg(eap_peer_rx(s.peer, pkt, n) == -EBADMSG, "%s accepted",
			      malformed[i].name);
	}
	ck_assert_uint_eq(eap_peer_stats(s.peer)->rx_malformed,
			  sizeof(malformed) / sizeof(malformed[0]));
	ck_assert_uint_eq(s.tx, 0);
	ck_assert_int_eq(eap_peer_state(s.peer), EAP_PEER_S_IDLE);
	/* Octets past Length are link padding, not an error. */
	size_t n = unhex("01 01 00 05 01 00 00 00", pkt, sizeof(pkt));
	ck_assert_int_eq(eap_peer_rx(s.peer, pkt, n), 0);
	expect_resp(&s, 1, 1, "alice@example.org", 17);
	/* MD5 challenges with a bad Value-Size are ignored by the method. */
	n = unhex("01 02 00 06 04 00", pkt, sizeof(pkt));
	ck_assert_int_eq(eap_peer_rx(s.peer, pkt, n), 0);
	n = unhex("01 03 00 07 04 05 00", pkt, sizeof(pkt));
	ck_assert_int_eq(eap_peer_rx(s.peer, pkt, n), 0);
	n = unhex("01 04 00 05 04", pkt, sizeof(pkt)); /* zero-length MD5 type data */
	ck_assert_int_eq(eap_peer_rx(s.peer, pkt, n), 0);
	ck_assert_uint_eq(s.tx, 1);
	/* A Response or an unknown code from the server: discarded. */
	n = unhex("02 04 00 05 01", pkt, sizeof(pkt));
	ck_assert_int_eq(eap_peer_rx(s.peer, pkt, n), 0);
	n = unhex("07 04 00 04", pkt, sizeof(pkt));
	ck_assert_int_eq(eap_peer_rx(s.peer, pkt, n), 0);
	/* A Request of type Nak or 0: discarded. */
	n = unhex("01 05 00 05 03", pkt, sizeof(pkt));
	ck_assert_int_eq(eap_peer_rx(s.peer, pkt, n), 0);
	n = unhex("01 06 00 05 00", pkt, sizeof(pkt));
	ck_assert_int_eq(eap_peer_rx(s.peer, pkt, n), 0);
	ck_assert_uint_eq(s.tx, 1);
	ck_assert_int_eq(eap_peer_rx(s.peer, NULL, 0), -EBADMSG);
	eap_peer_free(s.peer);
}
END_TEST

/* Tunnels run their inner method on an inner ctx: phase 2, the outer
 * profile, and the outer run's secrets and error slot. Here MSCHAPv2 runs
 * on one by hand, as PEAP will. */
START_TEST(inner_ctx)
{
	struct script s = { 0 };
	struct eap_peer_profile p = md5_profile();
	p.password = NULL;
	p.password_len = 0;
	const char *detail;
	s.peer = eap_peer_new(&p, &script_ops, &s);
	struct eap_peer_ctx *outer = eap_peer_ctx_of(s.peer);
	ck_assert_int_eq(eap_peer_ctx_phase(outer), 0);
	struct eap_peer_ctx *in = eap_peer_ctx_new_inner(outer);
	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(eap_peer_ctx_phase(in), 2);
	ck_assert_ptr_eq(eap_peer_ctx_profile(in), eap_peer_ctx_profile(outer));

	const struct eap_peer_method *ms = eap_peer_method_by_name("MSCHAPV2");
	void *priv = ms->init(in);
	ck_assert_ptr_nonnull(priv);
	uint8_t ch[21] = { 1, 5, 0, 21, 16 };
	struct eap_buf out = { 0 };
	enum eap_method_state st = EAP_METHOD_CONT;
	enum eap_decision dec = EAP_DECISION_FAIL;
	/* No password: the inner method asks through the outer run. */
	ck_assert_int_eq(ms->process(priv, 7, ch, sizeof(ch), &out, &st, &dec), -EAGAIN);
	ck_assert_int_eq(eap_peer_set_secret(s.peer, EAP_SECRET_PASSWORD, "pw"), 0);
	ck_assert_str_eq(eap_peer_ctx_profile(in)->password, "pw");
	ck_assert_int_eq(ms->process(priv, 7, ch, sizeof(ch), &out, &st, &dec), 0);
	ck_assert_uint_eq(out.len, 4 + 1 + 49 + strlen("alice@example.org"));
	/* The inner method's error is the attempt's. */
	eap_peer_ctx_set_error(in, EAP_PEER_ERR_INNER_REJECTED, "inner said no");
	ck_assert_int_eq(eap_peer_error(s.peer, &detail), EAP_PEER_ERR_INNER_REJECTED);
	ck_assert_str_eq(detail, "inner said no");
	ms->deinit(priv);
	eap_buf_release(&out);
	eap_peer_ctx_free_inner(in);
	eap_peer_free(s.peer);
}
END_TEST

/* eap_buf grows, wipes on clear, and refuses more than an EAP packet holds. */
START_TEST(eap_buf_limits)
{
	struct eap_buf b = { 0 };
	uint8_t big[1000];
	memset(big, 0xab, sizeof(big));
	for (int i = 0; i < 65; i++)
		ck_assert_int_eq(eap_buf_put(&b, big, sizeof(big)), 0);
	ck_assert_uint_eq(b.len, 65000);
	ck_assert_int_eq(eap_buf_put(&b, big, sizeof(big)), -ENOMEM);
	ck_assert_int_eq(eap_buf_put_be32(&b, 0x01020304), 0);
	ck_assert_mem_eq(b.data + 65000, "\x01\x02\x03\x04", 4);
	eap_buf_clear(&b);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_uint_eq(b.data[0], 0); /* wiped, allocation kept */
	ck_assert_int_eq(eap_buf_put(NULL, big, 1), -EINVAL);
	eap_buf_release(&b);
	ck_assert_ptr_null(b.data);
}
END_TEST

/* One registry: every type and every name once; lookups by either. */
START_TEST(registry)
{
	const struct eap_peer_method *const *all = eap_peer_methods();
	size_t n = 0;
	for (; all[n]; n++) {
		ck_assert_ptr_nonnull(all[n]->init);
		ck_assert_ptr_nonnull(all[n]->deinit);
		ck_assert_ptr_nonnull(all[n]->process);
		for (size_t j = 0; j < n; j++) {
			ck_assert_str_ne(all[j]->name, all[n]->name);
			ck_assert(all[j]->type != all[n]->type ||
				  (all[n]->type == EAP_T_EXPANDED &&
				   (all[j]->vendor_id != all[n]->vendor_id ||
				    all[j]->vendor_type != all[n]->vendor_type)));
		}
		ck_assert_ptr_eq(eap_peer_method_by_name(all[n]->name), all[n]);
	}
	ck_assert_uint_ge(n, 2);
	ck_assert_ptr_eq(eap_peer_method_by_name("md5"), eap_peer_method_find(EAP_T_MD5, 0, 0));
	ck_assert_ptr_null(eap_peer_method_by_name("NOPE"));
	ck_assert_ptr_null(eap_peer_method_find(EAP_T_EXPANDED, 1, 1));
	ck_assert_str_eq(eap_peer_state_to_string(EAP_PEER_S_GET_METHOD), "GET_METHOD");
	ck_assert_str_eq(eap_peer_err_name(EAP_PEER_ERR_METHOD_REFUSED), "method-refused");
}
END_TEST

Suite *make_eap_peer_suite(void)
{
	Suite *s = suite_create("eap_peer");
	TCase *tc = tcase_create("peer");
	tcase_add_test(tc, identity_outer_is_anonymous);
	tcase_add_test(tc, md5_success);
	tcase_add_test(tc, md5_failure_names_method);
	tcase_add_test(tc, nak_then_refused);
	tcase_add_test(tc, nak_empty_profile);
	tcase_add_test(tc, expanded_nak);
	tcase_add_test(tc, retransmission);
	tcase_add_test(tc, success_before_method_fails);
	tcase_add_test(tc, notification);
	tcase_add_test(tc, secret_asked);
	tcase_add_test(tc, timeout_and_alt);
	tcase_add_test(tc, gtc_rounds);
	tcase_add_test(tc, malformed_table);
	tcase_add_test(tc, registry);
	tcase_add_test(tc, inner_ctx);
	tcase_add_test(tc, eap_buf_limits);
	suite_add_tcase(s, tc);
	return s;
}
