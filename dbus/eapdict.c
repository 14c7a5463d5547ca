/* a{sv} -> struct eap_conf through an INI section; see eapdict.h. Every
 * value is untrusted: types are checked before they are read. */
#include "dbus/eapdict.h"

#include "daemon/config/eap_conf.h"
#include "daemon/config/ini.h"
#include "dbus/msg.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define EAPDICT_VALUE_MAX 1024

static int bad(struct wpad_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct wpad_error *err, const char *fmt, ...)
{
	char text[WPAD_ERROR_TEXT_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	wpad_error_set(err, WPAD_ERR_INVALID_ARGUMENTS, EINVAL, -1, -1, "%s", text);
	return -EINVAL;
}

static bool is_path_key(const char *k)
{
	return strcmp(k, "CACert") == 0 || strcmp(k, "CAPath") == 0 ||
	       strcmp(k, "ClientCert") == 0 || strcmp(k, "PrivateKey") == 0;
}

/* The variant's value in the files' text form into out. */
static int value_text(const char *key, DBusMessageIter *var, char *out, size_t cap,
		      struct wpad_error *err)
{
	int type = dbus_message_iter_get_arg_type(var);
	if (type == DBUS_TYPE_STRING) {
		const char *s;
		dbus_message_iter_get_basic(var, &s);
		if (strlen(s) >= cap)
			return bad(err, "%s: longer than %zu characters", key, cap - 1);
		snprintf(out, cap, "%s", s);
		return 0;
	}
	if (type == DBUS_TYPE_BOOLEAN) {
		dbus_bool_t b;
		dbus_message_iter_get_basic(var, &b);
		snprintf(out, cap, "%s", b ? "true" : "false");
		return 0;
	}
	if (type == DBUS_TYPE_ARRAY && dbus_message_iter_get_element_type(var) == DBUS_TYPE_STRING &&
	    strcmp(key, "Method") == 0) {
		DBusMessageIter arr;
		size_t off = 0;
		out[0] = '\0';
		dbus_message_iter_recurse(var, &arr);
		for (; dbus_message_iter_get_arg_type(&arr) == DBUS_TYPE_STRING;
		     dbus_message_iter_next(&arr)) {
			const char *s;
			dbus_message_iter_get_basic(&arr, &s);
			int n = snprintf(out + off, cap - off, "%s%s", off ? " " : "", s);
			if (n < 0 || (size_t)n >= cap - off)
				return bad(err, "%s: too long", key);
			off += (size_t)n;
		}
		return 0;
	}
	return bad(err, "%s: a value of type %c is not accepted", key, (char)type);
}

static int add_entry(struct ini_section *sec, DBusMessageIter *entry, struct wpad_error *err)
{
	const char *key;
	DBusMessageIter var;
	char value[EAPDICT_VALUE_MAX];
	dbus_message_iter_get_basic(entry, &key);
	if (!ini_valid_key(key))
		return bad(err, "'%.64s' is not a profile key", key);
	if (ini_get(sec, key))
		return bad(err, "%s given twice", key);
	if (!dbus_message_iter_next(entry) ||
	    dbus_message_iter_get_arg_type(entry) != DBUS_TYPE_VARIANT)
		return bad(err, "the profile must be a{sv}");
	dbus_message_iter_recurse(entry, &var);
	int r = value_text(key, &var, value, sizeof(value), err);
	if (r < 0)
		return r;
	if (is_path_key(key) && value[0] != '/')
		return bad(err, "%s must be an absolute path", key);
	if (ini_set(sec, key, value) < 0)
		return bad(err, "%s: not a valid value", key);
	return 0;
}

static int fill_section(DBusMessage *msg, struct ini_section *sec, struct wpad_error *err)
{
	DBusMessageIter it, arr, entry;
	size_t n = 0;
	if (!wdb_has_signature(msg, "a{sv}") || !dbus_message_iter_init(msg, &it))
		return bad(err, "the profile must be a{sv}");
	dbus_message_iter_recurse(&it, &arr);
	for (; dbus_message_iter_get_arg_type(&arr) == DBUS_TYPE_DICT_ENTRY;
	     dbus_message_iter_next(&arr)) {
		if (++n > WDB_DICT_MAX)
			return bad(err, "more than %d settings", WDB_DICT_MAX);
		dbus_message_iter_recurse(&arr, &entry);
		int r = add_entry(sec, &entry, err);
		if (r < 0)
			return r;
	}
	return 0;
}

int wdb_eap_conf_from_message(DBusMessage *msg, struct eap_conf *c, struct wpad_error *err)
{
	struct ini *ini = ini_new("profile");
	struct ini_section *sec = ini ? ini_add_section(ini, "EAP", NULL) : NULL;
	if (!sec) {
		ini_free(ini);
		wpad_error_set(err, WPAD_ERR_FAILED, ENOMEM, -1, -1, "out of memory");
		return -ENOMEM;
	}
	int r = fill_section(msg, sec, err);
	if (r == 0) {
		struct cfg_error cerr = { 0 };
		if (eap_conf_parse(ini, sec, c, &cerr) < 0) {
			eap_conf_clear(c);
			/* "profile:0: " is noise for a D-Bus caller. */
			const char *m = strstr(cerr.msg, ": ");
			r = bad(err, "%s", m ? m + 2 : cerr.msg);
		}
	}
	ini_free(ini); /* wipes the values, passwords included */
	return r;
}
