/* The station's SA Query (IEEE 802.11-2020 11.13) on a link with MFP in
 * use: an unprotected deauthentication reported by the driver
 * (DRIVER_EV_UNPROT_DEAUTH) does not end the link; the station asks its AP
 * with SA Query requests and keeps the link when the AP answers, ends it
 * after the SA Query maximum timeout when it does not. It answers the AP's
 * SA Query requests. The AP is played by hand; MFP on the link is set up
 * the way the handshake leaves it (pairwise key and IGTK installed), since
 * the negotiation that turns it on lives elsewhere. */
#include "tests/unit/test_station_air.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/codec/pmf.h"
#include "daemon/core/loop.h"
#include "daemon/station/station_i.h"

#include <check.h>
#include <errno.h>
#include <string.h>

static struct air A;
static struct air_ap *AP;
static uint8_t saq[8][4];
static size_t n_saq;

static void hook(void *ctx, const struct driver_event *ev)
{
	struct mgmt_frame f;
	(void)ctx;
	if (ev->type != DRIVER_EV_RX_MGMT || ev->ifindex != AP->ifindex || !ev->u.mgmt.frame ||
	    mgmt_parse(ev->u.mgmt.frame, ev->u.mgmt.len, &f) < 0 ||
	    f.subtype != IEEE80211_STYPE_ACTION || f.body_len != 4 ||
	    f.body[0] != WLAN_ACTION_SA_QUERY || n_saq >= 8)
		return;
	memcpy(saq[n_saq++], f.body, 4);
}

static void setup(void)
{
	air_setup(&A, 3, false);
	n_saq = 0;
	AP = air_add_ap(&A, 1, "pmf", 2437, false);
	int r = driver_register_mgmt(A.drv, AP->ifindex, 0x00d0, NULL, 0);
	ck_assert(r == 0 || r == -EALREADY);
	A.hook = hook;
	ck_assert_int_eq(air_connect(&A, "pmf", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	A.st->keys_installed |= KEY_BIT_PTK | KEY_BIT_IGTK(4);
}

static void teardown(void)
{
	air_teardown(&A);
}

static void ap_send(const uint8_t *action, size_t len)
{
	uint8_t buf[64];
	struct mgmt_frame f;
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	mgmt_init(&f, IEEE80211_STYPE_ACTION, A.sta_addr, AP->addr, AP->addr);
	f.u.action.category = action[0];
	f.u.action.body = action + 1;
	f.u.action.len = len - 1;
	ck_assert_int_eq(mgmt_build(&w, &f), 0);
	uint64_t cookie;
	ck_assert_int_eq(driver_tx_mgmt(A.drv, AP->ifindex, 0, buf, w.len, false, &cookie), 0);
}

/* What the driver reports for a spoofed deauthentication on an MFP link. */
static void unprotected_deauth(void)
{
	uint8_t frame[26] = { 0xc0, 0x00 };
	memcpy(frame + 4, A.sta_addr, 6);
	memcpy(frame + 10, AP->addr, 6);
	memcpy(frame + 16, AP->addr, 6);
	frame[24] = WLAN_REASON_PREV_AUTH_NOT_VALID;
	struct driver_event ev = { .type = DRIVER_EV_UNPROT_DEAUTH, .ifindex = A.sta_if,
				   .u.mgmt = { .frame = frame, .len = sizeof(frame) } };
	station_handle_event(A.st, &ev);
}

static bool got_request(struct air *a)
{
	(void)a;
	return n_saq > 0;
}

START_TEST(spoofed_deauth_keeps_the_link_when_the_ap_answers)
{
	unprotected_deauth();
	ck_assert(air_run_until(&A, got_request, 1000));
	ck_assert_uint_eq(saq[0][1], SA_QUERY_ACTION_REQUEST);
	ck_assert_int_eq(station_state(A.st), STATION_CONNECTED);
	uint8_t resp[4] = { WLAN_ACTION_SA_QUERY, SA_QUERY_ACTION_RESPONSE, saq[0][2], saq[0][3] };
	ap_send(resp, 4);
	air_run_for(&A, 1500);
	ck_assert_int_eq(station_state(A.st), STATION_CONNECTED);
	ck_assert_uint_eq(A.n_disconnected, 0);
	ck_assert_uint_le(n_saq, 2); /* no retries once answered */
}
END_TEST

START_TEST(silent_ap_ends_the_link_after_the_sa_query_timeout)
{
	uint64_t t0 = loop_now_us(A.loop);
	unprotected_deauth();
	ck_assert(air_run_until(&A, air_disconnected, 3000));
	uint64_t ms = (loop_now_us(A.loop) - t0) / 1000;
	ck_assert_uint_ge(ms, 990);
	ck_assert_uint_ge(n_saq, 2); /* retried every 201 ms */
	ck_assert_msg(strstr(A.disc_err.text, "SA Query") != NULL, "%s", A.disc_err.text);
}
END_TEST

START_TEST(station_answers_sa_query_requests)
{
	uint8_t req[4] = { WLAN_ACTION_SA_QUERY, SA_QUERY_ACTION_REQUEST, 0x77, 0x88 };
	ap_send(req, 4);
	ck_assert(air_run_until(&A, got_request, 1000));
	ck_assert_uint_eq(saq[0][1], SA_QUERY_ACTION_RESPONSE);
	ck_assert_uint_eq(saq[0][2], 0x77);
	ck_assert_uint_eq(saq[0][3], 0x88);
}
END_TEST

/* Status 30 with a comeback time: the station waits it out and comes back
 * (from authentication), instead of giving up on the AP. */
START_TEST(association_comeback_is_honoured)
{
	struct air_ap *ap2 = air_add_ap(&A, 2, "comeback", 2412, false);
	ap2->comebacks = 1;
	ap2->comeback_tu = 300;
	uint64_t t0 = loop_now_us(A.loop);
	ck_assert_int_eq(air_connect(&A, "comeback", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	ck_assert_uint_eq(ap2->n_assoc, 2);
	ck_assert_uint_ge((loop_now_us(A.loop) - t0) / 1000, 300);
}
END_TEST

Suite *make_station_pmf_suite(void)
{
	Suite *s = suite_create("station_pmf");
	TCase *tc = tcase_create("sa_query");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, spoofed_deauth_keeps_the_link_when_the_ap_answers);
	tcase_add_test(tc, silent_ap_ends_the_link_after_the_sa_query_timeout);
	tcase_add_test(tc, station_answers_sa_query_requests);
	tcase_add_test(tc, association_comeback_is_honoured);
	suite_add_tcase(s, tc);
	return s;
}
