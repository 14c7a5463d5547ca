/* org.wpad1.AccessControl on AP devices: the BSS's MAC allow and deny
 * lists, edited at run time and reloaded from their files. */
#define LOG_TAG "dbus"
#include "daemon/ap/ap.h"

#include "daemon/config/value.h"
#include "daemon/core/log.h"
#include "daemon/wpad.h"
#include "dbus/errors.h"
#include "dbus/msg.h"
#include "dbus/wdbus_i.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define ACL_SHOW_MAX 4096 /* addresses a property lists at most */

static struct ap *ap_of(const struct wdb_device *d)
{
	return d->dev->ap;
}

/* "allow"/"deny" and an address, or an error reply. */
static DBusMessage *read_args(DBusMessage *msg, enum ap_acl_list *list, uint8_t addr[6])
{
	const char *which = NULL, *text = NULL;
	if (!dbus_message_get_args(msg, NULL, DBUS_TYPE_STRING, &which, DBUS_TYPE_STRING, &text,
				   DBUS_TYPE_INVALID))
		return wdb_error_replyf(msg, WPAD_ERR_INVALID_ARGUMENTS, "expected (list, address)");
	if (strcmp(which, "allow") == 0)
		*list = AP_ACL_ALLOW;
	else if (strcmp(which, "deny") == 0)
		*list = AP_ACL_DENY;
	else
		return wdb_error_replyf(msg, WPAD_ERR_INVALID_ARGUMENTS,
					"list must be \"allow\" or \"deny\"");
	if (cfg_parse_mac(text, addr) < 0 || (addr[0] & 0x01))
		return wdb_error_replyf(msg, WPAD_ERR_INVALID_FORMAT,
					"'%.40s' is not a station's MAC address (aa:bb:cc:dd:ee:ff)",
					text);
	return NULL;
}

static DBusMessage *change(void *data, DBusMessage *msg, bool add)
{
	struct wdb_device *d = data;
	enum ap_acl_list list = AP_ACL_DENY;
	uint8_t addr[6];
	DBusMessage *bad = read_args(msg, &list, addr);
	if (bad)
		return bad;
	int r = add ? ap_acl_add(ap_of(d), list, addr) : ap_acl_remove(ap_of(d), list, addr);
	switch (r) {
	case 0:
		wdb_schedule_sync();
		return dbus_message_new_method_return(msg);
	case -ENOTCONN:
		return wdb_error_replyf(msg, WPAD_ERR_NOT_CONNECTED,
					"the access point %s is not started", d->dev->name);
	case -EALREADY:
		return wdb_error_replyf(msg, WPAD_ERR_ALREADY_EXISTS, "the address is on the list");
	case -ENOENT:
		return wdb_error_replyf(msg, WPAD_ERR_NOT_FOUND, "the address is not on the list");
	default:
		return wdb_error_replyf(msg, WPAD_ERR_FAILED, "the list cannot grow: %s",
					strerror(-r));
	}
}

static DBusMessage *add_address(void *data, DBusMessage *msg)
{
	return change(data, msg, true);
}

static DBusMessage *remove_address(void *data, DBusMessage *msg)
{
	return change(data, msg, false);
}

static DBusMessage *reload(void *data, DBusMessage *msg)
{
	struct wdb_device *d = data;
	struct wpad_error err;
	if (ap_acl_reload(ap_of(d), &err) < 0)
		return wdb_error_reply(msg, &err);
	wdb_schedule_sync();
	return dbus_message_new_method_return(msg);
}

static bool append_list(struct wdb_device *d, enum ap_acl_list list, DBusMessageIter *it)
{
	static uint8_t macs[ACL_SHOW_MAX][6];
	DBusMessageIter arr;
	size_t n = ap_acl_get(ap_of(d), list, macs, ACL_SHOW_MAX, NULL);
	bool ok = dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "s", &arr);
	for (size_t i = 0; ok && i < n && i < ACL_SHOW_MAX; i++) {
		char a[18];
		snprintf(a, sizeof(a), "%02x:%02x:%02x:%02x:%02x:%02x", macs[i][0], macs[i][1],
			 macs[i][2], macs[i][3], macs[i][4], macs[i][5]);
		ok = wdb_append_str(&arr, a);
	}
	return ok && dbus_message_iter_close_container(it, &arr);
}

static bool get_allow(void *data, DBusMessageIter *it)
{
	return append_list(data, AP_ACL_ALLOW, it);
}

static bool get_deny(void *data, DBusMessageIter *it)
{
	return append_list(data, AP_ACL_DENY, it);
}

static bool get_allow_active(void *data, DBusMessageIter *it)
{
	bool has = false;
	ap_acl_get(ap_of(data), AP_ACL_ALLOW, NULL, 0, &has);
	dbus_bool_t b = has;
	return wdb_append_basic(it, DBUS_TYPE_BOOLEAN, &b);
}

static const struct wdb_method methods[] = {
	{ "AddAddress", "s list, s address", "", add_address, WDB_PRIVILEGED },
	{ "RemoveAddress", "s list, s address", "", remove_address, WDB_PRIVILEGED },
	{ "Reload", "", "", reload, WDB_PRIVILEGED },
	{ .name = NULL },
};

static const struct wdb_property props[] = {
	{ "AllowList", "as", get_allow, NULL, 0 },
	{ "AllowListActive", "b", get_allow_active, NULL, 0 },
	{ "DenyList", "as", get_deny, NULL, 0 },
	{ .name = NULL },
};

const struct wdb_interface wdb_ap_acl_iface = {
	.name = "org.wpad1.AccessControl",
	.methods = methods,
	.props = props,
};

void wdb_ap_acl_sync(struct wdb_device *d)
{
	unsigned gen = ap_acl_generation(ap_of(d));
	if (gen == d->ap.acl_gen)
		return;
	d->ap.acl_gen = gen;
	wdb_emit_changed(d->obj, &wdb_ap_acl_iface, "AllowList", "AllowListActive", "DenyList");
}
