/* Unit tests of the D-Bus layer's pure parts, no bus needed: the error
 * catalogue, UTF-8 sanitising, object paths, argument lists, the a{sv} ->
 * AP profile conversion and introspection generated from tables. */
#include <check.h>
#include <errno.h>
#include <dbus/dbus.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/config/ap_profile.h"
#include "dbus/apdict.h"
#include "dbus/errors.h"
#include "dbus/msg.h"
#include "dbus/object.h"

/* ---- errors ---- */

START_TEST(every_code_has_one_name)
{
	for (int c = 1; c < WPAD_ERR_COUNT; c++) {
		const char *n = wdb_error_name((enum wpad_error_code)c);
		ck_assert_msg(strncmp(n, WDB_ERROR_PREFIX, strlen(WDB_ERROR_PREFIX)) == 0, "%s", n);
		ck_assert(dbus_validate_error_name(n, NULL));
		ck_assert_int_eq(wdb_error_code_from_name(n), c);
		ck_assert(strlen(wdb_error_hint((enum wpad_error_code)c)) > 5);
		for (int d = 1; d < c; d++)
			ck_assert_str_ne(n, wdb_error_name((enum wpad_error_code)d));
	}
	ck_assert_int_eq(wdb_error_code_from_name("org.example.Other"), WPAD_ERR_FAILED);
	ck_assert_int_eq(wdb_error_code_from_name(NULL), WPAD_OK);
	ck_assert_str_eq(wdb_error_name(WPAD_ERR_COUNT), "org.wpad1.Error.Failed");
}
END_TEST

START_TEST(reply_text_carries_codes_and_hint)
{
	struct wpad_error e;
	char buf[WDB_ERROR_TEXT_MAX];
	wpad_error_set(&e, WPAD_ERR_ASSOCIATION_REJECTED, 0, 17, -1, "refused by %s", "ap");
	wdb_error_format(&e, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "refused by ap"));
	ck_assert_ptr_nonnull(strstr(buf, "IEEE status 17"));
	ck_assert_ptr_nonnull(strstr(buf, wdb_error_hint(WPAD_ERR_ASSOCIATION_REJECTED)));
	wpad_error_set(&e, WPAD_ERR_DRIVER_ERROR, 5, -1, -1, "bad \xff\xfe bytes");
	wdb_error_format(&e, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "errno 5"));
	ck_assert(dbus_validate_utf8(buf, NULL));
}
END_TEST

/* ---- strings and paths ---- */

START_TEST(utf8_copy_replaces_what_dbus_refuses)
{
	char out[64];
	ck_assert(wdb_utf8_copy(out, sizeof(out), "caf\xc3\xa9", 5));
	ck_assert_str_eq(out, "caf\xc3\xa9");
	ck_assert(!wdb_utf8_copy(out, sizeof(out), "a\xffz", 3));
	ck_assert_str_eq(out, "a?z");
	ck_assert(!wdb_utf8_copy(out, sizeof(out), "a\0b", 3));
	ck_assert_str_eq(out, "a?b");
	ck_assert(!wdb_utf8_copy(out, sizeof(out), "\xed\xa0\x80", 3)); /* a surrogate */
	ck_assert(dbus_validate_utf8(out, NULL));
	/* Truncation never splits a character. */
	ck_assert(!wdb_utf8_copy(out, 5, "ab\xc3\xa9\xc3\xa9", 6));
	ck_assert_str_eq(out, "ab\xc3\xa9");
	ck_assert(!wdb_utf8_copy(out, 4, "ab\xe2\x82\xac", 5));
	ck_assert_str_eq(out, "ab");
}
END_TEST

START_TEST(utf8_copy_of_random_bytes_is_valid)
{
	char in[200], out[128];
	srand(7);
	for (int round = 0; round < 2000; round++) {
		size_t n = (size_t)(rand() % (int)sizeof(in));
		for (size_t i = 0; i < n; i++)
			in[i] = (char)(rand() & 0xff);
		wdb_utf8_copy(out, sizeof(out), in, n);
		ck_assert(dbus_validate_utf8(out, NULL));
	}
}
END_TEST

START_TEST(path_elements_are_escaped)
{
	char p[WDB_PATH_MAX];
	ck_assert(wdb_path_join(p, sizeof(p), "/org/wpad1/device", "wlan0"));
	ck_assert_str_eq(p, "/org/wpad1/device/wlan0");
	ck_assert(wdb_path_join(p, sizeof(p), "/org", "demo-station.1"));
	ck_assert_str_eq(p, "/org/demo_2dstation_2e1");
	ck_assert(dbus_validate_path(p, NULL));
	ck_assert(wdb_path_join(p, sizeof(p), "/", ""));
	ck_assert_str_eq(p, "/_");
	ck_assert(!wdb_path_join(p, 12, "/org", "long-name-here"));
}
END_TEST

START_TEST(argument_lists)
{
	char sig[32];
	ck_assert(wdb_args_signature("", sig, sizeof(sig)));
	ck_assert_str_eq(sig, "");
	ck_assert(wdb_args_signature("o network, n signal", sig, sizeof(sig)));
	ck_assert_str_eq(sig, "on");
	ck_assert(wdb_args_signature("a{sv} settings", sig, sizeof(sig)));
	ck_assert_str_eq(sig, "a{sv}");
	ck_assert(!wdb_args_signature("o", sig, sizeof(sig))); /* a name is required */
	ck_assert(!wdb_args_signature("a{sv} x", sig, 3));
}
END_TEST

/* ---- a{sv} -> AP profile ---- */

/* A Start call with entries given as (key, type, value) triples. */
static DBusMessage *start_call(int n, const char *const *keys, const int *types,
			       const void *const *values)
{
	DBusMessage *m = dbus_message_new_method_call("org.wpad1", "/x", "org.wpad1.AccessPoint",
						      "Start");
	DBusMessageIter it, arr, e, v;
	dbus_message_iter_init_append(m, &it);
	dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &arr);
	for (int i = 0; i < n; i++) {
		char sig[2] = { (char)types[i], 0 };
		dbus_message_iter_open_container(&arr, DBUS_TYPE_DICT_ENTRY, NULL, &e);
		dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &keys[i]);
		dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, sig, &v);
		dbus_message_iter_append_basic(&v, types[i], values[i]);
		dbus_message_iter_close_container(&e, &v);
		dbus_message_iter_close_container(&arr, &e);
	}
	dbus_message_iter_close_container(&it, &arr);
	return m;
}

static int convert(DBusMessage *m, struct ap_profile *p, struct wpad_error *err)
{
	ap_profile_init(p);
	wpad_error_clear(err);
	int r = wdb_ap_profile_from_message(m, p, err);
	dbus_message_unref(m);
	return r;
}

START_TEST(apdict_typed_values)
{
	const char *ssid = "lab", *sec = "wpa2-psk", *pass = "correct horse";
	dbus_uint32_t chan = 11;
	dbus_bool_t hidden = TRUE;
	dbus_uint16_t bi = 200;
	const char *keys[] = { "SSID", "Security", "Passphrase", "Channel", "Hidden",
			       "BeaconInterval" };
	const int types[] = { 's', 's', 's', 'u', 'b', 'q' };
	const void *vals[] = { &ssid, &sec, &pass, &chan, &hidden, &bi };
	struct ap_profile p;
	struct wpad_error err;
	ck_assert_int_eq(convert(start_call(6, keys, types, vals), &p, &err), 0);
	ck_assert_int_eq(p.ssid_len, 3);
	ck_assert_int_eq(p.channel, 11);
	ck_assert(p.hidden && p.has_passphrase);
	ck_assert_int_eq(p.beacon_interval, 200);
	ap_profile_clear(&p);
}
END_TEST

START_TEST(apdict_text_values_and_band)
{
	const char *ssid = "lab", *sec = "open", *chan = "36";
	double band = 5.0;
	const char *keys[] = { "SSID", "Security", "Channel", "Band" };
	const int types[] = { 's', 's', 's', 'd' };
	const void *vals[] = { &ssid, &sec, &chan, &band };
	struct ap_profile p;
	struct wpad_error err;
	ck_assert_int_eq(convert(start_call(4, keys, types, vals), &p, &err), 0);
	ck_assert_int_eq(p.band, AP_BAND_5GHZ);
	ck_assert_int_eq(p.channel, 36);
	ap_profile_clear(&p);
}
END_TEST

/* One bad entry after a valid SSID: the error code and a word of its text. */
static void refused(const char *key, int type, const void *val, enum wpad_error_code code,
		    const char *word)
{
	const char *ssid = "lab";
	const char *keys[] = { "SSID", key };
	const int types[] = { 's', type };
	const void *vals[] = { &ssid, val };
	struct ap_profile p;
	struct wpad_error err;
	ck_assert_int_lt(convert(start_call(2, keys, types, vals), &p, &err), 0);
	ck_assert_msg(err.code == code, "%s: got %s (%s)", key, wpad_error_name(err.code),
		      err.text);
	ck_assert_msg(strstr(err.text, word), "%s: '%s' not in '%s'", key, word, err.text);
	ap_profile_clear(&p);
}

START_TEST(apdict_refusals)
{
	const char *s = "x", *shortpass = "short", *file = "/etc/shadow";
	dbus_int32_t neg = -1;
	dbus_uint32_t big = 5;
	dbus_bool_t yes = TRUE;
	refused("Bogus", 's', &s, WPAD_ERR_INVALID_ARGUMENTS, "Bogus");
	refused("Chanel", 's', &s, WPAD_ERR_INVALID_ARGUMENTS, "Channel"); /* suggestion */
	refused("Channel", 'b', &yes, WPAD_ERR_INVALID_ARGUMENTS, "Channel");
	refused("Channel", 'i', &neg, WPAD_ERR_INVALID_ARGUMENTS, "negative");
	refused("BeaconInterval", 'u', &big, WPAD_ERR_INVALID_ARGUMENTS, "BeaconInterval");
	refused("Passphrase", 's', &shortpass, WPAD_ERR_INVALID_FORMAT, "Passphrase");
	refused("PskFile", 's', &file, WPAD_ERR_INVALID_ARGUMENTS, "wpad.conf");
	refused("Security", 's', &s, WPAD_ERR_NOT_SUPPORTED, "");
	refused("SSID", 's', &s, WPAD_ERR_INVALID_ARGUMENTS, "twice");
}
END_TEST

START_TEST(apdict_bounds)
{
	static const char *keys[WDB_DICT_MAX + 1];
	static int types[WDB_DICT_MAX + 1];
	static const void *vals[WDB_DICT_MAX + 1];
	const char *v = "x";
	struct ap_profile p;
	struct wpad_error err;
	for (int i = 0; i <= WDB_DICT_MAX; i++) {
		keys[i] = "Hidden";
		types[i] = 's';
		vals[i] = &v;
	}
	ck_assert_int_lt(convert(start_call(WDB_DICT_MAX + 1, keys, types, vals), &p, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.text, "more than"));
	ap_profile_clear(&p);
	char *huge = malloc(100000);
	memset(huge, 'a', 99999);
	huge[99999] = 0;
	const char *hk[] = { "SSID" };
	const int ht[] = { 's' };
	const void *hv[] = { &huge };
	ck_assert_int_lt(convert(start_call(1, hk, ht, hv), &p, &err), 0);
	ck_assert_int_eq(err.code, WPAD_ERR_INVALID_ARGUMENTS);
	ap_profile_clear(&p);
	free(huge);
	DBusMessage *m = dbus_message_new_method_call("a.b", "/x", "a.b", "Start");
	dbus_message_append_args(m, DBUS_TYPE_STRING, &v, DBUS_TYPE_INVALID);
	ck_assert_int_lt(convert(m, &p, &err), 0);
	ap_profile_clear(&p);
}
END_TEST

/* ---- introspection from tables ---- */

static DBusMessage *nop(void *data, DBusMessage *msg)
{
	return NULL;
}

static bool get_b(void *data, DBusMessageIter *it)
{
	dbus_bool_t b = TRUE;
	return dbus_message_iter_append_basic(it, DBUS_TYPE_BOOLEAN, &b);
}

static int set_b(void *data, DBusMessageIter *it, struct wpad_error *err)
{
	return 0;
}

static const struct wdb_method test_methods[] = {
	{ "Do", "s name, a{sv} opts", "o result", nop, WDB_PRIVILEGED },
	{ .name = NULL },
};
static const struct wdb_signal test_signals[] = { { "Done", "s what" }, { .name = NULL } };
static const struct wdb_property test_props[] = {
	{ "Flag", "b", get_b, set_b, 0 },
	{ "Fixed", "b", get_b, NULL, WDB_PROP_CONST },
	{ .name = NULL },
};
static const struct wdb_interface test_iface = { "org.example.Test", test_methods, test_signals,
						 test_props };

START_TEST(introspection_from_tables)
{
	struct wdb_object *o = wdb_object_new("/org/example/thing");
	ck_assert_ptr_nonnull(o);
	ck_assert_ptr_null(wdb_object_new("/org/example/thing"));
	ck_assert_ptr_null(wdb_object_new("not/a/path"));
	ck_assert_int_eq(wdb_object_add_iface(o, &test_iface, NULL), 0);
	ck_assert_int_eq(wdb_object_add_iface(o, &test_iface, NULL), -EEXIST);
	char *xml = wdb_introspect("/org/example/thing");
	ck_assert_ptr_nonnull(xml);
	ck_assert_ptr_nonnull(strstr(xml, "<arg name=\"opts\" type=\"a{sv}\" direction=\"in\"/>"));
	ck_assert_ptr_nonnull(strstr(xml, "<arg name=\"result\" type=\"o\" direction=\"out\"/>"));
	ck_assert_ptr_nonnull(strstr(xml, "org.wpad1.Privileged"));
	ck_assert_ptr_nonnull(strstr(xml, "name=\"Flag\" type=\"b\" access=\"readwrite\""));
	ck_assert_ptr_nonnull(strstr(xml, "value=\"const\""));
	ck_assert_ptr_nonnull(strstr(xml, "<signal name=\"Done\">"));
	free(xml);
	xml = wdb_introspect("/org");
	ck_assert_ptr_nonnull(xml);
	ck_assert_ptr_nonnull(strstr(xml, "<node name=\"example\"/>"));
	ck_assert_ptr_null(strstr(xml, "org.example.Test"));
	free(xml);
	xml = wdb_introspect("/");
	ck_assert_ptr_nonnull(strstr(xml, "org.freedesktop.DBus.ObjectManager"));
	free(xml);
	ck_assert_ptr_null(wdb_introspect("/nothing/here"));
	wdb_object_free(o);
	ck_assert_ptr_null(wdb_object_find("/org/example/thing"));
}
END_TEST

static Suite *dbus_suite(void)
{
	Suite *s = suite_create("dbus");
	TCase *t = tcase_create("pure");
	tcase_add_test(t, every_code_has_one_name);
	tcase_add_test(t, reply_text_carries_codes_and_hint);
	tcase_add_test(t, utf8_copy_replaces_what_dbus_refuses);
	tcase_add_test(t, utf8_copy_of_random_bytes_is_valid);
	tcase_add_test(t, path_elements_are_escaped);
	tcase_add_test(t, argument_lists);
	tcase_add_test(t, apdict_typed_values);
	tcase_add_test(t, apdict_text_values_and_band);
	tcase_add_test(t, apdict_refusals);
	tcase_add_test(t, apdict_bounds);
	tcase_add_test(t, introspection_from_tables);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(dbus_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
