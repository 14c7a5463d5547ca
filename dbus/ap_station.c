/* org.wpad1.ApStation: one object per station associated with our AP. */
#define LOG_TAG "dbus"
#include "daemon/ap/ap.h"

#include "daemon/codec/ieee80211.h"
#include "daemon/wpad.h"
#include "dbus/errors.h"
#include "dbus/wdbus_i.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wdb_ap_station {
	struct wdb_device *d;
	struct wdb_object *obj;
	uint8_t addr[6];
	enum ap_sta_state state;
	bool seen;
	struct wdb_ap_station *next;
};

static bool info_of(const struct wdb_ap_station *s, struct ap_station_info *info)
{
	return ap_get_station(s->d->dev->ap, s->addr, info) == 0;
}

static DBusMessage *sta_disconnect(void *data, DBusMessage *msg)
{
	struct wdb_ap_station *s = data;
	char a[18];
	if (ap_disconnect_station(s->d->dev->ap, s->addr, WLAN_REASON_PREV_AUTH_NOT_VALID) < 0)
		return wdb_error_replyf(msg, WPAD_ERR_NOT_FOUND, "station %s has already left",
					bss_addr_str(s->addr, a));
	wdb_schedule_sync();
	return dbus_message_new_method_return(msg);
}

static bool get_address(void *data, DBusMessageIter *it)
{
	struct wdb_ap_station *s = data;
	char a[18];
	return wdb_append_str(it, bss_addr_str(s->addr, a));
}

static bool get_state(void *data, DBusMessageIter *it)
{
	struct wdb_ap_station *s = data;
	return wdb_append_str(it, ap_sta_state_to_string(s->state));
}

static bool get_signal(void *data, DBusMessageIter *it)
{
	struct ap_station_info info;
	dbus_int16_t dbm = info_of(data, &info) ? (dbus_int16_t)(info.signal_mbm / 100) : 0;
	return wdb_append_basic(it, DBUS_TYPE_INT16, &dbm);
}

static bool get_connected_time(void *data, DBusMessageIter *it)
{
	struct wdb_ap_station *s = data;
	struct ap_station_info info;
	/* Ours to know: no driver round trip (InterfacesAdded reads it for
	 * every station that associates). */
	dbus_uint32_t t = ap_peek_station(s->d->dev->ap, s->addr, &info) == 0 ? info.connected_s : 0;
	return wdb_append_basic(it, DBUS_TYPE_UINT32, &t);
}

static const struct wdb_method methods[] = {
	{ "Disconnect", "", "", sta_disconnect, WDB_PRIVILEGED },
	{ .name = NULL },
};

static const struct wdb_property props[] = {
	{ "Address", "s", get_address, NULL, WDB_PROP_CONST },
	{ "State", "s", get_state, NULL, 0 },
	{ "Signal", "n", get_signal, NULL, WDB_PROP_NO_EMIT },
	{ "ConnectedTime", "u", get_connected_time, NULL, WDB_PROP_NO_EMIT },
	{ .name = NULL },
};

const struct wdb_interface wdb_ap_station_iface = {
	.name = "org.wpad1.ApStation",
	.methods = methods,
	.props = props,
};

/* ---- keeping in step ---- */

static struct wdb_ap_station *find(struct wdb_device *d, const uint8_t addr[6])
{
	for (struct wdb_ap_station *s = d->ap.stas; s; s = s->next)
		if (memcmp(s->addr, addr, 6) == 0)
			return s;
	return NULL;
}

static struct wdb_ap_station *sta_new(struct wdb_device *d, const struct ap_station_info *info)
{
	char path[WDB_PATH_MAX], hex[13];
	struct wdb_ap_station *s = calloc(1, sizeof(*s));
	wdb_hex(hex, info->addr, 6);
	if (!s ||
	    snprintf(path, sizeof(path), "%s/sta_%s", wdb_object_path(d->obj), hex) >=
		    (int)sizeof(path) ||
	    !(s->obj = wdb_object_new(path))) {
		free(s);
		return NULL;
	}
	s->d = d;
	memcpy(s->addr, info->addr, 6);
	s->state = info->state;
	s->next = d->ap.stas;
	d->ap.stas = s;
	wdb_object_add_iface(s->obj, &wdb_ap_station_iface, s);
	return s;
}

static bool visit(void *data, const struct ap_station_info *info)
{
	struct wdb_device *d = data;
	if (info->state != AP_STA_ASSOCIATED && info->state != AP_STA_AUTHORIZED)
		return true;
	struct wdb_ap_station *s = find(d, info->addr);
	if (!s)
		s = sta_new(d, info);
	if (!s)
		return true;
	s->seen = true;
	if (s->state != info->state) {
		s->state = info->state;
		wdb_emit_changed(s->obj, &wdb_ap_station_iface, "State");
	}
	return true;
}

void wdb_ap_stations_sync(struct wdb_device *d)
{
	for (struct wdb_ap_station *s = d->ap.stas; s; s = s->next)
		s->seen = false;
	ap_foreach_station(d->dev->ap, visit, d);
	for (struct wdb_ap_station **pp = &d->ap.stas; *pp;) {
		struct wdb_ap_station *s = *pp;
		if (s->seen) {
			pp = &s->next;
			continue;
		}
		*pp = s->next;
		wdb_object_free(s->obj);
		free(s);
	}
}

void wdb_ap_station_event(struct wdb_device *d, const uint8_t addr[6], const char *what)
{
	wdb_ap_sync(d);
}

void wdb_ap_stations_clear(struct wdb_device *d)
{
	while (d->ap.stas) {
		struct wdb_ap_station *s = d->ap.stas;
		d->ap.stas = s->next;
		wdb_object_free(s->obj);
		free(s);
	}
}
