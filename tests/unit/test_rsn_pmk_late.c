/* The PMK set after creation (as SAE, 802.1X or the PMKSA cache will) and
 * the PMKID KDE of message 1, both ways: the authenticator sends the PMKID
 * of its PMKSA, the supplicant reads it and, when it offered a PMKSA,
 * refuses a message 1 naming another (reason 49). PSK keeps message 1
 * without key data. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/eapol.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/codec/kde.h"
#include "daemon/rsn/pmksa.h"
#include "tests/unit/test_rsn_shim.h"

static void pmk_and_pmkid(uint8_t pmk[32], uint8_t pmkid[16])
{
	memset(pmk, 0x5a, 32);
	ck_assert_int_eq(rsn_pmkid(RSN_AKM_8021X, pmk, 32, shim_ap_addr, shim_sta_addr, pmkid), 0);
}

/* The PMKID KDE of the AP's last frame, message 1; false if none. */
static bool msg1_pmkid(struct shim *s, uint8_t out[16])
{
	size_t len;
	const uint8_t *f = shim_sent(&s->ap_side, 0, &len);
	struct eapol_hdr h;
	struct eapol_key k;
	struct kde_set kde;
	ck_assert_int_eq(eapol_key_frame_parse(f, len, 16, &h, &k), 0);
	if (!k.key_data_len)
		return false;
	ck_assert_int_eq(kde_parse(k.key_data, k.key_data_len, &kde), CODEC_OK);
	if (!kde.pmkid)
		return false;
	memcpy(out, kde.pmkid, 16);
	return true;
}

START_TEST(pmk_set_late_completes)
{
	struct shim_cfg c;
	struct shim s;
	uint8_t pmk[32], pmkid[16];

	pmk_and_pmkid(pmk, pmkid);
	shim_cfg_default(&c, RSN_AKM_8021X);
	c.late_pmk = true;
	shim_init(&s, &c);
	/* No PMK: the AP cannot start, a message 1 is dropped by the STA. */
	ck_assert_int_eq(rsn_auth_start(s.ap), -ENOKEY);
	ck_assert_uint_eq(s.ap_side.sent, 0);
	ck_assert_int_eq(rsn_auth_set_pmk(s.ap, pmk, 8, NULL), -EINVAL);
	ck_assert_int_eq(rsn_auth_set_pmk(s.ap, pmk, 32, pmkid), 0);
	rsn_supp_start(s.sta);
	ck_assert_int_eq(rsn_auth_start(s.ap), 0);
	shim_pump(&s);
	ck_assert_int_eq(s.last_rx_to_sta, RSN_RX_E_NO_PMK);
	ck_assert_uint_eq(s.sta_side.sent, 0);
	ck_assert_int_eq(rsn_supp_set_pmk(s.sta, pmk, 32, pmkid), 0);
	/* The AP retransmits message 1; now it goes through. */
	ck_assert(shim_run(&s, shim_both_complete, 2000));
	ck_assert_mem_eq(s.sta_side.tk, s.ap_side.tk, s.ap_side.tk_len);
	uint8_t got[16];
	ck_assert(rsn_supp_msg1_pmkid(s.sta, got));
	ck_assert_mem_eq(got, pmkid, 16);
	/* A running handshake keeps its PMK. */
	ck_assert_int_eq(rsn_auth_start(s.ap), 0);
	ck_assert_int_eq(rsn_auth_set_pmk(s.ap, pmk, 32, NULL), -EBUSY);
	shim_free(&s);
}
END_TEST

START_TEST(ap_sends_pmkid_kde_of_its_pmksa)
{
	struct shim_cfg c;
	struct shim s;
	uint8_t pmk[32], pmkid[16], got[16];

	pmk_and_pmkid(pmk, pmkid);
	shim_cfg_default(&c, RSN_AKM_8021X);
	c.sta_pmk_byte = c.ap_pmk_byte = 0x5a;
	c.ap_pmkid = pmkid;
	shim_init(&s, &c);
	rsn_supp_start(s.sta);
	ck_assert_int_eq(rsn_auth_start(s.ap), 0);
	ck_assert(msg1_pmkid(&s, got));
	ck_assert_mem_eq(got, pmkid, 16);
	/* A station that offered nothing accepts it and records it. */
	ck_assert(shim_run(&s, shim_both_complete, 1000));
	ck_assert(rsn_supp_msg1_pmkid(s.sta, got));
	ck_assert_mem_eq(got, pmkid, 16);
	shim_free(&s);
}
END_TEST

START_TEST(psk_message1_has_no_key_data)
{
	struct shim_cfg c;
	struct shim s;
	uint8_t got[16];

	shim_cfg_default(&c, RSN_AKM_PSK);
	shim_init(&s, &c);
	shim_start(&s);
	ck_assert(!msg1_pmkid(&s, got));
	ck_assert(shim_run(&s, shim_both_complete, 1000));
	ck_assert(!rsn_supp_msg1_pmkid(s.sta, got));
	shim_free(&s);
}
END_TEST

START_TEST(station_checks_the_pmkid_it_offered)
{
	struct shim_cfg c;
	struct shim s;
	uint8_t pmk[32], pmkid[16];

	pmk_and_pmkid(pmk, pmkid);
	shim_cfg_default(&c, RSN_AKM_8021X);
	c.sta_pmk_byte = c.ap_pmk_byte = 0x5a;
	c.ap_pmkid = pmkid;
	c.sta_pmkid = pmkid;
	shim_init(&s, &c);
	shim_start(&s);
	ck_assert(shim_run(&s, shim_both_complete, 1000));
	shim_free(&s);
}
END_TEST

START_TEST(station_refuses_another_pmkid)
{
	struct shim_cfg c;
	struct shim s;
	uint8_t pmk[32], pmkid[16], other[16];

	pmk_and_pmkid(pmk, pmkid);
	memcpy(other, pmkid, 16);
	other[15] ^= 0x80;
	shim_cfg_default(&c, RSN_AKM_8021X);
	c.sta_pmk_byte = c.ap_pmk_byte = 0x5a;
	c.ap_pmkid = other;
	c.sta_pmkid = pmkid;
	shim_init(&s, &c);
	shim_start(&s);
	shim_pump(&s);
	ck_assert_uint_eq(s.sta_side.failures, 1);
	ck_assert_int_eq(s.sta_side.failure.reason, RSN_FAIL_PMKID);
	ck_assert_uint_eq(s.sta_side.failure.ieee_reason, WLAN_REASON_INVALID_PMKID);
	ck_assert_uint_eq(s.sta_side.sent, 0); /* no message 2 */
	ck_assert_int_eq(rsn_supp_state(s.sta), RSN_SUPP_STATE_FAILED);
	shim_free(&s);
}
END_TEST

START_TEST(station_without_pmkid_kde_uses_its_pmk)
{
	/* An AP that names no PMKSA in message 1 (allowed): the station
	 * that offered one goes on with the PMK it holds. */
	struct shim_cfg c;
	struct shim s;
	uint8_t pmk[32], pmkid[16];

	pmk_and_pmkid(pmk, pmkid);
	shim_cfg_default(&c, RSN_AKM_8021X);
	c.sta_pmk_byte = c.ap_pmk_byte = 0x5a;
	c.sta_pmkid = pmkid;
	shim_init(&s, &c);
	shim_start(&s);
	ck_assert(shim_run(&s, shim_both_complete, 1000));
	shim_free(&s);
}
END_TEST

Suite *make_rsn_pmk_late_suite(void)
{
	Suite *s = suite_create("rsn_pmk_late");
	TCase *tc = tcase_create("pmk");

	tcase_add_test(tc, pmk_set_late_completes);
	tcase_add_test(tc, ap_sends_pmkid_kde_of_its_pmksa);
	tcase_add_test(tc, psk_message1_has_no_key_data);
	tcase_add_test(tc, station_checks_the_pmkid_it_offered);
	tcase_add_test(tc, station_refuses_another_pmkid);
	tcase_add_test(tc, station_without_pmkid_kde_uses_its_pmk);
	suite_add_tcase(s, tc);
	return s;
}
