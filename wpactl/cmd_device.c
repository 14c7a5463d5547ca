/* device list | show DEV | power DEV on|off, what the commands share
 * about devices, and the names the shell completion asks for. */
#include "wpactl/bus.h"
#include "wpactl/commands.h"
#include "wpactl/objects.h"
#include "wpactl/output.h"
#include "wpactl/wpactl.h"

#include <string.h>

#define DEVICES_MAX 64

int wc_load_device(struct wc_ctx *c, const char *name, const char *role, struct wc_objects *os,
		   const struct wc_object **dev)
{
	struct wc_error err;
	if (wc_objects_load(c, os, &err) < 0)
		return wc_report(&err, NULL);
	*dev = wc_find_device(os, name, role, &err);
	if (!*dev) {
		int rc = wc_report(&err, NULL);
		wc_objects_free(os);
		return rc;
	}
	return 0;
}

int wc_device_path(struct wc_ctx *c, const char *name, const char *role, char *path,
		   size_t path_cap, char *dev_name, size_t name_cap)
{
	struct wc_objects os;
	const struct wc_object *dev;
	int rc = wc_load_device(c, name, role, &os, &dev);
	if (rc)
		return rc;
	snprintf(path, path_cap, "%s", dev->path);
	snprintf(dev_name, name_cap, "%s", wc_prop_str(dev, WC_IFACE_DEVICE, "Name"));
	wc_objects_free(&os);
	return 0;
}

void wc_device_summary(const struct wc_objects *os, const struct wc_object *dev, char *out,
		       size_t cap)
{
	if (!wc_prop_bool(dev, WC_IFACE_DEVICE, "Powered")) {
		snprintf(out, cap, "powered off");
	} else if (wc_has(dev, WC_IFACE_STATION)) {
		const char *state = wc_prop_str(dev, WC_IFACE_STATION, "State");
		const char *net = wc_prop_str(dev, WC_IFACE_STATION, "ConnectedNetwork");
		const char *name = strcmp(net, "/") ? wc_name_at(os, net, WC_IFACE_NETWORK) : "";
		if (name[0])
			snprintf(out, cap, "%s to '%s'", state, name);
		else
			snprintf(out, cap, "%s", state);
	} else if (wc_has(dev, WC_IFACE_AP)) {
		if (!wc_prop_bool(dev, WC_IFACE_AP, "Started")) {
			snprintf(out, cap, "stopped");
			return;
		}
		int64_t n = wc_prop_int(dev, WC_IFACE_AP, "StationCount");
		snprintf(out, cap, "started '%s' on channel %d, %lld station%s",
			 wc_prop_str(dev, WC_IFACE_AP, "SSID"),
			 wc_channel((uint32_t)wc_prop_int(dev, WC_IFACE_AP, "Frequency")),
			 (long long)n, n == 1 ? "" : "s");
	} else {
		snprintf(out, cap, "-");
	}
}

void wc_device_json(struct jw *w, const struct wc_objects *os, const struct wc_object *dev)
{
	static const char *const ifaces[] = { WC_IFACE_DEVICE, WC_IFACE_STATION, WC_IFACE_AP,
					      NULL };
	static const char *const net_iface[] = { WC_IFACE_NETWORK, NULL };
	static const char *const sta_iface[] = { WC_IFACE_AP_STATION, NULL };
	/* Like wc_json_object(), with what belongs to the device added. */
	jw_object_begin(w);
	jw_key(w, "path");
	jw_string(w, dev->path);
	for (size_t i = 0; ifaces[i]; i++) {
		if (!wc_has(dev, ifaces[i]))
			continue;
		jw_key(w, strrchr(ifaces[i], '.') + 1);
		jw_object_begin(w);
		for (size_t k = 0; k < dev->n_ifaces; k++)
			if (strcmp(dev->ifaces[k].name, ifaces[i]) == 0) {
				DBusMessageIter props = dev->ifaces[k].props;
				wc_json_members(w, &props);
			}
		jw_object_end(w);
	}
	if (wc_has(dev, WC_IFACE_STATION)) {
		const char *net = wc_prop_str(dev, WC_IFACE_STATION, "ConnectedNetwork");
		const struct wc_object *n = strcmp(net, "/") ? wc_object_at(os, net) : NULL;
		jw_key(w, "network");
		if (n)
			wc_json_object(w, n, net_iface, true);
		else
			jw_null(w);
	}
	if (wc_has(dev, WC_IFACE_AP)) {
		static const struct wc_object *stas[WC_OBJECTS_MAX];
		size_t n = wc_children(os, dev->path, WC_IFACE_AP_STATION, stas,
				       sizeof(stas) / sizeof(stas[0]));
		jw_key(w, "stations");
		jw_array_begin(w);
		for (size_t i = 0; i < n; i++)
			wc_json_object(w, stas[i], sta_iface, true);
		jw_array_end(w);
	}
	jw_object_end(w);
}

static const char *radio_name(const struct wc_objects *os, const struct wc_object *dev)
{
	const char *path = wc_prop_str(dev, WC_IFACE_DEVICE, "Radio");
	const char *name = wc_name_at(os, path, WC_IFACE_RADIO);
	return name[0] ? name : path;
}

/* ---- device list ---- */

int cmd_device_list(struct wc_ctx *c, const struct wc_args *a)
{
	static const char *const head[] = { "DEVICE", "MODE", "POWERED", "ADDRESS", "DRIVER",
					    "STATE" };
	struct wc_objects os;
	struct wc_error err;
	const struct wc_object *devs[DEVICES_MAX];
	if (wc_objects_load(c, &os, &err) < 0)
		return wc_report(&err, NULL);
	size_t n = wc_children(&os, "", WC_IFACE_DEVICE, devs, DEVICES_MAX);
	if (c->json) {
		struct jw w;
		jw_init(&w, stdout);
		jw_array_begin(&w);
		for (size_t i = 0; i < n; i++)
			wc_device_json(&w, &os, devs[i]);
		jw_array_end(&w);
		jw_finish(&w);
	} else if (n == 0) {
		printf("wpad has no devices: add [Station NAME] or [AccessPoint NAME] sections to "
		       "wpad.conf(5).\n");
	} else {
		struct wc_table t;
		wc_table_init(&t, 6, head);
		for (size_t i = 0; i < n; i++) {
			char state[256];
			wc_device_summary(&os, devs[i], state, sizeof(state));
			const char *row[] = {
				wc_prop_str(devs[i], WC_IFACE_DEVICE, "Name"),
				wc_prop_str(devs[i], WC_IFACE_DEVICE, "Mode"),
				wc_prop_bool(devs[i], WC_IFACE_DEVICE, "Powered") ? "on" : "off",
				wc_prop_str(devs[i], WC_IFACE_DEVICE, "Address"),
				wc_prop_str(devs[i], WC_IFACE_DEVICE, "Driver"),
				state,
			};
			wc_table_row(&t, row);
		}
		wc_table_print(&t, stdout);
		wc_table_free(&t);
	}
	wc_objects_free(&os);
	return WC_EXIT_OK;
}

/* ---- device show ---- */

static void last_error_field(const struct wc_object *dev)
{
	DBusMessageIter v, st;
	const char *name = "", *text = "";
	dbus_int32_t status = -1, reason = -1;
	dbus_uint64_t when = 0;
	if (!wc_prop(dev, WC_IFACE_DEVICE, "LastError", &v))
		return;
	char *sig = dbus_message_iter_get_signature(&v);
	bool ok = sig && strcmp(sig, "(siist)") == 0;
	dbus_free(sig);
	if (!ok)
		return;
	dbus_message_iter_recurse(&v, &st);
	dbus_message_iter_get_basic(&st, &name);
	dbus_message_iter_next(&st);
	dbus_message_iter_get_basic(&st, &status);
	dbus_message_iter_next(&st);
	dbus_message_iter_get_basic(&st, &reason);
	dbus_message_iter_next(&st);
	dbus_message_iter_get_basic(&st, &text);
	dbus_message_iter_next(&st);
	dbus_message_iter_get_basic(&st, &when);
	if (!name[0]) {
		wc_field(stdout, "Last error", "none");
		return;
	}
	char t[32], codes[64] = "";
	const char *dot = strrchr(name, '.');
	wc_fmt_time(t, sizeof(t), when);
	if (status >= 0)
		snprintf(codes, sizeof(codes), " (IEEE status %d)", status);
	else if (reason >= 0)
		snprintf(codes, sizeof(codes), " (IEEE reason %d)", reason);
	wc_field(stdout, "Last error", "%s%s at %s", dot ? dot + 1 : name, codes, t);
	wc_field(stdout, "", "%s", text);
}

static void device_fields(const struct wc_objects *os, const struct wc_object *dev)
{
	printf("Device %s\n", wc_prop_str(dev, WC_IFACE_DEVICE, "Name"));
	wc_field(stdout, "Mode", "%s", wc_prop_str(dev, WC_IFACE_DEVICE, "Mode"));
	wc_field(stdout, "Powered", "%s", wc_prop_bool(dev, WC_IFACE_DEVICE, "Powered") ? "on" : "off");
	wc_field(stdout, "Address", "%s", wc_prop_str(dev, WC_IFACE_DEVICE, "Address"));
	wc_field(stdout, "Driver", "%s", wc_prop_str(dev, WC_IFACE_DEVICE, "Driver"));
	wc_field(stdout, "Radio", "%s", radio_name(os, dev));
	char akms[128], ciphers[256];
	DBusMessageIter v;
	if (wc_prop(dev, WC_IFACE_DEVICE, "SupportedAKMs", &v)) {
		wc_field(stdout, "AKMs", "%s",
			 wc_prop_strv(dev, WC_IFACE_DEVICE, "SupportedAKMs", akms, sizeof(akms)));
		wc_field(stdout, "Ciphers", "%s",
			 wc_prop_strv(dev, WC_IFACE_DEVICE, "SupportedCiphers", ciphers,
				      sizeof(ciphers)));
		wc_field(stdout, "PMF", "%s",
			 wc_prop_bool(dev, WC_IFACE_DEVICE, "PMFCapable") ? "capable" : "no");
	}
	char sae[128];
	if (wc_prop(dev, WC_IFACE_DEVICE, "SAECapabilities", &v))
		wc_field(stdout, "SAE", "%s",
			 wc_prop_strv(dev, WC_IFACE_DEVICE, "SAECapabilities", sae, sizeof(sae)));
	last_error_field(dev);
}

int wc_show_device(struct wc_ctx *c, const char *name, const char *role)
{
	struct wc_objects os;
	const struct wc_object *dev;
	int rc = wc_load_device(c, name, role, &os, &dev);
	if (rc)
		return rc;
	if (c->json) {
		struct jw w;
		jw_init(&w, stdout);
		wc_device_json(&w, &os, dev);
		jw_finish(&w);
	} else {
		device_fields(&os, dev);
		if (wc_has(dev, WC_IFACE_STATION))
			wc_station_fields(&os, dev);
		if (wc_has(dev, WC_IFACE_AP))
			wc_ap_fields(&os, dev);
	}
	wc_objects_free(&os);
	return WC_EXIT_OK;
}

int cmd_device_show(struct wc_ctx *c, const struct wc_args *a)
{
	return wc_show_device(c, a->pos[0], NULL);
}

/* ---- device power ---- */

int cmd_device_power(struct wc_ctx *c, const struct wc_args *a)
{
	struct wc_objects os;
	const struct wc_object *dev;
	struct wc_error err;
	bool on = strcmp(a->pos[1], "on") == 0;
	int rc = wc_load_device(c, a->pos[0], NULL, &os, &dev);
	if (rc)
		return rc;
	const char *name = wc_prop_str(dev, WC_IFACE_DEVICE, "Name");
	if (wc_set_property_bool(&c->bus, dev->path, WC_IFACE_DEVICE, "Powered", on, &err) < 0) {
		if (err.code == WPAD_ERR_FIRMWARE_MISSING || err.code == WPAD_ERR_DRIVER_ERROR)
			rc = wc_report(&err, "%s cannot be powered %s: the adapter or its driver "
					     "failed; `journalctl -k` may say why",
				       name, a->pos[1]);
		else
			rc = wc_report(&err, NULL);
	} else if (c->json) {
		printf("{\"device\":");
		jw_write_string(stdout, name, strlen(name));
		printf(",\"powered\":%s}\n", on ? "true" : "false");
	} else {
		printf("%s is powered %s.\n", name, a->pos[1]);
	}
	wc_objects_free(&os);
	return rc;
}

/* ---- device mode ---- */

int cmd_device_mode(struct wc_ctx *c, const struct wc_args *a)
{
	struct wc_objects os;
	const struct wc_object *dev;
	struct wc_error err;
	char path[256], name[128];
	const char *mode = a->pos[1];
	int rc = wc_load_device(c, a->pos[0], NULL, &os, &dev);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s", dev->path);
	snprintf(name, sizeof(name), "%s", wc_prop_str(dev, WC_IFACE_DEVICE, "Name"));
	bool same = strcmp(wc_prop_str(dev, WC_IFACE_DEVICE, "Mode"), mode) == 0;
	wc_objects_free(&os);
	if (!same && wc_set_property_str(&c->bus, path, WC_IFACE_DEVICE, "Mode", mode, &err) < 0) {
		if (err.code == WPAD_ERR_NOT_SUPPORTED)
			return wc_report(&err, "%s cannot be %s %s: its driver or radio does not "
					       "support it",
					 name, strcmp(mode, "ap") == 0 ? "an" : "a",
					 strcmp(mode, "ap") == 0 ? "access point" : "station");
		return wc_report(&err, NULL);
	}
	if (c->json)
		return wc_show_device(c, name, NULL);
	if (same)
		printf("%s is %s already.\n", name,
		       strcmp(mode, "ap") == 0 ? "an access point" : "a station");
	else if (strcmp(mode, "ap") == 0)
		printf("%s is an access point now: `wpactl ap %s start --ssid ...` starts it.\n", name,
		       name);
	else
		printf("%s is a station now.\n", name);
	return WC_EXIT_OK;
}

/* ---- names for the shell completion ---- */

static void print_names(const struct wc_object *const *v, size_t n, const char *iface,
			const char *prop)
{
	for (size_t i = 0; i < n; i++) {
		const char *s = wc_prop_str(v[i], iface, prop);
		if (s[0] && !strchr(s, '\n'))
			printf("%s\n", s);
	}
}

int cmd_complete(struct wc_ctx *c, const struct wc_args *a)
{
	struct wc_objects os;
	struct wc_error err;
	static const struct wc_object *v[WC_OBJECTS_MAX];
	const char *what = a->words[1];
	if (wc_objects_load(c, &os, &err) < 0)
		return err.exit;
	size_t n;
	if (strcmp(what, "devices") == 0 || strcmp(what, "stations") == 0 ||
	    strcmp(what, "aps") == 0) {
		const char *role = what[0] == 'd' ? WC_IFACE_DEVICE
				   : what[0] == 's' ? WC_IFACE_STATION
						    : WC_IFACE_AP;
		n = wc_children(&os, "", role, v, WC_OBJECTS_MAX);
		print_names(v, n, WC_IFACE_DEVICE, "Name");
	} else if (strcmp(what, "known") == 0) {
		n = wc_children(&os, "", WC_IFACE_KNOWN, v, WC_OBJECTS_MAX);
		print_names(v, n, WC_IFACE_KNOWN, "Name");
	} else {
		const struct wc_object *dev = wc_find_device(&os, a->pos[0], NULL, &err);
		if (dev && strcmp(what, "networks") == 0) {
			n = wc_children(&os, dev->path, WC_IFACE_NETWORK, v, WC_OBJECTS_MAX);
			print_names(v, n, WC_IFACE_NETWORK, "Name");
		} else if (dev) {
			n = wc_children(&os, dev->path, WC_IFACE_AP_STATION, v, WC_OBJECTS_MAX);
			print_names(v, n, WC_IFACE_AP_STATION, "Address");
		}
	}
	wc_objects_free(&os);
	return WC_EXIT_OK;
}
