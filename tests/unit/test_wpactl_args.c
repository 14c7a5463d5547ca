/* wpactl's command line: the real grammar table (wpactl/table.c) read by
 * the real parser (wpactl/parse.c), both compiled into this test. The
 * handlers are stubs that record which one the table named. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "wpactl/parse.c"
#include "wpactl/table.c"

static const char *called;

#define STUB(fn)                                                                                   \
	int fn(struct wc_ctx *c, const struct wc_args *a)                                          \
	{                                                                                          \
		called = #fn;                                                                      \
		return 0;                                                                          \
	}
STUB(cmd_device_list)
STUB(cmd_device_show)
STUB(cmd_device_power)
STUB(cmd_device_mode)
STUB(cmd_station_scan)
STUB(cmd_station_networks)
STUB(cmd_station_connect)
STUB(cmd_station_connect_hidden)
STUB(cmd_station_autoconnect)
STUB(cmd_station_disconnect)
STUB(cmd_station_flush_pmksa)
STUB(cmd_station_show)
STUB(cmd_known_list)
STUB(cmd_known_forget)
STUB(cmd_known_autoconnect)
STUB(cmd_known_add_8021x)
STUB(cmd_ap_start)
STUB(cmd_ap_stop)
STUB(cmd_ap_show)
STUB(cmd_wired_show)
STUB(cmd_wired_reconnect)
STUB(cmd_wired_profile)
STUB(cmd_wired_reset_profile)
STUB(cmd_ap_disconnect)
STUB(cmd_ap_rescan_channel)
STUB(cmd_ap_allow)
STUB(cmd_ap_deny)
STUB(cmd_ap_unlist)
STUB(cmd_ap_reload_lists)
STUB(cmd_monitor)
STUB(cmd_agent)
STUB(cmd_complete)

#define ARGV_MAX 24

/* Parses a command line given as one string of blank-separated words. */
struct run {
	char text[512];
	char *argv[ARGV_MAX];
	int argc;
	struct wc_args a;
	char err[512];
	enum wc_parse_status status;
};

static void parse_line(struct run *r, const char *line)
{
	snprintf(r->text, sizeof(r->text), "%s", line);
	r->argc = 0;
	r->argv[r->argc++] = "wpactl";
	for (char *p = strtok(r->text, " "); p && r->argc < ARGV_MAX; p = strtok(NULL, " "))
		r->argv[r->argc++] = p;
	r->argv[r->argc] = NULL;
	r->status = wc_parse(wc_commands, wc_options, r->argc, r->argv, &r->a, r->err,
			     sizeof(r->err));
}

static const char *run_ok(struct run *r, const char *line)
{
	parse_line(r, line);
	ck_assert_msg(r->status == WC_PARSED, "'%s': %s", line, r->err);
	called = NULL;
	r->a.cmd->run(NULL, &r->a);
	return called;
}

static void run_usage(struct run *r, const char *line, const char *needle)
{
	parse_line(r, line);
	ck_assert_msg(r->status == WC_PARSE_USAGE, "'%s' parsed", line);
	ck_assert_msg(strstr(r->err, needle), "'%s': '%s' lacks '%s'", line, r->err, needle);
}

/* Every command of the table parses from its own words (placeholders
 * filled in, the first choice taken) back to itself: no entry is shadowed
 * by another or ambiguous. */
START_TEST(every_table_entry_parses_to_itself)
{
	int n = 0;
	for (const struct wc_command *c = wc_commands; c->words; c++, n++) {
		char line[256] = "", tok[TOKEN_MAX];
		for (size_t i = 0; pattern_word(c->words, i, tok, sizeof(tok)); i++) {
			if (is_placeholder(tok))
				snprintf(tok, sizeof(tok), "x%zu", i);
			else if (is_choice(tok))
				tok[strcspn(tok, "|")] = '\0';
			snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s", i ? " " : "",
				 tok);
		}
		struct run r;
		parse_line(&r, line);
		ck_assert_msg(r.status == WC_PARSED, "'%s': %s", line, r.err);
		ck_assert_msg(r.a.cmd == c, "'%s' parsed as '%s'", line, r.a.cmd->words);
		ck_assert_msg(c->run != NULL, "'%s' has no handler", c->words);
		ck_assert_msg(c->help && (c->flags & WC_CMD_HIDDEN || c->help[0]),
			      "'%s' has no help", c->words);
	}
	ck_assert_int_ge(n, 20);
}
END_TEST

START_TEST(the_option_table_is_consistent)
{
	for (int i = 0; i < WC_OPT_COUNT; i++) {
		ck_assert_msg(wc_options[i].name && wc_options[i].help, "option %d is empty", i);
		for (int j = i + 1; j < WC_OPT_COUNT; j++) {
			ck_assert_str_ne(wc_options[i].name, wc_options[j].name);
			ck_assert(!wc_options[i].short_name ||
				  wc_options[i].short_name != wc_options[j].short_name);
		}
	}
	/* Every command's own options exist, and none of them is global. */
	for (const struct wc_command *c = wc_commands; c->words; c++)
		for (int o = 0; o < 32; o++)
			if (c->opts & (1u << o))
				ck_assert_msg(o < WC_OPT_COUNT && !wc_options[o].global, "%s: option %d",
					      c->words, o);
}
END_TEST

START_TEST(placeholders_and_choices_are_collected_in_order)
{
	struct run r;
	ck_assert_str_eq(run_ok(&r, "station wlan0 connect home"), "cmd_station_connect");
	ck_assert_uint_eq(r.a.n_pos, 2);
	ck_assert_str_eq(r.a.pos[0], "wlan0");
	ck_assert_str_eq(r.a.pos[1], "home");
	ck_assert_str_eq(run_ok(&r, "device power wlan0 off"), "cmd_device_power");
	ck_assert_uint_eq(r.a.n_pos, 2);
	ck_assert_str_eq(r.a.pos[1], "off");
	ck_assert_str_eq(run_ok(&r, "known autoconnect home on"), "cmd_known_autoconnect");
	ck_assert_str_eq(r.a.pos[0], "home");
	ck_assert_str_eq(r.a.pos[1], "on");
	ck_assert_str_eq(run_ok(&r, "known add-8021x corp --method PEAP --identity a --ca-system "
				    "--server-name r.example --store-secrets"),
			 "cmd_known_add_8021x");
	ck_assert_str_eq(r.a.pos[0], "corp");
	ck_assert_str_eq(r.a.val[WC_OPT_METHOD], "PEAP");
	ck_assert(r.a.has[WC_OPT_CA_SYSTEM] && r.a.has[WC_OPT_STORE_SECRETS]);
	ck_assert(!r.a.has[WC_OPT_UNVERIFIED]);
	ck_assert_str_eq(run_ok(&r, "ap ap0 disconnect 02:00:00:00:01:00"), "cmd_ap_disconnect");
	ck_assert_str_eq(r.a.pos[1], "02:00:00:00:01:00");
	ck_assert_str_eq(run_ok(&r, "ap ap0 rescan-channel"), "cmd_ap_rescan_channel");
	ck_assert_str_eq(r.a.pos[0], "ap0");
	ck_assert_str_eq(run_ok(&r, "device list"), "cmd_device_list");
	ck_assert_uint_eq(r.a.n_pos, 0);
}
END_TEST

START_TEST(options_go_anywhere_in_every_spelling)
{
	struct run r;
	run_ok(&r, "--json station wlan0 networks");
	ck_assert(r.a.has[WC_OPT_JSON]);
	run_ok(&r, "station -j wlan0 networks");
	ck_assert(r.a.has[WC_OPT_JSON]);
	run_ok(&r, "station wlan0 connect home --passphrase secret123");
	ck_assert_str_eq(r.a.val[WC_OPT_PASSPHRASE], "secret123");
	run_ok(&r, "station wlan0 connect --passphrase=secret=123 home");
	ck_assert_str_eq(r.a.val[WC_OPT_PASSPHRASE], "secret=123");
	ck_assert_str_eq(r.a.pos[1], "home");
	run_ok(&r, "-p secret123 station wlan0 connect home");
	ck_assert_str_eq(r.a.val[WC_OPT_PASSPHRASE], "secret123");
	run_ok(&r, "--bus unix:path=/tmp/x --timeout 5 device list");
	ck_assert_str_eq(r.a.val[WC_OPT_BUS], "unix:path=/tmp/x");
	ck_assert_str_eq(r.a.val[WC_OPT_TIMEOUT], "5");
	run_ok(&r, "ap ap0 start --ssid lab --passphrase secret123 --channel 11 --hidden "
		   "--set DTIMPeriod=3 --set BeaconInterval=200");
	ck_assert_str_eq(r.a.val[WC_OPT_SSID], "lab");
	ck_assert_str_eq(r.a.val[WC_OPT_CHANNEL], "11");
	ck_assert(r.a.has[WC_OPT_HIDDEN]);
	ck_assert_uint_eq(r.a.n_sets, 2);
	ck_assert_str_eq(r.a.sets[0], "DTIMPeriod=3");
	ck_assert_str_eq(r.a.sets[1], "BeaconInterval=200");
}
END_TEST

START_TEST(double_dash_ends_the_options)
{
	struct run r;
	ck_assert_str_eq(run_ok(&r, "station wlan0 connect -- -weird"), "cmd_station_connect");
	ck_assert_str_eq(r.a.pos[1], "-weird");
	run_ok(&r, "station wlan0 connect -p secret123 -- --json");
	ck_assert_str_eq(r.a.pos[1], "--json");
	ck_assert(!r.a.has[WC_OPT_JSON]);
	/* A lone "-" is a word. */
	ck_assert_str_eq(run_ok(&r, "known forget -"), "cmd_known_forget");
	ck_assert_str_eq(r.a.pos[0], "-");
}
END_TEST

START_TEST(wrong_words_say_what_may_follow)
{
	struct run r;
	run_usage(&r, "", "no command");
	run_usage(&r, "devcie list", "did you mean 'device'?");
	run_usage(&r, "station wlan0", "not a whole command");
	run_usage(&r, "station wlan0", "connect-hidden");
	run_usage(&r, "station wlan0 conect home", "did you mean 'connect'?");
	run_usage(&r, "station wlan0 scan now", "unexpected 'now' after 'station wlan0 scan'");
	run_usage(&r, "device power wlan0 maybe", "on|off");
	run_usage(&r, "station wlan0 connect", "SSID");
	/* Hidden commands are never offered. */
	run_usage(&r, "foo", "commands are:");
	ck_assert_ptr_null(strstr(r.err, "_complete"));
}
END_TEST

START_TEST(wrong_options_are_named)
{
	struct run r;
	run_usage(&r, "device list --chanel 3", "did you mean '--channel'?");
	run_usage(&r, "device list --channel 3", "'--channel' does not go with 'device list'");
	run_usage(&r, "station wlan0 connect home --ssid x", "it takes --passphrase, --security");
	run_usage(&r, "station wlan0 connect home --passphrase", "needs a value");
	run_usage(&r, "device list --json=yes", "takes no value");
	run_usage(&r, "device list -z", "unknown option '-z'");
	run_usage(&r, "ap ap0 start --ssid a --ssid b", "given twice");
	run_usage(&r, "agent --json", "'--json' does not go with 'agent'");
}
END_TEST

START_TEST(help_and_version)
{
	struct run r;
	parse_line(&r, "station wlan0 connect --help");
	ck_assert_int_eq(r.status, WC_PARSE_HELP);
	ck_assert_uint_eq(r.a.n_words, 3);
	/* --help wins over a command line that is wrong otherwise. */
	parse_line(&r, "station -h");
	ck_assert_int_eq(r.status, WC_PARSE_HELP);
	parse_line(&r, "-V");
	ck_assert_int_eq(r.status, WC_PARSE_VERSION);

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	parse_line(&r, "station --help");
	wc_help(f, wc_commands, wc_options, &r.a);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "station DEV connect SSID"));
	ck_assert_ptr_null(strstr(buf, "device list")); /* only the station commands */
	free(buf);

	f = open_memstream(&buf, &len);
	parse_line(&r, "station wlan0 connect -h");
	wc_help(f, wc_commands, wc_options, &r.a);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "Usage: wpactl station DEV connect SSID [--passphrase P]"));
	ck_assert_ptr_nonnull(strstr(buf, "--security SEC"));
	ck_assert_ptr_null(strstr(buf, "--channel"));
	free(buf);
}
END_TEST

/* A literal word beats a placeholder in the same place, whatever the
 * order of the table. */
static const struct wc_command ambiguous[] = {
	{ "x NAME", 0, cmd_known_forget, 0, "by name", NULL },
	{ "x list", 0, cmd_known_list, 0, "list", NULL },
	{ NULL, 0, NULL, 0, NULL, NULL },
};

START_TEST(a_literal_beats_a_placeholder)
{
	struct wc_args a;
	char err[256];
	char *argv[] = { "wpactl", "x", "list", NULL };
	ck_assert_int_eq(wc_parse(ambiguous, wc_options, 3, argv, &a, err, sizeof(err)), WC_PARSED);
	ck_assert(a.cmd == &ambiguous[1]);
	argv[2] = "home";
	ck_assert_int_eq(wc_parse(ambiguous, wc_options, 3, argv, &a, err, sizeof(err)), WC_PARSED);
	ck_assert(a.cmd == &ambiguous[0]);
	ck_assert_str_eq(a.pos[0], "home");
}
END_TEST

START_TEST(edit_distance)
{
	ck_assert_int_eq(wc_distance("device", "device"), 0);
	ck_assert_int_eq(wc_distance("devcie", "device"), 2);
	ck_assert_int_eq(wc_distance("conect", "connect"), 1);
	ck_assert_int_eq(wc_distance("x", "monitor"), 3); /* capped */
}
END_TEST

Suite *make_wpactl_args_suite(void)
{
	Suite *s = suite_create("wpactl_args");
	TCase *tc = tcase_create("args");
	tcase_add_test(tc, every_table_entry_parses_to_itself);
	tcase_add_test(tc, the_option_table_is_consistent);
	tcase_add_test(tc, placeholders_and_choices_are_collected_in_order);
	tcase_add_test(tc, options_go_anywhere_in_every_spelling);
	tcase_add_test(tc, double_dash_ends_the_options);
	tcase_add_test(tc, wrong_words_say_what_may_follow);
	tcase_add_test(tc, wrong_options_are_named);
	tcase_add_test(tc, help_and_version);
	tcase_add_test(tc, a_literal_beats_a_placeholder);
	tcase_add_test(tc, edit_distance);
	suite_add_tcase(s, tc);
	return s;
}
