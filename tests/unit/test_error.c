/* The structured error catalogue: every code has a name and a meaning, and
 * driver errnos land on the codes the D-Bus API promises. */
#include "daemon/core/error.h"

#include <check.h>
#include <errno.h>
#include <string.h>

START_TEST(every_code_is_named_and_explained)
{
	for (int c = 0; c < WPAD_ERR_COUNT; c++) {
		ck_assert_ptr_nonnull(wpad_error_name(c));
		ck_assert_uint_gt(strlen(wpad_error_name(c)), 3);
		ck_assert_uint_gt(strlen(wpad_error_meaning(c)), 5);
		for (int d = c + 1; d < WPAD_ERR_COUNT; d++)
			ck_assert_str_ne(wpad_error_name(c), wpad_error_name(d));
	}
	ck_assert_str_eq(wpad_error_name(WPAD_ERR_INVALID_PASSPHRASE), "InvalidPassphrase");
	ck_assert_str_eq(wpad_error_name(WPAD_ERR_COUNT), "Failed");
}
END_TEST

START_TEST(errno_mapping)
{
	ck_assert_int_eq(wpad_error_code_from_errno(-EOPNOTSUPP), WPAD_ERR_NOT_SUPPORTED);
	ck_assert_int_eq(wpad_error_code_from_errno(-EBUSY), WPAD_ERR_BUSY);
	ck_assert_int_eq(wpad_error_code_from_errno(-EPERM), WPAD_ERR_REGULATORY_FORBIDDEN);
	ck_assert_int_eq(wpad_error_code_from_errno(-ENOPKG), WPAD_ERR_FIRMWARE_MISSING);
	ck_assert_int_eq(wpad_error_code_from_errno(-ETIMEDOUT), WPAD_ERR_TIMEOUT);
	ck_assert_int_eq(wpad_error_code_from_errno(EACCES), WPAD_ERR_PERMISSION_DENIED);
	ck_assert_int_eq(wpad_error_code_from_errno(-EIO), WPAD_ERR_DRIVER_ERROR);
	ck_assert_int_eq(wpad_error_code_from_errno(-EDOM), WPAD_ERR_FAILED);
	ck_assert_int_eq(wpad_error_code_from_errno(0), WPAD_OK);
}
END_TEST

START_TEST(set_and_clear)
{
	struct wpad_error e;
	wpad_error_clear(&e);
	ck_assert(!wpad_error_is_set(&e));
	ck_assert_int_eq(e.ieee_status, -1);
	wpad_error_set(&e, WPAD_ERR_ASSOCIATION_REJECTED, 0, 17, -1,
		       "the access point is full (status %d)", 17);
	ck_assert(wpad_error_is_set(&e));
	ck_assert_int_eq(e.ieee_status, 17);
	ck_assert_str_eq(e.text, "the access point is full (status 17)");
	ck_assert_uint_gt(e.when, 0);
	wpad_error_set(&e, WPAD_ERR_DRIVER_ERROR, -EIO, -1, -1, "x");
	ck_assert_int_eq(e.err_no, EIO);
}
END_TEST

Suite *make_error_suite(void)
{
	Suite *s = suite_create("error");
	TCase *tc = tcase_create("catalogue");
	tcase_add_test(tc, every_code_is_named_and_explained);
	tcase_add_test(tc, errno_mapping);
	tcase_add_test(tc, set_and_clear);
	suite_add_tcase(s, tc);
	return s;
}
