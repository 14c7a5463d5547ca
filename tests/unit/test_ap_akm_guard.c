/* The station runs the 802.1X AKMs now; the access point has no 802.1X
 * authenticator yet, so a profile asking for them is refused with
 * NotSupported instead of beaconing an AKM nobody can complete. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/ap/ap.h"
#include "daemon/config/ap_profile.h"
#include "tests/unit/test_ap_fixture.h"

START_TEST(ap_refuses_8021x_akms)
{
	static const char *const lists[] = { "8021x", "psk 8021x-sha256" };
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		struct ap_profile p;
		struct wpad_error err;
		apt_profile(&p, true);
		snprintf(p.akms, sizeof(p.akms), "%s", lists[i]);
		ck_assert_int_eq(ap_start(APT->ap, &p, &err), -EOPNOTSUPP);
		ck_assert_int_eq(err.code, WPAD_ERR_NOT_SUPPORTED);
		ck_assert_msg(strstr(err.text, "AKMs"), "%s", err.text);
	}
	/* The PSK pair still starts. */
	struct ap_profile p;
	apt_profile(&p, true);
	snprintf(p.akms, sizeof(p.akms), "psk psk-sha256");
	apt_start(&p);
}
END_TEST

Suite *make_ap_akm_guard_suite(void)
{
	Suite *s = suite_create("ap_akm_guard");
	TCase *tc = tcase_create("guard");
	tcase_add_checked_fixture(tc, apt_setup, apt_teardown);
	tcase_add_test(tc, ap_refuses_8021x_akms);
	suite_add_tcase(s, tc);
	return s;
}
