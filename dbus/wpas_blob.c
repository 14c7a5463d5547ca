/* AddBlob / RemoveBlob of a fi.w1.wpa_supplicant1 interface, and the
 * 802.1X profile handed to the station with its blob:// references made
 * the interface's own (see wpas_i.h).
 *
 * The bytes live in the TLS credentials' registry (daemon/crypto/cred_blob.h) under
 * "wpasN/NAME" (N: the interface), where the TLS loader reads them when a
 * profile names blob://wpasN/NAME; nothing is written to disk, and
 * nothing reads a blob back over D-Bus (it may be a private key). */
#define LOG_TAG "dbus"
#include "daemon/config/eap_conf.h"
#include "daemon/core/log.h"
#include "daemon/station/station.h"
#include "daemon/wpad.h"
#include "dbus/wpas_i.h"
#include "daemon/crypto/cred_blob.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WPAS_BLOB_NAME_MAX 128

bool wpas_blob_name_ok(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n > WPAS_BLOB_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr("._-:@+", c)))
			return false;
	}
	return true;
}

static void scoped(const struct wpas_iface *ifc, const char *name, char *out, size_t cap)
{
	snprintf(out, cap, "wpas%u/%s", ifc->id, name);
}

DBusMessage *wpas_add_blob(void *data, DBusMessage *msg)
{
	struct wpas_iface *ifc = data;
	DBusMessageIter it, arr;
	const char *name;
	const uint8_t *bytes = NULL;
	int len = 0;
	char key[CRED_BLOB_NAME_MAX + 1];
	if (!wdb_has_signature(msg, "say") || !dbus_message_iter_init(msg, &it))
		return wpas_error(msg, "InvalidArgs", "AddBlob takes (s name, ay data)");
	dbus_message_iter_get_basic(&it, &name);
	dbus_message_iter_next(&it);
	dbus_message_iter_recurse(&it, &arr);
	dbus_message_iter_get_fixed_array(&arr, &bytes, &len);
	if (!wpas_blob_name_ok(name))
		return wpas_error(msg, "InvalidArgs",
				  "a blob name is 1..%d letters, digits or ._-:@+",
				  WPAS_BLOB_NAME_MAX);
	scoped(ifc, name, key, sizeof(key));
	size_t have;
	if (cred_blob_get(key, &have))
		return wpas_error(msg, "BlobExists", "a blob named %s exists already", name);
	int r = cred_blob_put(key, bytes, len > 0 ? (size_t)len : 0);
	if (r == -ENOMEM)
		return wpas_error(msg, "NoMemory", "out of memory");
	if (r < 0)
		return wpas_error(msg, "InvalidArgs", "the blob %s cannot be kept: %s", name,
				  r == -ENOSPC ? "too many blobs" : "larger than 1 MiB");
	log_info("%s: blob %s added (%d bytes)", ifc->ifname, name, len);
	return dbus_message_new_method_return(msg);
}

DBusMessage *wpas_remove_blob(void *data, DBusMessage *msg)
{
	struct wpas_iface *ifc = data;
	DBusMessageIter it;
	const char *name;
	char key[CRED_BLOB_NAME_MAX + 1];
	dbus_message_iter_init(msg, &it);
	dbus_message_iter_get_basic(&it, &name);
	if (!wpas_blob_name_ok(name))
		return wpas_error(msg, "BlobUnknown", "no blob of that name");
	scoped(ifc, name, key, sizeof(key));
	if (cred_blob_drop(key) < 0)
		return wpas_error(msg, "BlobUnknown", "no blob named %s", name);
	return dbus_message_new_method_return(msg);
}

void wpas_blobs_drop(struct wpas_iface *ifc)
{
	char prefix[32];
	snprintf(prefix, sizeof(prefix), "wpas%u/", ifc->id);
	cred_blob_drop_prefix(prefix);
}

/* blob://NAME -> blob://wpasN/NAME in *field; a blob not added is an
 * error (what). */
static int scope_field(struct wpas_iface *ifc, char **field, const char *what,
		       struct wpad_error *e)
{
	const char *name;
	char key[CRED_BLOB_NAME_MAX + 1], ref[CRED_BLOB_NAME_MAX + 16];
	size_t len;
	if (!*field || !cred_blob_ref(*field, &name))
		return 0;
	scoped(ifc, name, key, sizeof(key));
	if (!cred_blob_get(key, &len))
		return wpad_error_set(e, WPAD_ERR_NOT_FOUND, ENOENT, -1, -1,
				      "%s names blob://%s, which was not added (AddBlob)", what,
				      name),
		       -ENOENT;
	snprintf(ref, sizeof(ref), CRED_BLOB_PREFIX "%s", key);
	char *copy = strdup(ref);
	if (!copy)
		return wpad_error_set(e, WPAD_ERR_FAILED, ENOMEM, -1, -1, "out of memory"), -ENOMEM;
	free(*field);
	*field = copy;
	return 0;
}

int wpas_net_give_profile(struct wpas_iface *ifc, const struct wpas_net *n,
			  struct wpad_error *e)
{
	struct eap_conf c;
	struct station *st = ifc->d->dev->station;
	if (!n || !n->eap_conf)
		return station_set_eap_profile(st, NULL, 0, NULL);
	if (eap_conf_copy(&c, n->eap_conf) < 0)
		return wpad_error_set(e, WPAD_ERR_FAILED, ENOMEM, -1, -1, "out of memory"), -ENOMEM;
	int r = scope_field(ifc, &c.ca_file, "ca_cert", e);
	r = r ? r : scope_field(ifc, &c.client_cert, "client_cert", e);
	r = r ? r : scope_field(ifc, &c.private_key, "private_key", e);
	if (!r && station_set_eap_profile(st, n->ssid, n->ssid_len, &c) < 0) {
		wpad_error_set(e, WPAD_ERR_FAILED, ENOMEM, -1, -1, "out of memory");
		r = -ENOMEM;
	}
	eap_conf_clear(&c);
	return r;
}
