/* The fi.w1.wpa_supplicant1 front's Scan dictionary (dbus/wpas_scanargs.c):
 * NetworkManager 1.42's periodic scan (Type, AllowRoam, no SSIDs) and its
 * scan with a hidden profile (SSIDs: the empty wildcard first, then the
 * names), and what is refused with the key named. */
#include "dbus/wpas_scanargs.h"

#include <check.h>
#include <errno.h>
#include <string.h>

/* A Scan call: Type (NULL: left out), AllowRoam false, and n SSIDs (NULL:
 * no SSIDs key), each given with its length. */
static DBusMessage *scan_call(const char *type, const char *const *ssids, const int *lens, size_t n)
{
	DBusMessage *m = dbus_message_new_method_call("fi.w1.wpa_supplicant1",
						      "/fi/w1/wpa_supplicant1/Interfaces/0",
						      "fi.w1.wpa_supplicant1.Interface", "Scan");
	DBusMessageIter it, d, de, v, outer, one;
	const char *k_type = "Type", *k_roam = "AllowRoam", *k_ssids = "SSIDs";
	dbus_bool_t no = FALSE;
	ck_assert_ptr_nonnull(m);
	dbus_message_iter_init_append(m, &it);
	ck_assert(dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &d));
	if (type) {
		ck_assert(dbus_message_iter_open_container(&d, DBUS_TYPE_DICT_ENTRY, NULL, &de));
		ck_assert(dbus_message_iter_append_basic(&de, DBUS_TYPE_STRING, &k_type));
		ck_assert(dbus_message_iter_open_container(&de, DBUS_TYPE_VARIANT, "s", &v));
		ck_assert(dbus_message_iter_append_basic(&v, DBUS_TYPE_STRING, &type));
		ck_assert(dbus_message_iter_close_container(&de, &v));
		ck_assert(dbus_message_iter_close_container(&d, &de));
	}
	ck_assert(dbus_message_iter_open_container(&d, DBUS_TYPE_DICT_ENTRY, NULL, &de));
	ck_assert(dbus_message_iter_append_basic(&de, DBUS_TYPE_STRING, &k_roam));
	ck_assert(dbus_message_iter_open_container(&de, DBUS_TYPE_VARIANT, "b", &v));
	ck_assert(dbus_message_iter_append_basic(&v, DBUS_TYPE_BOOLEAN, &no));
	ck_assert(dbus_message_iter_close_container(&de, &v));
	ck_assert(dbus_message_iter_close_container(&d, &de));
	if (ssids) {
		ck_assert(dbus_message_iter_open_container(&d, DBUS_TYPE_DICT_ENTRY, NULL, &de));
		ck_assert(dbus_message_iter_append_basic(&de, DBUS_TYPE_STRING, &k_ssids));
		ck_assert(dbus_message_iter_open_container(&de, DBUS_TYPE_VARIANT, "aay", &v));
		ck_assert(dbus_message_iter_open_container(&v, DBUS_TYPE_ARRAY, "ay", &outer));
		for (size_t i = 0; i < n; i++) {
			const char *b = ssids[i];
			ck_assert(dbus_message_iter_open_container(&outer, DBUS_TYPE_ARRAY, "y", &one));
			ck_assert(dbus_message_iter_append_fixed_array(&one, DBUS_TYPE_BYTE, &b,
								       lens[i]));
			ck_assert(dbus_message_iter_close_container(&outer, &one));
		}
		ck_assert(dbus_message_iter_close_container(&v, &outer));
		ck_assert(dbus_message_iter_close_container(&de, &v));
		ck_assert(dbus_message_iter_close_container(&d, &de));
	}
	ck_assert(dbus_message_iter_close_container(&it, &d));
	return m;
}

static int parse(DBusMessage *m, struct wpas_scan_args *a, char *why, size_t cap)
{
	why[0] = '\0';
	int r = wpas_scan_args_parse(m, a, why, cap);
	dbus_message_unref(m);
	return r;
}

/* NetworkManager's periodic scan with no hidden profile. */
START_TEST(nm_plain_scan)
{
	struct wpas_scan_args a;
	char why[256];
	ck_assert_int_eq(parse(scan_call("active", NULL, NULL, 0), &a, why, sizeof(why)), 0);
	ck_assert(!a.passive);
	ck_assert_uint_eq(a.n_ssids, 0);
}
END_TEST

/* A hidden profile: ["", "nmhidden"] as captured; the wildcard is not a
 * name, a repeated name counts once. */
START_TEST(nm_hidden_scan)
{
	static const char *const s[] = { "", "nmhidden", "nmhidden" };
	static const int l[] = { 0, 8, 8 };
	struct wpas_scan_args a;
	char why[256];
	ck_assert_int_eq(parse(scan_call("active", s, l, 3), &a, why, sizeof(why)), 0);
	ck_assert_uint_eq(a.n_ssids, 1);
	ck_assert_uint_eq(a.ssids[0].len, 8);
	ck_assert(memcmp(a.ssids[0].ssid, "nmhidden", 8) == 0);
}
END_TEST

/* The most the front advertises (MaxScanSSID: the wildcard and four names)
 * passes; a name more is refused, not dropped. */
START_TEST(max_scan_ssids)
{
	static const char *const s[] = { "", "a", "b", "c", "d", "e" };
	static const int l[] = { 0, 1, 1, 1, 1, 1 };
	struct wpas_scan_args a;
	char why[256];
	ck_assert_uint_eq(WPAS_SCAN_MAX_SSIDS, 5);
	ck_assert_int_eq(parse(scan_call("active", s, l, 5), &a, why, sizeof(why)), 0);
	ck_assert_uint_eq(a.n_ssids, 4);
	ck_assert_int_eq(parse(scan_call("active", s, l, 6), &a, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "SSIDs: more SSIDs than MaxScanSSID");
	/* five names and no wildcard: five names are too many as well */
	ck_assert_int_eq(parse(scan_call("active", s + 1, l + 1, 5), &a, why, sizeof(why)),
			 -EINVAL);
}
END_TEST

START_TEST(refused)
{
	static const char *const s[] = { "123456789012345678901234567890123", "x" };
	static const int l[] = { 33, 1 };
	struct wpas_scan_args a;
	char why[256];
	ck_assert_int_eq(parse(scan_call("active", s, l, 1), &a, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "SSIDs: an SSID longer than 32 octets");
	ck_assert_int_eq(parse(scan_call("passive", s + 1, l + 1, 1), &a, why, sizeof(why)),
			 -EINVAL);
	ck_assert_str_eq(why, "SSIDs: a passive scan sends no probe");
	ck_assert_int_eq(parse(scan_call("directed", NULL, NULL, 0), &a, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "Type: must be \"active\" or \"passive\"");
	ck_assert_int_eq(parse(scan_call("passive", NULL, NULL, 0), &a, why, sizeof(why)), 0);
	ck_assert(a.passive);

	/* Channels: wpa_supplicant's key, not run here */
	DBusMessage *m = dbus_message_new_method_call("fi.w1.wpa_supplicant1", "/x",
						      "fi.w1.wpa_supplicant1.Interface", "Scan");
	DBusMessageIter it, d, de, v, arr;
	const char *k = "Channels";
	dbus_message_iter_init_append(m, &it);
	ck_assert(dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &d));
	ck_assert(dbus_message_iter_open_container(&d, DBUS_TYPE_DICT_ENTRY, NULL, &de));
	ck_assert(dbus_message_iter_append_basic(&de, DBUS_TYPE_STRING, &k));
	ck_assert(dbus_message_iter_open_container(&de, DBUS_TYPE_VARIANT, "a(uu)", &v));
	ck_assert(dbus_message_iter_open_container(&v, DBUS_TYPE_ARRAY, "(uu)", &arr));
	ck_assert(dbus_message_iter_close_container(&v, &arr));
	ck_assert(dbus_message_iter_close_container(&de, &v));
	ck_assert(dbus_message_iter_close_container(&d, &de));
	ck_assert(dbus_message_iter_close_container(&it, &d));
	ck_assert_int_eq(parse(m, &a, why, sizeof(why)), -EINVAL);
	ck_assert(strncmp(why, "Channels: not supported", 23) == 0);

	/* the wrong argument type altogether */
	m = dbus_message_new_method_call("fi.w1.wpa_supplicant1", "/x",
					 "fi.w1.wpa_supplicant1.Interface", "Scan");
	ck_assert(dbus_message_append_args(m, DBUS_TYPE_STRING, &k, DBUS_TYPE_INVALID));
	ck_assert_int_eq(parse(m, &a, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "Scan takes a{sv}");
}
END_TEST

Suite *make_wpas_scanargs_suite(void)
{
	Suite *s = suite_create("wpas_scanargs");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, nm_plain_scan);
	tcase_add_test(tc, nm_hidden_scan);
	tcase_add_test(tc, max_scan_ssids);
	tcase_add_test(tc, refused);
	suite_add_tcase(s, tc);
	return s;
}
