/* wpactl wired DEV show|reconnect|profile|reset-profile: the 802.1X
 * supplicant of a wired device (org.wpad1.Wired8021X). */
#include "wpactl/bus.h"
#include "wpactl/commands.h"
#include "wpactl/objects.h"
#include "wpactl/output.h"
#include "wpactl/wpactl.h"

#include <stdio.h>
#include <string.h>

#define WC_IFACE_WIRED "org.wpad1.Wired8021X"

/* LastError (ss): the catalogue name and the detail. */
static void last_error(const struct wc_object *dev, const char **name, const char **detail)
{
	DBusMessageIter v, st;
	*name = *detail = "";
	if (!wc_prop(dev, WC_IFACE_WIRED, "LastError", &v) ||
	    dbus_message_iter_get_arg_type(&v) != DBUS_TYPE_STRUCT)
		return;
	dbus_message_iter_recurse(&v, &st);
	if (dbus_message_iter_get_arg_type(&st) == DBUS_TYPE_STRING)
		dbus_message_iter_get_basic(&st, name);
	if (dbus_message_iter_next(&st) && dbus_message_iter_get_arg_type(&st) == DBUS_TYPE_STRING)
		dbus_message_iter_get_basic(&st, detail);
}

/* The TLS a{sv}'s string entry key, or "". */
static const char *tls_str(const struct wc_object *dev, const char *key)
{
	DBusMessageIter v, arr, e, var;
	if (!wc_prop(dev, WC_IFACE_WIRED, "TLS", &v) || dbus_message_iter_get_arg_type(&v) != DBUS_TYPE_ARRAY)
		return "";
	dbus_message_iter_recurse(&v, &arr);
	for (; dbus_message_iter_get_arg_type(&arr) == DBUS_TYPE_DICT_ENTRY; dbus_message_iter_next(&arr)) {
		const char *k, *s;
		dbus_message_iter_recurse(&arr, &e);
		dbus_message_iter_get_basic(&e, &k);
		dbus_message_iter_next(&e);
		dbus_message_iter_recurse(&e, &var);
		if (strcmp(k, key) == 0 && dbus_message_iter_get_arg_type(&var) == DBUS_TYPE_STRING) {
			dbus_message_iter_get_basic(&var, &s);
			return s;
		}
	}
	return "";
}

int cmd_wired_show(struct wc_ctx *c, const struct wc_args *a)
{
	struct wc_objects os;
	const struct wc_object *dev;
	int rc = wc_load_device(c, a->pos[0], WC_IFACE_WIRED, &os, &dev);
	if (rc)
		return rc;
	const char *name, *detail;
	last_error(dev, &name, &detail);
	const char *method = wc_prop_str(dev, WC_IFACE_WIRED, "Method");
	if (c->json) {
		printf("{\"name\": \"%s\", \"state\": \"%s\", \"authorized\": %s, \"method\": \"%s\", "
		       "\"last_error\": \"%s\"}\n",
		       wc_prop_str(dev, WC_IFACE_DEVICE, "Name"),
		       wc_prop_str(dev, WC_IFACE_WIRED, "State"),
		       wc_prop_bool(dev, WC_IFACE_WIRED, "Authorized") ? "true" : "false", method, name);
	} else {
		wc_field(stdout, "Device", "%s", wc_prop_str(dev, WC_IFACE_DEVICE, "Name"));
		wc_field(stdout, "802.1X", "%s", wc_prop_str(dev, WC_IFACE_WIRED, "State"));
		wc_field(stdout, "Port", "%s",
			 wc_prop_bool(dev, WC_IFACE_WIRED, "Authorized") ? "authorized" : "unauthorized");
		wc_field(stdout, "Method", "%s", method[0] ? method : "-");
		if (tls_str(dev, "TLSVersion")[0]) {
			wc_field(stdout, "TLS", "%s", tls_str(dev, "TLSVersion"));
			wc_field(stdout, "Server", "%s", tls_str(dev, "ServerSubject"));
		}
		if (name[0])
			wc_field(stdout, "Last error", "%s%s%s", name, detail[0] ? ": " : "", detail);
	}
	wc_objects_free(&os);
	return WC_EXIT_OK;
}

static int device_path(struct wc_ctx *c, const char *name, char *path, size_t cap)
{
	struct wc_objects os;
	const struct wc_object *dev;
	int rc = wc_load_device(c, name, WC_IFACE_WIRED, &os, &dev);
	if (rc)
		return rc;
	snprintf(path, cap, "%s", dev->path);
	wc_objects_free(&os);
	return 0;
}

int cmd_wired_reconnect(struct wc_ctx *c, const struct wc_args *a)
{
	char path[256];
	struct wc_error err;
	int rc = device_path(c, a->pos[0], path, sizeof(path));
	if (rc)
		return rc;
	if (wc_call_simple(&c->bus, path, WC_IFACE_WIRED, "Reconnect", c->timeout_ms, &err) < 0)
		return wc_report(&err, NULL);
	printf("%s: authenticating again.\n", a->pos[0]);
	return WC_EXIT_OK;
}

int cmd_wired_reset_profile(struct wc_ctx *c, const struct wc_args *a)
{
	char path[256];
	struct wc_error err;
	int rc = device_path(c, a->pos[0], path, sizeof(path));
	if (rc)
		return rc;
	if (wc_call_simple(&c->bus, path, WC_IFACE_WIRED, "ResetProfile", c->timeout_ms, &err) < 0)
		return wc_report(&err, NULL);
	printf("%s: back to the profile of wpad.conf.\n", a->pos[0]);
	return WC_EXIT_OK;
}

/* Every --set KEY=VALUE as a string entry: wpad reads the values as a
 * file's text, so the profile is checked there, once. */
int cmd_wired_profile(struct wc_ctx *c, const struct wc_args *a)
{
	char path[256];
	struct wc_error err;
	int rc = device_path(c, a->pos[0], path, sizeof(path));
	if (rc)
		return rc;
	DBusMessage *m = dbus_message_new_method_call(WC_NAME, path, WC_IFACE_WIRED, "SetProfile");
	DBusMessageIter it, dict, e, v;
	bool ok = m != NULL;
	if (ok) {
		dbus_message_iter_init_append(m, &it);
		ok = dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict);
	}
	char key[64];
	for (size_t i = 0; ok && i < a->n_sets; i++) {
		const char *eq = strchr(a->sets[i], '=');
		if (!eq || eq == a->sets[i] || (size_t)(eq - a->sets[i]) >= sizeof(key)) {
			dbus_message_unref(m);
			fprintf(stderr, "wpactl: --set %s: not KEY=VALUE\n", a->sets[i]);
			return WC_EXIT_USAGE;
		}
		snprintf(key, sizeof(key), "%.*s", (int)(eq - a->sets[i]), a->sets[i]);
		const char *k = key, *val = eq + 1;
		ok = dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) &&
		     dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &k) &&
		     dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "s", &v) &&
		     dbus_message_iter_append_basic(&v, DBUS_TYPE_STRING, &val) &&
		     dbus_message_iter_close_container(&e, &v) &&
		     dbus_message_iter_close_container(&dict, &e);
	}
	ok = ok && dbus_message_iter_close_container(&it, &dict);
	if (!ok) {
		if (m)
			dbus_message_unref(m);
		fprintf(stderr, "wpactl: out of memory\n");
		return WC_EXIT_FAILED;
	}
	DBusMessage *reply = wc_call(&c->bus, m, c->timeout_ms, &err);
	if (!reply)
		return wc_report(&err, NULL);
	dbus_message_unref(reply);
	printf("%s: new 802.1X profile, authenticating.\n", a->pos[0]);
	return WC_EXIT_OK;
}
