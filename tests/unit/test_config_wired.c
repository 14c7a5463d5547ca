/* [Wired NAME] sections of wpad.conf (daemon/config/wpad_conf.h): a wired
 * radio, the timers, and the EAP keys read by the [EAP] reader with their
 * own line numbers; malformed sections are a table. */
#include <check.h>
#include <string.h>

#include "daemon/config/wpad_conf.h"

static const char *const good =
	"[Radio lan]\nDriver=wired\nOptions=ifname=eth0\n"
	"[Wired eth0]\nRadio=lan\nMethod=PEAP\nIdentity=alice\nPhase2=MSCHAPV2\n"
	"CACert=/etc/ssl/ca.pem\nServerName=radius.example\nStartPeriod=5\nHeldPeriod=9\n";

START_TEST(wired_section_read)
{
	struct wpad_conf *c = NULL;
	struct cfg_error err = { 0 };
	ck_assert_int_eq(wpad_conf_load_buffer(good, strlen(good), "t.conf", "/", &c, &err), 0);
	ck_assert_uint_eq(c->n_wireds, 1);
	ck_assert_str_eq(c->wireds[0].name, "eth0");
	ck_assert_str_eq(c->wireds[0].radio, "lan");
	ck_assert_uint_eq(c->wireds[0].start_period_s, 5);
	ck_assert_uint_eq(c->wireds[0].held_period_s, 9);
	ck_assert_uint_eq(c->wireds[0].max_start, 0); /* the default */
	ck_assert_str_eq(c->wireds[0].eap.methods[0], "PEAP");
	ck_assert_str_eq(c->wireds[0].eap.identity, "alice");
	ck_assert_str_eq(c->wireds[0].eap.ca_file, "/etc/ssl/ca.pem");
	wpad_conf_free(c);
}
END_TEST

START_TEST(wired_section_errors)
{
	static const struct {
		const char *text;
		int code;
		unsigned line;
		const char *says;
	} rows[] = {
		{ "[Radio r]\nDriver=sim\n[Wired eth0]\nRadio=r\nMethod=MD5\nIdentity=a\n",
		  CFG_E_BAD_REFERENCE, 4, "Driver=wired" },
		{ "[Wired eth0]\nRadio=nowhere\nMethod=MD5\nIdentity=a\n", CFG_E_BAD_REFERENCE, 2,
		  "nowhere" },
		{ "[Radio lan]\nDriver=wired\n[Wired eth0]\nRadio=lan\nMethod=MD5\nIdentity=a\nColour=red\n",
		  CFG_E_UNKNOWN_KEY, 7, "Colour" },
		{ "[Radio lan]\nDriver=wired\n[Wired eth0]\nRadio=lan\nMethod=MD5\nIdentity=a\nMaxStart=0\n",
		  CFG_E_OUT_OF_RANGE, 7, "MaxStart" },
		{ "[Radio lan]\nDriver=wired\n[Wired eth0]\nRadio=lan\nMethod=TLS\nIdentity=a\n"
		  "ClientCert=/c.pem\n",
		  CFG_E_MISSING_KEY, 3, "CA" },
		{ "[Radio lan]\nDriver=wired\n[Wired eth0]\nRadio=lan\nMethod=FOO\nIdentity=a\n", 0, 5,
		  "FOO" },
		{ "[Radio lan]\nDriver=wired\n[Wired]\nRadio=lan\n", CFG_E_SECTION_NAME, 3, "name" },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct wpad_conf *c = NULL;
		struct cfg_error err = { 0 };
		int r = wpad_conf_load_buffer(rows[i].text, strlen(rows[i].text), "t.conf", "/", &c,
					      &err);
		ck_assert_msg(r < 0, "row %zu accepted", i);
		if (rows[i].code)
			ck_assert_msg(r == rows[i].code, "row %zu: code %d, not %d (%s)", i, r,
				      rows[i].code, err.msg);
		ck_assert_msg(err.line == rows[i].line, "row %zu: line %u, not %u (%s)", i, err.line,
			      rows[i].line, err.msg);
		ck_assert_msg(strstr(err.msg, rows[i].says), "row %zu: '%s' lacks '%s'", i, err.msg,
			      rows[i].says);
	}
}
END_TEST

Suite *make_config_wired_suite(void)
{
	Suite *s = suite_create("config_wired");
	TCase *tc = tcase_create("wired");
	tcase_add_test(tc, wired_section_read);
	tcase_add_test(tc, wired_section_errors);
	suite_add_tcase(s, tc);
	return s;
}
