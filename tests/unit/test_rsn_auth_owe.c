/* OWE as an authentication protocol (daemon/rsn/auth_owe.c), both halves
 * driven through the auth_proto wrappers the SME and the AP use, with the
 * (Re)Association elements passed between them as the frames would carry
 * them: the lookup by AKM, a full exchange agreeing on PMK and PMKID, the
 * status-77 retry with the next group, and the AP's refusals. */
#include <check.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/ie_owe.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/rsn/auth_owe.h"
#include "daemon/rsn/auth_proto.h"

static const uint8_t sta_addr[6] = { 2, 0, 0, 0, 2, 0 };
static const uint8_t ap_addr[6] = { 2, 0, 0, 0, 1, 0 };

START_TEST(lookup_by_akm)
{
	ck_assert_ptr_eq(auth_proto_find_akm(WLAN_AUTH_OPEN, RSN_AKM_OWE, AUTH_ROLE_STA), &auth_owe);
	ck_assert_ptr_eq(auth_proto_find_akm(WLAN_AUTH_OPEN, RSN_AKM_OWE, AUTH_ROLE_AP), &auth_owe);
	/* Other AKMs and the plain lookup keep Open System. */
	ck_assert_ptr_eq(auth_proto_find_akm(WLAN_AUTH_OPEN, RSN_AKM_PSK, AUTH_ROLE_STA), &auth_open);
	ck_assert_ptr_eq(auth_proto_find_akm(WLAN_AUTH_OPEN, 0, AUTH_ROLE_AP), &auth_open);
	ck_assert_ptr_eq(auth_proto_find(WLAN_AUTH_OPEN, AUTH_ROLE_STA), &auth_open);
	ck_assert_ptr_null(auth_proto_find_akm(WLAN_AUTH_FT, RSN_AKM_OWE, AUTH_ROLE_STA));
}
END_TEST

struct pair {
	struct auth_sess *sta, *ap;
	uint8_t req[512], resp[512];
	size_t req_len, resp_len;
};

/* Open System frames; true when both ends are authenticated. */
static bool authenticate(struct pair *p)
{
	struct auth_out out, answer;
	if (auth_sta_start(p->sta, &out) != AUTH_STEP_SEND)
		return false;
	struct auth_msg m = { .alg = WLAN_AUTH_OPEN, .seq = out.seq, .status = out.status };
	if (auth_ap_rx_auth(p->ap, &m, &answer) != AUTH_STEP_DONE)
		return false;
	struct auth_msg r = { .alg = WLAN_AUTH_OPEN, .seq = answer.seq, .status = answer.status };
	return auth_sta_rx_auth(p->sta, &r, &out) == AUTH_STEP_DONE;
}

/* The association request's elements: an RSNE with akm, then the
 * protocol's. */
static void build_request(struct pair *p, uint32_t akm)
{
	struct ie_rsn rsn;
	struct wbuf w = wbuf_init(p->req, sizeof(p->req));
	size_t extra = 0;
	ie_rsn_init(&rsn, akm);
	ck_assert_int_eq(ie_build_rsn(&w, &rsn), CODEC_OK);
	ck_assert_int_eq(auth_sta_assoc_elems(p->sta, p->req + w.len, sizeof(p->req) - w.len,
					      &extra), 0);
	p->req_len = w.len + extra;
}

/* The AP's answer: its status, and its elements into p->resp. */
static uint16_t ap_answer(struct pair *p)
{
	uint16_t st = auth_ap_rx_assoc(p->ap, p->req, p->req_len);
	p->resp_len = 0;
	if (st == WLAN_STATUS_SUCCESS)
		ck_assert_int_eq(auth_ap_assoc_elems(p->ap, p->resp, sizeof(p->resp), &p->resp_len), 0);
	return st;
}

static void pair_new(struct pair *p, uint32_t ap_groups)
{
	memset(p, 0, sizeof(*p));
	p->sta = auth_sess_new(&auth_owe, AUTH_ROLE_STA, sta_addr, ap_addr);
	p->ap = auth_sess_new(&auth_owe, AUTH_ROLE_AP, ap_addr, sta_addr);
	ck_assert_ptr_nonnull(p->sta);
	ck_assert_ptr_nonnull(p->ap);
	if (ap_groups)
		ck_assert_int_eq(auth_owe_ap_set_groups(p->ap, ap_groups), 0);
}

static void pair_free(struct pair *p)
{
	auth_sess_free(p->sta);
	auth_sess_free(p->ap);
}

static void assert_same_pmk(struct pair *p, size_t want_len)
{
	size_t ls, la;
	const uint8_t *ps = auth_sess_pmk(p->sta, &ls), *pa = auth_sess_pmk(p->ap, &la);
	ck_assert_ptr_nonnull(ps);
	ck_assert_ptr_nonnull(pa);
	ck_assert_uint_eq(ls, want_len);
	ck_assert_uint_eq(la, want_len);
	ck_assert_mem_eq(ps, pa, ls);
	ck_assert(p->sta->have_pmkid && p->ap->have_pmkid);
	ck_assert_mem_eq(p->sta->pmkid, p->ap->pmkid, 16);
}

START_TEST(exchange_group19)
{
	struct pair p;
	struct ie_owe_dh dh;
	pair_new(&p, 0);
	ck_assert(authenticate(&p));
	build_request(&p, RSN_AKM_OWE);
	ck_assert_int_eq(ie_find_owe_dh(p.req, p.req_len, &dh), CODEC_OK);
	ck_assert_uint_eq(dh.group, 19);
	ck_assert_uint_eq(dh.key_len, 32);
	ck_assert_uint_eq(ap_answer(&p), WLAN_STATUS_SUCCESS);
	ck_assert_int_eq(ie_find_owe_dh(p.resp, p.resp_len, &dh), CODEC_OK);
	ck_assert_uint_eq(dh.group, 19);
	ck_assert_int_eq(auth_sta_rx_assoc(p.sta, 0, p.resp, p.resp_len), AUTH_STEP_DONE);
	assert_same_pmk(&p, 32);
	pair_free(&p);
}
END_TEST

/* The AP takes only group 20 (then only 21): the station is refused
 * with 77 and starts over with the next group until one is taken. */
START_TEST(unsupported_group_retry)
{
	static const struct { uint16_t group; unsigned refusals; size_t pmk; } cases[] = {
		{ 20, 1, 48 }, { 21, 2, 64 },
	};
	struct pair p;
	pair_new(&p, 1u << cases[_i].group);
	for (unsigned r = 0; r < cases[_i].refusals; r++) {
		ck_assert(authenticate(&p));
		build_request(&p, RSN_AKM_OWE);
		ck_assert_uint_eq(ap_answer(&p), WLAN_STATUS_FINITE_CYCLIC_GROUP_NOT_SUPPORTED);
		ck_assert_uint_eq(p.resp_len, 0);
		ck_assert_int_eq(auth_sta_rx_assoc(p.sta, 77, NULL, 0), AUTH_STEP_SEND);
	}
	ck_assert_uint_eq(auth_owe_group(p.sta), cases[_i].group);
	ck_assert(authenticate(&p));
	build_request(&p, RSN_AKM_OWE);
	ck_assert_uint_eq(ap_answer(&p), WLAN_STATUS_SUCCESS);
	ck_assert_int_eq(auth_sta_rx_assoc(p.sta, 0, p.resp, p.resp_len), AUTH_STEP_DONE);
	assert_same_pmk(&p, cases[_i].pmk);
	pair_free(&p);
}
END_TEST

/* An AP that takes none: after 19, 20 and 21 the station gives up with
 * status 77. */
START_TEST(no_common_group)
{
	struct pair p;
	pair_new(&p, 1u << 30);
	for (unsigned r = 0; r < 3; r++) {
		ck_assert(authenticate(&p));
		build_request(&p, RSN_AKM_OWE);
		ck_assert_uint_eq(ap_answer(&p), WLAN_STATUS_FINITE_CYCLIC_GROUP_NOT_SUPPORTED);
		ck_assert_int_eq(auth_sta_rx_assoc(p.sta, 77, NULL, 0),
				 r < 2 ? AUTH_STEP_SEND : AUTH_STEP_FAILED);
	}
	ck_assert_uint_eq(p.sta->status, WLAN_STATUS_FINITE_CYCLIC_GROUP_NOT_SUPPORTED);
	pair_free(&p);
}
END_TEST

START_TEST(ap_refusals)
{
	struct pair p;
	uint8_t bad[64];
	size_t len;
	pair_new(&p, 0);
	ck_assert(authenticate(&p));
	/* An OWE RSNE without the DH element: 40. */
	struct ie_rsn rsn;
	struct wbuf w = wbuf_init(p.req, sizeof(p.req));
	ie_rsn_init(&rsn, RSN_AKM_OWE);
	ck_assert_int_eq(ie_build_rsn(&w, &rsn), CODEC_OK);
	p.req_len = w.len;
	ck_assert_uint_eq(ap_answer(&p), WLAN_STATUS_INVALID_IE);
	/* A key that is no field element of P-256 (all 0xff: x >= p). */
	uint8_t key[32];
	memset(key, 0xff, sizeof(key));
	struct ie_owe_dh dh = { .group = 19, .key = key, .key_len = 32 };
	w = wbuf_init(bad, sizeof(bad));
	ck_assert_int_eq(ie_build_owe_dh(&w, &dh), CODEC_OK);
	memcpy(p.req + p.req_len, bad, w.len);
	p.req_len += w.len;
	ck_assert_uint_eq(ap_answer(&p), WLAN_STATUS_INVALID_IE);
	ck_assert_ptr_null(auth_sess_pmk(p.ap, &len));
	/* A request for another AKM is not OWE: it passes, without keys. */
	build_request(&p, RSN_AKM_PSK);
	ck_assert_uint_eq(ap_answer(&p), WLAN_STATUS_SUCCESS);
	ck_assert_uint_eq(p.resp_len, 0);
	ck_assert_ptr_null(auth_sess_pmk(p.ap, &len));
	pair_free(&p);
}
END_TEST

START_TEST(sta_refusals)
{
	struct pair p;
	size_t len;
	uint8_t key[32];
	pair_new(&p, 0);
	ck_assert(authenticate(&p));
	build_request(&p, RSN_AKM_OWE);
	/* The AP's key is not a point; then a DH element of another group. */
	memset(key, 0xff, sizeof(key));
	struct ie_owe_dh dh = { .group = 19, .key = key, .key_len = 32 };
	struct wbuf w = wbuf_init(p.resp, sizeof(p.resp));
	ck_assert_int_eq(ie_build_owe_dh(&w, &dh), CODEC_OK);
	ck_assert_int_eq(auth_sta_rx_assoc(p.sta, 0, p.resp, w.len), AUTH_STEP_FAILED);
	ck_assert_uint_eq(p.sta->status, WLAN_STATUS_INVALID_IE);
	ck_assert_ptr_null(auth_sess_pmk(p.sta, &len));
	ck_assert_uint_eq(ap_answer(&p), WLAN_STATUS_SUCCESS);
	p.resp[3] = 20; /* group octet */
	ck_assert_int_eq(auth_sta_rx_assoc(p.sta, 0, p.resp, p.resp_len), AUTH_STEP_FAILED);
	/* Another refusal is final, not a retry. */
	ck_assert_int_eq(auth_sta_rx_assoc(p.sta, WLAN_STATUS_AKMP_NOT_VALID, NULL, 0),
			 AUTH_STEP_FAILED);
	/* No DH element: the AP took a cached PMKSA; no PMK from OWE. */
	ck_assert_int_eq(auth_sta_rx_assoc(p.sta, 0, NULL, 0), AUTH_STEP_DONE);
	ck_assert_ptr_null(auth_sess_pmk(p.sta, &len));
	pair_free(&p);
}
END_TEST

Suite *make_rsn_auth_owe_suite(void)
{
	Suite *s = suite_create("rsn_auth_owe");
	TCase *tc = tcase_create("owe");
	tcase_add_test(tc, lookup_by_akm);
	tcase_add_test(tc, exchange_group19);
	tcase_add_loop_test(tc, unsupported_group_retry, 0, 2);
	tcase_add_test(tc, no_common_group);
	tcase_add_test(tc, ap_refusals);
	tcase_add_test(tc, sta_refusals);
	suite_add_tcase(s, tc);
	return s;
}
