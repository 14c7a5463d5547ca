/* The station's security negotiation on the simulated air (daemon/rsn/
 * negotiate.c through daemon/station): PMF used whenever the AP offers it
 * with PSK-SHA256 preferred, MFPR kept for APs requiring it, and the
 * refusals of mixed WPA/WPA2 networks on a driver without TKIP and of
 * TKIP-only networks, each saying what the network offers and why, with
 * its IEEE status code. */
#include "tests/unit/test_station_air.h"

#include "daemon/codec/ie.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ieee80211.h"

#include <check.h>
#include <string.h>

static struct air A;

static void setup(void)
{
	air_setup(&A, 3, false);
}

static void teardown(void)
{
	air_teardown(&A);
}

static void assoc_rsne(const struct air_ap *ap, struct ie_rsn *rsn)
{
	struct ie_elem e;
	ck_assert(ie_find(ap->last_assoc_ies, ap->last_assoc_ies_len, WLAN_EID_RSN, &e));
	ck_assert_int_eq(ie_parse_rsn(e.data, e.len, rsn), 0);
}

/* Issue 13 item 5: an AP offering PMF (MFPC) with PSK and PSK-SHA256 is
 * joined with PMF (MFPC=1, MFPR=0) and PSK-SHA256. */
START_TEST(pmf_used_when_offered)
{
	struct air_ap_conf c = { .ssid = "offer", .freq = 2437, .psk = true,
				 .rsn_capab = RSN_CAPAB_MFPC };
	struct air_ap *ap = air_add_ap_conf(&A, 1, &c);
	ck_assert_int_eq(air_connect(&A, "offer", "correct horse", false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	ck_assert_uint_ge(ap->n_assoc, 1);
	struct ie_rsn rsn;
	assoc_rsne(ap, &rsn);
	ck_assert(rsn.capab & RSN_CAPAB_MFPC);
	ck_assert(!(rsn.capab & RSN_CAPAB_MFPR));
	ck_assert_uint_eq(rsn.akm[0], RSN_AKM_PSK); /* the hand-played AP offers PSK only */
}
END_TEST

START_TEST(pmf_required_by_the_ap)
{
	struct air_ap_conf c = { .ssid = "req", .freq = 2437, .psk = true,
				 .akm = RSN_AKM_PSK_SHA256,
				 .rsn_capab = RSN_CAPAB_MFPC | RSN_CAPAB_MFPR };
	struct air_ap *ap = air_add_ap_conf(&A, 1, &c);
	ck_assert_int_eq(air_connect(&A, "req", "correct horse", false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	struct ie_rsn rsn;
	assoc_rsne(ap, &rsn);
	ck_assert(rsn.capab & RSN_CAPAB_MFPC);
	ck_assert_uint_eq(rsn.akm[0], RSN_AKM_PSK_SHA256);
}
END_TEST

START_TEST(no_pmf_without_mfpc)
{
	struct air_ap *ap = air_add_ap(&A, 1, "plain", 2437, true);
	ck_assert_int_eq(air_connect(&A, "plain", "correct horse", false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	struct ie_rsn rsn;
	assoc_rsne(ap, &rsn);
	ck_assert(!(rsn.capab & (RSN_CAPAB_MFPC | RSN_CAPAB_MFPR)));
}
END_TEST

/* Issue 13 item 1: group TKIP with pairwise CCMP needs a driver with TKIP;
 * the sim has none, so the refusal names the offer and the reason. */
START_TEST(mixed_mode_without_driver_tkip)
{
	struct air_ap_conf c = { .ssid = "mixed", .freq = 2437, .psk = true,
				 .pairwise = RSN_CIPHER_CCMP_128, .group = RSN_CIPHER_TKIP };
	struct air_ap *ap = air_add_ap_conf(&A, 1, &c);
	ck_assert_int_eq(air_connect(&A, "mixed", "correct horse", false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_NOT_SUPPORTED);
	ck_assert_int_eq(A.connect_err.ieee_status, WLAN_STATUS_GROUP_CIPHER_NOT_VALID);
	ck_assert_msg(strstr(A.connect_err.text, "group tkip, pairwise ccmp-128") &&
			      strstr(A.connect_err.text, "driver does not offer TKIP"),
		      "%s", A.connect_err.text);
	ck_assert_uint_eq(ap->n_auth, 0);
}
END_TEST

START_TEST(tkip_pairwise_refused)
{
	struct air_ap_conf c = { .ssid = "old", .freq = 2437, .psk = true,
				 .pairwise = RSN_CIPHER_TKIP, .group = RSN_CIPHER_TKIP };
	air_add_ap_conf(&A, 1, &c);
	ck_assert_int_eq(air_connect(&A, "old", "correct horse", false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_NOT_SUPPORTED);
	ck_assert_int_eq(A.connect_err.ieee_status, WLAN_STATUS_PAIRWISE_CIPHER_NOT_VALID);
	ck_assert_msg(strstr(A.connect_err.text, "group tkip, pairwise tkip") &&
			      strstr(A.connect_err.text, "TKIP, which is insecure"),
		      "%s", A.connect_err.text);
}
END_TEST

Suite *make_station_security_suite(void)
{
	Suite *s = suite_create("station_security");
	TCase *tc = tcase_create("negotiation");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, pmf_used_when_offered);
	tcase_add_test(tc, pmf_required_by_the_ap);
	tcase_add_test(tc, no_pmf_without_mfpc);
	tcase_add_test(tc, mixed_mode_without_driver_tkip);
	tcase_add_test(tc, tkip_pairwise_refused);
	suite_add_tcase(s, tc);
	return s;
}
