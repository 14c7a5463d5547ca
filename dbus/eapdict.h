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

#include "dbus/libdbus.h"

#include "daemon/core/error.h"

struct eap_conf;
struct eap_peer_tls_info;

/* c must be zeroed; on failure it is cleared. Returns 0 or a negative
 * errno with *err. */
int wdb_eap_conf_from_message(DBusMessage *msg, struct eap_conf *c, struct wpad_error *err);

struct ini;
struct ini_section;
/* A key the caller takes itself (Manager.AddKnownNetwork: AutoConnect,
 * Hidden, StoreSecrets): returns 1 when it took key (value in var), 0 when
 * it is a profile key, or a negative errno with *err. */
typedef int (*wdb_eap_own_key_fn)(void *ctx, const char *key, DBusMessageIter *var,
				  struct wpad_error *err);
/* The a{sv} at arr (an iterator on the array) into sec, as the files'
 * text; own (may be NULL) takes the caller's keys first. */
int wdb_eap_section_from_iter(DBusMessageIter *arr, struct ini_section *sec,
			      wdb_eap_own_key_fn own, void *ctx, struct wpad_error *err);
/* sec checked by the [EAP] reader into c (zeroed; cleared on failure):
 * InvalidArguments with eap_conf's sentence. */
int wdb_eap_conf_check(const struct ini *ini, const struct ini_section *sec, struct eap_conf *c,
		       struct wpad_error *err);
/* The profile as a{sv}, the SetProfile keys without a secret: HasPassword
 * and HasKeyPassphrase say whether one is set. */
bool wdb_append_eap_profile(DBusMessageIter *it, const struct eap_conf *c);
/* a{sv}: TLSVersion, ServerSubject, ServerSHA256, Resumed of the last
 * TLS-based attempt; empty when t is NULL (none yet). Station.TLS and
 * Wired8021X.TLS both. */
bool wdb_append_tls_info(DBusMessageIter *it, const struct eap_peer_tls_info *t);

#endif
