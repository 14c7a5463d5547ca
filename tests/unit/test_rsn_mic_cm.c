/* TKIP countermeasure timing (IEEE 802.11-2020 12.5.2.4): two Michael MIC
 * failures within 60 s start countermeasures, which refuse TKIP for 60 s. */
#include <check.h>

#include "daemon/rsn/mic_cm.h"

#define S(x) ((uint64_t)(x) * 1000000ull)

START_TEST(single_failure_only_reports)
{
	struct rsn_mic_cm cm = { 0 };
	ck_assert_int_eq(rsn_mic_cm_failure(&cm, S(100)), RSN_MIC_CM_REPORT);
	ck_assert(!rsn_mic_cm_blocked(&cm, S(100)));
	ck_assert_uint_eq(cm.failures, 1);
}
END_TEST

START_TEST(second_within_60s_starts_countermeasures)
{
	struct rsn_mic_cm cm = { 0 };
	ck_assert_int_eq(rsn_mic_cm_failure(&cm, S(100)), RSN_MIC_CM_REPORT);
	ck_assert_int_eq(rsn_mic_cm_failure(&cm, S(159)), RSN_MIC_CM_COUNTERMEASURES);
	ck_assert(rsn_mic_cm_blocked(&cm, S(159)));
	ck_assert(rsn_mic_cm_blocked(&cm, S(218)));
	ck_assert_uint_eq(rsn_mic_cm_remaining_us(&cm, S(189)), S(30));
	/* The block is 60 s from the second failure, then TKIP is allowed. */
	ck_assert(!rsn_mic_cm_blocked(&cm, S(219)));
	ck_assert_uint_eq(rsn_mic_cm_remaining_us(&cm, S(219)), 0);
	ck_assert_uint_eq(cm.countermeasures, 1);
}
END_TEST

START_TEST(exactly_60s_apart_counts)
{
	struct rsn_mic_cm cm = { 0 };
	rsn_mic_cm_failure(&cm, S(10));
	ck_assert_int_eq(rsn_mic_cm_failure(&cm, S(70)), RSN_MIC_CM_COUNTERMEASURES);
}
END_TEST

START_TEST(failures_more_than_60s_apart_only_report)
{
	struct rsn_mic_cm cm = { 0 };
	ck_assert_int_eq(rsn_mic_cm_failure(&cm, S(0) + 1), RSN_MIC_CM_REPORT);
	ck_assert_int_eq(rsn_mic_cm_failure(&cm, S(61) + 1), RSN_MIC_CM_REPORT);
	/* ... but the second one now pairs with a third within 60 s. */
	ck_assert_int_eq(rsn_mic_cm_failure(&cm, S(120)), RSN_MIC_CM_COUNTERMEASURES);
	ck_assert_uint_eq(cm.failures, 3);
}
END_TEST

START_TEST(pair_is_spent_after_countermeasures)
{
	struct rsn_mic_cm cm = { 0 };
	rsn_mic_cm_failure(&cm, S(1));
	ck_assert_int_eq(rsn_mic_cm_failure(&cm, S(2)), RSN_MIC_CM_COUNTERMEASURES);
	/* Later on (after the block), one failure alone only reports again. */
	ck_assert_int_eq(rsn_mic_cm_failure(&cm, S(100)), RSN_MIC_CM_REPORT);
	ck_assert_int_eq(rsn_mic_cm_failure(&cm, S(110)), RSN_MIC_CM_COUNTERMEASURES);
	ck_assert(rsn_mic_cm_blocked(&cm, S(169)));
	ck_assert(!rsn_mic_cm_blocked(&cm, S(170)));
	ck_assert_uint_eq(cm.countermeasures, 2);
}
END_TEST

START_TEST(clock_going_backwards_is_not_a_pair)
{
	struct rsn_mic_cm cm = { 0 };
	rsn_mic_cm_failure(&cm, S(100));
	ck_assert_int_eq(rsn_mic_cm_failure(&cm, S(50)), RSN_MIC_CM_REPORT);
}
END_TEST

Suite *make_rsn_mic_cm_suite(void)
{
	Suite *s = suite_create("rsn_mic_cm");
	TCase *tc = tcase_create("timing");
	tcase_add_test(tc, single_failure_only_reports);
	tcase_add_test(tc, second_within_60s_starts_countermeasures);
	tcase_add_test(tc, exactly_60s_apart_counts);
	tcase_add_test(tc, failures_more_than_60s_apart_only_report);
	tcase_add_test(tc, pair_is_spent_after_countermeasures);
	tcase_add_test(tc, clock_going_backwards_is_not_a_pair);
	suite_add_tcase(s, tc);
	return s;
}
