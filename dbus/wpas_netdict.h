/* AddNetwork's a{sv} (wpa_supplicant's network keys, as NetworkManager
 * sends them) into a struct wpas_net. Apart from the objects so that the
 * fuzz target reaches it with any message.
 *
 * NetworkManager sends a string-ish value as "s" or as "ay" depending on
 * the key and its version (identity, password, bgscan arrive as bytes),
 * so every string key takes both; integers arrive as "i" (also taken as
 * "u"). Keys wpad does not use yet but NetworkManager sends for the
 * networks it can serve (bgscan, auth_alg, proto, pairwise, group...) are
 * checked for type and not kept; a key outside wpa_supplicant's set is
 * refused with InvalidArgs naming it.
 */
#ifndef WPAD_DBUS_WPAS_NETDICT_H
#define WPAD_DBUS_WPAS_NETDICT_H

#include "dbus/libdbus.h"
#include <stddef.h>

struct wpas_net;

/* Fills n (zeroed by the caller) from msg's a{sv}. Returns 0, or -EINVAL
 * with why naming the key and the problem. */
int wpas_net_parse(DBusMessage *msg, struct wpas_net *n, char *why, size_t cap);
/* The 802.1X keys (eap, identity, password, ca_cert, phase1, phase2,
 * domain_match, ...) are translated into wpad's [EAP] profile and read by
 * daemon/config/eap_conf.c into n->eap_conf (wpas_neteap.c); a network
 * parsed successfully is released with wpas_eap_release(). */

#endif
