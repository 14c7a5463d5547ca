/* wpactl's JSON writer: escaping of every kind of string (control
 * characters, quotes, invalid UTF-8) and the structure rules. The writer
 * is compiled into this test as it is (wpactl's objects are not in
 * libwpad.a). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wpactl/json.c"

/* The text the writer produced for one string value. */
static char *escaped(const char *s, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	ck_assert_ptr_nonnull(f);
	jw_write_string(f, s, len);
	fclose(f);
	return buf;
}

static void check_escape(const char *in, size_t len, const char *want)
{
	char *got = escaped(in, len);
	ck_assert_str_eq(got, want);
	free(got);
}

START_TEST(plain_and_utf8_pass_through)
{
	check_escape("home", 4, "\"home\"");
	check_escape("", 0, "\"\"");
	check_escape("caf\xc3\xa9", 5, "\"caf\xc3\xa9\"");
	check_escape("\xe2\x82\xac", 3, "\"\xe2\x82\xac\"");               /* U+20AC */
	check_escape("\xf0\x9f\x93\xb6", 4, "\"\xf0\x9f\x93\xb6\"");       /* U+1F4F6 */
	check_escape("\xf4\x8f\xbf\xbf", 4, "\"\xf4\x8f\xbf\xbf\"");       /* U+10FFFF */
	check_escape("/org/wpad1/device/s0", 20, "\"/org/wpad1/device/s0\""); /* '/' kept */
}
END_TEST

START_TEST(quotes_backslashes_and_short_escapes)
{
	check_escape("a\"b", 3, "\"a\\\"b\"");
	check_escape("a\\b", 3, "\"a\\\\b\"");
	check_escape("\b\f\n\r\t", 5, "\"\\b\\f\\n\\r\\t\"");
}
END_TEST

START_TEST(other_control_characters_as_u_escapes)
{
	check_escape("\x01", 1, "\"\\u0001\"");
	check_escape("\x1b[31mred", 8, "\"\\u001b[31mred\"");
	check_escape("\x1f", 1, "\"\\u001f\"");
	check_escape("\x7f", 1, "\"\\u007f\"");
	/* A NUL inside a counted string is a character like the others. */
	check_escape("a\0b", 3, "\"a\\u0000b\"");
}
END_TEST

START_TEST(invalid_utf8_becomes_replacement_characters)
{
	check_escape("\xff", 1, "\"\\ufffd\"");
	check_escape("a\x80z", 3, "\"a\\ufffdz\"");               /* lone continuation */
	check_escape("\xc3", 1, "\"\\ufffd\"");                   /* cut short at the end */
	check_escape("\xc3(", 2, "\"\\ufffd(\"");                 /* bad continuation */
	check_escape("\xc0\x80", 2, "\"\\ufffd\\ufffd\"");        /* overlong NUL */
	check_escape("\xe0\x80\xaf", 3, "\"\\ufffd\\ufffd\\ufffd\""); /* overlong '/' */
	check_escape("\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\""); /* surrogate D800 */
	check_escape("\xf4\x90\x80\x80", 4,
		     "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* past U+10FFFF */
	check_escape("\xf5\x80", 2, "\"\\ufffd\\ufffd\"");
}
END_TEST

/* The writer into a memory buffer. */
struct mem {
	char *buf;
	size_t len;
	FILE *f;
	struct jw w;
};

static void mem_open(struct mem *m)
{
	m->buf = NULL;
	m->f = open_memstream(&m->buf, &m->len);
	ck_assert_ptr_nonnull(m->f);
	jw_init(&m->w, m->f);
}

static void mem_check(struct mem *m, bool ok, const char *want)
{
	ck_assert_int_eq(jw_finish(&m->w), ok);
	fclose(m->f);
	if (want)
		ck_assert_str_eq(m->buf, want);
	free(m->buf);
}

START_TEST(objects_and_arrays_get_their_commas)
{
	struct mem m;
	mem_open(&m);
	jw_object_begin(&m.w);
	jw_key(&m.w, "name");
	jw_string(&m.w, "s0");
	jw_key(&m.w, "powered");
	jw_bool(&m.w, true);
	jw_key(&m.w, "list");
	jw_array_begin(&m.w);
	jw_int(&m.w, -1);
	jw_uint(&m.w, 18446744073709551615u);
	jw_null(&m.w);
	jw_object_begin(&m.w);
	jw_object_end(&m.w);
	jw_array_begin(&m.w);
	jw_array_end(&m.w);
	jw_array_end(&m.w);
	jw_key(&m.w, "a\"b");
	jw_int(&m.w, INT64_MIN);
	jw_object_end(&m.w);
	mem_check(&m, true,
		  "{\"name\":\"s0\",\"powered\":true,\"list\":[-1,18446744073709551615,null,{},[]],"
		  "\"a\\\"b\":-9223372036854775808}\n");
}
END_TEST

START_TEST(doubles_and_non_finite)
{
	struct mem m;
	mem_open(&m);
	jw_array_begin(&m.w);
	jw_double(&m.w, 2.5);
	jw_double(&m.w, NAN);
	jw_double(&m.w, INFINITY);
	jw_array_end(&m.w);
	mem_check(&m, true, "[2.5,null,null]\n");
}
END_TEST

START_TEST(a_value_needs_its_key_in_an_object)
{
	struct mem m;
	mem_open(&m);
	jw_object_begin(&m.w);
	jw_string(&m.w, "no key");
	jw_object_end(&m.w);
	mem_check(&m, false, NULL);

	mem_open(&m);
	jw_object_begin(&m.w);
	jw_key(&m.w, "k");
	jw_key(&m.w, "k2"); /* two keys in a row */
	mem_check(&m, false, NULL);

	mem_open(&m);
	jw_object_begin(&m.w);
	jw_key(&m.w, "dangling");
	jw_object_end(&m.w); /* a key without its value */
	mem_check(&m, false, NULL);

	mem_open(&m);
	jw_array_begin(&m.w);
	jw_key(&m.w, "k"); /* no keys in arrays */
	mem_check(&m, false, NULL);
}
END_TEST

START_TEST(mismatched_and_unclosed_levels_are_refused)
{
	struct mem m;
	mem_open(&m);
	jw_array_begin(&m.w);
	jw_object_end(&m.w);
	mem_check(&m, false, NULL);

	mem_open(&m);
	jw_object_begin(&m.w);
	mem_check(&m, false, NULL); /* left open */

	mem_open(&m);
	jw_array_end(&m.w); /* nothing open */
	mem_check(&m, false, NULL);

	mem_open(&m);
	mem_check(&m, false, NULL); /* no value at all */

	mem_open(&m);
	jw_int(&m.w, 1);
	jw_int(&m.w, 2); /* two top-level values before the newline */
	mem_check(&m, false, NULL);
}
END_TEST

START_TEST(nesting_is_bounded)
{
	struct mem m;
	mem_open(&m);
	for (int i = 0; i < JW_DEPTH_MAX + 4; i++)
		jw_array_begin(&m.w);
	ck_assert(!jw_ok(&m.w));
	mem_check(&m, false, NULL);

	mem_open(&m);
	for (int i = 0; i < JW_DEPTH_MAX - 1; i++)
		jw_array_begin(&m.w);
	for (int i = 0; i < JW_DEPTH_MAX - 1; i++)
		jw_array_end(&m.w);
	mem_check(&m, true, NULL);
}
END_TEST

START_TEST(one_value_per_line_after_finish)
{
	struct mem m;
	mem_open(&m);
	jw_string(&m.w, "first");
	ck_assert(jw_finish(&m.w));
	jw_string(&m.w, "second");
	mem_check(&m, true, "\"first\"\n\"second\"\n");
}
END_TEST

Suite *make_wpactl_json_suite(void)
{
	Suite *s = suite_create("wpactl_json");
	TCase *tc = tcase_create("json");
	tcase_add_test(tc, plain_and_utf8_pass_through);
	tcase_add_test(tc, quotes_backslashes_and_short_escapes);
	tcase_add_test(tc, other_control_characters_as_u_escapes);
	tcase_add_test(tc, invalid_utf8_becomes_replacement_characters);
	tcase_add_test(tc, objects_and_arrays_get_their_commas);
	tcase_add_test(tc, doubles_and_non_finite);
	tcase_add_test(tc, a_value_needs_its_key_in_an_object);
	tcase_add_test(tc, mismatched_and_unclosed_levels_are_refused);
	tcase_add_test(tc, nesting_is_bounded);
	tcase_add_test(tc, one_value_per_line_after_finish);
	suite_add_tcase(s, tc);
	return s;
}
