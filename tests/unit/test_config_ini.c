/* The INI reader and writer: syntax, errors with line numbers, round trip. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/config/ini.h"
#include "daemon/config/suggest.h"
#include "daemon/config/utf8.h"
#include "daemon/config/value.h"

static struct ini *parse_ok(const char *text)
{
	struct cfg_error err;
	struct ini *ini = NULL;
	int ret = ini_parse(text, strlen(text), "t.conf", &ini, &err);
	ck_assert_msg(ret == 0, "unexpected error %d: %s", ret, err.msg);
	return ini;
}

START_TEST(sections_keys_comments)
{
	struct ini *ini = parse_ok("# top comment\n"
				   "; another\n"
				   "\n"
				   "[General]\n"
				   "  StateDirectory = /var/lib/wpad  \n"
				   "\tLogLevel=debug\n"
				   "[Radio phy0]\r\n"
				   "Driver=sim\r\n"
				   "Options=medium=shared,radios=1\n"
				   "  # indented comment\n"
				   "[AccessPoint lab]\n"
				   "Passphrase=has # and ; inside\n"
				   "Empty=\n");
	ck_assert_uint_eq(ini->n_sections, 3);
	struct ini_section *g = ini_find(ini, "General", NULL);
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(g->line, 4);
	ck_assert_str_eq(ini_get(g, "StateDirectory"), "/var/lib/wpad");
	ck_assert_uint_eq(ini_get_entry(g, "LogLevel")->line, 6);
	struct ini_section *r = ini_find(ini, "Radio", "phy0");
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(ini_get(r, "Options"), "medium=shared,radios=1");
	ck_assert_ptr_null(ini_find(ini, "Radio", NULL));
	ck_assert_ptr_null(ini_find(ini, "Radio", "phy1"));
	struct ini_section *ap = ini_find(ini, "AccessPoint", "lab");
	ck_assert_str_eq(ini_get(ap, "Passphrase"), "has # and ; inside");
	ck_assert_str_eq(ini_get(ap, "Empty"), "");
	ck_assert_ptr_null(ini_get(ap, "Missing"));
	ini_free(ini);
}
END_TEST

START_TEST(escapes_and_bom)
{
	struct ini *ini =
		parse_ok("\xef\xbb\xbf[S]\nK=\\stwo  spaces\\s\nB=back\\\\slash\nT=a\\tb\n"
			 "U=caf\xc3\xa9 \xf0\x9f\x93\xb6\n");
	struct ini_section *s = ini_find(ini, "S", NULL);
	ck_assert_str_eq(ini_get(s, "K"), " two  spaces ");
	ck_assert_str_eq(ini_get(s, "B"), "back\\slash");
	ck_assert_str_eq(ini_get(s, "T"), "a\tb");
	ck_assert_str_eq(ini_get(s, "U"), "caf\xc3\xa9 \xf0\x9f\x93\xb6");
	ini_free(ini);
}
END_TEST

START_TEST(no_trailing_newline_and_empty)
{
	struct ini *ini = parse_ok("[S]\nK=v");
	ck_assert_str_eq(ini_get(ini_find(ini, "S", NULL), "K"), "v");
	ini_free(ini);
	ini = parse_ok("");
	ck_assert_uint_eq(ini->n_sections, 0);
	ini_free(ini);
}
END_TEST

struct bad_case {
	const char *text;
	size_t len; /* 0: strlen */
	int code;
	unsigned line;
	const char *needle; /* part of the message */
};

static const struct bad_case bad_ini[] = {
	{ "K=v\n", 0, CFG_E_KEY_OUTSIDE, 1, "outside of any section" },
	{ "[S]\nK=1\nK=2\n", 0, CFG_E_DUPLICATE_KEY, 3, "first set on line 2" },
	{ "[S]\n[S]\n", 0, CFG_E_DUPLICATE_SECTION, 2, "first on line 1" },
	{ "[R a]\n[R a]\n", 0, CFG_E_DUPLICATE_SECTION, 2, "[R a]" },
	{ "[S\n", 0, CFG_E_SECTION_SYNTAX, 1, "missing ']'" },
	{ "[S] # c\n", 0, CFG_E_SECTION_SYNTAX, 1, "own line" },
	{ "[]\n", 0, CFG_E_SECTION_SYNTAX, 1, "must start with a type" },
	{ "[ S]\n", 0, CFG_E_SECTION_SYNTAX, 1, "must start with a type" },
	{ "[1abc]\n", 0, CFG_E_SECTION_SYNTAX, 1, "invalid section type" },
	{ "[R a b]\n", 0, CFG_E_SECTION_SYNTAX, 1, "invalid section name" },
	{ "[S]\njust words\n", 0, CFG_E_SYNTAX, 2, "expected 'Key=value'" },
	{ "[S]\n=v\n", 0, CFG_E_BAD_KEY, 2, "missing key" },
	{ "[S]\nmy key=v\n", 0, CFG_E_BAD_KEY, 2, "invalid key 'my key'" },
	{ "[S]\nK=a\\qb\n", 0, CFG_E_BAD_ESCAPE, 2, "unknown escape" },
	{ "[S]\nK=abc\\\n", 0, CFG_E_CONTINUATION, 2, "continuations" },
	{ "[S]\nK=a\0b\n", 10, CFG_E_NUL, 2, "NUL" },
	{ "[S]\n\nK=\xff\xfe\n", 0, CFG_E_UTF8, 3, "column 3" },
	{ "[S]\nK=\xc0\xaf\n", 0, CFG_E_UTF8, 2, "UTF-8" }, /* overlong '/' */
	{ "[S]\nK=\xed\xa0\x80\n", 0, CFG_E_UTF8, 2, "UTF-8" }, /* surrogate */
	{ "[S]\nK=\xe2\x82\n", 0, CFG_E_UTF8, 2, "UTF-8" }, /* cut short */
	{ "[S]\nK=a\x1b[0m\n", 0, CFG_E_CONTROL_CHAR, 2, "0x1b" },
	{ "[S]\nK=a\rb\n", 0, CFG_E_CONTROL_CHAR, 2, "0x0d" },
};

START_TEST(malformed_ini)
{
	const struct bad_case *c = &bad_ini[_i];
	size_t len = c->len ? c->len : strlen(c->text);
	struct cfg_error err;
	struct ini *ini = NULL;
	char prefix[32];

	int ret = ini_parse(c->text, len, "t.conf", &ini, &err);
	ck_assert_msg(ret == c->code, "case %d: got %d (%s), want %d", _i, ret, err.msg, c->code);
	ck_assert_int_eq(err.code, c->code);
	ck_assert_uint_eq(err.line, c->line);
	snprintf(prefix, sizeof(prefix), "t.conf:%u: ", c->line);
	ck_assert_msg(strncmp(err.msg, prefix, strlen(prefix)) == 0, "case %d: %s", _i, err.msg);
	ck_assert_msg(strstr(err.msg, c->needle), "case %d: '%s' lacks '%s'", _i, err.msg,
		      c->needle);
	ck_assert_ptr_null(ini);
}
END_TEST

START_TEST(line_too_long)
{
	size_t n = INI_LINE_MAX + 10;
	char *text = malloc(n + 16);
	strcpy(text, "[S]\nK=");
	memset(text + 6, 'a', n);
	text[6 + n] = '\0';
	struct cfg_error err;
	struct ini *ini;
	ck_assert_int_eq(ini_parse(text, strlen(text), "t", &ini, &err), CFG_E_LINE_TOO_LONG);
	ck_assert_uint_eq(err.line, 2);
	/* Exactly at the limit is fine. */
	text[4 + INI_LINE_MAX] = '\0';
	ck_assert_int_eq(ini_parse(text, strlen(text), "t", &ini, &err), 0);
	ini_free(ini);
	free(text);
}
END_TEST

START_TEST(too_many_sections)
{
	char *text = malloc((INI_SECTIONS_MAX + 1) * 16);
	size_t used = 0;
	for (int i = 0; i <= INI_SECTIONS_MAX; i++)
		used += (size_t)sprintf(text + used, "[R r%d]\n", i);
	struct cfg_error err;
	struct ini *ini;
	ck_assert_int_eq(ini_parse(text, used, "t", &ini, &err), CFG_E_TOO_MANY);
	ck_assert_uint_eq(err.line, INI_SECTIONS_MAX + 1);
	free(text);
}
END_TEST

START_TEST(build_and_round_trip)
{
	struct ini *ini = ini_new("built");
	struct strbuf sb = STRBUF_INIT;
	struct ini_section *s = ini_add_section(ini, "Security", NULL);
	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_null(ini_add_section(ini, "Security", NULL));
	ck_assert_ptr_null(ini_add_section(ini, "Bad Type", NULL));
	ck_assert_ptr_null(ini_add_section(ini, "R", "bad name"));
	ck_assert_int_eq(ini_set(s, "Passphrase", "  lead and trail \\ tab\there  "), 0);
	ck_assert_int_eq(ini_set(s, "Other", "x"), 0);
	ck_assert_int_eq(ini_set(s, "Other", "y"), 0);
	ck_assert_int_eq(ini_set(s, "bad key", "y"), CFG_E_BAD_KEY);
	ck_assert_int_eq(ini_set(s, "K", "new\nline"), CFG_E_CONTROL_CHAR);
	struct ini_section *r = ini_add_section(ini, "Radio", "phy0");
	ck_assert_int_eq(ini_set(r, "Driver", "sim"), 0);
	ck_assert_int_eq(ini_set(r, "Spaces", "   "), 0);
	ck_assert_int_eq(ini_set(r, "Tabs", "\tx\ty\t"), 0);
	char big[INI_LINE_MAX + 1];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_int_eq(ini_set(r, "Big", big), CFG_E_LINE_TOO_LONG);
	big[INI_LINE_MAX - 4] = '\0'; /* "Big=" + value: exactly one full line */
	ck_assert_int_eq(ini_set(r, "Big", big), 0);
	big[0] = ' '; /* ... which the escape of a leading blank would overflow */
	ck_assert_int_eq(ini_set(r, "Big", big), CFG_E_LINE_TOO_LONG);
	ck_assert_int_eq(ini_format(ini, &sb), 0);
	ck_assert_ptr_nonnull(
		strstr(sb.data, "Passphrase=\\s\\slead and trail \\\\ tab\there\\s\\s\n"));
	ck_assert_ptr_nonnull(strstr(sb.data, "\n[Radio phy0]\nDriver=sim\n"));
	ck_assert_ptr_nonnull(strstr(sb.data, "\nTabs=\\tx\ty\\t\n"));

	struct ini *back = parse_ok(sb.data);
	const struct ini_section *s2 = ini_find(back, "Security", NULL);
	ck_assert_str_eq(ini_get(s2, "Passphrase"), "  lead and trail \\ tab\there  ");
	ck_assert_str_eq(ini_get(s2, "Other"), "y");
	ck_assert_str_eq(ini_get(ini_find(back, "Radio", "phy0"), "Spaces"), "   ");
	ck_assert_str_eq(ini_get(ini_find(back, "Radio", "phy0"), "Tabs"), "\tx\ty\t");
	ck_assert_uint_eq(strlen(ini_get(ini_find(back, "Radio", "phy0"), "Big")),
			  INI_LINE_MAX - 4);
	ini_free(back);
	ini_free(ini);
	strbuf_free(&sb);
}
END_TEST

START_TEST(unknown_key_suggestion)
{
	static const char *const keys[] = { "Channel", "SSID", "Passphrase", NULL };
	struct ini *ini = parse_ok("[AccessPoint]\nSSID=x\n\nchanel=6\n");
	struct cfg_error err;
	ck_assert_int_eq(ini_check_keys(ini, ini->sections[0], keys, &err), CFG_E_UNKNOWN_KEY);
	ck_assert_str_eq(
		err.msg,
		"t.conf:4: unknown key 'chanel' in [AccessPoint] (did you mean 'Channel'?)");
	ini_free(ini);
	ini = parse_ok("[AccessPoint x]\nZebra=1\n");
	ck_assert_int_eq(ini_check_keys(ini, ini->sections[0], keys, &err), CFG_E_UNKNOWN_KEY);
	ck_assert_str_eq(err.msg, "t.conf:2: unknown key 'Zebra' in [AccessPoint x]");
	ini_free(ini);
}
END_TEST

START_TEST(suggest_and_values)
{
	static const char *const keys[] = { "Passphrase", "PSK", "DTIMPeriod", NULL };
	ck_assert_str_eq(cfg_suggest("Pasphrase", keys), "Passphrase");
	ck_assert_str_eq(cfg_suggest("psk", keys), "PSK");
	ck_assert_str_eq(cfg_suggest("DITMPeriod", keys), "DTIMPeriod"); /* swap */
	ck_assert_ptr_null(cfg_suggest("Frobnicate", keys));
	ck_assert_ptr_null(cfg_suggest("", keys));

	uint32_t v;
	bool b;
	uint8_t mac[6];
	ck_assert_int_eq(cfg_parse_uint("4294967295", 0, UINT32_MAX, &v), 0);
	ck_assert_int_eq(cfg_parse_uint("4294967296", 0, UINT32_MAX, &v), CFG_E_OUT_OF_RANGE);
	ck_assert_int_eq(cfg_parse_uint("99999999999999999999x", 0, 9, &v), CFG_E_BAD_VALUE);
	ck_assert_int_eq(cfg_parse_uint("-1", 0, 9, &v), CFG_E_BAD_VALUE);
	ck_assert_int_eq(cfg_parse_uint(" 1", 0, 9, &v), CFG_E_BAD_VALUE);
	ck_assert_int_eq(cfg_parse_bool("yes", &b), CFG_E_BAD_VALUE);
	ck_assert_int_eq(cfg_parse_mac("02:AB:cd:00:11:ff", mac), 0);
	ck_assert_uint_eq(mac[1], 0xab);
	ck_assert_int_eq(cfg_parse_mac("02:ab:cd:00:11", mac), CFG_E_BAD_MAC);
	ck_assert_int_eq(cfg_parse_mac("02-ab-cd-00-11-ff", mac), CFG_E_BAD_MAC);
	ck_assert(cfg_country_valid("DE") && cfg_country_valid("00"));
	ck_assert(!cfg_country_valid("de") && !cfg_country_valid("DEU"));
	ck_assert(utf8_valid((const uint8_t *)"\xf4\x8f\xbf\xbf", 4, NULL));
	ck_assert(!utf8_valid((const uint8_t *)"\xf4\x90\x80\x80", 4, NULL)); /* > U+10FFFF */
}
END_TEST

Suite *make_config_ini_suite(void)
{
	Suite *s = suite_create("config_ini");
	TCase *tc = tcase_create("ini");
	tcase_add_test(tc, sections_keys_comments);
	tcase_add_test(tc, escapes_and_bom);
	tcase_add_test(tc, no_trailing_newline_and_empty);
	tcase_add_loop_test(tc, malformed_ini, 0, (int)(sizeof(bad_ini) / sizeof(bad_ini[0])));
	tcase_add_test(tc, line_too_long);
	tcase_add_test(tc, too_many_sections);
	tcase_add_test(tc, build_and_round_trip);
	tcase_add_test(tc, unknown_key_suggestion);
	tcase_add_test(tc, suggest_and_values);
	suite_add_tcase(s, tc);
	return s;
}
