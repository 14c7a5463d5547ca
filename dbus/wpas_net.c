/* The fi.w1.wpa_supplicant1.Network objects (AddNetwork's dictionary is
 * read by wpas_netdict.c); see wpas_i.h.
 *
 */
#define LOG_TAG "dbus"
#include "daemon/crypto/secure.h"
#include "dbus/wpas_i.h"
#include "dbus/wpas_netdict.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct wdb_interface wpas_iface_iface;
extern const struct wdb_interface wpas_net_iface;

struct wpas_net *wpas_net_by_path(struct wpas_iface *ifc, const char *path)
{
	for (struct wpas_net *n = ifc->nets; n; n = n->next)
		if (strcmp(wdb_object_path(n->obj), path) == 0)
			return n;
	return NULL;
}

static void emit_net_signal(struct wpas_net *n, const char *member, bool with_props)
{
	DBusMessage *sig = wdb_signal_new(n->ifc->obj, &wpas_iface_iface, member);
	if (!sig)
		return;
	DBusMessageIter it, dict;
	dbus_message_iter_init_append(sig, &it);
	bool ok = wdb_append_path(&it, wdb_object_path(n->obj));
	if (ok && with_props)
		ok = dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict) &&
		     dbus_message_iter_close_container(&it, &dict);
	if (ok)
		wdb_send(sig);
	else
		dbus_message_unref(sig);
}

struct wpas_net *wpas_net_add(struct wpas_iface *ifc, DBusMessage *msg, DBusMessage **reply)
{
	size_t count = 0;
	for (struct wpas_net *m = ifc->nets; m; m = m->next)
		count++;
	if (count >= WPAS_MAX_NETS) {
		*reply = wpas_error(msg, "UnknownError", "too many networks: remove some first");
		return NULL;
	}
	struct wpas_net *n = calloc(1, sizeof(*n));
	if (!n) {
		*reply = wpas_error(msg, "NoMemory", "out of memory");
		return NULL;
	}
	char why[WPAS_STR_MAX];
	if (wpas_net_parse(msg, n, why, sizeof(why)) < 0) {
		*reply = wpas_error(msg, "InvalidArgs", "%s", why);
		crypto_zero(n, sizeof(*n));
		free(n);
		return NULL;
	}
	struct wpad_error ae;
	if (wpas_ap_check(n, &ae) < 0) { /* mode 2 checked now, not at SelectNetwork */
		*reply = wpas_error(msg, "InvalidArgs", "%s", ae.text);
		wpas_eap_release(n);
		crypto_zero(n, sizeof(*n));
		free(n);
		return NULL;
	}
	n->ifc = ifc;
	char path[WDB_PATH_MAX];
	n->id = ifc->next_net_id++;
	snprintf(path, sizeof(path), "%s/Networks/%u", ifc->path, n->id);
	n->obj = wdb_object_new(path);
	if (!n->obj || wdb_object_add_iface(n->obj, &wpas_net_iface, n) < 0) {
		wdb_object_free(n->obj);
		wpas_eap_release(n);
		crypto_zero(n, sizeof(*n));
		free(n);
		*reply = wpas_error(msg, "NoMemory", "out of memory");
		return NULL;
	}
	struct wpas_net **tail = &ifc->nets;
	while (*tail)
		tail = &(*tail)->next;
	*tail = n;
	emit_net_signal(n, "NetworkAdded", true);
	return n;
}

void wpas_net_free(struct wpas_net *n)
{
	struct wpas_iface *ifc = n->ifc;
	for (struct wpas_net **p = &ifc->nets; *p; p = &(*p)->next) {
		if (*p == n) {
			*p = n->next;
			break;
		}
	}
	wpas_iface_net_gone(ifc, n);
	emit_net_signal(n, "NetworkRemoved", false);
	wdb_object_free(n->obj);
	wpas_eap_release(n);
	crypto_zero(n, sizeof(*n));
	free(n);
}

/* ---- the Network object ---- */

static bool dict_str(DBusMessageIter *dict, const char *key, const char *value)
{
	return wdb_append_dict_basic(dict, key, DBUS_TYPE_STRING, &value);
}

/* wpa_supplicant shows every value as text and never a secret. */
static bool get_properties(void *data, DBusMessageIter *it)
{
	struct wpas_net *n = data;
	DBusMessageIter dict;
	char ssid[2 * WDB_SSID_MAX + 3], num[16];
	static const char hex[] = "0123456789abcdef";
	size_t k = 0;
	for (size_t i = 0; i < n->ssid_len; i++) {
		ssid[k++] = hex[n->ssid[i] >> 4];
		ssid[k++] = hex[n->ssid[i] & 15];
	}
	ssid[k] = '\0';
	snprintf(num, sizeof(num), "%d", n->mode);
	if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict) ||
	    !dict_str(&dict, "ssid", ssid) || !dict_str(&dict, "mode", num) ||
	    (n->key_mgmt[0] && !dict_str(&dict, "key_mgmt", n->key_mgmt)) ||
	    (n->have_psk && !dict_str(&dict, "psk", "*")) || !wpas_eap_append_props(&dict, n))
		return false;
	return dbus_message_iter_close_container(it, &dict);
}

static bool get_enabled(void *data, DBusMessageIter *it)
{
	dbus_bool_t b = ((struct wpas_net *)data)->enabled;
	return wdb_append_basic(it, DBUS_TYPE_BOOLEAN, &b);
}

static int set_enabled(void *data, DBusMessageIter *it, struct wpad_error *err)
{
	dbus_bool_t b;
	dbus_message_iter_get_basic(it, &b);
	((struct wpas_net *)data)->enabled = b;
	return 0;
}

static const struct wdb_property net_props[] = {
	{ "Properties", "a{sv}", get_properties, NULL, 0 },
	{ "Enabled", "b", get_enabled, set_enabled, 0 },
	{ .name = NULL },
};

const struct wdb_interface wpas_net_iface = {
	.name = WPAS_NAME ".Network",
	.props = net_props,
};
