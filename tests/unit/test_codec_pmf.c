/* MMIE, SA Query and Timeout Interval codecs and the robust-frame rule
 * (IEEE 802.11-2020 9.4.2.54, 9.6.9, 9.4.2.49, Table 9-51). The malformed
 * inputs are rows of the codec_malformed table. */
#include <check.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/codec/pmf.h"

START_TEST(test_mmie_build_parse)
{
	uint8_t buf[64];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	struct mmie m;

	ck_assert_int_eq(mmie_build(&w, 4, 0x0000a1b2c3d4e5f6ULL, 8), CODEC_OK);
	ck_assert_uint_eq(w.len, 18);
	static const uint8_t want[18] = { 0x4c, 0x10, 0x04, 0x00, 0xf6, 0xe5, 0xd4, 0xc3, 0xb2, 0xa1 };
	ck_assert_mem_eq(buf, want, 18);
	ck_assert_int_eq(mmie_parse_trailer(buf, w.len, 8, &m), CODEC_OK);
	ck_assert_uint_eq(m.key_id, 4);
	ck_assert_uint_eq(m.ipn, 0xa1b2c3d4e5f6ULL);
	ck_assert_uint_eq(m.mic_len, 8);
	ck_assert_ptr_eq(m.mic, buf + 10);

	w = wbuf_init(buf, sizeof(buf));
	wbuf_le16(&w, 7); /* a reason code in front */
	ck_assert_int_eq(mmie_build(&w, 5, 1, 16), CODEC_OK);
	ck_assert_uint_eq(w.len, 2 + 26);
	ck_assert_uint_eq(buf[3], 24);
	ck_assert_int_eq(mmie_parse_trailer(buf, w.len, 16, &m), CODEC_OK);
	ck_assert_uint_eq(m.key_id, 5);
	ck_assert_uint_eq(m.ipn, 1);
	ck_assert_int_eq(mmie_parse_trailer(buf, w.len, 8, &m), CODEC_E_MALFORMED);
	ck_assert_int_eq(mmie_parse_trailer(buf, w.len, 12, &m), CODEC_E_INVALID_ARG);

	w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(mmie_build(&w, 8, 1, 8), CODEC_E_INVALID_ARG);
	ck_assert_int_eq(mmie_build(&w, 4, 1ULL << 48, 8), CODEC_E_INVALID_ARG);
	ck_assert_int_eq(mmie_build(&w, 4, 1, 10), CODEC_E_INVALID_ARG);
	w = wbuf_init(buf, 17);
	ck_assert_int_eq(mmie_build(&w, 4, 1, 8), CODEC_E_NOSPACE);
}
END_TEST

START_TEST(test_sa_query_build_parse)
{
	uint8_t buf[16];
	const uint8_t tid[2] = { 0xab, 0xcd };
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	struct sa_query_frame q;

	ck_assert_int_eq(sa_query_build(&w, SA_QUERY_ACTION_REQUEST, tid), CODEC_OK);
	ck_assert_uint_eq(w.len, 4);
	ck_assert_uint_eq(buf[0], WLAN_ACTION_SA_QUERY);
	ck_assert_uint_eq(buf[1], 0);
	ck_assert_int_eq(sa_query_parse(buf, w.len, &q), CODEC_OK);
	ck_assert_uint_eq(q.action, SA_QUERY_ACTION_REQUEST);
	ck_assert_mem_eq(q.trans_id, tid, 2);
	ck_assert_ptr_null(q.ies);

	w = wbuf_init(buf, sizeof(buf));
	ck_assert_int_eq(sa_query_build(&w, SA_QUERY_ACTION_RESPONSE, tid), CODEC_OK);
	ck_assert_int_eq(sa_query_parse(buf, w.len, &q), CODEC_OK);
	ck_assert_uint_eq(q.action, SA_QUERY_ACTION_RESPONSE);
	ck_assert_int_eq(sa_query_build(&w, (enum sa_query_action)2, tid), CODEC_E_INVALID_ARG);
	w = wbuf_init(buf, 3);
	ck_assert_int_eq(sa_query_build(&w, SA_QUERY_ACTION_REQUEST, tid), CODEC_E_NOSPACE);
}
END_TEST

START_TEST(test_timeout_interval)
{
	uint8_t buf[8];
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	struct ie_timeout_interval t;

	ck_assert_int_eq(ie_build_timeout_interval(&w, TIMEOUT_ASSOC_COMEBACK, 0x01020304), CODEC_OK);
	static const uint8_t want[7] = { 56, 5, 3, 0x04, 0x03, 0x02, 0x01 };
	ck_assert_uint_eq(w.len, 7);
	ck_assert_mem_eq(buf, want, 7);
	ck_assert_int_eq(ie_parse_timeout_interval(buf + 2, 5, &t), CODEC_OK);
	ck_assert_uint_eq(t.type, TIMEOUT_ASSOC_COMEBACK);
	ck_assert_uint_eq(t.value, 0x01020304);
	ck_assert_int_eq(ie_build_timeout_interval(&w, (enum timeout_interval_type)0, 1),
			 CODEC_E_INVALID_ARG);
}
END_TEST

START_TEST(test_robust_frames)
{
	const uint8_t saq = WLAN_ACTION_SA_QUERY, pub = WLAN_ACTION_PUBLIC,
		      sp = WLAN_ACTION_SELF_PROTECTED, ft = WLAN_ACTION_FT, vnd = WLAN_ACTION_VENDOR;

	ck_assert(mgmt_is_robust(IEEE80211_STYPE_DEAUTH, NULL, 0));
	ck_assert(mgmt_is_robust(IEEE80211_STYPE_DISASSOC, NULL, 0));
	ck_assert(mgmt_is_robust(IEEE80211_STYPE_ACTION, &saq, 1));
	ck_assert(mgmt_is_robust(IEEE80211_STYPE_ACTION, &ft, 1));
	ck_assert(!mgmt_is_robust(IEEE80211_STYPE_ACTION, &pub, 1));
	ck_assert(!mgmt_is_robust(IEEE80211_STYPE_ACTION, &sp, 1));
	ck_assert(!mgmt_is_robust(IEEE80211_STYPE_ACTION, &vnd, 1));
	ck_assert(!mgmt_is_robust(IEEE80211_STYPE_ACTION, &saq, 0));
	ck_assert(!mgmt_is_robust(IEEE80211_STYPE_AUTH, NULL, 0));
	ck_assert(!mgmt_is_robust(IEEE80211_STYPE_BEACON, NULL, 0));
	ck_assert(!mgmt_is_robust(IEEE80211_STYPE_ASSOC_REQ, NULL, 0));
}
END_TEST

Suite *make_codec_pmf_suite(void)
{
	Suite *s = suite_create("codec_pmf");
	TCase *tc = tcase_create("pmf");

	tcase_add_test(tc, test_mmie_build_parse);
	tcase_add_test(tc, test_sa_query_build_parse);
	tcase_add_test(tc, test_timeout_interval);
	tcase_add_test(tc, test_robust_frames);
	suite_add_tcase(s, tc);
	return s;
}
