/* ap DEV start | stop | show | disconnect ADDRESS: the access point role
 * (org.wpad1.AccessPoint) and its stations (org.wpad1.ApStation). */
#include "wpactl/agent.h"
#include "wpactl/bus.h"
#include "wpactl/commands.h"
#include "wpactl/objects.h"
#include "wpactl/output.h"
#include "wpactl/wpactl.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- show ---- */

void wc_ap_fields(const struct wc_objects *os, const struct wc_object *dev)
{
	static const char *const head[] = { "STATION", "STATE", "SIGNAL", "CONNECTED" };
	static const struct wc_object *v[WC_OBJECTS_MAX];
	const char *state = wc_prop_str(dev, WC_IFACE_AP, "State");
	if (!wc_prop_bool(dev, WC_IFACE_AP, "Started")) {
		/* cac: a radar channel's availability check before beaconing */
		wc_field(stdout, "Access point", "%s", state && *state ? state : "stopped");
		return;
	}
	uint32_t f = (uint32_t)wc_prop_int(dev, WC_IFACE_AP, "Frequency");
	wc_field(stdout, "Access point", "%s",
		 state && strcmp(state, "switching") == 0 ? "started, switching channel" : "started");
	wc_field(stdout, "SSID", "%s", wc_prop_str(dev, WC_IFACE_AP, "SSID"));
	wc_field(stdout, "Channel", "%d (%u MHz)", wc_channel(f), f);
	long long width = wc_prop_int(dev, WC_IFACE_AP, "ChannelWidth");
	if (width)
		wc_field(stdout, "Width", "%lld MHz", width);
	const char *choice = wc_prop_str(dev, WC_IFACE_AP, "ChannelChoice");
	if (choice && *choice)
		wc_field(stdout, "Channel choice", "%s", choice);
	wc_field(stdout, "Security", "%s", wc_prop_str(dev, WC_IFACE_AP, "Security"));
	wc_field(stdout, "Stations", "%lld", (long long)wc_prop_int(dev, WC_IFACE_AP, "StationCount"));
	size_t n = wc_children(os, dev->path, WC_IFACE_AP_STATION, v, WC_OBJECTS_MAX);
	if (n == 0)
		return;
	struct wc_table t;
	wc_table_init(&t, 4, head);
	for (size_t i = 0; i < n; i++) {
		char sig[24], since[24];
		snprintf(sig, sizeof(sig), "%d dBm", (int)wc_prop_int(v[i], WC_IFACE_AP_STATION, "Signal"));
		wc_fmt_duration(since, sizeof(since),
				(uint64_t)wc_prop_int(v[i], WC_IFACE_AP_STATION, "ConnectedTime"));
		const char *row[] = { wc_prop_str(v[i], WC_IFACE_AP_STATION, "Address"),
				      wc_prop_str(v[i], WC_IFACE_AP_STATION, "State"), sig, since };
		wc_table_row(&t, row);
	}
	printf("\n");
	wc_table_print(&t, stdout);
	wc_table_free(&t);
}

int cmd_ap_show(struct wc_ctx *c, const struct wc_args *a)
{
	return wc_show_device(c, a->pos[0], WC_IFACE_AP);
}

/* ---- start ---- */

static bool put(DBusMessageIter *dict, const char *key, int type, const void *value)
{
	DBusMessageIter e, v;
	char sig[2] = { (char)type, '\0' };
	return dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) &&
	       dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key) &&
	       dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, sig, &v) &&
	       dbus_message_iter_append_basic(&v, type, value) &&
	       dbus_message_iter_close_container(&e, &v) &&
	       dbus_message_iter_close_container(dict, &e);
}

static bool put_str(DBusMessageIter *dict, const char *key, const char *s)
{
	return put(dict, key, DBUS_TYPE_STRING, &s);
}

static int number(const char *opt, const char *text, uint32_t max, dbus_uint32_t *out)
{
	char *end;
	unsigned long v = strtoul(text, &end, 10);
	if (*text < '0' || *text > '9' || *end || v > max)
		return wc_usage_error("--%s takes a number from 0 to %u, not '%s'", opt, max, text);
	*out = (dbus_uint32_t)v;
	return 0;
}

/* Whether a --set names key. */
static bool set_has(const struct wc_args *a, const char *key)
{
	size_t len = strlen(key);
	for (size_t i = 0; i < a->n_sets; i++)
		if (strncmp(a->sets[i], key, len) == 0 && a->sets[i][len] == '=')
			return true;
	return false;
}

/* The a{sv} of AccessPoint.Start from the options. Returns 0 or the exit
 * code after reporting. */
static int settings(const struct wc_args *a, const char *passphrase, DBusMessage *m)
{
	DBusMessageIter it, dict;
	dbus_uint32_t u;
	dbus_bool_t yes = TRUE;
	bool ok = true;
	if (!a->has[WC_OPT_SSID] && !set_has(a, "SSID"))
		return wc_usage_error("an access point needs a name: --ssid SSID");
	if (!a->has[WC_OPT_SECURITY] && !passphrase && !set_has(a, "Passphrase") &&
	    !set_has(a, "PSK") && !set_has(a, "Security"))
		return wc_usage_error("give --passphrase P for a WPA2 network, or --security open for "
				      "an open one");
	dbus_message_iter_init_append(m, &it);
	ok = dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict);
	if (a->has[WC_OPT_SSID])
		ok = ok && put_str(&dict, "SSID", a->val[WC_OPT_SSID]);
	if (passphrase)
		ok = ok && put_str(&dict, "Passphrase", passphrase);
	if (a->has[WC_OPT_SECURITY])
		ok = ok && put_str(&dict, "Security", a->val[WC_OPT_SECURITY]);
	else if (passphrase)
		ok = ok && put_str(&dict, "Security", "wpa2-psk");
	if (a->has[WC_OPT_CHANNEL]) {
		if (number("channel", a->val[WC_OPT_CHANNEL], 255, &u))
			return WC_EXIT_USAGE;
		ok = ok && put(&dict, "Channel", DBUS_TYPE_UINT32, &u);
	}
	if (a->has[WC_OPT_BAND])
		ok = ok && put_str(&dict, "Band", a->val[WC_OPT_BAND]);
	if (a->has[WC_OPT_HIDDEN])
		ok = ok && put(&dict, "Hidden", DBUS_TYPE_BOOLEAN, &yes);
	if (a->has[WC_OPT_COUNTRY])
		ok = ok && put_str(&dict, "Country", a->val[WC_OPT_COUNTRY]);
	if (a->has[WC_OPT_MAX_STATIONS]) {
		if (number("max-stations", a->val[WC_OPT_MAX_STATIONS], 65535, &u))
			return WC_EXIT_USAGE;
		ok = ok && put(&dict, "MaxStations", DBUS_TYPE_UINT32, &u);
	}
	if (a->has[WC_OPT_ISOLATE])
		ok = ok && put(&dict, "ClientIsolation", DBUS_TYPE_BOOLEAN, &yes);
	for (size_t i = 0; i < a->n_sets; i++) {
		char key[65];
		const char *eq = strchr(a->sets[i], '=');
		size_t len = eq ? (size_t)(eq - a->sets[i]) : 0;
		if (!eq || len == 0 || len >= sizeof(key))
			return wc_usage_error("--set takes KEY=VALUE, not '%s'", a->sets[i]);
		memcpy(key, a->sets[i], len);
		key[len] = '\0';
		ok = ok && put_str(&dict, key, eq + 1);
	}
	ok = ok && dbus_message_iter_close_container(&it, &dict);
	if (!ok) {
		struct wc_error err;
		wc_error_set(&err, WC_EXIT_FAILED, "out of memory");
		return wc_report(&err, NULL);
	}
	return 0;
}

static int start_failed(const struct wc_object *dev, const struct wc_error *err)
{
	const char *name = wc_prop_str(dev, WC_IFACE_DEVICE, "Name");
	switch (err->code) {
	case WPAD_ERR_BUSY:
		return wc_report(err, "%s is already running an access point ('%s'): stop it first "
				      "with `wpactl ap %s stop`",
				 name, wc_prop_str(dev, WC_IFACE_AP, "SSID"), name);
	case WPAD_ERR_INVALID_ARGUMENTS:
	case WPAD_ERR_INVALID_FORMAT:
		return wc_report(err, "wpad refused the settings: %s", err->text);
	case WPAD_ERR_REGULATORY_FORBIDDEN:
		return wc_report(err, "%s may not send there in this country: choose another "
				      "--channel (or --country if it is wrong)",
				 name);
	default:
		return wc_report(err, NULL);
	}
}

static int report_started(struct wc_ctx *c, const char *path)
{
	struct wc_objects os;
	struct wc_error err;
	if (wc_objects_load(c, &os, &err) < 0)
		return wc_report(&err, NULL);
	const struct wc_object *dev = wc_object_at(&os, path);
	if (c->json) {
		struct jw w;
		jw_init(&w, stdout);
		if (dev)
			wc_device_json(&w, &os, dev);
		else
			jw_null(&w);
		jw_finish(&w);
	} else if (dev) {
		uint32_t f = (uint32_t)wc_prop_int(dev, WC_IFACE_AP, "Frequency");
		printf("%s started '", wc_prop_str(dev, WC_IFACE_DEVICE, "Name"));
		wc_put_safe(stdout, wc_prop_str(dev, WC_IFACE_AP, "SSID"));
		printf("' on channel %d (%u MHz), %s.\n", wc_channel(f), f,
		       wc_prop_str(dev, WC_IFACE_AP, "Security"));
	}
	wc_objects_free(&os);
	return WC_EXIT_OK;
}

int cmd_ap_start(struct wc_ctx *c, const struct wc_args *a)
{
	struct wc_objects os;
	const struct wc_object *dev;
	struct wc_error err;
	char pass[128] = "";
	const char *passphrase = a->has[WC_OPT_PASSPHRASE] ? a->val[WC_OPT_PASSPHRASE] : NULL;
	if (passphrase && strcmp(passphrase, "-") == 0) {
		if (!wc_read_stdin_line(pass, sizeof(pass)))
			return wc_usage_error("--passphrase -: no line on standard input");
		passphrase = pass;
	}
	if (passphrase && !wc_passphrase_ok(passphrase))
		return wc_usage_error("a passphrase is 8 to 63 printable ASCII characters, or 64 hex "
				      "digits");
	int rc = wc_load_device(c, a->pos[0], WC_IFACE_AP, &os, &dev);
	if (rc)
		return rc;
	DBusMessage *m = wc_new_call(dev->path, WC_IFACE_AP, "Start");
	rc = m ? settings(a, passphrase, m) : WC_EXIT_FAILED;
	explicit_bzero(pass, sizeof(pass));
	if (rc) {
		if (m)
			dbus_message_unref(m);
		wc_objects_free(&os);
		return rc;
	}
	DBusMessage *reply = wc_call(&c->bus, m, c->long_timeout_ms, &err);
	if (!reply) {
		rc = start_failed(dev, &err);
	} else {
		char path[256];
		snprintf(path, sizeof(path), "%s", dev->path);
		dbus_message_unref(reply);
		wc_objects_free(&os);
		return report_started(c, path);
	}
	wc_objects_free(&os);
	return rc;
}

/* ---- stop ---- */

int cmd_ap_stop(struct wc_ctx *c, const struct wc_args *a)
{
	struct wc_objects os;
	const struct wc_object *dev;
	struct wc_error err;
	char path[256], name[128];
	int rc = wc_load_device(c, a->pos[0], WC_IFACE_AP, &os, &dev);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s", dev->path);
	snprintf(name, sizeof(name), "%s", wc_prop_str(dev, WC_IFACE_DEVICE, "Name"));
	wc_objects_free(&os);
	bool was = true;
	if (wc_call_simple(&c->bus, path, WC_IFACE_AP, "Stop", c->long_timeout_ms, &err) < 0) {
		if (err.code != WPAD_ERR_NOT_CONNECTED)
			return wc_report(&err, NULL);
		was = false; /* stopped already: what was asked for */
	}
	if (c->json)
		return wc_show_device(c, name, WC_IFACE_AP);
	printf("%s %s.\n", name, was ? "is stopped" : "was not started");
	return WC_EXIT_OK;
}

/* ---- rescan-channel ---- */

int cmd_ap_rescan_channel(struct wc_ctx *c, const struct wc_args *a)
{
	struct wc_objects os;
	const struct wc_object *dev;
	struct wc_error err;
	char path[256], name[128];
	int rc = wc_load_device(c, a->pos[0], WC_IFACE_AP, &os, &dev);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s", dev->path);
	snprintf(name, sizeof(name), "%s", wc_prop_str(dev, WC_IFACE_DEVICE, "Name"));
	wc_objects_free(&os);
	if (wc_call_simple(&c->bus, path, WC_IFACE_AP, "RescanChannel", c->long_timeout_ms, &err) <
	    0)
		return wc_report(&err, NULL);
	return wc_show_device(c, name, WC_IFACE_AP);
}

/* ---- disconnect a station ---- */

int cmd_ap_disconnect(struct wc_ctx *c, const struct wc_args *a)
{
	static const struct wc_object *v[WC_OBJECTS_MAX];
	struct wc_objects os;
	const struct wc_object *dev;
	struct wc_error err;
	char path[256] = "", name[128];
	const char *addr = a->pos[1];
	int rc = wc_load_device(c, a->pos[0], WC_IFACE_AP, &os, &dev);
	if (rc)
		return rc;
	snprintf(name, sizeof(name), "%s", wc_prop_str(dev, WC_IFACE_DEVICE, "Name"));
	size_t n = wc_children(&os, dev->path, WC_IFACE_AP_STATION, v, WC_OBJECTS_MAX);
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(wc_prop_str(v[i], WC_IFACE_AP_STATION, "Address"), addr) == 0)
			snprintf(path, sizeof(path), "%s", v[i]->path);
	wc_objects_free(&os);
	if (!path[0]) {
		wc_error_set(&err, WC_EXIT_NOT_FOUND, "no such station");
		return wc_report(&err, "no station %s is connected to %s: `wpactl ap %s show` lists "
				       "them",
				 addr, name, name);
	}
	if (wc_call_simple(&c->bus, path, WC_IFACE_AP_STATION, "Disconnect", c->timeout_ms, &err) <
	    0)
		return wc_report(&err, NULL);
	if (c->json) {
		printf("{\"disconnected\":");
		jw_write_string(stdout, addr, strlen(addr));
		printf("}\n");
	} else {
		printf("%s disconnected %s.\n", name, addr);
	}
	return WC_EXIT_OK;
}
