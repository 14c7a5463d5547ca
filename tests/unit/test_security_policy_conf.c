/* The security policy settings in the configuration: ManagementFrameProtection,
 * AKMs and Ciphers of an AP profile and of a known-network file -- read,
 * refused with a clear error, and written back. */
#include <check.h>
#include <string.h>

#include "daemon/config/ap_profile.h"
#include "daemon/config/ini.h"
#include "daemon/config/strbuf.h"
#include "daemon/store/known_network.h"

START_TEST(ap_profile_policy_keys)
{
	struct ap_profile p;
	struct cfg_error err = { 0 };
	ap_profile_init(&p);
	ck_assert_int_eq(p.pmf, AP_PMF_OPTIONAL);
	ck_assert_int_eq(ap_profile_set(&p, "ManagementFrameProtection", "required", NULL, &err), 0);
	ck_assert_int_eq(p.pmf, AP_PMF_REQUIRED);
	ck_assert_int_eq(ap_profile_set(&p, "ManagementFrameProtection", "disabled", NULL, &err), 0);
	ck_assert_int_eq(p.pmf, AP_PMF_DISABLED);
	ck_assert_int_eq(ap_profile_set(&p, "ManagementFrameProtection", "yes", NULL, &err),
			 AP_E_PMF);
	ck_assert_ptr_nonnull(strstr(err.msg, "disabled, optional or required"));
	ck_assert_int_eq(ap_profile_set(&p, "AKMs", "psk psk-sha256", NULL, &err), 0);
	ck_assert_str_eq(p.akms, "psk psk-sha256");
	ck_assert_int_eq(ap_profile_set(&p, "Ciphers", "ccmp-128 gcmp-256", NULL, &err), 0);
	ck_assert_str_eq(p.ciphers, "ccmp-128 gcmp-256");
	char longv[200];
	memset(longv, 'a', sizeof(longv) - 1);
	longv[sizeof(longv) - 1] = '\0';
	ck_assert_int_eq(ap_profile_set(&p, "AKMs", longv, NULL, &err), AP_E_SUITES);
	ck_assert_int_eq(ap_err_to_wpad(AP_E_PMF), WPAD_ERR_INVALID_ARGUMENTS);
	ap_profile_clear(&p);
}
END_TEST

static int read_known(const char *text, struct known_network *net, struct cfg_error *err)
{
	struct ini *ini = NULL;
	int r = ini_parse(text, strlen(text), "net.psk", &ini, err);
	ck_assert_int_eq(r, 0);
	known_network_init(net, (const uint8_t *)"net", 3, KNOWN_SEC_PSK);
	r = known_network_from_ini(net, ini, err);
	ini_free(ini);
	return r;
}

START_TEST(known_network_policy_round_trip)
{
	struct known_network net, again;
	struct cfg_error err = { 0 };
	ck_assert_int_eq(read_known("[Security]\nPassphrase=12345678\n[Settings]\n"
				    "ManagementFrameProtection=required\nAKMs=psk-sha256\n"
				    "Ciphers=ccmp-128 tkip\n",
				    &net, &err),
			 0);
	ck_assert_str_eq(net.pmf, "required");
	ck_assert_str_eq(net.akms, "psk-sha256");
	ck_assert_str_eq(net.ciphers, "ccmp-128 tkip");
	struct strbuf sb = STRBUF_INIT;
	ck_assert_int_eq(known_network_format(&net, &sb), 0);
	ck_assert_ptr_nonnull(strstr(sb.data, "ManagementFrameProtection=required"));
	ck_assert_int_eq(read_known(sb.data, &again, &err), 0);
	ck_assert_str_eq(again.pmf, "required");
	ck_assert_str_eq(again.akms, "psk-sha256");
	ck_assert_str_eq(again.ciphers, "ccmp-128 tkip");
	strbuf_free_secret(&sb);
	known_network_clear(&net);
	known_network_clear(&again);
	/* Unset: nothing written, the defaults apply. */
	ck_assert_int_eq(read_known("[Security]\nPassphrase=12345678\n", &net, &err), 0);
	ck_assert_str_eq(net.pmf, "");
	sb = (struct strbuf)STRBUF_INIT;
	ck_assert_int_eq(known_network_format(&net, &sb), 0);
	ck_assert_ptr_null(strstr(sb.data, "ManagementFrameProtection"));
	strbuf_free_secret(&sb);
	known_network_clear(&net);
}
END_TEST

START_TEST(known_network_bad_pmf_refused)
{
	struct known_network net;
	struct cfg_error err = { 0 };
	ck_assert_int_lt(read_known("[Security]\nPassphrase=12345678\n[Settings]\n"
				    "ManagementFrameProtection=maybe\n",
				    &net, &err),
			 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "ManagementFrameProtection"));
	ck_assert_uint_eq(err.line, 4);
	known_network_clear(&net);
}
END_TEST

Suite *make_security_policy_conf_suite(void)
{
	Suite *s = suite_create("security_policy_conf");
	TCase *tc = tcase_create("policy");
	tcase_add_test(tc, ap_profile_policy_keys);
	tcase_add_test(tc, known_network_policy_round_trip);
	tcase_add_test(tc, known_network_bad_pmf_refused);
	suite_add_tcase(s, tc);
	return s;
}
