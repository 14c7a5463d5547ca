/* AccessPoint.Start's a{sv} -> struct ap_profile.
 *
 * Keys are the profile keys of daemon/config/ap_profile.h, spelt as in the
 * files. Values: a string in the files' text form for any key, or the
 * natural type: b for booleans, an integer type (y q u t, or n i x when
 * not negative) for numbers, ay or s for SSID, s or d for Band. The keys
 * naming files (PskFile, MacAllowFile, MacDenyFile) are refused: the daemon
 * runs as root and would read any file a caller names; set them in
 * wpad.conf. An unknown key, a key twice, a value of another type or more
 * than WDB_DICT_MAX entries is InvalidArguments naming the key; the
 * profile's own checks give InvalidFormat, InvalidArguments or
 * NotSupported as ap_err_to_wpad() says.
 */
#ifndef WPAD_DBUS_APDICT_H
#define WPAD_DBUS_APDICT_H

#include "dbus/libdbus.h"

#include "daemon/core/error.h"

struct ap_profile;

/* it points at an a{sv} array. p must be initialised (ap_profile_init);
 * on success it is validated. Returns 0 or a negative errno with *err. */
int wdb_ap_profile_from_dict(DBusMessageIter *it, struct ap_profile *p, struct wpad_error *err);
/* The same for a message whose only argument is that a{sv}. */
int wdb_ap_profile_from_message(DBusMessage *msg, struct ap_profile *p, struct wpad_error *err);

#endif
