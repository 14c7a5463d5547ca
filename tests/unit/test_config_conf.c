/* wpad.conf: valid files give the right structs; malformed ones are
 * refused with the right code and line. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/config/macfile.h"
#include "daemon/config/pskfile.h"
#include "daemon/config/wpad_conf.h"

static char dir[64];

static void write_file(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void setup(void)
{
	char ap[128];
	strcpy(dir, "/tmp/wpad-conf-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(ap, sizeof(ap), "%s/ap", dir);
	ck_assert_int_eq(mkdir(ap, 0755), 0);
	write_file("ap/home.conf", "[AccessPoint]\nSSID=home\nPassphrase=home passphrase\n"
				   "Channel=11\nMacDenyFile=../deny.list\n");
	write_file("deny.list", "02:11:22:33:44:55\n");
	write_file("psk.list", "00:00:00:00:00:00 guest passphrase\n");
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static struct wpad_conf *load_ok(const char *text)
{
	struct wpad_conf *conf = NULL;
	struct cfg_error err;
	int ret = wpad_conf_load_buffer(text, strlen(text), "wpad.conf", dir, &conf, &err);
	ck_assert_msg(ret == 0, "error %d: %s", ret, err.msg);
	return conf;
}

START_TEST(defaults)
{
	struct wpad_conf *c = load_ok("");
	ck_assert_str_eq(c->state_dir, "/var/lib/wpad");
	ck_assert_str_eq(c->runtime_dir, "/run/wpad");
	ck_assert_str_eq(c->country, "");
	ck_assert(!c->log_level_set);
	ck_assert_uint_eq(c->n_radios + c->n_stations + c->n_aps, 0);
	wpad_conf_free(c);
}
END_TEST

START_TEST(full_config)
{
	struct wpad_conf *c = load_ok("[General]\n"
				      "StateDirectory=/tmp/state\n"
				      "RuntimeDirectory=/tmp/run\n"
				      "Country=JP\n"
				      "LogLevel=debug\n"
				      "\n"
				      "[Radio phy0]\n"
				      "Driver=sim\n"
				      "Options=medium=shared,radios=1\n"
				      "[Radio wlan1]\n"
				      "Driver=nl80211\n"
				      "[Station sta0]\n"
				      "Radio=phy0\n"
				      "[Station sta1]\n"
				      "Radio=wlan1\n"
				      "AutoConnect=false\n"
				      "DataInterface=wl-data1\n"
				      "[AccessPoint home]\n"
				      "Radio=phy0\n"
				      "Profile=home\n"
				      "Hidden=true\n"
				      "DataInterface=tap.home\n"
				      "[AccessPoint guest]\n"
				      "Radio=phy0\n"
				      "SSID=guest\n"
				      "Channel=14\n"
				      "PskFile=psk.list\n"
				      "ClientIsolation=true\n");
	ck_assert_str_eq(c->state_dir, "/tmp/state");
	ck_assert_str_eq(c->runtime_dir, "/tmp/run");
	ck_assert_str_eq(c->country, "JP");
	ck_assert(c->log_level_set);
	ck_assert_int_eq(c->log_level, WLOG_DEBUG);

	ck_assert_uint_eq(c->n_radios, 2);
	ck_assert_str_eq(c->radios[0].name, "phy0");
	ck_assert_int_eq(c->radios[0].driver, WPAD_DRIVER_SIM);
	ck_assert_str_eq(c->radios[0].options, "medium=shared,radios=1");
	ck_assert_uint_eq(c->radios[0].line, 7);
	ck_assert_int_eq(c->radios[1].driver, WPAD_DRIVER_NL80211);
	ck_assert_str_eq(c->radios[1].options, "");
	ck_assert_ptr_eq(wpad_conf_find_radio(c, "wlan1"), &c->radios[1]);
	ck_assert_ptr_null(wpad_conf_find_radio(c, "nope"));

	ck_assert_uint_eq(c->n_stations, 2);
	ck_assert_str_eq(c->stations[0].radio, "phy0");
	ck_assert(c->stations[0].autoconnect);
	ck_assert(!c->stations[1].autoconnect);
	ck_assert_ptr_null(c->stations[0].data_interface);
	ck_assert_str_eq(c->stations[1].data_interface, "wl-data1");

	ck_assert_uint_eq(c->n_aps, 2);
	const struct wpad_conf_ap *home = &c->aps[0];
	ck_assert_str_eq(home->name, "home");
	ck_assert_str_eq(home->radio, "phy0");
	ck_assert_ptr_nonnull(strstr(home->profile_path, "/ap/home.conf"));
	ck_assert_mem_eq(home->profile.ssid, "home", 4);
	ck_assert_uint_eq(home->profile.channel, 11);
	ck_assert(home->profile.hidden); /* inline key on top of the profile */
	ck_assert_str_eq(home->profile.country, "JP"); /* from [General] */
	ck_assert_ptr_nonnull(home->profile.deny);
	ck_assert_uint_eq(mac_set_count(home->profile.deny), 1);
	ck_assert_str_eq(home->data_interface, "tap.home");
	ck_assert_ptr_null(c->aps[1].data_interface);

	const struct wpad_conf_ap *guest = &c->aps[1];
	ck_assert_uint_eq(ap_profile_frequency(&guest->profile), 2484);
	ck_assert(guest->profile.client_isolation);
	ck_assert_ptr_nonnull(guest->profile.psks);
	ck_assert(guest->profile.psks->entries[0].has_psk); /* derived at load */
	wpad_conf_free(c);
}
END_TEST

START_TEST(from_file)
{
	char path[128];
	struct wpad_conf *c;
	struct cfg_error err;
	write_file("wpad.conf", "[Radio r]\nDriver=wired\n[AccessPoint a]\nRadio=r\n"
				"Profile=ap/home.conf\n");
	snprintf(path, sizeof(path), "%s/wpad.conf", dir);
	ck_assert_int_eq(wpad_conf_load(path, &c, &err), 0);
	ck_assert_int_eq(c->radios[0].driver, WPAD_DRIVER_WIRED);
	ck_assert_str_eq(c->path, path);
	ck_assert_uint_eq(c->aps[0].profile.channel, 11);
	wpad_conf_free(c);

	write_file("wpad.conf", "[Radio r]\nDriver=sim\n\n[AccessPoint a]\nRadio=r\nSSID=x\n"
				"Security=open\nchanel=6\n");
	ck_assert_int_eq(wpad_conf_load(path, &c, &err), AP_E_UNKNOWN_KEY);
	char want[256];
	snprintf(want, sizeof(want),
		 "%s:8: unknown key 'chanel' in [AccessPoint a] (did you mean 'Channel'?)", path);
	ck_assert_str_eq(err.msg, want);

	snprintf(path, sizeof(path), "%s/missing.conf", dir);
	ck_assert_int_eq(wpad_conf_load(path, &c, &err), CFG_E_IO);
}
END_TEST

struct bad_conf {
	const char *text;
	int code;
	unsigned line;
	const char *needle;
};

#define RADIO "[Radio r]\nDriver=sim\n"

static const struct bad_conf bad_confs[] = {
	/* syntax */
	{ "Driver=sim\n", CFG_E_KEY_OUTSIDE, 1, "outside of any section" },
	{ "[General]\nCountry=DE\nCountry=FR\n", CFG_E_DUPLICATE_KEY, 3, "first set on line 2" },
	{ RADIO "[Radio r]\nDriver=sim\n", CFG_E_DUPLICATE_SECTION, 3, "appears twice" },
	{ "[General\n", CFG_E_SECTION_SYNTAX, 1, "missing ']'" },
	{ "[General]\nLogLevel\n", CFG_E_SYNTAX, 2, "Key=value" },
	{ "[General]\nLog Level=info\n", CFG_E_BAD_KEY, 2, "invalid key" },
	{ "[General]\nStateDirectory=/a\\\n", CFG_E_CONTINUATION, 2, "continuations" },
	{ "[General]\nCountry=\xff\n", CFG_E_UTF8, 2, "UTF-8" },
	/* schema */
	{ "[Genral]\n", CFG_E_UNKNOWN_SECTION, 1, "did you mean [General]?" },
	{ "[Interface x]\n", CFG_E_UNKNOWN_SECTION, 1, "unknown section [Interface x]" },
	{ "[General x]\n", CFG_E_SECTION_NAME, 1, "takes no name" },
	{ "[Radio]\nDriver=sim\n", CFG_E_SECTION_NAME, 1, "needs a name" },
	{ "[General]\nStateDir=/x\n", CFG_E_UNKNOWN_KEY, 2, "did you mean 'StateDirectory'?" },
	{ "[General]\nStateDirectory=var/lib\n", CFG_E_BAD_VALUE, 2, "absolute path" },
	{ "[General]\nCountry=Germany\n", CFG_E_BAD_VALUE, 2, "two capital letters" },
	{ "[General]\n\nLogLevel=debg\n", CFG_E_BAD_VALUE, 3, "did you mean 'debug'?" },
	{ "[Radio r]\nOptions=x\n", CFG_E_MISSING_KEY, 1, "[Radio r] needs Driver=" },
	{ "[Radio r]\nDriver=nl80211x\n", CFG_E_BAD_VALUE, 2, "did you mean 'nl80211'?" },
	{ "[Radio r]\nDriver=sim\nDrvier=sim\n", CFG_E_UNKNOWN_KEY, 3, "did you mean 'Driver'?" },
	{ RADIO "[Station s]\nAutoConnect=true\n", CFG_E_MISSING_KEY, 3, "needs Radio=" },
	{ RADIO "[Station s]\nRadio=q\n", CFG_E_BAD_REFERENCE, 4, "no [Radio q] section" },
	{ "[Radio phy0]\nDriver=sim\n[Station s]\nRadio=phy1\n", CFG_E_BAD_REFERENCE, 4,
	  "did you mean 'phy0'?" },
	{ RADIO "[Station s]\nRadio=r\nAutoConnect=1\n", CFG_E_BAD_VALUE, 5, "true or false" },
	{ RADIO "[Station s]\nRadio=r\nDataInterface=\n", CFG_E_BAD_VALUE, 5,
	  "network interface name" },
	{ RADIO "[Station s]\nRadio=r\nDataInterface=much-too-long-name\n", CFG_E_BAD_VALUE, 5,
	  "1..15 printable ASCII" },
	{ RADIO "[Station s]\nRadio=r\nDataInterface=a/b\n", CFG_E_BAD_VALUE, 5, "without '/'" },
	{ RADIO "[Station s]\nRadio=r\nDataInterface=..\n", CFG_E_BAD_VALUE, 5,
	  "network interface name" },
	{ RADIO "[Station s]\nRadio=r\nDataInterface=eth0:1\n", CFG_E_BAD_VALUE, 5, "':'" },
	{ RADIO "[Station s]\nRadio=r\nDataInterfase=x\n", CFG_E_UNKNOWN_KEY, 5,
	  "did you mean 'DataInterface'?" },
	/* access points */
	{ RADIO "[AccessPoint a]\nSSID=x\nPassphrase=short\n", AP_E_PASSPHRASE, 5, "8..63" },
	{ RADIO "[AccessPoint a]\nRadio=r\nSSID=x\nSecurity=open\nChannel=15\n", AP_E_CHANNEL, 7,
	  "not a 2.4 GHz channel" },
	{ RADIO "[AccessPoint a]\nRadio=r\nSSID=x\n", AP_E_NO_KEY, 3, "needs Passphrase" },
	{ RADIO "[AccessPoint a]\nSSID=x\nSecurity=open\n", CFG_E_MISSING_KEY, 3, "needs Radio=" },
	{ RADIO "[AccessPoint a]\nRadio=r\nProfile=nosuch\n", AP_E_PROFILE_FILE, 5, "Profile: " },
	{ RADIO "[AccessPoint a]\nRadio=r\nProfile=bad name!\n", CFG_E_BAD_VALUE, 5,
	  "neither a path nor a profile name" },
	{ RADIO "[AccessPoint a]\nRadio=r\nSSID=x\nSecurity=open\nMacAllowFile=nosuch\n",
	  AP_E_MAC_FILE, 0, "nosuch" },
	{ RADIO "[AccessPoint a]\nRadio=r\nSSID=x\nBeaconInterval=10\n", AP_E_BEACON_INTERVAL, 6,
	  "15..65535" },
	{ RADIO "[AccessPoint a]\nRadio=r\nSSID=x\nSecurity=open\nDataInterface=a b\n",
	  CFG_E_BAD_VALUE, 7, "blanks" },
};

START_TEST(malformed_conf)
{
	const struct bad_conf *c = &bad_confs[_i];
	struct wpad_conf *conf = NULL;
	struct cfg_error err;
	int ret = wpad_conf_load_buffer(c->text, strlen(c->text), "wpad.conf", dir, &conf, &err);
	ck_assert_msg(ret == c->code, "case %d: got %d (%s), want %d", _i, ret, err.msg, c->code);
	ck_assert_msg(err.line == c->line, "case %d: line %u, want %u (%s)", _i, err.line, c->line,
		      err.msg);
	ck_assert_msg(strstr(err.msg, c->needle), "case %d: '%s' lacks '%s'", _i, err.msg,
		      c->needle);
	if (c->line) {
		char prefix[32];
		snprintf(prefix, sizeof(prefix), "wpad.conf:%u: ", c->line);
		ck_assert_msg(strncmp(err.msg, prefix, strlen(prefix)) == 0, "case %d: %s", _i,
			      err.msg);
	}
	ck_assert_ptr_null(conf);
}
END_TEST

START_TEST(profile_errors_point_inside)
{
	struct wpad_conf *conf = NULL;
	struct cfg_error err;
	write_file("ap/broken.conf", "[AccessPoint]\nSSID=x\nDTIMPeriod=0\n");
	static const char text[] = RADIO "[AccessPoint a]\nRadio=r\nProfile=broken\n";
	ck_assert_int_eq(wpad_conf_load_buffer(text, strlen(text), "wpad.conf", dir, &conf, &err),
			 AP_E_DTIM_PERIOD);
	ck_assert_uint_eq(err.line, 5);
	ck_assert_ptr_nonnull(strstr(err.msg, "/ap/broken.conf:3: DTIMPeriod 0 is out of range"));
}
END_TEST

/* The example blocks of docs/wpad.conf.md must stay valid. The block
 * whose first line is `first` is returned (static buffer), or NULL. */
static const char *doc_block(const char *first)
{
	static char text[65536], block[8192];
	const char *build = getenv("WPAD_BUILD");
	char path[512];
	FILE *f = fopen("docs/wpad.conf.md", "r");

	if (!f && build) {
		snprintf(path, sizeof(path), "%s/../docs/wpad.conf.md", build);
		f = fopen(path, "r");
	}
	ck_assert_msg(f, "docs/wpad.conf.md not found (run from the repository root)");
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	const char *start = strstr(text, first);
	if (!start)
		return NULL;
	const char *end = strstr(start, "```");
	ck_assert_ptr_nonnull(end);
	ck_assert_uint_lt((size_t)(end - start), sizeof(block));
	memcpy(block, start, (size_t)(end - start));
	block[end - start] = '\0';
	return block;
}

START_TEST(documented_examples_parse)
{
	const char *conf_text = doc_block("# /etc/wpad/wpad.conf\n");
	ck_assert_ptr_nonnull(conf_text);
	write_file("guest.psk", "00:00:00:00:00:00 guest passphrase\n");
	struct wpad_conf *c = load_ok(conf_text);
	ck_assert_uint_eq(c->n_radios, 2);
	ck_assert_uint_eq(c->n_stations, 1);
	ck_assert_uint_eq(c->n_aps, 2);
	ck_assert(c->aps[0].profile.hidden);
	ck_assert_uint_eq(c->aps[1].profile.channel, 149);
	wpad_conf_free(c);

	const char *profile = doc_block("# /etc/wpad/ap/lab.conf\n");
	ck_assert_ptr_nonnull(profile);
	struct ap_profile p;
	struct cfg_error err;
	ap_profile_init(&p);
	ck_assert_int_eq(
		ap_profile_read_buffer(&p, profile, strlen(profile), "lab.conf", "/etc/wpad", &err),
		0);
	ck_assert_int_eq(ap_profile_validate(&p, "lab.conf", 1, &err), 0);
	ap_profile_clear(&p);
}
END_TEST

Suite *make_config_conf_suite(void)
{
	Suite *s = suite_create("config_conf");
	TCase *tc = tcase_create("wpad_conf");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, defaults);
	tcase_add_test(tc, full_config);
	tcase_add_test(tc, from_file);
	tcase_add_loop_test(tc, malformed_conf, 0, (int)(sizeof(bad_confs) / sizeof(bad_confs[0])));
	tcase_add_test(tc, profile_errors_point_inside);
	tcase_add_test(tc, documented_examples_parse);
	suite_add_tcase(s, tc);
	return s;
}
