/* fi.w1.wpa_supplicant1: the name, the manager object and the hooks the
 * rest of the D-Bus layer calls; see wpas_i.h. */
#define LOG_TAG "dbus"
#include "dbus/wpas.h"

#include "daemon/core/log.h"
#include "daemon/rsn/suites.h"
#include "daemon/station/station.h"
#include "daemon/wpad.h"
#include "drivers/driver.h"
#include "dbus/bus.h"
#include "dbus/errors.h"
#include "dbus/wpas_i.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct wpas *self;
static bool enabled;

struct wpas *wpas_get(void)
{
	return self;
}

void wpas_enable(bool on)
{
	enabled = on;
}

DBusMessage *wpas_error(DBusMessage *call, const char *name, const char *fmt, ...)
{
	char text[WDB_ERROR_TEXT_MAX], full[128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	snprintf(full, sizeof(full), "%s%s", WPAS_ERR, name);
	char clean[WDB_ERROR_TEXT_MAX];
	wdb_utf8_copy(clean, sizeof(clean), text, strlen(text));
	return dbus_message_new_error(call, full, clean);
}

/* ---- the interface name of a wpad device ---- */

static bool device_ifname(struct wdb_device *d, char *out, size_t cap)
{
	struct driver_iface_info info;
	struct driver *drv = wpad_radio_driver(d->dev->radio);
	if (!drv || driver_iface_info(drv, d->dev->ifindex, &info) < 0)
		return false;
	snprintf(out, cap, "%s", info.name);
	return true;
}

static struct wdb_device *device_by_ifname(const char *ifname)
{
	struct wdb *b = wdb_get();
	char name[DRIVER_IFNAME_MAX];
	for (size_t i = 0; b && i < b->n_devices; i++) {
		struct wdb_device *d = b->devices[i];
		if (d && d->dev && device_ifname(d, name, sizeof(name)) && strcmp(name, ifname) == 0)
			return d;
	}
	return NULL;
}

static struct wpas_iface *iface_by_ifname(const char *ifname)
{
	for (size_t i = 0; self && i < WPAS_MAX_IFACES; i++)
		if (self->ifaces[i] && strcmp(self->ifaces[i]->ifname, ifname) == 0)
			return self->ifaces[i];
	return NULL;
}

static struct wpas_iface *iface_by_device(struct wdb_device *d)
{
	for (size_t i = 0; self && i < WPAS_MAX_IFACES; i++)
		if (self->ifaces[i] && self->ifaces[i]->d == d)
			return self->ifaces[i];
	return NULL;
}

static void emit_interfaces(void)
{
	wdb_emit_changed(self->root, &wpas_manager_iface, "Interfaces");
}

static void emit_iface_signal(const char *member, struct wpas_iface *ifc, bool with_props)
{
	DBusMessage *sig = wdb_signal_new(self->root, &wpas_manager_iface, member);
	if (!sig)
		return;
	DBusMessageIter it, dict;
	dbus_message_iter_init_append(sig, &it);
	bool ok = wdb_append_path(&it, ifc->path);
	if (ok && with_props) {
		ok = dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict) &&
		     dbus_message_iter_close_container(&it, &dict);
	}
	if (ok)
		wdb_send(sig);
	else
		dbus_message_unref(sig);
}

/* ---- methods ---- */

/* An interface wpad does not manage yet is the system's (the kernel's
 * wlan0): taken over, as wpa_supplicant opens any netdev it is given. A
 * refusal is wpa_supplicant's UnknownError (what NetworkManager expects
 * from a CreateInterface that fails) carrying wpad's catalogue name and
 * sentence. */
static DBusMessage *adopt(DBusMessage *msg, const char *ifname, struct wdb_device **out)
{
	struct wpad_error err;
	struct wdb *b = wdb_get();
	struct wpad_device *dev = wpad_station_adopt(b->w, ifname, &err);
	*out = dev ? wdb_device_of(dev) : NULL;
	if (*out)
		return NULL;
	if (dev)
		wpad_error_set(&err, WPAD_ERR_FAILED, ENOMEM, -1, -1,
			       "%s: taken over but not exported (out of memory)", ifname);
	char text[WDB_ERROR_TEXT_MAX];
	wdb_error_format(&err, text, sizeof(text));
	log_warn("CreateInterface %s refused: %s", ifname, err.text);
	return wpas_error(msg, "UnknownError", "%s: %s", wdb_error_name(err.code), text);
}

/* CreateInterface({Ifname, Driver, ConfigFile, BridgeIfname}). */
static DBusMessage *create_interface(void *data, DBusMessage *msg)
{
	DBusMessageIter it, dict;
	const char *ifname = NULL, *driver = "nl80211";
	dbus_message_iter_init(msg, &it);
	dbus_message_iter_recurse(&it, &dict);
	while (dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY) {
		DBusMessageIter e, v;
		const char *key;
		dbus_message_iter_recurse(&dict, &e);
		dbus_message_iter_get_basic(&e, &key);
		dbus_message_iter_next(&e);
		dbus_message_iter_recurse(&e, &v);
		const char **slot = strcmp(key, "Ifname") == 0	 ? &ifname
				    : strcmp(key, "Driver") == 0 ? &driver
								 : NULL;
		if (slot && !wdb_read_string(&v, slot, 64))
			return wpas_error(msg, "InvalidArgs", "%s must be a string", key);
		dbus_message_iter_next(&dict);
	}
	if (!ifname || !*ifname)
		return wpas_error(msg, "InvalidArgs", "Ifname is missing");
	if (iface_by_ifname(ifname))
		return wpas_error(msg, "InterfaceExists", "wpad already serves %s", ifname);
	struct wdb_device *d = device_by_ifname(ifname);
	DBusMessage *refused = d ? NULL : adopt(msg, ifname, &d);
	if (refused)
		return refused;
	if (!d->dev->station)
		return wpas_error(msg, "UnknownError",
				  "%s is wpad's access point %s: NetworkManager can only have a "
				  "station interface (remove its [AccessPoint] from wpad.conf)",
				  ifname, d->dev->name);
	size_t slot = WPAS_MAX_IFACES;
	for (size_t i = 0; i < WPAS_MAX_IFACES && slot == WPAS_MAX_IFACES; i++)
		if (!self->ifaces[i])
			slot = i;
	if (slot == WPAS_MAX_IFACES)
		return wpas_error(msg, "UnknownError", "too many interfaces");
	struct wpas_iface *ifc = wpas_iface_new(self, d, ifname, driver);
	if (!ifc)
		return wpas_error(msg, "NoMemory", "out of memory");
	self->ifaces[slot] = ifc;
	log_info("%s: served as %s (%s)", ifname, ifc->path, WPAS_NAME);
	emit_iface_signal("InterfaceAdded", ifc, true);
	emit_interfaces();
	DBusMessage *reply = dbus_message_new_method_return(msg);
	if (reply) {
		dbus_message_iter_init_append(reply, &it);
		wdb_append_path(&it, ifc->path);
	}
	return reply;
}

static DBusMessage *get_interface(void *data, DBusMessage *msg)
{
	DBusMessageIter it;
	const char *ifname;
	dbus_message_iter_init(msg, &it);
	dbus_message_iter_get_basic(&it, &ifname);
	struct wpas_iface *ifc = iface_by_ifname(ifname);
	if (!ifc)
		return wpas_error(msg, "InterfaceUnknown", "%s is not served: CreateInterface first",
				  ifname);
	DBusMessage *reply = dbus_message_new_method_return(msg);
	if (reply) {
		dbus_message_iter_init_append(reply, &it);
		wdb_append_path(&it, ifc->path);
	}
	return reply;
}

static void remove_iface(size_t i)
{
	struct wpas_iface *ifc = self->ifaces[i];
	self->ifaces[i] = NULL;
	emit_iface_signal("InterfaceRemoved", ifc, false);
	wpas_iface_free(ifc);
	emit_interfaces();
}

static DBusMessage *remove_interface(void *data, DBusMessage *msg)
{
	DBusMessageIter it;
	const char *path;
	dbus_message_iter_init(msg, &it);
	dbus_message_iter_get_basic(&it, &path);
	for (size_t i = 0; i < WPAS_MAX_IFACES; i++) {
		if (self->ifaces[i] && strcmp(self->ifaces[i]->path, path) == 0) {
			struct wpad_device *dev = self->ifaces[i]->d->dev;
			remove_iface(i);
			/* An interface CreateInterface took over goes back as it
			 * was found, as wpa_supplicant closes a netdev it was
			 * given; a device of wpad.conf stays wpad's. */
			if (dev && dev->on_demand)
				wpad_station_release(dev);
			return dbus_message_new_method_return(msg);
		}
	}
	return wpas_error(msg, "InterfaceUnknown", "no interface at %s", path);
}

/* ---- properties ---- */

static bool get_capabilities(void *data, DBusMessageIter *it)
{
	DBusMessageIter arr;
	const char *pmf = "pmf", *owe = "owe", *no_wep = "wep_disabled", *ap = "ap";
	/* Only what wpad really does: "ap" (mode=2 networks run wpad's access
	 * point, wpas_ap.c), no "p2p" (NetworkManager would create a P2P
	 * device), no "ft". "wep_disabled": wpad has no WEP; without it
	 * NetworkManager 1.42 reports WEP as supported (seen on the real one). */
	return dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "s", &arr) &&
	       dbus_message_iter_append_basic(&arr, DBUS_TYPE_STRING, &pmf) &&
	       dbus_message_iter_append_basic(&arr, DBUS_TYPE_STRING, &no_wep) &&
	       dbus_message_iter_append_basic(&arr, DBUS_TYPE_STRING, &ap) &&
	       (!wpas_owe_supported() || dbus_message_iter_append_basic(&arr, DBUS_TYPE_STRING, &owe)) &&
	       dbus_message_iter_close_container(it, &arr);
}

static bool get_eap_methods(void *data, DBusMessageIter *it)
{
	/* wpa_supplicant's names of the EAP methods this build runs. */
	static const char *const names[] = { "MD5", "GTC", "MSCHAPV2", "TLS", "PEAP", "TTLS" };
	DBusMessageIter arr;
	bool ok = dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "s", &arr);
	for (size_t i = 0; ok && i < sizeof(names) / sizeof(names[0]); i++)
		if (station_eap_method_runs(names[i]))
			ok = dbus_message_iter_append_basic(&arr, DBUS_TYPE_STRING, &names[i]);
	return ok && dbus_message_iter_close_container(it, &arr);
}

static bool get_interfaces(void *data, DBusMessageIter *it)
{
	DBusMessageIter arr;
	if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "o", &arr))
		return false;
	for (size_t i = 0; i < WPAS_MAX_IFACES; i++)
		if (self->ifaces[i] && !wdb_append_path(&arr, self->ifaces[i]->path))
			return false;
	return dbus_message_iter_close_container(it, &arr);
}

static bool get_debug_level(void *data, DBusMessageIter *it)
{
	return wdb_append_str(it, self->debug_level);
}

static int set_debug_level(void *data, DBusMessageIter *it, struct wpad_error *err)
{
	const char *v;
	if (!wdb_read_string(it, &v, sizeof(self->debug_level) - 1))
		return wpad_error_set(err, WPAD_ERR_INVALID_ARGUMENTS, 0, -1, -1, "too long"), -EINVAL;
	snprintf(self->debug_level, sizeof(self->debug_level), "%s", v);
	return 0;
}

static bool get_false(void *data, DBusMessageIter *it)
{
	dbus_bool_t f = false;
	return dbus_message_iter_append_basic(it, DBUS_TYPE_BOOLEAN, &f);
}

static int set_ignored_bool(void *data, DBusMessageIter *it, struct wpad_error *err)
{
	return 0;
}

static bool get_wfd_ies(void *data, DBusMessageIter *it)
{
	DBusMessageIter arr;
	const uint8_t *p = self->wfd_ies;
	return dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "y", &arr) &&
	       dbus_message_iter_append_fixed_array(&arr, DBUS_TYPE_BYTE, &p,
						    (int)self->wfd_ies_len) &&
	       dbus_message_iter_close_container(it, &arr);
}

/* NetworkManager writes an empty value at start and at exit; kept. */
static int set_wfd_ies(void *data, DBusMessageIter *it, struct wpad_error *err)
{
	DBusMessageIter arr;
	const uint8_t *p;
	int n = 0;
	dbus_message_iter_recurse(it, &arr);
	dbus_message_iter_get_fixed_array(&arr, &p, &n);
	if (n < 0 || (size_t)n > sizeof(self->wfd_ies))
		return wpad_error_set(err, WPAD_ERR_INVALID_ARGUMENTS, 0, -1, -1, "WFDIEs too long"),
		       -EINVAL;
	if (n > 0) /* an empty array may come with a NULL pointer */
		memcpy(self->wfd_ies, p, (size_t)n);
	self->wfd_ies_len = (size_t)n;
	return 0;
}

static const struct wdb_method manager_methods[] = {
	{ "CreateInterface", "a{sv} args", "o path", create_interface, WDB_PRIVILEGED },
	{ "RemoveInterface", "o path", "", remove_interface, WDB_PRIVILEGED },
	{ "GetInterface", "s ifname", "o path", get_interface, 0 },
	{ .name = NULL },
};

static const struct wdb_signal manager_signals[] = {
	{ "InterfaceAdded", "o path, a{sv} properties" },
	{ "InterfaceRemoved", "o path" },
	{ .name = NULL },
};

static const struct wdb_property manager_props[] = {
	{ "Capabilities", "as", get_capabilities, NULL, WDB_PROP_CONST },
	{ "EapMethods", "as", get_eap_methods, NULL, WDB_PROP_CONST },
	{ "Interfaces", "ao", get_interfaces, NULL, 0 },
	{ "DebugLevel", "s", get_debug_level, set_debug_level, 0 },
	{ "DebugTimestamp", "b", get_false, set_ignored_bool, 0 },
	{ "DebugShowKeys", "b", get_false, set_ignored_bool, 0 },
	{ "WFDIEs", "ay", get_wfd_ies, set_wfd_ies, WDB_PROP_NO_EMIT },
	{ .name = NULL },
};

const struct wdb_interface wpas_manager_iface = {
	.name = WPAS_NAME,
	.methods = manager_methods,
	.signals = manager_signals,
	.props = manager_props,
};

/* ---- hooks ---- */

int wpas_start(struct wdb *b, struct wpad_error *err)
{
	if (!enabled)
		return 0;
	self = calloc(1, sizeof(*self));
	if (!self)
		return -ENOMEM;
	snprintf(self->debug_level, sizeof(self->debug_level), "info");
	self->root = wdb_object_new(WPAS_PATH);
	int r = self->root ? wdb_object_add_iface(self->root, &wpas_manager_iface, self) : -ENOMEM;
	if (r == 0)
		r = wdb_bus_request_name(WPAS_NAME, err);
	if (r < 0) {
		wpas_stop(b);
		return r;
	}
	self->owns_name = true;
	log_info("D-Bus: %s served too (wpa_supplicant's API, for NetworkManager)", WPAS_NAME);
	return 0;
}

void wpas_stop(struct wdb *b)
{
	if (!self)
		return;
	for (size_t i = 0; i < WPAS_MAX_IFACES; i++) {
		if (self->ifaces[i])
			wpas_iface_free(self->ifaces[i]);
		self->ifaces[i] = NULL;
	}
	if (self->owns_name)
		wdb_bus_release_name(WPAS_NAME);
	wdb_object_free(self->root);
	free(self);
	self = NULL;
}

void wpas_sync(struct wdb *b)
{
	for (size_t i = 0; self && i < WPAS_MAX_IFACES; i++)
		if (self->ifaces[i])
			wpas_iface_sync(self->ifaces[i]);
}

void wpas_station_state(struct wdb_device *d)
{
	struct wpas_iface *ifc = iface_by_device(d);
	if (ifc)
		wpas_iface_state(ifc);
}

void wpas_scan_done(struct wdb_device *d)
{
	struct wpas_iface *ifc = iface_by_device(d);
	if (ifc)
		wpas_iface_scan_done(ifc);
}

/* The device stops being a station (mode change) or goes away. */
void wpas_device_gone(struct wdb_device *d)
{
	for (size_t i = 0; self && i < WPAS_MAX_IFACES; i++)
		if (self->ifaces[i] && self->ifaces[i]->d == d && !self->ifaces[i]->switching)
			remove_iface(i);
}
