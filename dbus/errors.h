/* The D-Bus error catalogue: one stable name per cause a person can act on.
 *
 * Every enum wpad_error_code (daemon/core/error.h) has exactly one name
 * org.wpad1.Error.<Name> and one hint saying what to do about it. An error
 * reply's text is the daemon's sentence, the IEEE status or reason code
 * and the errno when there are any, then the hint:
 *
 *   org.wpad1.Error.AssociationRejected: access point 02:00:00:00:00:00
 *   refused the association [IEEE status 17: AP unable to handle
 *   additional associated STAs] -- retry later or try another access point
 *
 * wpactl includes this header too, to turn a reply back into a code.
 */
#ifndef WPAD_DBUS_ERRORS_H
#define WPAD_DBUS_ERRORS_H

#include <dbus/dbus.h>
#include <stddef.h>

#include "daemon/core/error.h"

#define WDB_ERROR_PREFIX "org.wpad1.Error."
/* The longest reply text: sentence + codes + hint. */
#define WDB_ERROR_TEXT_MAX 512

/* "org.wpad1.Error.InvalidPassphrase"; Failed for an unknown code. */
const char *wdb_error_name(enum wpad_error_code code);
/* What a person can do about it, one short clause. */
const char *wdb_error_hint(enum wpad_error_code code);
/* The code of a full D-Bus error name; WPAD_ERR_FAILED for any name outside
 * the catalogue, WPAD_OK for NULL or "". */
enum wpad_error_code wdb_error_code_from_name(const char *name);

/* The reply text of e into buf (always valid UTF-8, NUL-terminated). */
void wdb_error_format(const struct wpad_error *e, char *buf, size_t cap);

/* An error reply to call; NULL only when memory is short. */
DBusMessage *wdb_error_reply(DBusMessage *call, const struct wpad_error *e);
DBusMessage *wdb_error_replyf(DBusMessage *call, enum wpad_error_code code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
