/* ap DEV allow|deny ADDRESS, ap DEV unlist allow|deny ADDRESS,
 * ap DEV reload-lists: the access point's MAC lists (org.wpad1.AccessControl). */
#include "wpactl/bus.h"
#include "wpactl/commands.h"
#include "wpactl/errors.h"
#include "wpactl/json.h"
#include "wpactl/objects.h"
#include "wpactl/wpactl.h"

#include <stdio.h>
#include <string.h>

#define WC_IFACE_ACL "org.wpad1.AccessControl"

/* The AP device's path and name, or an exit code after reporting. */
static int change(struct wc_ctx *c, const char *dev_name, const char *member, const char *list,
		  const char *addr)
{
	char path[256], name[128];
	struct wc_error err;
	int rc = wc_device_path(c, dev_name, WC_IFACE_AP, path, sizeof(path), name, sizeof(name));
	if (rc)
		return rc;
	DBusMessage *m = wc_new_call(path, WC_IFACE_ACL, member);
	if (m && !dbus_message_append_args(m, DBUS_TYPE_STRING, &list, DBUS_TYPE_STRING, &addr,
					   DBUS_TYPE_INVALID)) {
		dbus_message_unref(m);
		m = NULL;
	}
	DBusMessage *reply = wc_call(&c->bus, m, c->timeout_ms, &err);
	if (!reply)
		return wc_report(&err, NULL);
	dbus_message_unref(reply);
	bool add = strcmp(member, "AddAddress") == 0;
	if (c->json) {
		printf("{\"list\":");
		jw_write_string(stdout, list, strlen(list));
		printf(",\"%s\":", add ? "added" : "removed");
		jw_write_string(stdout, addr, strlen(addr));
		printf("}\n");
	} else {
		printf("%s: %s %s the %s list.\n", name, addr, add ? "added to" : "removed from", list);
	}
	return WC_EXIT_OK;
}

int cmd_ap_allow(struct wc_ctx *c, const struct wc_args *a)
{
	return change(c, a->pos[0], "AddAddress", "allow", a->pos[1]);
}

int cmd_ap_deny(struct wc_ctx *c, const struct wc_args *a)
{
	return change(c, a->pos[0], "AddAddress", "deny", a->pos[1]);
}

int cmd_ap_unlist(struct wc_ctx *c, const struct wc_args *a)
{
	const char *list = a->pos[1];
	if (strcmp(list, "allow") != 0 && strcmp(list, "deny") != 0) {
		struct wc_error err;
		wc_error_set(&err, WC_EXIT_USAGE, "unknown list");
		return wc_report(&err, "the list is allow or deny, not '%s'", list);
	}
	return change(c, a->pos[0], "RemoveAddress", list, a->pos[2]);
}

int cmd_ap_reload_lists(struct wc_ctx *c, const struct wc_args *a)
{
	char path[256], name[128];
	struct wc_error err;
	int rc = wc_device_path(c, a->pos[0], WC_IFACE_AP, path, sizeof(path), name, sizeof(name));
	if (rc)
		return rc;
	if (wc_call_simple(&c->bus, path, WC_IFACE_ACL, "Reload", c->timeout_ms, &err) < 0)
		return wc_report(&err, NULL);
	if (c->json)
		printf("{\"reloaded\":true}\n");
	else
		printf("%s: access lists reloaded from their files.\n", name);
	return WC_EXIT_OK;
}
