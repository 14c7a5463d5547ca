/* An a{sv} of EAP profile settings -> struct eap_conf (daemon/config/
 * eap_conf.h): Wired8021X.SetProfile.
 *
 * Keys are the [EAP] keys of the files (eap_conf.h), values a string in
 * the files' text form, b for booleans, and as (or a space-separated s)
 * for Method. The dict is turned into an INI section and read by
 * eap_conf_parse(), so a profile over D-Bus is checked exactly as one in a
 * file. Paths must be absolute (there is no file to be relative to). A key
 * twice, an unknown key, a value of another type or more than WDB_DICT_MAX
 * entries is InvalidArguments naming the key; the profile's checks give
 * InvalidArguments with eap_conf's sentence.
 */
#ifndef WPAD_DBUS_EAPDICT_H
#define WPAD_DBUS_EAPDICT_H

#include <dbus/dbus.h>

#include "daemon/core/error.h"

struct eap_conf;

/* c must be zeroed; on failure it is cleared. Returns 0 or a negative
 * errno with *err. */
int wdb_eap_conf_from_message(DBusMessage *msg, struct eap_conf *c, struct wpad_error *err);

#endif
