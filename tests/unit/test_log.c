/* Logging: level filtering, secret redaction, hex dumps. */
#include "daemon/core/log.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

static char captured[4096];

static void capture(enum log_level level, const char *tag, const char *line, void *data)
{
	size_t used = strlen(captured);
	snprintf(captured + used, sizeof(captured) - used, "%s|%s\n", tag, line);
}

static void setup(void)
{
	captured[0] = '\0';
	log_set_sink(capture, NULL);
	log_set_level(WLOG_INFO);
	log_set_show_secrets(false);
}

static void teardown(void)
{
	log_set_sink(NULL, NULL);
}

START_TEST(levels_filter)
{
	log_write(WLOG_DEBUG, "t", "hidden %d", 1);
	log_write(WLOG_INFO, "t", "shown %d", 2);
	ck_assert_str_eq(captured, "t|shown 2\n");
	log_set_level(WLOG_DEBUG);
	log_write(WLOG_DEBUG, "t", "now %s", "visible");
	ck_assert_ptr_nonnull(strstr(captured, "t|now visible\n"));
	log_write(WLOG_VERBOSE, "t", "too verbose");
	ck_assert_ptr_null(strstr(captured, "too verbose"));
}
END_TEST

START_TEST(secrets_redacted_by_default)
{
	static const unsigned char key[4] = { 0xde, 0xad, 0xbe, 0xef };
	log_set_level(WLOG_DEBUG);
	log_secret_hexdump(WLOG_DEBUG, "rsn", "PTK", key, sizeof(key));
	ck_assert_ptr_null(strstr(captured, "de ad"));
	ck_assert_ptr_nonnull(strstr(captured, "PTK: [secret, 4 bytes]"));
	log_set_show_secrets(true);
	log_secret_hexdump(WLOG_DEBUG, "rsn", "PTK", key, sizeof(key));
	ck_assert_ptr_nonnull(strstr(captured, "de ad be ef"));
}
END_TEST

START_TEST(hexdump_wraps_lines)
{
	unsigned char buf[40];
	for (int i = 0; i < 40; i++)
		buf[i] = (unsigned char)i;
	log_set_level(WLOG_DEBUG);
	log_hexdump(WLOG_DEBUG, "f", "frame", buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(captured, "f|frame (40 bytes):\n"));
	ck_assert_ptr_nonnull(strstr(captured, "f|  00 01 02"));
	ck_assert_ptr_nonnull(strstr(captured, "1e 1f\nf|  20 21 22 23 24 25 26 27\n"));
}
END_TEST

START_TEST(addr_str_matches_printf)
{
	static const uint8_t addrs[][6] = { { 0, 0, 0, 0, 0, 0 },
					    { 0x02, 0x5a, 0x0f, 0xa0, 0xff, 0x9c },
					    { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } };
	for (size_t i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++) {
		const uint8_t *a = addrs[i];
		char want[LOG_ADDR_STR_LEN], got[LOG_ADDR_STR_LEN];
		memset(got, 'x', sizeof(got));
		snprintf(want, sizeof(want), "%02x:%02x:%02x:%02x:%02x:%02x", a[0], a[1], a[2], a[3],
			 a[4], a[5]);
		ck_assert_ptr_eq(log_addr_str(a, got), got);
		ck_assert_str_eq(got, want);
	}
}
END_TEST

Suite *make_log_suite(void)
{
	Suite *s = suite_create("log");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, levels_filter);
	tcase_add_test(tc, secrets_redacted_by_default);
	tcase_add_test(tc, hexdump_wraps_lines);
	tcase_add_test(tc, addr_str_matches_printf);
	suite_add_tcase(s, tc);
	return s;
}
