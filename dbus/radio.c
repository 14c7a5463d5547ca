/* org.wpad1.Radio objects: one per [Radio NAME]. */
#include "daemon/wpad.h"
#include "dbus/wdbus_i.h"
#include "drivers/driver.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static bool radio_info(const struct wpad_radio *r, struct driver_radio_info *out)
{
	struct driver_radio_info all[8];
	size_t n = 0;
	if (driver_list_radios(wpad_radio_driver(r), all, 8, &n) < 0)
		return false;
	for (size_t i = 0; i < n && i < 8; i++)
		if (all[i].id == wpad_radio_id(r)) {
			*out = all[i];
			return true;
		}
	return false;
}

static bool get_name(void *data, DBusMessageIter *it)
{
	struct wdb_radio *r = data;
	return wdb_append_str(it, wpad_radio_name(r->radio));
}

static bool get_driver(void *data, DBusMessageIter *it)
{
	struct wdb_radio *r = data;
	return wdb_append_str(it, wpad_radio_backend(r->radio));
}

static bool get_hardware(void *data, DBusMessageIter *it)
{
	struct wdb_radio *r = data;
	struct driver_radio_info info;
	if (!radio_info(r->radio, &info))
		return wdb_append_str(it, "");
	info.name[sizeof(info.name) - 1] = '\0';
	return wdb_append_str(it, info.name);
}

static bool get_address(void *data, DBusMessageIter *it)
{
	struct wdb_radio *r = data;
	struct driver_radio_info info;
	char a[18] = "";
	if (radio_info(r->radio, &info))
		bss_addr_str(info.perm_addr, a);
	return wdb_append_str(it, a);
}

static bool get_country(void *data, DBusMessageIter *it)
{
	struct wdb_radio *r = data;
	struct driver_regulatory reg;
	char cc[3] = "";
	if (driver_get_regulatory(wpad_radio_driver(r->radio), wpad_radio_id(r->radio), &reg) == 0)
		snprintf(cc, sizeof(cc), "%.2s", reg.alpha2);
	return wdb_append_str(it, cc);
}

static bool get_bands(void *data, DBusMessageIter *it)
{
	static const char *const names[DRIVER_BAND_COUNT] = { "2.4", "5", "6" };
	struct wdb_radio *r = data;
	struct driver_capa capa;
	DBusMessageIter arr;
	bool ok = dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "s", &arr);
	if (ok && driver_get_capa(wpad_radio_driver(r->radio), wpad_radio_id(r->radio), &capa) == 0)
		for (int b = 0; ok && b < DRIVER_BAND_COUNT; b++)
			if (capa.bands[b].present)
				ok = wdb_append_str(&arr, names[b]);
	return ok && dbus_message_iter_close_container(it, &arr);
}

static const struct wdb_property props[] = {
	{ "Name", "s", get_name, NULL, WDB_PROP_CONST },
	{ "Driver", "s", get_driver, NULL, WDB_PROP_CONST },
	{ "Hardware", "s", get_hardware, NULL, WDB_PROP_CONST },
	{ "Address", "s", get_address, NULL, WDB_PROP_CONST },
	{ "Country", "s", get_country, NULL, WDB_PROP_NO_EMIT },
	{ "Bands", "as", get_bands, NULL, WDB_PROP_CONST },
	{ .name = NULL },
};

const struct wdb_interface wdb_radio_iface = {
	.name = "org.wpad1.Radio",
	.props = props,
};

bool wdb_radio_path(const struct wpad_radio *radio, char *out, size_t cap)
{
	return wdb_path_join(out, cap, WDB_ROOT "/radio", wpad_radio_name(radio));
}

int wdb_radio_add(struct wdb_radio *r, struct wpad_radio *radio)
{
	char path[WDB_PATH_MAX];
	r->radio = radio;
	if (!wdb_radio_path(radio, path, sizeof(path)) || !(r->obj = wdb_object_new(path)))
		return -ENOMEM;
	return wdb_object_add_iface(r->obj, &wdb_radio_iface, r);
}

void wdb_radio_remove(struct wdb_radio *r)
{
	wdb_object_free(r->obj);
	r->obj = NULL;
}
