/* The supplicant's Michael MIC Failure Report (IEEE 802.11-2020 12.5.2.4,
 * 12.7.2): an EAPOL-Key Request with the Error, MIC and Secure bits, Key
 * Type pairwise only for a unicast failure, counted with the request replay
 * counter (0 after the PTK, +1 per request), its MIC under the KCK. */
#include "tests/unit/test_rsn_shim.h"

#include "daemon/codec/eapol.h"
#include "daemon/codec/ieee80211.h"

#include <check.h>
#include <errno.h>

/* EAPOL header (4) | descriptor type (1) | Key Information (2, BE) |
 * Key Length (2) | Key Replay Counter (8, BE) | Nonce (32) | IV (16) |
 * RSC (8) | reserved (8) | MIC (16) */
static uint16_t key_info(const uint8_t *f)
{
	return (uint16_t)(f[5] << 8 | f[6]);
}

static uint64_t replay(const uint8_t *f)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | f[9 + i];
	return v;
}

static bool mic_nonzero(const uint8_t *f)
{
	for (int i = 0; i < 16; i++)
		if (f[81 + i])
			return true;
	return false;
}

START_TEST(report_after_the_handshake)
{
	struct shim_cfg c;
	struct shim s;
	size_t len;

	shim_cfg_default(&c, RSN_AKM_PSK);
	shim_init(&s, &c);
	ck_assert_int_eq(rsn_supp_mic_failure_report(s.sta, false), -ENOTCONN);
	shim_start(&s);
	ck_assert(shim_run(&s, shim_both_complete, 1000));
	unsigned sent = s.sta_side.sent;

	ck_assert_int_eq(rsn_supp_mic_failure_report(s.sta, false), 0);
	ck_assert_uint_eq(s.sta_side.sent, sent + 1);
	const uint8_t *f = shim_sent(&s.sta_side, 0, &len);
	uint16_t want = EAPOL_KEY_INFO_REQUEST | EAPOL_KEY_INFO_ERROR | EAPOL_KEY_INFO_MIC |
			EAPOL_KEY_INFO_SECURE;
	ck_assert_uint_eq(key_info(f) & ~EAPOL_KEY_INFO_VERSION_MASK, want);
	ck_assert_uint_eq(replay(f), 0);
	ck_assert(mic_nonzero(f));

	ck_assert_int_eq(rsn_supp_mic_failure_report(s.sta, true), 0);
	f = shim_sent(&s.sta_side, 0, &len);
	ck_assert_uint_eq(key_info(f) & ~EAPOL_KEY_INFO_VERSION_MASK,
			  want | EAPOL_KEY_INFO_PAIRWISE);
	ck_assert_uint_eq(replay(f), 1);
	shim_free(&s);
}
END_TEST

Suite *make_rsn_mic_report_suite(void)
{
	Suite *s = suite_create("rsn_mic_report");
	TCase *tc = tcase_create("report");
	tcase_add_test(tc, report_after_the_handshake);
	suite_add_tcase(s, tc);
	return s;
}
