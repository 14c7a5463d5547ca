/* org.wpad1.AccessPoint on AP devices. */
#define LOG_TAG "dbus"
#include "daemon/ap/ap.h"

#include "daemon/config/ap_profile.h"
#include "daemon/core/log.h"
#include "daemon/wpad.h"
#include "dbus/apdict.h"
#include "dbus/errors.h"
#include "dbus/wdbus_i.h"
#include "drivers/driver.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static struct ap *ap_of(const struct wdb_device *d)
{
	return d->dev->ap;
}

static bool started(const struct wdb_device *d)
{
	enum ap_state st = ap_get_state(ap_of(d));
	return st == AP_STATE_STARTED || st == AP_STATE_SWITCHING;
}

/* The State property: the role's state, "running" for started. */
static const char *state_name(const struct wdb_device *d)
{
	enum ap_state st = ap_get_state(ap_of(d));
	return st == AP_STATE_STARTED ? "running" : ap_state_to_string(st);
}

static uint32_t frequency(const struct wdb_device *d)
{
	struct driver_iface_info info;
	if (!started(d) ||
	    driver_iface_info(wpad_radio_driver(d->dev->radio), d->dev->ifindex, &info) < 0)
		return 0;
	return info.freq_mhz;
}

/* ---- methods ---- */

static DBusMessage *start(void *data, DBusMessage *msg)
{
	struct wdb_device *d = data;
	struct ap_profile p;
	struct wpad_error err;
	if (!d->dev->powered)
		return wdb_device_down_reply(d, msg);
	if (ap_get_state(ap_of(d)) != AP_STATE_STOPPED)
		return wdb_error_replyf(msg, WPAD_ERR_BUSY,
					"the access point %s is %s; Stop it first", d->dev->name,
					ap_state_to_string(ap_get_state(ap_of(d))));
	ap_profile_init(&p);
	int r = wdb_ap_profile_from_message(msg, &p, &err);
	if (r == 0)
		r = wpad_ap_start(d->dev, &p, &err);
	ap_profile_clear(&p);
	if (r < 0) {
		log_info("%s: AccessPoint.Start refused: %s: %s", d->dev->name,
			 wpad_error_name(err.code), err.text);
		return wdb_error_reply(msg, &err);
	}
	wdb_ap_sync(d);
	return dbus_message_new_method_return(msg);
}

static DBusMessage *stop(void *data, DBusMessage *msg)
{
	struct wdb_device *d = data;
	if (ap_get_state(ap_of(d)) == AP_STATE_STOPPED)
		return wdb_error_replyf(msg, WPAD_ERR_NOT_CONNECTED,
					"the access point %s is not started", d->dev->name);
	ap_stop(ap_of(d)); /* 0, or -EALREADY while stopping: wait either way */
	if (ap_get_state(ap_of(d)) == AP_STATE_STOPPED)
		return dbus_message_new_method_return(msg);
	if (!wdb_pending_add(&d->ap.stops, msg))
		return wdb_error_replyf(msg, WPAD_ERR_BUSY, "too many callers waiting");
	return WDB_REPLY_LATER;
}

static DBusMessage *rescan_channel(void *data, DBusMessage *msg)
{
	struct wdb_device *d = data;
	int r = ap_rescan_channel(ap_of(d));
	if (r == -ENOTCONN)
		return wdb_error_replyf(msg, WPAD_ERR_NOT_CONNECTED,
					"the access point %s is not running", d->dev->name);
	if (r == -EOPNOTSUPP)
		return wdb_error_replyf(msg, WPAD_ERR_NOT_SUPPORTED,
					"the access point %s has a configured channel (Channel=auto "
					"chooses one)", d->dev->name);
	if (r < 0)
		return wdb_error_replyf(msg, wpad_error_code_from_errno(r),
					"choosing a channel again failed: %s", strerror(-r));
	wdb_ap_sync(d);
	return dbus_message_new_method_return(msg);
}

/* ---- properties ---- */

static bool get_state(void *data, DBusMessageIter *it)
{
	return wdb_append_str(it, state_name(data));
}

static bool get_width(void *data, DBusMessageIter *it)
{
	struct wdb_device *d = data;
	dbus_uint32_t w = started(d) ? ap_channel_width(ap_of(d)) : 0;
	return wdb_append_basic(it, DBUS_TYPE_UINT32, &w);
}

static bool get_choice(void *data, DBusMessageIter *it)
{
	struct wdb_device *d = data;
	return wdb_append_str(it, ap_channel_choice(ap_of(d)));
}

static bool get_started(void *data, DBusMessageIter *it)
{
	dbus_bool_t b = started(data);
	return wdb_append_basic(it, DBUS_TYPE_BOOLEAN, &b);
}

static bool get_ssid(void *data, DBusMessageIter *it)
{
	struct wdb_device *d = data;
	return wdb_append_bytes_as_str(it, d->dev->ap_ssid, started(d) ? d->dev->ap_ssid_len : 0);
}

static bool get_frequency(void *data, DBusMessageIter *it)
{
	dbus_uint32_t f = frequency(data);
	return wdb_append_basic(it, DBUS_TYPE_UINT32, &f);
}

static bool get_security(void *data, DBusMessageIter *it)
{
	struct wdb_device *d = data;
	return wdb_append_str(it, !started(d) ? "" : d->dev->ap_secured ? "wpa2-psk" : "open");
}

static bool get_count(void *data, DBusMessageIter *it)
{
	struct wdb_device *d = data;
	dbus_uint32_t n = (dbus_uint32_t)ap_associated_count(ap_of(d));
	return wdb_append_basic(it, DBUS_TYPE_UINT32, &n);
}

static const struct wdb_method methods[] = {
	{ "Start", "a{sv} settings", "", start, WDB_PRIVILEGED },
	{ "Stop", "", "", stop, WDB_PRIVILEGED | WDB_ASYNC },
	{ "RescanChannel", "", "", rescan_channel, WDB_PRIVILEGED },
	{ .name = NULL },
};

static const struct wdb_property props[] = {
	{ "Started", "b", get_started, NULL, 0 },
	{ "SSID", "s", get_ssid, NULL, 0 },
	{ "Frequency", "u", get_frequency, NULL, 0 },
	{ "Security", "s", get_security, NULL, 0 },
	{ "StationCount", "u", get_count, NULL, 0 },
	{ "ChannelWidth", "u", get_width, NULL, 0 },
	{ "State", "s", get_state, NULL, 0 },
	{ "ChannelChoice", "s", get_choice, NULL, 0 },
	{ .name = NULL },
};

const struct wdb_interface wdb_ap_iface = {
	.name = "org.wpad1.AccessPoint",
	.methods = methods,
	.props = props,
};

/* ---- keeping in step ---- */

void wdb_ap_init(struct wdb_device *d)
{
	memset(&d->ap, 0, sizeof(d->ap));
	d->ap.started = started(d);
	d->ap.freq = frequency(d);
	d->ap.count = (uint32_t)ap_associated_count(ap_of(d));
}

void wdb_ap_exit(struct wdb_device *d, const char *why)
{
	struct wpad_error e;
	wpad_error_set(&e, WPAD_ERR_ABORTED, 0, -1, -1, "%s", why);
	wdb_pending_finish(&d->ap.stops, &e);
}

void wdb_ap_sync(struct wdb_device *d)
{
	bool s = started(d);
	uint32_t f = frequency(d);
	uint32_t n = (uint32_t)ap_associated_count(ap_of(d));
	if (s != d->ap.started) {
		d->ap.started = s;
		wdb_emit_changed(d->obj, &wdb_ap_iface, "Started", "SSID", "Security");
	}
	if (f != d->ap.freq) {
		d->ap.freq = f;
		wdb_emit_changed(d->obj, &wdb_ap_iface, "Frequency");
	}
	if (n != d->ap.count) {
		d->ap.count = n;
		wdb_emit_changed(d->obj, &wdb_ap_iface, "StationCount");
	}
	const char *st = state_name(d);
	if (strcmp(st, d->ap.state) != 0) {
		snprintf(d->ap.state, sizeof(d->ap.state), "%s", st);
		wdb_emit_changed(d->obj, &wdb_ap_iface, "State");
	}
	uint32_t w = s ? ap_channel_width(ap_of(d)) : 0;
	if (w != d->ap.width) {
		d->ap.width = w;
		wdb_emit_changed(d->obj, &wdb_ap_iface, "ChannelWidth");
	}
	if (strcmp(d->ap.choice, ap_channel_choice(ap_of(d))) != 0) {
		snprintf(d->ap.choice, sizeof(d->ap.choice), "%s", ap_channel_choice(ap_of(d)));
		wdb_emit_changed(d->obj, &wdb_ap_iface, "ChannelChoice");
	}
	wdb_ap_stations_sync(d);
	wdb_ap_acl_sync(d);
}

void wdb_ap_state(struct wdb_device *d, const char *state)
{
	wdb_ap_sync(d);
	if (ap_get_state(ap_of(d)) == AP_STATE_STOPPED)
		wdb_pending_finish(&d->ap.stops, NULL);
}
