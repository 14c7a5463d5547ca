/* The AP's SA Query and association comeback (IEEE 802.11-2020 11.13,
 * 11.3.5.3), played by hand over the sim: a station associates (open
 * network), the association is marked MFP as the negotiation will mark it,
 * then the "station" comes back as a restarted one would:
 *   - its Authentication does not end the association;
 *   - its Association Request is refused with status 30 and a Timeout
 *     Interval element (association comeback time), and the AP sends SA
 *     Query requests;
 *   - answered: the association stays; silent: after the SA Query maximum
 *     timeout it is released and the next Association Request is admitted.
 * The AP also answers SA Query requests. */
#include "tests/unit/test_ap_fixture.h"
#include "daemon/ap/ap_internal.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/codec/pmf.h"
#include "daemon/rsn/sa_query.h"

#include <check.h>
#include <errno.h>
#include <string.h>

static const uint8_t rates[] = { 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24 };

/* Hand-played authentication + association; the AP marks it MFP. */
static struct apt_sta *mfp_station(void)
{
	struct ap_profile p;
	uint8_t buf[512];
	struct apt_event *e;
	apt_profile(&p, false);
	struct apt_sta *s = apt_sta_add();
	apt_start(&p);
	int r = driver_register_mgmt(APT->drv, s->ifindex, 0x00d0, NULL, 0);
	ck_assert(r == 0 || r == -EALREADY);
	apt_tx(s, buf, apt_auth_frame(s, WLAN_AUTH_OPEN, 1, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(e = apt_wait_mgmt(IEEE80211_STYPE_AUTH, s->ifindex, 1000));
	ck_assert_uint_eq(apt_resp_status(e), WLAN_STATUS_SUCCESS);
	apt_tx(s, buf, apt_assoc_frame(s, rates, 8, NULL, 0, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(e = apt_wait_mgmt(IEEE80211_STYPE_ASSOC_RESP, s->ifindex, 1000));
	ck_assert_uint_eq(apt_resp_status(e), WLAN_STATUS_SUCCESS);
	for (int i = 0; i < 100 && apt_ap_sta_state(s->addr) < AP_STA_ASSOCIATED; i++)
		apt_run(10);
	ck_assert_int_ge(apt_ap_sta_state(s->addr), AP_STA_ASSOCIATED);
	struct ap_sta *sta = ap_sta_find(APT->ap, s->addr);
	ck_assert_ptr_nonnull(sta);
	sta->pmf.mfp = true;
	ck_assert(ap_pmf_protected(sta));
	return s;
}

/* The next SA Query frame the station interface got from the AP. */
static struct sa_query_frame wait_sa_query(struct apt_sta *s, struct apt_event **ev)
{
	struct sa_query_frame q;
	struct mgmt_frame f;
	struct apt_event *e = apt_wait_mgmt(IEEE80211_STYPE_ACTION, s->ifindex, 1500);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(mgmt_parse(e->frame, e->len, &f), 0);
	ck_assert_int_eq(sa_query_parse(f.body, f.body_len, &q), 0);
	if (ev)
		*ev = e;
	return q;
}

static void send_sa_query(struct apt_sta *s, enum sa_query_action action, const uint8_t id[2])
{
	uint8_t buf[64];
	struct mgmt_frame f;
	uint8_t body[4];
	struct wbuf bw = wbuf_init(body, sizeof(body));
	ck_assert_int_eq(sa_query_build(&bw, action, id), 0);
	mgmt_init(&f, IEEE80211_STYPE_ACTION, APT->ap_addr, s->addr, APT->ap_addr);
	f.u.action.category = body[0];
	f.u.action.body = body + 1;
	f.u.action.len = 3;
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(mgmt_build(&w, &f), 0);
	apt_tx(s, buf, w.len);
}

/* Association again: status 30 with a comeback time. */
static void assoc_again_refused(struct apt_sta *s)
{
	uint8_t buf[512];
	struct apt_event *e;
	struct mgmt_frame f;
	struct ie_elem te;
	struct ie_timeout_interval ti;
	apt_tx(s, buf, apt_auth_frame(s, WLAN_AUTH_OPEN, 1, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(e = apt_wait_mgmt(IEEE80211_STYPE_AUTH, s->ifindex, 1000));
	ck_assert_uint_eq(apt_resp_status(e), WLAN_STATUS_SUCCESS);
	ck_assert_int_ge(apt_ap_sta_state(s->addr), AP_STA_ASSOCIATED);
	apt_tx(s, buf, apt_assoc_frame(s, rates, 8, NULL, 0, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(e = apt_wait_mgmt(IEEE80211_STYPE_ASSOC_RESP, s->ifindex, 1000));
	ck_assert_uint_eq(apt_resp_status(e), WLAN_STATUS_ASSOC_REJECTED_TEMPORARILY);
	ck_assert_int_eq(mgmt_parse(e->frame, e->len, &f), 0);
	ck_assert(ie_find(f.ies, f.ies_len, WLAN_EID_TIMEOUT_INTERVAL, &te));
	ck_assert_int_eq(ie_parse_timeout_interval(te.data, te.len, &ti), 0);
	ck_assert_uint_eq(ti.type, TIMEOUT_ASSOC_COMEBACK);
	ck_assert_uint_eq(ti.value, AP_PMF_COMEBACK_TU);
	ck_assert_int_ge(apt_ap_sta_state(s->addr), AP_STA_ASSOCIATED);
}

START_TEST(silent_station_is_released_and_gets_back_in)
{
	struct apt_sta *s = mfp_station();
	assoc_again_refused(s);
	struct sa_query_frame q = wait_sa_query(s, NULL);
	ck_assert_uint_eq(q.action, SA_QUERY_ACTION_REQUEST);
	/* Nobody answers: the retries come, then the old association goes. */
	struct sa_query_frame q2 = wait_sa_query(s, NULL);
	ck_assert(memcmp(q.trans_id, q2.trans_id, 2) != 0);
	for (int i = 0; i < 200 && apt_ap_sta_state(s->addr) >= AP_STA_ASSOCIATED; i++)
		apt_run(10);
	ck_assert_int_eq(apt_ap_sta_state(s->addr), AP_STA_AUTHENTICATED);
	/* After its comeback time the station associates again. */
	uint8_t buf[512];
	struct apt_event *e;
	apt_tx(s, buf, apt_assoc_frame(s, rates, 8, NULL, 0, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(e = apt_wait_mgmt(IEEE80211_STYPE_ASSOC_RESP, s->ifindex, 1000));
	ck_assert_uint_eq(apt_resp_status(e), WLAN_STATUS_SUCCESS);
}
END_TEST

START_TEST(answering_station_keeps_its_association)
{
	struct apt_sta *s = mfp_station();
	assoc_again_refused(s);
	struct sa_query_frame q = wait_sa_query(s, NULL);
	/* A wrong identifier does not count. */
	uint8_t wrong[2] = { (uint8_t)(q.trans_id[0] ^ 0xff), q.trans_id[1] };
	send_sa_query(s, SA_QUERY_ACTION_RESPONSE, wrong);
	apt_run(20);
	send_sa_query(s, SA_QUERY_ACTION_RESPONSE, q.trans_id);
	apt_run(1300);
	ck_assert_int_ge(apt_ap_sta_state(s->addr), AP_STA_ASSOCIATED);
	struct ap_sta *sta = ap_sta_find(APT->ap, s->addr);
	ck_assert_ptr_nonnull(sta);
	ck_assert_int_eq(sa_query_state(sta->pmf.sa_query), SA_QUERY_IDLE);
	ck_assert_uint_eq(sa_query_stats(sta->pmf.sa_query)->unmatched, 1);
}
END_TEST

START_TEST(ap_answers_sa_query_requests)
{
	struct apt_sta *s = mfp_station();
	const uint8_t id[2] = { 0x5a, 0xa5 };
	send_sa_query(s, SA_QUERY_ACTION_REQUEST, id);
	struct sa_query_frame q = wait_sa_query(s, NULL);
	ck_assert_uint_eq(q.action, SA_QUERY_ACTION_RESPONSE);
	ck_assert_mem_eq(q.trans_id, id, 2);
}
END_TEST

/* A protected deauthentication as nl80211 delivers it: decrypted, the
 * Protected bit still set, the reason code in clear. */
static void rx_decrypted_protected_deauth(struct apt_sta *s, uint16_t reason)
{
	uint8_t buf[64];
	struct mgmt_frame f;
	mgmt_init(&f, IEEE80211_STYPE_DEAUTH, APT->ap_addr, s->addr, APT->ap_addr);
	f.u.reason = reason;
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(mgmt_build(&w, &f), 0);
	buf[1] |= 0x40; /* Protected */
	struct driver_event ev = { .type = DRIVER_EV_RX_MGMT };
	ev.u.mgmt.frame = buf;
	ev.u.mgmt.len = w.len;
	ap_mgmt_rx(APT->ap, &ev);
}

START_TEST(protected_deauth_from_mfp_station_ends_it)
{
	struct apt_sta *s = mfp_station();
	rx_decrypted_protected_deauth(s, WLAN_REASON_DEAUTH_LEAVING);
	ck_assert_int_eq(apt_ap_sta_state(s->addr), AP_STA_NONE);
}
END_TEST

START_TEST(protected_deauth_without_mfp_is_ignored)
{
	struct apt_sta *s = mfp_station();
	ap_sta_find(APT->ap, s->addr)->pmf.mfp = false;
	rx_decrypted_protected_deauth(s, WLAN_REASON_DEAUTH_LEAVING);
	ck_assert_int_ge(apt_ap_sta_state(s->addr), AP_STA_ASSOCIATED);
}
END_TEST

/* A station whose association is accepted with MFP but whose 4-way
 * handshake never started on its side (its driver gave up waiting for our
 * late association response) authenticates and associates again. There is
 * no PTK yet, so nothing for SA Query to protect: the AP replaces the
 * pending association instead of answering status 30 (the comebacks of
 * the 100-station SAE bench). */
START_TEST(handshake_pending_association_is_replaced)
{
	struct ap_profile p;
	uint8_t buf[512], rsne[64];
	struct apt_event *e;
	apt_profile(&p, true);
	struct apt_sta *s = apt_sta_add();
	apt_start(&p);
	size_t rsne_len = apt_sta_rsne(rsne, sizeof(rsne));
	apt_tx(s, buf, apt_auth_frame(s, WLAN_AUTH_OPEN, 1, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(e = apt_wait_mgmt(IEEE80211_STYPE_AUTH, s->ifindex, 1000));
	ck_assert_uint_eq(apt_resp_status(e), WLAN_STATUS_SUCCESS);
	apt_tx(s, buf, apt_assoc_frame(s, rates, 8, rsne, rsne_len, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(e = apt_wait_mgmt(IEEE80211_STYPE_ASSOC_RESP, s->ifindex, 1000));
	ck_assert_uint_eq(apt_resp_status(e), WLAN_STATUS_SUCCESS);
	for (int i = 0; i < 100 && apt_ap_sta_state(s->addr) < AP_STA_ASSOCIATED; i++)
		apt_run(5);
	ck_assert_int_eq(apt_ap_sta_state(s->addr), AP_STA_ASSOCIATED); /* 4-way pending */
	struct ap_sta *sta = ap_sta_find(APT->ap, s->addr);
	ck_assert_ptr_nonnull(sta);
	sta->pmf.mfp = true; /* as an MFP-capable station's RSNE would have it */
	ck_assert(!ap_pmf_protected(sta));

	apt_tx(s, buf, apt_auth_frame(s, WLAN_AUTH_OPEN, 1, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(e = apt_wait_mgmt(IEEE80211_STYPE_AUTH, s->ifindex, 1000));
	ck_assert_uint_eq(apt_resp_status(e), WLAN_STATUS_SUCCESS);
	ck_assert_int_eq(apt_ap_sta_state(s->addr), AP_STA_AUTHENTICATED);
	apt_tx(s, buf, apt_assoc_frame(s, rates, 8, rsne, rsne_len, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(e = apt_wait_mgmt(IEEE80211_STYPE_ASSOC_RESP, s->ifindex, 1000));
	ck_assert_uint_eq(apt_resp_status(e), WLAN_STATUS_SUCCESS);
	sta = ap_sta_find(APT->ap, s->addr);
	ck_assert_ptr_nonnull(sta);
	ck_assert(!sta->pmf.sa_query || sa_query_state(sta->pmf.sa_query) == SA_QUERY_IDLE);
	ck_assert_ptr_null(apt_wait_mgmt(IEEE80211_STYPE_ACTION, s->ifindex, 50));
}
END_TEST

static void setup(void)
{
	apt_setup();
}

static void teardown(void)
{
	apt_teardown();
}

Suite *make_ap_pmf_suite(void)
{
	Suite *s = suite_create("ap_pmf");
	TCase *tc = tcase_create("sa_query");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, silent_station_is_released_and_gets_back_in);
	tcase_add_test(tc, answering_station_keeps_its_association);
	tcase_add_test(tc, ap_answers_sa_query_requests);
	tcase_add_test(tc, protected_deauth_from_mfp_station_ends_it);
	tcase_add_test(tc, protected_deauth_without_mfp_is_ignored);
	tcase_add_test(tc, handshake_pending_association_is_replaced);
	suite_add_tcase(s, tc);
	return s;
}
