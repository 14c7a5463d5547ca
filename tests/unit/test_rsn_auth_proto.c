/* The authentication protocol table (daemon/rsn/auth_proto.h): Open System
 * on both halves, the lookup refusing what has no implementation (the AP
 * answers 13), and a protocol of several frames driven through the same
 * wrappers the SME and the AP use. */
#include <check.h>
#include <string.h>

#include "daemon/codec/ieee80211.h"
#include "daemon/rsn/auth_proto.h"

static const uint8_t sta_addr[6] = { 2, 0, 0, 0, 2, 0 };
static const uint8_t ap_addr[6] = { 2, 0, 0, 0, 1, 0 };

START_TEST(lookup_open_and_unknown)
{
	ck_assert_ptr_eq(auth_proto_find(WLAN_AUTH_OPEN, AUTH_ROLE_STA), &auth_open);
	ck_assert_ptr_eq(auth_proto_find(WLAN_AUTH_OPEN, AUTH_ROLE_AP), &auth_open);
	ck_assert_ptr_eq(auth_proto_find(WLAN_AUTH_SAE, AUTH_ROLE_STA), &auth_sae);
	ck_assert_ptr_eq(auth_proto_find(WLAN_AUTH_SAE, AUTH_ROLE_AP), &auth_sae);
	static const uint16_t unknown[] = { WLAN_AUTH_SHARED_KEY, WLAN_AUTH_FT,
					    WLAN_AUTH_FILS_SK, WLAN_AUTH_PASN, 0xffff };
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		ck_assert_ptr_null(auth_proto_find(unknown[i], AUTH_ROLE_AP));
		ck_assert_ptr_null(auth_proto_find(unknown[i], AUTH_ROLE_STA));
	}
}
END_TEST

START_TEST(open_system_both_halves)
{
	struct auth_sess *sta = auth_sess_new(&auth_open, AUTH_ROLE_STA, sta_addr, ap_addr);
	struct auth_sess *ap = auth_sess_new(&auth_open, AUTH_ROLE_AP, ap_addr, sta_addr);
	struct auth_out out, answer;

	ck_assert_int_eq(auth_sta_start(sta, &out), AUTH_STEP_SEND);
	ck_assert_uint_eq(out.seq, 1);
	ck_assert_uint_eq(out.status, 0);
	ck_assert_uint_eq(out.body_len, 0);

	struct auth_msg to_ap = { .alg = WLAN_AUTH_OPEN, .seq = out.seq, .status = out.status };
	ck_assert_int_eq(auth_ap_rx_auth(ap, &to_ap, &answer), AUTH_STEP_DONE);
	ck_assert_uint_eq(answer.seq, 2);
	ck_assert_uint_eq(answer.status, WLAN_STATUS_SUCCESS);
	ck_assert(ap->done);

	struct auth_msg to_sta = { .alg = WLAN_AUTH_OPEN, .seq = answer.seq,
				   .status = answer.status };
	ck_assert_int_eq(auth_sta_rx_auth(sta, &to_sta, &out), AUTH_STEP_DONE);
	ck_assert(sta->done);
	ck_assert_uint_eq(sta->frames_tx, 1);
	ck_assert_uint_eq(sta->frames_rx, 1);

	/* No keys and no association elements. */
	size_t len = 99;
	ck_assert_ptr_null(auth_sess_pmk(sta, &len));
	ck_assert_uint_eq(len, 0);
	uint8_t buf[64];
	ck_assert_int_eq(auth_sta_assoc_elems(sta, buf, sizeof(buf), &len), 0);
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(auth_sta_rx_assoc(sta, 0, NULL, 0), AUTH_STEP_DONE);
	ck_assert_uint_eq(auth_ap_rx_assoc(ap, NULL, 0), WLAN_STATUS_SUCCESS);
	ck_assert_int_eq(auth_ap_assoc_elems(ap, buf, sizeof(buf), &len), 0);
	ck_assert_uint_eq(len, 0);
	auth_sess_free(sta);
	auth_sess_free(ap);
	auth_sess_free(NULL);
}
END_TEST

START_TEST(open_system_refusals)
{
	struct auth_sess *ap = auth_sess_new(&auth_open, AUTH_ROLE_AP, ap_addr, sta_addr);
	struct auth_out out;

	/* Transaction 3: unknown transaction, 14, answered with seq 4. */
	struct auth_msg m = { .alg = WLAN_AUTH_OPEN, .seq = 3 };
	ck_assert_int_eq(auth_ap_rx_auth(ap, &m, &out), AUTH_STEP_FAILED);
	ck_assert_uint_eq(out.status, WLAN_STATUS_UNKNOWN_AUTH_TRANSACTION);
	ck_assert_uint_eq(out.seq, 4);
	ck_assert_uint_eq(ap->status, WLAN_STATUS_UNKNOWN_AUTH_TRANSACTION);
	/* An association before authentication finished is refused. */
	ck_assert_uint_ne(auth_ap_rx_assoc(ap, NULL, 0), WLAN_STATUS_SUCCESS);
	/* A frame of another algorithm on this session: 13. */
	m.alg = WLAN_AUTH_SAE;
	m.seq = 1;
	ck_assert_int_eq(auth_ap_rx_auth(ap, &m, &out), AUTH_STEP_FAILED);
	ck_assert_uint_eq(out.status, WLAN_STATUS_NOT_SUPPORTED_AUTH_ALG);
	auth_sess_free(ap);

	struct auth_sess *sta = auth_sess_new(&auth_open, AUTH_ROLE_STA, sta_addr, ap_addr);
	ck_assert_int_eq(auth_sta_start(sta, &out), AUTH_STEP_SEND);
	/* Another algorithm's frame or a wrong transaction: not ours. */
	struct auth_msg r = { .alg = WLAN_AUTH_SAE, .seq = 2 };
	ck_assert_int_eq(auth_sta_rx_auth(sta, &r, &out), AUTH_STEP_IGNORE);
	r.alg = WLAN_AUTH_OPEN;
	r.seq = 1;
	ck_assert_int_eq(auth_sta_rx_auth(sta, &r, &out), AUTH_STEP_IGNORE);
	/* The AP's refusal carries its status. */
	r.seq = 2;
	r.status = WLAN_STATUS_ASSOC_DENIED_UNSPEC;
	ck_assert_int_eq(auth_sta_rx_auth(sta, &r, &out), AUTH_STEP_FAILED);
	ck_assert_uint_eq(sta->status, WLAN_STATUS_ASSOC_DENIED_UNSPEC);
	ck_assert(!sta->done);
	/* A restart clears it. */
	ck_assert_int_eq(auth_sta_start(sta, &out), AUTH_STEP_SEND);
	ck_assert_uint_eq(sta->status, WLAN_STATUS_SUCCESS);
	auth_sess_free(sta);
}
END_TEST

/* A protocol of three frames each way that ends with a PMK, as SAE will:
 * proves the table carries several frames and a PMK without the callers
 * knowing. */
static enum auth_step multi_sta_start(struct auth_sess *s, struct auth_out *out)
{
	out->seq = 1;
	out->body[0] = 0xaa;
	out->body_len = 1;
	return AUTH_STEP_SEND;
}

static enum auth_step multi_sta_rx(struct auth_sess *s, const struct auth_msg *in,
				   struct auth_out *out)
{
	if (in->seq < 3) {
		out->seq = (uint16_t)(in->seq + 1);
		return AUTH_STEP_SEND;
	}
	uint8_t pmk[32];
	memset(pmk, 0x77, sizeof(pmk));
	static const uint8_t pmkid[16] = { 1, 2, 3 };
	ck_assert_int_eq(auth_sess_set_pmk(s, pmk, sizeof(pmk), pmkid), 0);
	return AUTH_STEP_DONE;
}

static enum auth_step multi_ap_rx(struct auth_sess *s, const struct auth_msg *in,
				  struct auth_out *out)
{
	return in->seq >= 3 ? AUTH_STEP_DONE : AUTH_STEP_SEND;
}

static const struct auth_proto multi = {
	.algorithm = 0x7f00,
	.name = "test multi-frame",
	.sta_start = multi_sta_start,
	.sta_rx_auth = multi_sta_rx,
	.ap_rx_auth = multi_ap_rx,
};

START_TEST(several_frames_and_a_pmk)
{
	struct auth_sess *sta = auth_sess_new(&multi, AUTH_ROLE_STA, sta_addr, ap_addr);
	struct auth_sess *ap = auth_sess_new(&multi, AUTH_ROLE_AP, ap_addr, sta_addr);
	struct auth_out out, answer;
	enum auth_step s = auth_sta_start(sta, &out), a;
	unsigned rounds = 0;

	ck_assert_int_eq(s, AUTH_STEP_SEND);
	do {
		struct auth_msg to_ap = { .alg = multi.algorithm, .seq = out.seq,
					  .body = out.body, .body_len = out.body_len };
		a = auth_ap_rx_auth(ap, &to_ap, &answer);
		struct auth_msg to_sta = { .alg = multi.algorithm, .seq = answer.seq };
		s = auth_sta_rx_auth(sta, &to_sta, &out);
		rounds++;
	} while (s == AUTH_STEP_SEND && rounds < 5);
	ck_assert_int_eq(s, AUTH_STEP_DONE);
	ck_assert_int_eq(a, AUTH_STEP_DONE);
	ck_assert_uint_eq(rounds, 2);
	ck_assert_uint_eq(sta->frames_tx, 2);
	size_t len;
	const uint8_t *pmk = auth_sess_pmk(sta, &len);
	ck_assert_ptr_nonnull(pmk);
	ck_assert_uint_eq(len, 32);
	ck_assert_uint_eq(pmk[31], 0x77);
	ck_assert(sta->have_pmkid);
	ck_assert_int_eq(auth_sess_set_pmk(sta, pmk, 8, NULL), -22);
	auth_sess_free(sta);
	auth_sess_free(ap);
}
END_TEST

Suite *make_rsn_auth_proto_suite(void)
{
	Suite *s = suite_create("rsn_auth_proto");
	TCase *tc = tcase_create("auth_proto");

	tcase_add_test(tc, lookup_open_and_unknown);
	tcase_add_test(tc, open_system_both_halves);
	tcase_add_test(tc, open_system_refusals);
	tcase_add_test(tc, several_frames_and_a_pmk);
	suite_add_tcase(s, tc);
	return s;
}
