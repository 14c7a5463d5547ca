/* Message helpers; see msg.h. */
#include "dbus/msg.h"

#include "daemon/config/utf8.h"
#include "dbus/bus.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool wdb_utf8_copy(char *out, size_t cap, const char *in, size_t len)
{
	const uint8_t *s = (const uint8_t *)in;
	size_t o = 0, i = 0;
	bool clean = true;
	while (i < len && o + 1 < cap) {
		size_t bad = len - i;
		bool ok = utf8_valid(s + i, len - i, &bad);
		size_t good = ok ? len - i : bad;
		for (size_t k = 0; k < good && o + 1 < cap; k++, i++) {
			if (s[i] == 0) {
				clean = false;
				out[o++] = '?';
				continue;
			}
			/* Keep a multi-byte sequence whole or not at all. */
			size_t seq = s[i] < 0x80 ? 1 : s[i] < 0xe0 ? 2 : s[i] < 0xf0 ? 3 : 4;
			if (o + seq >= cap || k + seq > good)
				goto done;
			memcpy(out + o, s + i, seq);
			o += seq;
			i += seq - 1;
			k += seq - 1;
		}
		if (!ok && i < len && o + 1 < cap) {
			out[o++] = '?';
			i++;
			clean = false;
		}
	}
done:
	out[o] = '\0';
	return clean && i == len;
}

bool wdb_append_bytes_as_str(DBusMessageIter *it, const uint8_t *b, size_t len)
{
	char buf[4 * 64 + 1];
	if (len > 64)
		len = 64;
	wdb_utf8_copy(buf, sizeof(buf), (const char *)b, len);
	const char *p = buf;
	return dbus_message_iter_append_basic(it, DBUS_TYPE_STRING, &p);
}

bool wdb_append_suite_names(DBusMessageIter *it, uint32_t mask, const char *(*name)(uint32_t))
{
	DBusMessageIter arr;
	bool ok = dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "s", &arr);
	for (unsigned t = 0; ok && t < 32; t++)
		if (mask & (1u << t))
			ok = wdb_append_str(&arr, name(0x000fac00u | t));
	return ok && dbus_message_iter_close_container(it, &arr);
}

bool wdb_append_str(DBusMessageIter *it, const char *s)
{
	char buf[WDB_STRING_MAX * 2];
	wdb_utf8_copy(buf, sizeof(buf), s ? s : "", s ? strlen(s) : 0);
	const char *p = buf;
	return dbus_message_iter_append_basic(it, DBUS_TYPE_STRING, &p);
}

bool wdb_append_path(DBusMessageIter *it, const char *path)
{
	const char *p = path && dbus_validate_path(path, NULL) ? path : "/";
	return dbus_message_iter_append_basic(it, DBUS_TYPE_OBJECT_PATH, &p);
}

bool wdb_append_basic(DBusMessageIter *it, int type, const void *value)
{
	switch (type) {
	case DBUS_TYPE_STRING:
		return wdb_append_str(it, *(const char *const *)value);
	case DBUS_TYPE_OBJECT_PATH:
		return wdb_append_path(it, *(const char *const *)value);
	case DBUS_TYPE_SIGNATURE:
		return false; /* never needed; refuse rather than risk an abort */
	case DBUS_TYPE_BOOLEAN: {
		dbus_bool_t b = *(const dbus_bool_t *)value ? TRUE : FALSE;
		return dbus_message_iter_append_basic(it, type, &b);
	}
	default:
		return dbus_type_is_basic(type) && dbus_message_iter_append_basic(it, type, value);
	}
}

bool wdb_append_variant(DBusMessageIter *it, int type, const void *value)
{
	char sig[2] = { (char)type, '\0' };
	DBusMessageIter v;
	if (!dbus_message_iter_open_container(it, DBUS_TYPE_VARIANT, sig, &v))
		return false;
	if (!wdb_append_basic(&v, type, value)) {
		dbus_message_iter_abandon_container(it, &v);
		return false;
	}
	return dbus_message_iter_close_container(it, &v);
}

bool wdb_append_dict_basic(DBusMessageIter *dict, const char *key, int type, const void *value)
{
	DBusMessageIter e;
	if (!dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e))
		return false;
	if (!wdb_append_str(&e, key) || !wdb_append_variant(&e, type, value)) {
		dbus_message_iter_abandon_container(dict, &e);
		return false;
	}
	return dbus_message_iter_close_container(dict, &e);
}

bool wdb_read_basic(DBusMessageIter *it, int type, void *out)
{
	if (!dbus_type_is_basic(type) || dbus_message_iter_get_arg_type(it) != type)
		return false;
	dbus_message_iter_get_basic(it, out);
	return true;
}

bool wdb_read_string(DBusMessageIter *it, const char **out, size_t max)
{
	const char *s;
	if (!wdb_read_basic(it, DBUS_TYPE_STRING, &s) || strnlen(s, max + 1) > max)
		return false;
	*out = s;
	return true;
}

bool wdb_has_signature(DBusMessage *msg, const char *sig)
{
	const char *have = dbus_message_get_signature(msg);
	return strcmp(have ? have : "", sig ? sig : "") == 0;
}

int wdb_dict_walk(DBusMessage *msg, const char *method,
		  const char *(*take)(void *ctx, const char *key, DBusMessageIter *value),
		  void *ctx, char *why, size_t cap)
{
	DBusMessageIter it, dict;
	size_t entries = 0;
	if (!wdb_has_signature(msg, "a{sv}")) {
		snprintf(why, cap, "%s takes a{sv}", method);
		return -EINVAL;
	}
	dbus_message_iter_init(msg, &it);
	dbus_message_iter_recurse(&it, &dict);
	while (dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY) {
		DBusMessageIter e, v;
		const char *key, *problem;
		dbus_message_iter_recurse(&dict, &e);
		dbus_message_iter_get_basic(&e, &key);
		dbus_message_iter_next(&e);
		dbus_message_iter_recurse(&e, &v);
		problem = ++entries > WDB_DICT_MAX ? "too many entries" : take(ctx, key, &v);
		if (problem) {
			char k[64];
			wdb_utf8_copy(k, sizeof(k), key, strlen(key));
			snprintf(why, cap, "%s: %s", k, problem);
			return -EINVAL;
		}
		dbus_message_iter_next(&dict);
	}
	return 0;
}

void wdb_hex(char *out, const uint8_t *b, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[b[i] >> 4];
		out[2 * i + 1] = digits[b[i] & 15];
	}
	out[2 * len] = '\0';
}

static bool path_char_ok(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool wdb_path_join(char *out, size_t cap, const char *prefix, const char *name)
{
	size_t o = strlen(prefix);
	if (o + 2 > cap || out == prefix)
		return false;
	memcpy(out, prefix, o);
	if (o != 1) /* the root "/" already ends in a slash */
		out[o++] = '/';
	if (!*name) { /* an empty name still needs an element */
		out[o++] = '_';
		out[o] = '\0';
		return true;
	}
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		if (o + 4 > cap)
			return false;
		if (path_char_ok(*p)) {
			out[o++] = (char)*p;
		} else {
			out[o++] = '_';
			wdb_hex(out + o, p, 1);
			o += 2;
		}
	}
	out[o] = '\0';
	return true;
}

bool wdb_send(DBusMessage *msg)
{
	DBusConnection *c = wdb_bus_connection();
	bool ok = msg && c && dbus_connection_send(c, msg, NULL);
	if (msg)
		dbus_message_unref(msg);
	return ok;
}

void wdb_reply_later(DBusMessage *call, DBusMessage *reply)
{
	if (reply && !dbus_message_get_no_reply(call))
		wdb_send(reply);
	else if (reply)
		dbus_message_unref(reply);
	dbus_message_unref(call);
}

DBusMessage *wdb_std_error(DBusMessage *call, const char *name, const char *fmt, ...)
{
	char raw[WDB_STRING_MAX], text[WDB_STRING_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	wdb_utf8_copy(text, sizeof(text), raw, strlen(raw));
	return dbus_message_new_error(call, name, text);
}
