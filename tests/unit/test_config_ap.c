/* AP profile: key parsing, validation with distinct codes, profile files. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/config/ap_profile.h"

static struct ap_profile prof;
static struct cfg_error err;

static void setup(void)
{
	ap_profile_init(&prof);
	cfg_error_clear(&err);
}

static void teardown(void)
{
	ap_profile_clear(&prof);
}

static int set(const char *key, const char *value)
{
	static const struct ap_source src = { .file = "ap.conf",
					      .line = 7,
					      .base_dir = "/etc/wpad" };
	return ap_profile_set(&prof, key, value, &src, &err);
}

START_TEST(defaults_and_valid_profile)
{
	ck_assert_int_eq(set("SSID", "lab"), 0);
	ck_assert_int_eq(set("Passphrase", "correct horse"), 0);
	ck_assert_int_eq(ap_profile_validate(&prof, "ap.conf", 1, &err), 0);
	ck_assert_uint_eq(prof.ssid_len, 3);
	ck_assert_int_eq(prof.band, AP_BAND_2GHZ);
	ck_assert_uint_eq(prof.channel, 6);
	ck_assert_uint_eq(ap_profile_frequency(&prof), 2437);
	ck_assert_uint_eq(prof.beacon_interval, 100);
	ck_assert_uint_eq(prof.dtim_period, 2);
	ck_assert_int_eq(prof.security, AP_SECURITY_WPA2_PSK);
	ck_assert_uint_eq(prof.max_stations, 64);
	ck_assert_uint_eq(prof.group_rekey_s, 86400);
	ck_assert_uint_eq(prof.inactivity_s, 300);
	ck_assert(!prof.hidden && !prof.client_isolation && !prof.rekey_on_sta_leave);
}
END_TEST

START_TEST(every_key)
{
	ck_assert_int_eq(set("SSID", "\xf0\x9f\x93\xb6 wifi"), 0);
	ck_assert_int_eq(set("Hidden", "true"), 0);
	ck_assert_int_eq(set("Band", "5"), 0);
	ck_assert_int_eq(set("Channel", "149"), 0);
	ck_assert_int_eq(set("BeaconInterval", "15"), 0);
	ck_assert_int_eq(set("DTIMPeriod", "255"), 0);
	ck_assert_int_eq(set("Security", "wpa2-psk"), 0);
	ck_assert_int_eq(
		set("PSK", "000102030405060708090a0b0c0d0e0f101112131415161718191A1B1C1D1E1F"), 0);
	ck_assert_int_eq(set("MaxStations", "2007"), 0);
	ck_assert_int_eq(set("MacAllowFile", "allow.list"), 0);
	ck_assert_int_eq(set("MacDenyFile", "/abs/deny.list"), 0);
	ck_assert_int_eq(set("PskFile", "psk.list"), 0);
	ck_assert_int_eq(set("ClientIsolation", "true"), 0);
	ck_assert_int_eq(set("GroupRekeySeconds", "0"), 0);
	ck_assert_int_eq(set("RekeyOnStationLeave", "true"), 0);
	ck_assert_int_eq(set("InactivityTimeout", "0"), 0);
	ck_assert_int_eq(set("Country", "DE"), 0);
	ck_assert_int_eq(ap_profile_validate(&prof, "ap.conf", 1, &err), 0);
	ck_assert_uint_eq(prof.ssid_len, 9);
	ck_assert_uint_eq(ap_profile_frequency(&prof), 5745);
	ck_assert(prof.has_psk && !prof.has_passphrase);
	ck_assert_uint_eq(prof.psk[31], 0x1f);
	ck_assert_str_eq(prof.mac_allow_file, "/etc/wpad/allow.list");
	ck_assert_str_eq(prof.mac_deny_file, "/abs/deny.list");
	ck_assert_str_eq(prof.psk_file, "/etc/wpad/psk.list");
	ck_assert_str_eq(prof.country, "DE");
	ck_assert_uint_eq(prof.group_rekey_s, 0);
	ck_assert(prof.hidden && prof.client_isolation && prof.rekey_on_sta_leave);
}
END_TEST

struct ap_case {
	const char *key;
	const char *value;
	int code;
	enum wpad_error_code cls;
};

static const struct ap_case bad_values[] = {
	{ "Passphrase", "1234567", AP_E_PASSPHRASE, WPAD_ERR_INVALID_FORMAT },
	{ "Passphrase", "0123456789012345678901234567890123456789012345678901234567890123",
	  AP_E_PASSPHRASE, WPAD_ERR_INVALID_FORMAT },
	{ "Passphrase", "caf\xc3\xa9 latte", AP_E_PASSPHRASE, WPAD_ERR_INVALID_FORMAT },
	{ "PSK", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde", AP_E_PSK,
	  WPAD_ERR_INVALID_FORMAT },
	{ "PSK", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeg", AP_E_PSK,
	  WPAD_ERR_INVALID_FORMAT },
	{ "SSID", "", AP_E_SSID, WPAD_ERR_INVALID_FORMAT },
	{ "SSID", "123456789012345678901234567890123", AP_E_SSID, WPAD_ERR_INVALID_FORMAT },
	{ "Band", "2.4GHz", AP_E_BAND, WPAD_ERR_INVALID_ARGUMENTS },
	{ "Channel", "0", AP_E_CHANNEL, WPAD_ERR_INVALID_ARGUMENTS },
	{ "Channel", "six", AP_E_CHANNEL, WPAD_ERR_INVALID_ARGUMENTS },
	{ "BeaconInterval", "14", AP_E_BEACON_INTERVAL, WPAD_ERR_INVALID_ARGUMENTS },
	{ "BeaconInterval", "65536", AP_E_BEACON_INTERVAL, WPAD_ERR_INVALID_ARGUMENTS },
	{ "DTIMPeriod", "0", AP_E_DTIM_PERIOD, WPAD_ERR_INVALID_ARGUMENTS },
	{ "DTIMPeriod", "256", AP_E_DTIM_PERIOD, WPAD_ERR_INVALID_ARGUMENTS },
	{ "Security", "wep", AP_E_SECURITY, WPAD_ERR_NOT_SUPPORTED },
	{ "MaxStations", "0", AP_E_MAX_STATIONS, WPAD_ERR_INVALID_ARGUMENTS },
	{ "MaxStations", "2008", AP_E_MAX_STATIONS, WPAD_ERR_INVALID_ARGUMENTS },
	{ "GroupRekeySeconds", "29", AP_E_GROUP_REKEY, WPAD_ERR_INVALID_ARGUMENTS },
	{ "InactivityTimeout", "5", AP_E_INACTIVITY, WPAD_ERR_INVALID_ARGUMENTS },
	{ "Country", "de", AP_E_COUNTRY, WPAD_ERR_INVALID_FORMAT },
	{ "Hidden", "yes", AP_E_BOOL, WPAD_ERR_INVALID_FORMAT },
	{ "MacAllowFile", "", AP_E_MAC_FILE, WPAD_ERR_FAILED },
	{ "Chanel", "6", AP_E_UNKNOWN_KEY, WPAD_ERR_INVALID_ARGUMENTS },
};

START_TEST(bad_value_codes)
{
	const struct ap_case *c = &bad_values[_i];
	ck_assert_msg(set(c->key, c->value) == c->code, "%s=%s: %d %s", c->key, c->value, err.code,
		      err.msg);
	ck_assert_int_eq(err.code, c->code);
	ck_assert_int_eq(ap_err_to_wpad(c->code), c->cls);
	ck_assert_msg(strncmp(err.msg, "ap.conf:7: ", 11) == 0, "%s", err.msg);
	/* Secrets are never echoed. */
	if (strcmp(c->key, "Passphrase") == 0 || strcmp(c->key, "PSK") == 0)
		ck_assert_ptr_null(strstr(err.msg, c->value));
}
END_TEST

START_TEST(passphrase_messages)
{
	ck_assert_int_eq(set("Passphrase", "1234567"), AP_E_PASSPHRASE);
	ck_assert_str_eq(err.msg,
			 "ap.conf:7: Passphrase must be 8..63 printable ASCII characters, got 7");
	ck_assert_str_eq(wpad_error_name(ap_err_to_wpad(err.code)), "InvalidFormat");
	ck_assert_int_eq(set("Passphrase", "12345678"), 0);
	ck_assert_int_eq(set("Passphrase",
			     "012345678901234567890123456789012345678901234567890123456789012"),
			 0);
	ck_assert_int_eq(set("Chanel", "1"), AP_E_UNKNOWN_KEY);
	ck_assert_str_eq(err.msg, "ap.conf:7: unknown key 'Chanel' (did you mean 'Channel'?)");
}
END_TEST

START_TEST(channels_by_band)
{
	ck_assert(!ap_channel_valid(AP_BAND_2GHZ, 0, NULL));
	ck_assert(ap_channel_valid(AP_BAND_2GHZ, 1, NULL));
	ck_assert(ap_channel_valid(AP_BAND_2GHZ, 13, NULL));
	ck_assert(!ap_channel_valid(AP_BAND_2GHZ, 14, "DE"));
	ck_assert(ap_channel_valid(AP_BAND_2GHZ, 14, "JP"));
	ck_assert(!ap_channel_valid(AP_BAND_2GHZ, 15, NULL));
	ck_assert(!ap_channel_valid(AP_BAND_2GHZ, 36, NULL));
	ck_assert(ap_channel_valid(AP_BAND_5GHZ, 36, NULL));
	ck_assert(ap_channel_valid(AP_BAND_5GHZ, 165, NULL));
	ck_assert(!ap_channel_valid(AP_BAND_5GHZ, 37, NULL));
	ck_assert(!ap_channel_valid(AP_BAND_5GHZ, 6, NULL));

	set("SSID", "x");
	set("Security", "open");
	ck_assert_int_eq(set("Channel", "15"), 0); /* checked against the band later */
	ck_assert_int_eq(ap_profile_validate(&prof, "ap.conf", 1, &err), AP_E_CHANNEL);
	ck_assert_str_eq(err.msg, "ap.conf:7: channel 15 is not a 2.4 GHz channel (1..13; 14 "
				  "only with Country=JP)");
	set("Channel", "14");
	ck_assert_int_eq(ap_profile_validate(&prof, "ap.conf", 1, &err), AP_E_CHANNEL);
	set("Country", "JP");
	ck_assert_int_eq(ap_profile_validate(&prof, "ap.conf", 1, &err), 0);
	ck_assert_uint_eq(ap_profile_frequency(&prof), 2484);
	set("Band", "5");
	ck_assert_int_eq(ap_profile_validate(&prof, "ap.conf", 1, &err), AP_E_CHANNEL);
	ck_assert_ptr_nonnull(strstr(err.msg, "not a 5 GHz channel"));
}
END_TEST

START_TEST(cross_checks)
{
	ck_assert_int_eq(ap_profile_validate(&prof, "x.conf", 3, &err), AP_E_SSID);
	ck_assert_str_eq(err.msg, "x.conf:3: SSID is required (1..32 bytes)");
	set("SSID", "x");
	ck_assert_int_eq(ap_profile_validate(&prof, "x.conf", 3, &err), AP_E_NO_KEY);
	ck_assert_uint_eq(err.line, 3);
	set("Security", "open");
	ck_assert_int_eq(ap_profile_validate(&prof, "x.conf", 3, &err), 0);
	set("PskFile", "/p");
	ck_assert_int_eq(ap_profile_validate(&prof, "x.conf", 3, &err), AP_E_KEY_WITH_OPEN);
	ck_assert_uint_eq(err.line, 7);
	set("Security", "wpa2-psk");
	ck_assert_int_eq(ap_profile_validate(&prof, "x.conf", 3, &err), 0);
	/* Passphrase and PSK replace each other through ap_profile_set(). */
	set("Passphrase", "12345678");
	set("PSK", "0000000000000000000000000000000000000000000000000000000000000000");
	ck_assert(prof.has_psk && !prof.has_passphrase);
	/* From D-Bus: no base directory, so paths must be absolute. */
	struct ap_source dbus = { 0 };
	ck_assert_int_eq(ap_profile_set(&prof, "PskFile", "rel", &dbus, &err), AP_E_PSK_FILE);
	ck_assert_int_eq(ap_profile_set_ssid(&prof, (const uint8_t *)"\0\xff", 2, &err), 0);
	ck_assert_uint_eq(prof.ssid_len, 2);
	ck_assert_int_eq(ap_profile_set_ssid(&prof, prof.ssid, 0, &err), AP_E_SSID);
}
END_TEST

START_TEST(profile_buffer)
{
	static const char good[] = "# lab AP\n[AccessPoint]\nSSID=lab\nPassphrase=12345678\n"
				   "Band=5\nMacDenyFile=deny\n";
	ck_assert_int_eq(ap_profile_read_buffer(&prof, good, strlen(good), "p.conf", "/d", &err),
			 0);
	ck_assert_int_eq(ap_profile_validate(&prof, "p.conf", 2, &err), 0);
	ck_assert_uint_eq(prof.channel, 36);
	ck_assert_str_eq(prof.mac_deny_file, "/d/deny");

	static const char both[] =
		"[AccessPoint]\nPassphrase=12345678\nPSK="
		"0000000000000000000000000000000000000000000000000000000000000000\n";
	ck_assert_int_eq(ap_profile_read_buffer(&prof, both, strlen(both), "p.conf", "/d", &err),
			 AP_E_KEY_CONFLICT);
	ck_assert_str_eq(err.msg, "p.conf:3: PSK and Passphrase are both set (line 2); keep one");

	static const char other[] = "[AccesPoint]\nSSID=x\n";
	ck_assert_int_eq(ap_profile_read_buffer(&prof, other, strlen(other), "p.conf", "/d", &err),
			 AP_E_PROFILE_FILE);
	ck_assert_ptr_nonnull(strstr(err.msg, "did you mean [AccessPoint]?"));

	static const char typo[] = "[AccessPoint]\nSSID=x\nDTIMperiod=3\n";
	ck_assert_int_eq(ap_profile_read_buffer(&prof, typo, strlen(typo), "p.conf", "/d", &err),
			 AP_E_UNKNOWN_KEY);
	ck_assert_str_eq(
		err.msg,
		"p.conf:3: unknown key 'DTIMperiod' in [AccessPoint] (did you mean 'DTIMPeriod'?)");

	static const char syntax[] = "[AccessPoint]\nSSID\n";
	ck_assert_int_eq(
		ap_profile_read_buffer(&prof, syntax, strlen(syntax), "p.conf", "/d", &err),
		AP_E_PROFILE_FILE);
	ck_assert_uint_eq(err.line, 2);
}
END_TEST

Suite *make_config_ap_suite(void)
{
	Suite *s = suite_create("config_ap");
	TCase *tc = tcase_create("ap_profile");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, defaults_and_valid_profile);
	tcase_add_test(tc, every_key);
	tcase_add_loop_test(tc, bad_value_codes, 0,
			    (int)(sizeof(bad_values) / sizeof(bad_values[0])));
	tcase_add_test(tc, passphrase_messages);
	tcase_add_test(tc, channels_by_band);
	tcase_add_test(tc, cross_checks);
	tcase_add_test(tc, profile_buffer);
	suite_add_tcase(s, tc);
	return s;
}
