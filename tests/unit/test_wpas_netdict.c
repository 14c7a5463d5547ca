/* The fi.w1.wpa_supplicant1 front's AddNetwork dictionary (dbus/
 * wpas_netdict.c): the personal keys as NetworkManager 1.42 sends them
 * (shapes from the bus captured in docs/nm.md and
 * ../shared/notes/nm-supplicant-api.md: the WPA2-PSK, WPA3-SAE and
 * hotspot dictionaries), and malformed values refused with the key named. */
#include "daemon/codec/ieee80211.h"
#include "daemon/rsn/suites.h"
#include "dbus/wpas_i.h"
#include "dbus/wpas_netdict.h"

#include <check.h>
#include <errno.h>
#include <string.h>

/* A dictionary entry to build: key, D-Bus type ('s', 'i', 'u', 'y' for
 * ay), and the value (text, integer, or bytes with their length). */
struct entry {
	const char *key;
	char type;
	const char *s;
	int64_t i;
	size_t len;
};

static DBusMessage *dict(const struct entry *e, size_t n)
{
	DBusMessage *m = dbus_message_new_method_call("fi.w1.wpa_supplicant1",
						      "/fi/w1/wpa_supplicant1/Interfaces/0",
						      "fi.w1.wpa_supplicant1.Interface", "AddNetwork");
	DBusMessageIter it, d, de, v, arr;
	ck_assert_ptr_nonnull(m);
	dbus_message_iter_init_append(m, &it);
	ck_assert(dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &d));
	for (size_t k = 0; k < n; k++) {
		char sig[3] = { e[k].type, 0, 0 };
		if (e[k].type == 'y')
			memcpy(sig, "ay", 2);
		ck_assert(dbus_message_iter_open_container(&d, DBUS_TYPE_DICT_ENTRY, NULL, &de));
		ck_assert(dbus_message_iter_append_basic(&de, DBUS_TYPE_STRING, &e[k].key));
		ck_assert(dbus_message_iter_open_container(&de, DBUS_TYPE_VARIANT, sig, &v));
		if (e[k].type == 's') {
			ck_assert(dbus_message_iter_append_basic(&v, DBUS_TYPE_STRING, &e[k].s));
		} else if (e[k].type == 'i') {
			dbus_int32_t x = (dbus_int32_t)e[k].i;
			ck_assert(dbus_message_iter_append_basic(&v, DBUS_TYPE_INT32, &x));
		} else if (e[k].type == 'u') {
			dbus_uint32_t x = (dbus_uint32_t)e[k].i;
			ck_assert(dbus_message_iter_append_basic(&v, DBUS_TYPE_UINT32, &x));
		} else {
			const char *b = e[k].s;
			size_t len = e[k].len ? e[k].len : strlen(b);
			ck_assert(dbus_message_iter_open_container(&v, DBUS_TYPE_ARRAY, "y", &arr));
			ck_assert(dbus_message_iter_append_fixed_array(&arr, DBUS_TYPE_BYTE, &b,
								       (int)len));
			ck_assert(dbus_message_iter_close_container(&v, &arr));
		}
		ck_assert(dbus_message_iter_close_container(&de, &v));
		ck_assert(dbus_message_iter_close_container(&d, &de));
	}
	ck_assert(dbus_message_iter_close_container(&it, &d));
	return m;
}

/* Parses e[0..n) into *net; returns wpas_net_parse's result, why in why. */
static int parse(const struct entry *e, size_t n, struct wpas_net *net, char *why, size_t cap)
{
	DBusMessage *m = dict(e, n);
	memset(net, 0, sizeof(*net));
	why[0] = '\0';
	int r = wpas_net_parse(m, net, why, cap);
	dbus_message_unref(m);
	return r;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define BIT(akm) RSN_SUITE_BIT(akm)

/* NetworkManager's WPA2-PSK profile with SAE offered too (supplicant
 * reports sae, pmf and a BIP cipher): key_mgmt as captured. */
START_TEST(nm_wpa2_psk_with_sae)
{
	const struct entry e[] = {
		{ "ssid", 'y', "hwsim-psk", 0, 0 },
		{ "scan_ssid", 'i', NULL, 1, 0 },
		{ "bgscan", 'y', "simple:30:-70:86400", 0, 0 },
		{ "key_mgmt", 's', "WPA-PSK WPA-PSK-SHA256 FT-PSK SAE FT-SAE", 0, 0 },
		{ "auth_alg", 's', "OPEN", 0, 0 },
		{ "psk", 's', "correct horse battery", 0, 0 },
	};
	struct wpas_net n;
	char why[128];
	ck_assert_int_eq(parse(e, N(e), &n, why, sizeof(why)), 0);
	ck_assert_uint_eq(n.akms, BIT(RSN_AKM_PSK) | BIT(RSN_AKM_PSK_SHA256) | BIT(RSN_AKM_FT_PSK) |
					  BIT(RSN_AKM_SAE) | BIT(RSN_AKM_FT_SAE));
	ck_assert_int_eq(n.ieee80211w, -1); /* not given: the interface's Pmf decides */
	ck_assert(n.have_psk);
	ck_assert_str_eq(n.psk, "correct horse battery");
	ck_assert(n.scan_ssid);
	ck_assert_uint_eq(n.ssid_len, 9);
}
END_TEST

/* WPA3-SAE: the password in psk, PMF required. */
START_TEST(nm_sae)
{
	const struct entry e[] = {
		{ "ssid", 'y', "hwsim-sae", 0, 0 },
		{ "scan_ssid", 'i', NULL, 1, 0 },
		{ "key_mgmt", 's', "SAE FT-SAE", 0, 0 },
		{ "ieee80211w", 'i', NULL, 2, 0 },
		{ "psk", 's', "correct horse battery", 0, 0 },
	};
	struct wpas_net n;
	char why[128];
	ck_assert_int_eq(parse(e, N(e), &n, why, sizeof(why)), 0);
	ck_assert_uint_eq(n.akms, BIT(RSN_AKM_SAE) | BIT(RSN_AKM_FT_SAE));
	ck_assert_int_eq(n.ieee80211w, 2);
	ck_assert_str_eq(n.psk, "correct horse battery");
}
END_TEST

/* The transition profile (and the hotspot's): PSK, PSK-SHA256 and SAE;
 * ieee80211w 1 also arrives as u. */
START_TEST(nm_transition)
{
	const struct entry e[] = {
		{ "ssid", 'y', "hwsim-mixed", 0, 0 },
		{ "key_mgmt", 'y', "WPA-PSK WPA-PSK-SHA256 SAE", 0, 0 },
		{ "ieee80211w", 'u', NULL, 1, 0 },
		{ "psk", 'y', "correct horse battery", 0, 0 },
	};
	struct wpas_net n;
	char why[128];
	ck_assert_int_eq(parse(e, N(e), &n, why, sizeof(why)), 0);
	ck_assert_uint_eq(n.akms, BIT(RSN_AKM_PSK) | BIT(RSN_AKM_PSK_SHA256) | BIT(RSN_AKM_SAE));
	ck_assert_int_eq(n.ieee80211w, 1);
	ck_assert_str_eq(n.key_mgmt, "WPA-PSK WPA-PSK-SHA256 SAE");
}
END_TEST

/* Names without an AKM suite (open, dynamic WEP / wired 802.1X), the
 * 802.1X and OWE ones; extra spaces are separators. */
START_TEST(key_mgmt_other_names)
{
	static const struct {
		const char *v;
		uint32_t akms;
	} ok[] = {
		{ "NONE", 0 },
		{ "OWE", BIT(RSN_AKM_OWE) },
		{ "  SAE   SAE-EXT-KEY ", BIT(RSN_AKM_SAE) | BIT(RSN_AKM_SAE_EXT_KEY) },
	};
	for (size_t k = 0; k < N(ok); k++) {
		const struct entry e[] = {
			{ "ssid", 'y', "x", 0, 0 },
			{ "key_mgmt", 's', ok[k].v, 0, 0 },
		};
		struct wpas_net n;
		char why[128];
		ck_assert_msg(parse(e, N(e), &n, why, sizeof(why)) == 0, "%s: %s", ok[k].v, why);
		ck_assert_uint_eq(n.akms, ok[k].akms);
	}
	/* 802.1X names parse, but without an EAP method (or as dynamic WEP or
	 * Suite B, which wpad does not run) the block is refused whole. */
	static const char *const refused[] = { "IEEE8021X", "WPA-EAP-SUITE-B-192",
					       "WPA-EAP FT-EAP FT-EAP-SHA384 WPA-EAP-SHA256" };
	for (size_t k = 0; k < N(refused); k++) {
		const struct entry e[] = {
			{ "ssid", 'y', "x", 0, 0 },
			{ "key_mgmt", 's', refused[k], 0, 0 },
		};
		struct wpas_net n;
		char why[128];
		ck_assert_msg(parse(e, N(e), &n, why, sizeof(why)) < 0, "%s accepted", refused[k]);
	}
}
END_TEST

/* Malformed values: refused with InvalidArgs text naming the key. */
START_TEST(malformed_values)
{
	static const struct {
		struct entry bad;
		const char *why; /* a part of the text */
	} cases[] = {
		{ { "key_mgmt", 's', "WPA-PSK BOGUS", 0, 0 }, "key_mgmt: unknown key management 'BOGUS'" },
		{ { "key_mgmt", 's', "wpa-psk", 0, 0 }, "unknown key management 'wpa-psk'" },
		{ { "key_mgmt", 's', "", 0, 0 }, "key_mgmt: a list of key management names" },
		{ { "key_mgmt", 's', "   ", 0, 0 }, "key_mgmt: a list" },
		{ { "key_mgmt", 'i', NULL, 2, 0 }, "key_mgmt: must be a string or bytes" },
		{ { "key_mgmt", 'y', "SAE\0WPA-PSK", 0, 11 }, "key_mgmt: a list" },
		{ { "ieee80211w", 'i', NULL, 3, 0 }, "ieee80211w: 0 (no PMF), 1 (optional) or 2" },
		{ { "ieee80211w", 'i', NULL, -1, 0 }, "ieee80211w: 0 (no PMF)" },
		{ { "ieee80211w", 's', "2", 0, 0 }, "ieee80211w: must be an integer" },
		{ { "psk", 's', "short", 0, 0 }, "psk: a passphrase of 8..63" },
		{ { "psk", 'y', "0123456789012345678901234567890123456789012345678901234567890123456789", 0, 0 },
		  "psk:" },
		{ { "sae_password", 's', "0123456789012345678901234567890123456789012345678901234567890123456789", 0, 0 },
		  "sae_password:" },
		{ { "sae_pwe", 'i', NULL, 2, 0 }, "sae_pwe: unknown network property" },
	};
	for (size_t k = 0; k < N(cases); k++) {
		const struct entry e[] = { { "ssid", 'y', "x", 0, 0 }, cases[k].bad };
		struct wpas_net n;
		char why[128];
		ck_assert_int_eq(parse(e, N(e), &n, why, sizeof(why)), -EINVAL);
		ck_assert_msg(strstr(why, cases[k].why), "case %zu: '%s' lacks '%s'", k, why,
			      cases[k].why);
	}
}
END_TEST

/* psk as NetworkManager sends a 64-hex-digit key: 32 raw octets (ay),
 * kept as hex for the station; the same 64 digits as s are the key too. */
START_TEST(psk_raw_and_hex)
{
	static const char raw[32] = "\x01\x23\x45\x67\x89\xab\xcd\xef\x01\x23\x45\x67\x89\xab\xcd\xef"
				    "\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff";
	const char *hex = "0123456789abcdef0123456789abcdef00112233445566778899aabbccddeeff";
	const struct entry e[] = {
		{ "ssid", 'y', "x", 0, 0 },
		{ "key_mgmt", 's', "WPA-PSK", 0, 0 },
		{ "psk", 'y', raw, 0, 32 },
	};
	struct wpas_net n;
	char why[128];
	ck_assert_int_eq(parse(e, N(e), &n, why, sizeof(why)), 0);
	ck_assert_str_eq(n.psk, hex);
	const struct entry e2[] = {
		{ "ssid", 'y', "x", 0, 0 },
		{ "psk", 's', hex, 0, 0 },
	};
	ck_assert_int_eq(parse(e2, N(e2), &n, why, sizeof(why)), 0);
	ck_assert_str_eq(n.psk, hex);
}
END_TEST

/* A password outside 8..63 characters comes in sae_password. */
START_TEST(sae_password_key)
{
	const struct entry e[] = {
		{ "ssid", 'y', "x", 0, 0 },
		{ "key_mgmt", 's', "SAE", 0, 0 },
		{ "ieee80211w", 'i', NULL, 2, 0 },
		{ "sae_password", 's', "short", 0, 0 },
	};
	struct wpas_net n;
	char why[128];
	ck_assert_int_eq(parse(e, N(e), &n, why, sizeof(why)), 0);
	ck_assert(n.have_psk);
	ck_assert_str_eq(n.psk, "short");
	ck_assert_uint_eq(n.akms, BIT(RSN_AKM_SAE));
}
END_TEST

Suite *make_wpas_netdict_suite(void)
{
	Suite *s = suite_create("wpas_netdict");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, nm_wpa2_psk_with_sae);
	tcase_add_test(tc, nm_sae);
	tcase_add_test(tc, nm_transition);
	tcase_add_test(tc, key_mgmt_other_names);
	tcase_add_test(tc, malformed_values);
	tcase_add_test(tc, psk_raw_and_hex);
	tcase_add_test(tc, sae_password_key);
	suite_add_tcase(s, tc);
	return s;
}
