/* org.wpad1.Device: every device object, whatever its role. */
#define LOG_TAG "dbus"
#include "daemon/codec/ieee80211.h"
#include "daemon/crypto/sae.h"
#include "daemon/rsn/suites.h"
#include "daemon/wpad.h"
#include "dbus/errors.h"
#include "dbus/wdbus_i.h"
#include "drivers/driver.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static bool get_name(void *data, DBusMessageIter *it)
{
	struct wdb_device *d = data;
	return wdb_append_str(it, d->dev->name);
}

static bool get_mode(void *data, DBusMessageIter *it)
{
	struct wdb_device *d = data;
	return wdb_append_str(it, d->dev->kind == WPAD_DEVICE_AP	  ? "ap"
				  : d->dev->kind == WPAD_DEVICE_WIRED ? "wired"
								      : "station");
}

/* "station" or "ap": the device's role changes (a station disconnects, an
 * access point stops; the new role starts idle). */
static int set_mode(void *data, DBusMessageIter *it, struct wpad_error *err)
{
	struct wdb_device *d = data;
	const char *mode;
	wdb_read_basic(it, DBUS_TYPE_STRING, &mode);
	bool ap = strcmp(mode, "ap") == 0;
	if (!ap && strcmp(mode, "station") != 0)
		return wpad_error_set(err, WPAD_ERR_INVALID_ARGUMENTS, 0, -1, -1,
				      "Mode is \"station\" or \"ap\", not \"%.32s\"", mode),
		       -EINVAL;
	return wpad_device_set_mode(d->dev, ap ? WPAD_DEVICE_AP : WPAD_DEVICE_STATION, err);
}

static bool get_powered(void *data, DBusMessageIter *it)
{
	struct wdb_device *d = data;
	dbus_bool_t on = d->dev->powered;
	return wdb_append_basic(it, DBUS_TYPE_BOOLEAN, &on);
}

static int set_powered(void *data, DBusMessageIter *it, struct wpad_error *err)
{
	struct wdb_device *d = data;
	dbus_bool_t on;
	wdb_read_basic(it, DBUS_TYPE_BOOLEAN, &on);
	return wpad_device_set_powered(d->dev, on, err);
}

static bool get_address(void *data, DBusMessageIter *it)
{
	struct wdb_device *d = data;
	struct driver_iface_info info;
	char a[18] = "";
	if (driver_iface_info(wpad_radio_driver(d->dev->radio), d->dev->ifindex, &info) == 0)
		bss_addr_str(info.addr, a);
	return wdb_append_str(it, a);
}

static bool get_driver(void *data, DBusMessageIter *it)
{
	struct wdb_device *d = data;
	return wdb_append_str(it, wpad_radio_backend(d->dev->radio));
}

static bool get_radio(void *data, DBusMessageIter *it)
{
	struct wdb_device *d = data;
	return wdb_append_path(it, d->radio_path);
}

/* (s name, i ieee_status, i ieee_reason, s text, t time); name "" when the
 * device has not failed yet. */
static bool get_last_error(void *data, DBusMessageIter *it)
{
	struct wdb_device *d = data;
	const struct wpad_error *e = &d->dev->last_error;
	bool none = e->code == WPAD_OK;
	const char *name = none ? "" : wdb_error_name(e->code);
	dbus_int32_t status = none ? -1 : e->ieee_status;
	dbus_int32_t reason = none ? -1 : e->ieee_reason;
	dbus_uint64_t when = none ? 0 : e->when;
	DBusMessageIter st;
	return dbus_message_iter_open_container(it, DBUS_TYPE_STRUCT, NULL, &st) &&
	       wdb_append_str(&st, name) && wdb_append_basic(&st, DBUS_TYPE_INT32, &status) &&
	       wdb_append_basic(&st, DBUS_TYPE_INT32, &reason) &&
	       wdb_append_str(&st, none ? "" : e->text) &&
	       wdb_append_basic(&st, DBUS_TYPE_UINT64, &when) &&
	       dbus_message_iter_close_container(it, &st);
}

/* The driver's cipher bits (0 when it cannot tell). The device's radio
 * is the interface's: asking the driver for the interface first cost a
 * GET_INTERFACE round trip per property read (two per GetManagedObjects,
 * so two per `wpactl station X connect`) for an id wpad already has. */
static uint32_t device_ciphers(const struct wdb_device *d)
{
	struct driver_capa capa;
	if (driver_get_capa(wpad_radio_driver(d->dev->radio), wpad_radio_id(d->dev->radio), &capa) < 0)
		return 0;
	return capa.ciphers;
}

/* The AKMs wpad runs (its SME is in user space: no driver support needed). */
static bool get_supported_akms(void *data, DBusMessageIter *it)
{
	(void)data;
	return wdb_append_suite_names(it, rsn_akms_implemented(), rsn_akm_name);
}

/* The data and BIP ciphers the driver offers, by suite name. */
static bool get_supported_ciphers(void *data, DBusMessageIter *it)
{
	uint32_t drv = device_ciphers(data), mask = 0;
	for (unsigned t = 1; t < 32; t++) {
		uint32_t bit = rsn_cipher_to_driver(RSN_SUITE(t));
		if (bit && (drv & bit) && t != 1 && t != 5) /* not WEP */
			mask |= 1u << t;
	}
	return wdb_append_suite_names(it, mask, rsn_cipher_name);
}

/* SAE as wpad runs it (in user space, any driver with a user-space SME):
 * its password element methods and the groups its cryptography has. */
static bool get_sae_capabilities(void *data, DBusMessageIter *it)
{
	DBusMessageIter arr;
	char name[24];
	(void)data;
	bool ok = dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "s", &arr) &&
		  wdb_append_str(&arr, "hunt-and-peck") && wdb_append_str(&arr, "h2e");
	for (int g = 19; ok && g <= 21; g++) {
		if (!sae_group_supported(g))
			continue;
		snprintf(name, sizeof(name), "group-%d", g);
		ok = wdb_append_str(&arr, name);
	}
	return ok && dbus_message_iter_close_container(it, &arr);
}

/* Protected management frames: the driver offers BIP-CMAC-128. */
static bool get_pmf_capable(void *data, DBusMessageIter *it)
{
	dbus_bool_t b = (device_ciphers(data) & DRIVER_CIPHER_BIP_CMAC_128) != 0;
	return wdb_append_basic(it, DBUS_TYPE_BOOLEAN, &b);
}

static const struct wdb_signal signals[] = {
	{ "ConnectionFailed", "s error_name, i ieee_status, i ieee_reason, s text" },
	{ .name = NULL },
};

static const struct wdb_property props[] = {
	{ "Name", "s", get_name, NULL, WDB_PROP_CONST },
	{ "Mode", "s", get_mode, set_mode, 0 },
	{ "Powered", "b", get_powered, set_powered, 0 },
	{ "Address", "s", get_address, NULL, WDB_PROP_CONST },
	{ "Driver", "s", get_driver, NULL, WDB_PROP_CONST },
	{ "Radio", "o", get_radio, NULL, WDB_PROP_CONST },
	{ "LastError", "(siist)", get_last_error, NULL, 0 },
	{ "SupportedAKMs", "as", get_supported_akms, NULL, WDB_PROP_CONST },
	{ "SupportedCiphers", "as", get_supported_ciphers, NULL, WDB_PROP_CONST },
	{ "PMFCapable", "b", get_pmf_capable, NULL, WDB_PROP_CONST },
	{ "SAECapabilities", "as", get_sae_capabilities, NULL, WDB_PROP_CONST },
	{ .name = NULL },
};

const struct wdb_interface wdb_device_iface = {
	.name = "org.wpad1.Device",
	.signals = signals,
	.props = props,
};

void wdb_device_changed(struct wdb_device *d)
{
	const struct wpad_error *e = &d->dev->last_error;
	if (d->powered != d->dev->powered) {
		d->powered = d->dev->powered;
		wdb_emit_changed(d->obj, &wdb_device_iface, "Powered");
	}
	if (e->code != d->last_error.code || e->when != d->last_error.when ||
	    strcmp(e->text, d->last_error.text) != 0) {
		d->last_error = *e;
		wdb_emit_changed(d->obj, &wdb_device_iface, "LastError");
	}
}

void wdb_device_emit_failure(struct wdb_device *d, const struct wpad_error *err)
{
	DBusMessage *m = wdb_signal_new(d->obj, &wdb_device_iface, "ConnectionFailed");
	DBusMessageIter it;
	dbus_int32_t status = err->ieee_status, reason = err->ieee_reason;
	if (!m)
		return;
	dbus_message_iter_init_append(m, &it);
	if (!wdb_append_str(&it, wdb_error_name(err->code)) ||
	    !wdb_append_basic(&it, DBUS_TYPE_INT32, &status) ||
	    !wdb_append_basic(&it, DBUS_TYPE_INT32, &reason) || !wdb_append_str(&it, err->text)) {
		dbus_message_unref(m);
		return;
	}
	wdb_send(m);
}

DBusMessage *wdb_device_down_reply(struct wdb_device *d, DBusMessage *msg)
{
	const struct wpad_error *radio = wpad_radio_error(d->dev->radio);
	enum wpad_error_code code = wpad_device_error_code(d->dev, -ENETDOWN);
	if (radio)
		return wdb_error_replyf(msg, code, "%s is powered off: %s", d->dev->name,
					radio->text);
	struct wpad_error e;
	wpad_error_set(&e, code, ENETDOWN, -1, -1,
		       "%s is powered off; set its Powered property to true first", d->dev->name);
	return wdb_error_reply(msg, &e);
}

/* The role's interface, its objects and its waiting callers go. */
static void drop_role(struct wdb_device *d, const char *why)
{
	if (d->dev->station) {
		wdb_station_exit(d, why);
		wdb_networks_clear(d);
		wdb_object_remove_iface(d->obj, &wdb_station_iface);
	}
	if (d->dev->ap) {
		wdb_ap_exit(d, why);
		wdb_ap_stations_clear(d);
		wdb_object_remove_iface(d->obj, &wdb_ap_acl_iface);
		wdb_object_remove_iface(d->obj, &wdb_ap_iface);
	}
	if (d->dev->wired) {
		wdb_wired_exit(d);
		wdb_object_remove_iface(d->obj, &wdb_wired_iface);
	}
}

static int add_role(struct wdb_device *d)
{
	if (d->dev->station) {
		wdb_station_init(d);
		return wdb_object_add_iface(d->obj, &wdb_station_iface, d);
	}
	if (d->dev->ap) {
		wdb_ap_init(d);
		int r = wdb_object_add_iface(d->obj, &wdb_ap_iface, d);
		return r < 0 ? r : wdb_object_add_iface(d->obj, &wdb_ap_acl_iface, d);
	}
	if (d->dev->wired) {
		wdb_wired_init(d);
		return wdb_object_add_iface(d->obj, &wdb_wired_iface, d);
	}
	return 0;
}

void wdb_device_mode(struct wdb_device *d, bool done)
{
	if (!done) {
		drop_role(d, "the device changes mode");
		return;
	}
	add_role(d);
	wdb_emit_changed(d->obj, &wdb_device_iface, "Mode");
	wdb_schedule_sync();
}

void wdb_device_remove(struct wdb_device *d, const char *why)
{
	if (d->dev)
		drop_role(d, why);
	wdb_object_free(d->obj);
	d->obj = NULL;
	d->dev = NULL;
}

int wdb_device_add(struct wdb_device *d, struct wpad_device *dev)
{
	char path[WDB_PATH_MAX];
	d->dev = dev;
	d->powered = dev->powered;
	d->last_error = dev->last_error;
	if (!wdb_radio_path(dev->radio, d->radio_path, sizeof(d->radio_path)) ||
	    !wdb_path_join(path, sizeof(path), WDB_ROOT "/device", dev->name) ||
	    !(d->obj = wdb_object_new(path)))
		return -ENOMEM;
	int r = wdb_object_add_iface(d->obj, &wdb_device_iface, d);
	return r == 0 ? add_role(d) : r;
}
