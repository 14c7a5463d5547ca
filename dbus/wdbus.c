/* Start and stop, the daemon observer and the sync idle; see wdbus.h. */
#define LOG_TAG "dbus"
#include "dbus/wdbus.h"

#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/station/station.h"
#include "daemon/wpad.h"
#include "dbus/access.h"
#include "dbus/agent.h"
#include "dbus/errors.h"
#include "dbus/wdbus_i.h"
#include "dbus/wpas.h"
#include "drivers/driver.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static struct wdb *ctx;

struct wdb *wdb_get(void)
{
	return ctx;
}

struct wdb_device *wdb_device_of(struct wpad_device *dev)
{
	for (size_t i = 0; ctx && i < ctx->n_devices; i++)
		if (ctx->devices[i] && ctx->devices[i]->dev == dev)
			return ctx->devices[i];
	return NULL;
}

/* ---- pending calls ---- */

bool wdb_pending_add(struct wdb_pending *p, DBusMessage *call)
{
	if (p->n == WDB_PENDING_MAX)
		return false;
	p->calls[p->n++] = dbus_message_ref(call);
	return true;
}

void wdb_pending_finish(struct wdb_pending *p, const struct wpad_error *err)
{
	while (p->n) {
		DBusMessage *call = p->calls[--p->n];
		wdb_reply_later(call, err ? wdb_error_reply(call, err)
					  : dbus_message_new_method_return(call));
	}
}

/* ---- sync: derived properties and object sets, once per iteration ---- */

static void sync_now(struct loop_idle *idle, void *data)
{
	if (!ctx || ctx->closing)
		return;
	for (size_t i = 0; i < ctx->n_devices; i++) {
		struct wdb_device *d = ctx->devices[i];
		if (!d || !d->dev) /* a device that went (on_device_removed) */
			continue;
		wdb_device_changed(d);
		if (d->dev->station)
			wdb_station_sync(d);
		if (d->dev->ap)
			wdb_ap_sync(d);
	}
	wdb_known_sync(ctx);
	wpas_sync(ctx);
}

void wdb_schedule_sync(void)
{
	if (ctx && ctx->sync)
		loop_idle_schedule(ctx->sync);
}

/* ---- the daemon observer ---- */

static struct wdb_device *live(struct wpad_device *dev)
{
	return ctx && !ctx->closing ? wdb_device_of(dev) : NULL;
}

static void on_station_state(void *c, struct wpad_device *dev, const char *o, const char *n)
{
	struct wdb_device *d = live(dev);
	if (d) {
		wdb_station_state(d);
		wpas_station_state(d);
	}
}

static void on_connect_done(void *c, struct wpad_device *dev, const struct wpad_error *err)
{
	struct wdb_device *d = live(dev);
	if (d)
		wdb_station_connect_done(d, err);
}

static void on_scan_done(void *c, struct wpad_device *dev)
{
	struct wdb_device *d = live(dev);
	if (d) {
		wdb_station_scan_done(d);
		wpas_scan_done(d);
	}
}

static void on_disconnected(void *c, struct wpad_device *dev, const struct wpad_error *why)
{
	if (live(dev))
		wdb_schedule_sync();
}

static void on_ap_state(void *c, struct wpad_device *dev, const char *state)
{
	struct wdb_device *d = live(dev);
	if (d)
		wdb_ap_state(d, state);
	if (d)
		wpas_ap_state(d);
}

static void on_ap_station(void *c, struct wpad_device *dev, const uint8_t addr[6],
			  const char *what)
{
	struct wdb_device *d = live(dev);
	if (d)
		wdb_ap_station_event(d, addr, what);
	if (d)
		wpas_ap_station(d, addr, what);
}

static void on_device_changed(void *c, struct wpad_device *dev)
{
	struct wdb_device *d = live(dev);
	if (d)
		wdb_device_changed(d);
}

static void on_device_mode(void *c, struct wpad_device *dev, bool done)
{
	struct wdb_device *d = live(dev);
	if (d && !done)
		wpas_device_gone(d);
	if (d)
		wdb_device_mode(d, done);
}

static void on_wired_state(void *c, struct wpad_device *dev, const char *o, const char *n)
{
	struct wdb_device *d = live(dev);
	if (d)
		wdb_wired_sync(d);
}

static void on_station_need_secret(void *c, struct wpad_device *dev, int which)
{
	struct wdb_device *d = live(dev);
	if (d)
		wdb_station_need_secret(d, which);
	else
		station_eap_secret(dev->station, which, NULL);
}

static void on_wired_need_secret(void *c, struct wpad_device *dev, int which)
{
	struct wdb_device *d = live(dev);
	if (d)
		wdb_wired_need_secret(d, which);
	else
		wpad_wired_set_secret(dev, which, NULL);
}

/* A device slot, allocated on its first use and kept until the bus stops
 * (wdbus_stop), so no wdb_device ever moves; NULL when out of memory. */
static struct wdb_device *device_slot(struct wdb *b, size_t i)
{
	if (!b->devices[i])
		b->devices[i] = calloc(1, sizeof(*b->devices[i]));
	return b->devices[i];
}

/* A device adopted at run time (the front's CreateInterface): exported
 * like those of wpad.conf, in a free slot or a new one: one that went
 * leaves its slot empty (dev NULL) for the next. */
static void on_device_added(void *c, struct wpad_device *dev)
{
	if (!ctx || ctx->closing || wdb_device_of(dev))
		return;
	struct wdb_device *d = NULL;
	for (size_t i = 0; i < ctx->n_devices && !d; i++)
		if (!ctx->devices[i] || !ctx->devices[i]->dev)
			d = device_slot(ctx, i);
	if (!d && ctx->n_devices < WPAD_MAX_DEVICES && device_slot(ctx, ctx->n_devices))
		d = ctx->devices[ctx->n_devices++];
	if (!d)
		return;
	if (wdb_device_add(d, dev) < 0) {
		log_warn("%s: not exported on D-Bus (out of memory)", dev->name);
		wdb_device_remove(d, "out of memory");
	}
	wdb_schedule_sync();
}

/* A device adopted at run time given back (the front's RemoveInterface):
 * its object goes, the slot stays empty. */
static void on_device_removed(void *c, struct wpad_device *dev)
{
	struct wdb_device *d = live(dev);
	if (!d)
		return;
	wpas_device_gone(d);
	wdb_device_remove(d, "the interface was given back");
}

/* Frames are too frequent to look at everything after each one; the rest
 * (scans starting and ending, links, radio faults) is worth a sync. */
static void on_device_event(void *c, struct wpad_device *dev, int type)
{
	switch (type) {
	case DRIVER_EV_RX_MGMT:
	case DRIVER_EV_RX_EAPOL:
	case DRIVER_EV_RX_DATA:
	case DRIVER_EV_TX_STATUS:
	case DRIVER_EV_EAPOL_TX_STATUS:
	case DRIVER_EV_PROBE_STATUS:
	case DRIVER_EV_AUTH_TX_STATUS:
	case DRIVER_EV_QUEUE_STOPPED:
	case DRIVER_EV_QUEUE_WOKEN:
		return;
	default:
		if (live(dev))
			wdb_schedule_sync();
	}
}

static const struct wpad_observer observer = {
	.station_state = on_station_state,
	.station_connect_done = on_connect_done,
	.station_scan_done = on_scan_done,
	.station_disconnected = on_disconnected,
	.ap_state = on_ap_state,
	.ap_station = on_ap_station,
	.device_changed = on_device_changed,
	.device_mode = on_device_mode,
	.device_event = on_device_event,
	.wired_state = on_wired_state,
	.wired_need_secret = on_wired_need_secret,
	.station_need_secret = on_station_need_secret,
	.device_added = on_device_added,
	.device_removed = on_device_removed,
};

/* ---- building ---- */

static int export_all(struct wdb *b)
{
	int r = wdb_manager_init(b);
	b->n_radios = wpad_radio_count(b->w);
	b->n_devices = wpad_device_count(b->w);
	b->radios = calloc(b->n_radios + 1, sizeof(*b->radios));
	b->devices = calloc(WPAD_MAX_DEVICES, sizeof(*b->devices)); /* pointers */
	if (!b->radios || !b->devices)
		return -ENOMEM;
	for (size_t i = 0; r == 0 && i < b->n_radios; i++)
		r = wdb_radio_add(&b->radios[i], wpad_radio_at(b->w, i));
	for (size_t i = 0; r == 0 && i < b->n_devices; i++)
		if (wpad_device_at(b->w, i))
			r = device_slot(b, i) ? wdb_device_add(b->devices[i], wpad_device_at(b->w, i))
					      : -ENOMEM;
	if (r == 0)
		sync_now(NULL, NULL);
	return r;
}

static int start(struct loop *loop, struct wpad *w, enum wdb_bus_kind kind, const char *address,
		 struct wpad_error *err)
{
	int r = libdbus_load(err);
	if (r < 0)
		return r;
	r = wdb_bus_open(loop, kind, address, err);
	if (r < 0)
		return r;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx) {
		wdb_bus_close();
		return wpad_error_set(err, WPAD_ERR_FAILED, ENOMEM, -1, -1, "out of memory"), -ENOMEM;
	}
	ctx->loop = loop;
	ctx->w = w;
	ctx->sync = loop_idle_new(loop, sync_now, NULL);
	wdb_access_init();
	wdb_agent_init();
	r = ctx->sync ? export_all(ctx) : -ENOMEM;
	if (r < 0) {
		wpad_error_set(err, WPAD_ERR_FAILED, r, -1, -1, "cannot export the D-Bus objects");
		wdbus_stop();
		return r;
	}
	struct wpad_observer obs = observer;
	obs.ctx = ctx;
	if (wpad_add_observer(w, &obs) < 0 || (r = wdb_bus_request_name(WDB_NAME, err)) < 0) {
		if (r == 0)
			wpad_error_set(err, WPAD_ERR_FAILED, ENOSPC, -1, -1, "too many observers");
		wdbus_stop();
		return r < 0 ? r : -ENOSPC;
	}
	log_info("D-Bus API ready: %s on %s", WDB_NAME, wdb_bus_unique_name());
	if ((r = wpas_start(ctx, err)) < 0) {
		wdbus_stop();
		return r;
	}
	return 0;
}

/* Without a bus, libdbus and the libraries it brought are unloaded again
 * (by then wdbus_stop() and wdb_bus_close() have dropped everything made
 * from it): a daemon running without the D-Bus API does not carry them. */
int wdbus_start(struct loop *loop, struct wpad *w, enum wdb_bus_kind kind, const char *address,
		struct wpad_error *err)
{
	int r = start(loop, w, kind, address, err);
	if (r < 0)
		libdbus_unload();
	return r;
}

void wdbus_stopping(void)
{
	wdb_objects_set_stopping(true);
}

void wdbus_stop(void)
{
	if (!ctx)
		return;
	ctx->closing = true;
	wdb_objects_set_closing(true);
	wpad_remove_observer(ctx->w, ctx);
	wpas_stop(ctx);
	for (size_t i = 0; i < ctx->n_devices; i++)
		if (ctx->devices[i] && ctx->devices[i]->dev)
			wdb_device_remove(ctx->devices[i], "wpad is shutting down");
	wdb_agent_exit();
	wdb_known_clear(ctx);
	for (size_t i = 0; i < ctx->n_radios; i++)
		wdb_radio_remove(&ctx->radios[i]);
	wdb_bus_drain(); /* objects gone, reg.closing: each is told Aborted */
	wdb_manager_exit(ctx);
	wdb_bus_release_name(WDB_NAME);
	wdb_objects_clear();
	wdb_bus_close();
	wdb_access_clear();
	wdb_objects_set_closing(false);
	wdb_objects_set_stopping(false);
	loop_idle_free(ctx->sync);
	free(ctx->radios);
	for (size_t i = 0; i < ctx->n_devices; i++)
		free(ctx->devices[i]);
	free(ctx->devices);
	free(ctx);
	ctx = NULL;
}
