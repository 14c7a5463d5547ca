/* a{sv} -> AP profile; see apdict.h. Every value is untrusted: types are
 * checked before they are read, strings are bounded, and a secret's text
 * copy is wiped. */
#include "dbus/apdict.h"

#include "daemon/config/ap_profile.h"
#include "daemon/config/suggest.h"
#include "daemon/crypto/secure.h"
#include "dbus/msg.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define KEY_MAX 64
#define VALUE_MAX 256

enum kind { K_TEXT, K_BOOL, K_NUMBER, K_SSID, K_BAND, K_FILE };

static enum kind key_kind(enum ap_key k)
{
	switch (k) {
	case AP_KEY_SSID:
		return K_SSID;
	case AP_KEY_HIDDEN:
	case AP_KEY_CLIENT_ISOLATION:
	case AP_KEY_REKEY_ON_LEAVE:
	case AP_KEY_BRIDGE_CREATE:
		return K_BOOL;
	case AP_KEY_CHANNEL:
	case AP_KEY_BEACON_INTERVAL:
	case AP_KEY_DTIM_PERIOD:
	case AP_KEY_MAX_STATIONS:
	case AP_KEY_GROUP_REKEY:
	case AP_KEY_INACTIVITY:
	case AP_KEY_WIDTH: /* 20|40|80|160 as a number, or "auto" */
		return K_NUMBER;
	case AP_KEY_BAND:
		return K_BAND;
	case AP_KEY_PSK_FILE:
	case AP_KEY_MAC_ALLOW_FILE:
	case AP_KEY_MAC_DENY_FILE:
		return K_FILE;
	case AP_KEY_SECURITY:
	case AP_KEY_PASSPHRASE:
	case AP_KEY_PSK:
	case AP_KEY_COUNTRY:
	case AP_KEY_PMF:
	case AP_KEY_AKMS:
	case AP_KEY_CIPHERS:
	case AP_KEY_SAE_PWE:
	case AP_KEY_OWE_TRANS_BSSID:
	case AP_KEY_OWE_TRANS_SSID:
	case AP_KEY_BRIDGE:
	case AP_KEY_TRANSITION_DISABLE: /* mode names, as in the file */
	case AP_KEY_COUNT:
		break;
	}
	return K_TEXT;
}

static int bad(struct wpad_error *err, enum wpad_error_code code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(struct wpad_error *err, enum wpad_error_code code, const char *fmt, ...)
{
	va_list ap;
	wpad_error_clear(err);
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->text, sizeof(err->text), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* An integer variant as decimal text; false for another type. */
static bool number_text(DBusMessageIter *v, char *out, size_t cap, bool *negative)
{
	union {
		uint8_t y;
		uint16_t q;
		int16_t n;
		uint32_t u;
		int32_t i;
		uint64_t t;
		int64_t x;
	} val;
	int64_t s;
	*negative = false;
	switch (dbus_message_iter_get_arg_type(v)) {
	case DBUS_TYPE_BYTE:
		dbus_message_iter_get_basic(v, &val.y);
		return snprintf(out, cap, "%u", val.y) > 0;
	case DBUS_TYPE_UINT16:
		dbus_message_iter_get_basic(v, &val.q);
		return snprintf(out, cap, "%u", val.q) > 0;
	case DBUS_TYPE_UINT32:
		dbus_message_iter_get_basic(v, &val.u);
		return snprintf(out, cap, "%" PRIu32, val.u) > 0;
	case DBUS_TYPE_UINT64:
		dbus_message_iter_get_basic(v, &val.t);
		return snprintf(out, cap, "%" PRIu64, val.t) > 0;
	case DBUS_TYPE_INT16:
		dbus_message_iter_get_basic(v, &val.n);
		s = val.n;
		break;
	case DBUS_TYPE_INT32:
		dbus_message_iter_get_basic(v, &val.i);
		s = val.i;
		break;
	case DBUS_TYPE_INT64:
		dbus_message_iter_get_basic(v, &val.x);
		s = val.x;
		break;
	default:
		return false;
	}
	*negative = s < 0;
	return snprintf(out, cap, "%" PRId64, s) > 0;
}

/* The value of key as the files' text, or the SSID bytes set directly.
 * Returns 0, 1 (SSID already set) or a negative errno with *err. */
static int value_text(struct ap_profile *p, const char *key, enum kind kind, DBusMessageIter *v,
		      char *out, struct wpad_error *err)
{
	int type = dbus_message_iter_get_arg_type(v);
	const char *s;
	if (type == DBUS_TYPE_STRING) {
		if (!wdb_read_string(v, &s, VALUE_MAX - 1))
			return bad(err, WPAD_ERR_INVALID_ARGUMENTS, "%s is longer than %d bytes", key,
				   VALUE_MAX - 1);
		snprintf(out, VALUE_MAX, "%s", s);
		return 0;
	}
	if (kind == K_BOOL && type == DBUS_TYPE_BOOLEAN) {
		dbus_bool_t b;
		dbus_message_iter_get_basic(v, &b);
		snprintf(out, VALUE_MAX, "%s", b ? "true" : "false");
		return 0;
	}
	bool negative;
	if (kind == K_NUMBER && number_text(v, out, VALUE_MAX, &negative))
		return negative ? bad(err, WPAD_ERR_INVALID_ARGUMENTS, "%s must not be negative", key)
				: 0;
	if (kind == K_BAND && type == DBUS_TYPE_DOUBLE) {
		double d;
		dbus_message_iter_get_basic(v, &d);
		snprintf(out, VALUE_MAX, "%g", d);
		return 0;
	}
	if (kind == K_SSID && type == DBUS_TYPE_ARRAY &&
	    dbus_message_iter_get_element_type(v) == DBUS_TYPE_BYTE) {
		DBusMessageIter a;
		const uint8_t *bytes;
		int n = 0;
		struct cfg_error cerr = { 0 };
		dbus_message_iter_recurse(v, &a);
		dbus_message_iter_get_fixed_array(&a, &bytes, &n);
		if (ap_profile_set_ssid(p, bytes, (size_t)n, &cerr) < 0)
			return bad(err, ap_err_to_wpad(cerr.code), "%s: %s", key, cerr.msg);
		return 1;
	}
	static const char *const wanted[] = { [K_TEXT] = "a string (s)",
					      [K_BOOL] = "a boolean (b) or \"true\"/\"false\"",
					      [K_NUMBER] = "an unsigned integer (u) or its text",
					      [K_SSID] = "bytes (ay) or a string (s)",
					      [K_BAND] = "\"2.4\" or \"5\" (s)",
					      [K_FILE] = "a path" };
	return bad(err, WPAD_ERR_INVALID_ARGUMENTS, "%s must be %s", key, wanted[kind]);
}

static int find_key(const char *key)
{
	for (int k = 0; k < AP_KEY_COUNT; k++)
		if (strcmp(ap_profile_keys[k], key) == 0)
			return k;
	return -1;
}

static int unknown_key(const char *key, struct wpad_error *err)
{
	char hint[96] = "";
	const char *near = cfg_suggest(key, ap_profile_keys);
	if (near)
		snprintf(hint, sizeof(hint), " (did you mean '%s'?)", near);
	return bad(err, WPAD_ERR_INVALID_ARGUMENTS, "unknown key '%.64s' in the settings%s", key,
		   hint);
}

/* One {sv} entry. seen: keys already given. */
static int apply_entry(struct ap_profile *p, DBusMessageIter *entry, bool seen[AP_KEY_COUNT],
		       struct wpad_error *err)
{
	DBusMessageIter v;
	const char *key;
	char text[VALUE_MAX];
	if (!wdb_read_string(entry, &key, KEY_MAX))
		return bad(err, WPAD_ERR_INVALID_ARGUMENTS, "a key is longer than %d bytes", KEY_MAX);
	int k = find_key(key);
	if (k < 0)
		return unknown_key(key, err);
	if (seen[k])
		return bad(err, WPAD_ERR_INVALID_ARGUMENTS, "%s is given twice", key);
	seen[k] = true;
	enum kind kind = key_kind((enum ap_key)k);
	if (kind == K_FILE)
		return bad(err, WPAD_ERR_INVALID_ARGUMENTS,
			   "%s names a file, which only wpad.conf may do", key);
	dbus_message_iter_next(entry);
	dbus_message_iter_recurse(entry, &v);
	int r = value_text(p, key, kind, &v, text, err);
	if (r != 0) {
		crypto_zero(text, sizeof(text));
		return r < 0 ? r : 0;
	}
	struct cfg_error cerr = { 0 };
	r = ap_profile_set(p, key, text, NULL, &cerr);
	crypto_zero(text, sizeof(text));
	if (r < 0)
		return bad(err, ap_err_to_wpad(r), "%s", cerr.msg);
	return 0;
}

/* Entries of the a{sv} under it, counting at most WDB_DICT_MAX + 1. */
static size_t count_entries(DBusMessageIter *it)
{
	DBusMessageIter arr;
	size_t n = 0;
	dbus_message_iter_recurse(it, &arr);
	while (n <= WDB_DICT_MAX && dbus_message_iter_get_arg_type(&arr) == DBUS_TYPE_DICT_ENTRY) {
		n++;
		dbus_message_iter_next(&arr);
	}
	return n;
}

int wdb_ap_profile_from_dict(DBusMessageIter *it, struct ap_profile *p, struct wpad_error *err)
{
	bool seen[AP_KEY_COUNT] = { false };
	DBusMessageIter arr, entry;
	if (dbus_message_iter_get_arg_type(it) != DBUS_TYPE_ARRAY ||
	    dbus_message_iter_get_element_type(it) != DBUS_TYPE_DICT_ENTRY)
		return bad(err, WPAD_ERR_INVALID_ARGUMENTS, "the settings must be a{sv}");
	if (count_entries(it) > WDB_DICT_MAX)
		return bad(err, WPAD_ERR_INVALID_ARGUMENTS, "more than %d settings", WDB_DICT_MAX);
	dbus_message_iter_recurse(it, &arr);
	for (; dbus_message_iter_get_arg_type(&arr) == DBUS_TYPE_DICT_ENTRY;
	     dbus_message_iter_next(&arr)) {
		dbus_message_iter_recurse(&arr, &entry);
		if (dbus_message_iter_get_arg_type(&entry) != DBUS_TYPE_STRING)
			return bad(err, WPAD_ERR_INVALID_ARGUMENTS, "the settings must be a{sv}");
		int r = apply_entry(p, &entry, seen, err);
		if (r < 0)
			return r;
	}
	struct cfg_error cerr = { 0 };
	int r = ap_profile_validate(p, "settings", 0, &cerr);
	if (r == 0)
		r = ap_profile_load_files(p, &cerr);
	if (r < 0)
		return bad(err, ap_err_to_wpad(r), "%s", cerr.msg);
	return 0;
}

int wdb_ap_profile_from_message(DBusMessage *msg, struct ap_profile *p, struct wpad_error *err)
{
	DBusMessageIter it;
	if (!wdb_has_signature(msg, "a{sv}") || !dbus_message_iter_init(msg, &it))
		return bad(err, WPAD_ERR_INVALID_ARGUMENTS, "the settings must be a{sv}");
	return wdb_ap_profile_from_dict(&it, p, err);
}
