/* Message helpers: everything that puts daemon data into a D-Bus message
 * or takes caller data out of one goes through these.
 *
 * libdbus aborts the process on a string that is not valid UTF-8 or an
 * object path that is not well formed, so every string we append is
 * sanitised first (SSIDs are bytes, not text), and every value we read is
 * type-checked before dbus_message_iter_get_basic().
 */
#ifndef WPAD_DBUS_MSG_H
#define WPAD_DBUS_MSG_H

#include "dbus/libdbus.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Limits on caller input. */
#define WDB_STRING_MAX 1024   /* any string argument or a{sv} string value */
#define WDB_DICT_MAX 64       /* entries of an a{sv} argument */
#define WDB_PATH_MAX 256      /* object paths we build */

/* Copies len bytes of in as valid UTF-8 into out (cap > 0): bytes that do
 * not form valid UTF-8, and NULs, become '?'. Always NUL-terminates;
 * truncates on a character boundary. Returns true when nothing changed. */
bool wdb_utf8_copy(char *out, size_t cap, const char *in, size_t len);

/* Appends a string (sanitised), an object path (must be valid: "/" is used
 * otherwise), or any basic value. Return false when memory is short. */
bool wdb_append_str(DBusMessageIter *it, const char *s);
bool wdb_append_bytes_as_str(DBusMessageIter *it, const uint8_t *b, size_t len);
bool wdb_append_path(DBusMessageIter *it, const char *path);
bool wdb_append_basic(DBusMessageIter *it, int type, const void *value);
/* An "as" of the names of the 00-0F-AC suites in mask (RSN_SUITE_BIT). */
bool wdb_append_suite_names(DBusMessageIter *it, uint32_t mask, const char *(*name)(uint32_t));
/* A variant holding one basic value (strings sanitised). */
bool wdb_append_variant(DBusMessageIter *it, int type, const void *value);
/* One "{sv}" entry of an open a{sv} container. */
bool wdb_append_dict_basic(DBusMessageIter *dict, const char *key, int type, const void *value);

/* Reads the basic value under it when its type is type; false otherwise. */
bool wdb_read_basic(DBusMessageIter *it, int type, void *out);
/* Reads a string of at most max bytes (and valid UTF-8, as libdbus
 * guarantees for received messages); false for another type or a longer
 * string. */
bool wdb_read_string(DBusMessageIter *it, const char **out, size_t max);

/* The message's signature equals sig (NULL counts as ""). */
bool wdb_has_signature(DBusMessage *msg, const char *sig);

/* Walks a message whose one argument is a{sv} (the front's AddNetwork and
 * Scan): take(ctx, key, value) per entry returns NULL or the problem with
 * that value. Returns 0, or -EINVAL with why = "KEY: problem" (the key
 * made valid UTF-8), "METHOD takes a{sv}" or "too many entries" (more
 * than WDB_DICT_MAX). */
int wdb_dict_walk(DBusMessage *msg, const char *method,
		  const char *(*take)(void *ctx, const char *key, DBusMessageIter *value),
		  void *ctx, char *why, size_t cap);

/* Lower-case hex of len bytes into out (2*len+1). */
void wdb_hex(char *out, const uint8_t *b, size_t len);
/* Appends name to prefix as one object-path element: [A-Za-z0-9] kept,
 * every other byte as _XX. Returns false if it does not fit. */
bool wdb_path_join(char *out, size_t cap, const char *prefix, const char *name);

/* An error reply with a standard name (org.freedesktop.DBus.Error.*): the
 * text is sanitised, since it may quote the caller's own strings. */
DBusMessage *wdb_std_error(DBusMessage *call, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Sends a message on the daemon's bus connection and drops our reference
 * (no-op without a connection). Returns false when it could not be queued. */
bool wdb_send(DBusMessage *msg);
/* Replies to a call kept for later (reply may be NULL: out of memory) and
 * releases both. */
void wdb_reply_later(DBusMessage *call, DBusMessage *reply);

#endif
