/* The daemon composition; see wpad.h. */
#define LOG_TAG "wpad"
#include "daemon/wpad.h"
#include "daemon/ap/ap.h"
#include "daemon/config/wpad_conf.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/station/station.h"
#include "daemon/store/known_store.h"
#include "drivers/driver.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define WPAD_MAX_DEVICES 32

struct wpad_radio {
	char name[32];
	struct driver *drv;
	uint32_t radio_id; /* the driver's first radio: one [Radio] is one radio */
	struct wpad *owner;
};

struct wpad {
	struct loop *loop;
	const struct wpad_conf *conf;
	struct wpad_observer obs;
	struct known_store *store;
	struct wpad_radio *radios;
	size_t n_radios;
	struct wpad_device devices[WPAD_MAX_DEVICES];
	size_t n_devices;
};

/* ---- event routing ---- */

static void route_event(void *ctx, const struct driver_event *ev)
{
	struct wpad_radio *radio = ctx;
	struct wpad *w = radio->owner;
	for (size_t i = 0; i < w->n_devices; i++) {
		struct wpad_device *dev = &w->devices[i];
		if (dev->radio != radio || (ev->ifindex && ev->ifindex != dev->ifindex))
			continue;
		if (dev->station)
			station_handle_event(dev->station, ev);
		else if (dev->ap)
			ap_handle_event(dev->ap, ev);
	}
	if (ev->type == DRIVER_EV_RADIO_ERROR)
		log_error("radio %s: %s (%s)", radio->name,
			  ev->u.radio_error.detail ? ev->u.radio_error.detail : "radio error",
			  strerror(-ev->u.radio_error.err));
}

/* ---- role callbacks ---- */

/* AP + station on one radio: the AP follows the station's channel, a thing
 * two separate daemons cannot coordinate. */
static void follow_station_channel(struct wpad_device *sta)
{
	uint32_t freq = station_frequency(sta->station);
	struct wpad *w = sta->owner;
	for (size_t i = 0; i < w->n_devices; i++) {
		struct wpad_device *dev = &w->devices[i];
		if (dev->kind != WPAD_DEVICE_AP || dev->radio != sta->radio || !freq)
			continue;
		int r = ap_set_channel(dev->ap, freq);
		if (r < 0)
			log_warn("%s: cannot follow station %s to %u MHz: %s", dev->name, sta->name,
				 freq, strerror(-r));
		else
			log_info("%s: follows station %s to %u MHz", dev->name, sta->name, freq);
	}
}

static void on_station_state(void *ctx, enum station_state old_state,
			     enum station_state new_state)
{
	struct wpad_device *dev = ctx;
	struct wpad *w = dev->owner;
	if (new_state == STATION_CONNECTED)
		follow_station_channel(dev);
	if (w->obs.station_state)
		w->obs.station_state(w->obs.ctx, dev, station_state_name(old_state),
				     station_state_name(new_state));
}

static void on_station_connect_done(void *ctx, const struct wpad_error *err)
{
	struct wpad_device *dev = ctx;
	struct wpad *w = dev->owner;
	if (err)
		log_warn("%s: connect failed: %s: %s", dev->name, wpad_error_name(err->code),
			 err->text);
	if (w->obs.station_connect_done)
		w->obs.station_connect_done(w->obs.ctx, dev, err);
}

static void on_ap_state(void *ctx, enum ap_state old_state, enum ap_state new_state)
{
	struct wpad_device *dev = ctx;
	if (dev->owner->obs.ap_state)
		dev->owner->obs.ap_state(dev->owner->obs.ctx, dev, ap_state_to_string(new_state));
}

static void ap_station_event(struct wpad_device *dev, const uint8_t addr[6], const char *what)
{
	if (dev->owner->obs.ap_station)
		dev->owner->obs.ap_station(dev->owner->obs.ctx, dev, addr, what);
}

static void on_ap_station_added(void *ctx, const uint8_t addr[6])
{
	ap_station_event(ctx, addr, "associated");
}

static void on_ap_station_authorized(void *ctx, const uint8_t addr[6])
{
	ap_station_event(ctx, addr, "authorized");
}

static void on_ap_station_removed(void *ctx, const uint8_t addr[6], uint16_t reason)
{
	ap_station_event(ctx, addr, "left");
}

static void on_ap_mic_failure(void *ctx, const uint8_t addr[6], unsigned count)
{
	ap_station_event(ctx, addr, "mic-failure");
}

/* ---- building ---- */

static int open_radios(struct wpad *w, struct wpad_error *err)
{
	const struct wpad_conf *conf = w->conf;
	w->radios = calloc(conf->n_radios ? conf->n_radios : 1, sizeof(*w->radios));
	if (!w->radios)
		return -ENOMEM;
	for (size_t i = 0; i < conf->n_radios; i++) {
		const struct wpad_conf_radio *cr = &conf->radios[i];
		struct wpad_radio *r = &w->radios[w->n_radios];
		const char *backend = wpad_driver_kind_name(cr->driver);
		int e = 0;
		snprintf(r->name, sizeof(r->name), "%s", cr->name);
		r->owner = w;
		r->drv = driver_open(backend, w->loop, cr->options, route_event, r, &e);
		if (!r->drv) {
			wpad_error_set(err, e == -ENOENT ? WPAD_ERR_NOT_SUPPORTED
							 : wpad_error_code_from_errno(e),
				       e, -1, -1, "radio %s: cannot open driver %s: %s%s", cr->name,
				       backend, strerror(-e),
				       e == -ENOENT ? " (this build has no such backend)" : "");
			return e;
		}
		w->n_radios++;
		struct driver_radio_info info;
		size_t n = 0;
		e = driver_list_radios(r->drv, &info, 1, &n);
		if (e < 0 || n == 0) {
			wpad_error_set(err, WPAD_ERR_NOT_FOUND, e, -1, -1,
				       "radio %s: the %s driver has no radio", cr->name, backend);
			return e < 0 ? e : -ENODEV;
		}
		r->radio_id = info.id;
		log_info("radio %s: driver %s, %s", r->name, backend, info.name);
	}
	return 0;
}

static struct wpad_radio *radio_by_name(struct wpad *w, const char *name)
{
	for (size_t i = 0; i < w->n_radios; i++)
		if (strcmp(w->radios[i].name, name) == 0)
			return &w->radios[i];
	return NULL;
}

static struct wpad_device *add_device(struct wpad *w, enum wpad_device_kind kind,
				      const char *name, const char *radio_name,
				      struct wpad_error *err)
{
	struct wpad_radio *radio = radio_by_name(w, radio_name);
	if (!radio) {
		wpad_error_set(err, WPAD_ERR_NOT_FOUND, 0, -1, -1, "%s: no radio named %s", name,
			       radio_name);
		return NULL;
	}
	if (w->n_devices == WPAD_MAX_DEVICES) {
		wpad_error_set(err, WPAD_ERR_BUSY, 0, -1, -1, "too many interfaces");
		return NULL;
	}
	struct wpad_device *dev = &w->devices[w->n_devices];
	memset(dev, 0, sizeof(*dev));
	dev->kind = kind;
	dev->radio = radio;
	dev->owner = w;
	snprintf(dev->name, sizeof(dev->name), "%s", name);
	enum driver_iftype type = kind == WPAD_DEVICE_AP ? DRIVER_IFTYPE_AP : DRIVER_IFTYPE_STATION;
	int e = driver_iface_add(radio->drv, radio->radio_id, NULL, type, NULL, &dev->ifindex);
	if (e == 0)
		e = driver_iface_set_up(radio->drv, dev->ifindex, true);
	if (e < 0) {
		wpad_error_set(err, wpad_error_code_from_errno(e), e, -1, -1,
			       "%s: cannot create a %s interface on radio %s: %s", name,
			       driver_iftype_name(type), radio->name, strerror(-e));
		if (dev->ifindex)
			driver_iface_del(radio->drv, dev->ifindex);
		return NULL;
	}
	w->n_devices++;
	return dev;
}

static int add_station(struct wpad *w, const struct wpad_conf_station *cs, struct wpad_error *err)
{
	static const struct station_callbacks proto = {
		.state_changed = on_station_state,
		.connect_done = on_station_connect_done,
	};
	struct wpad_device *dev = add_device(w, WPAD_DEVICE_STATION, cs->name, cs->radio, err);
	if (!dev)
		return -ENODEV;
	struct station_callbacks cb = proto;
	cb.ctx = dev;
	dev->station = station_new(w->loop, dev->radio->drv, dev->ifindex, w->store, &cb);
	if (!dev->station) {
		wpad_error_set(err, WPAD_ERR_FAILED, ENOMEM, -1, -1, "%s: cannot create station",
			       cs->name);
		return -ENOMEM;
	}
	station_set_autoconnect(dev->station, cs->autoconnect);
	log_info("%s: station on radio %s (ifindex %u)", dev->name, dev->radio->name, dev->ifindex);
	return 0;
}

static int add_ap(struct wpad *w, const struct wpad_conf_ap *ca, struct wpad_error *err)
{
	static const struct ap_callbacks proto = {
		.state_changed = on_ap_state,
		.station_added = on_ap_station_added,
		.station_authorized = on_ap_station_authorized,
		.station_removed = on_ap_station_removed,
		.mic_failure = on_ap_mic_failure,
	};
	struct wpad_device *dev = add_device(w, WPAD_DEVICE_AP, ca->name, ca->radio, err);
	if (!dev)
		return -ENODEV;
	struct ap_callbacks cb = proto;
	cb.ctx = dev;
	dev->ap = ap_new(w->loop, dev->radio->drv, dev->ifindex, &cb);
	if (!dev->ap) {
		wpad_error_set(err, WPAD_ERR_FAILED, ENOMEM, -1, -1, "%s: cannot create AP", ca->name);
		return -ENOMEM;
	}
	int e = ap_start(dev->ap, &ca->profile, err);
	if (e < 0) {
		log_error("%s: access point did not start: %s", ca->name, err->text);
		return e;
	}
	return 0;
}

static int open_store(struct wpad *w, struct wpad_error *err)
{
	const char *dir = w->conf->state_dir;
	int e = known_store_open(dir, &w->store);
	if (e == 0)
		e = known_store_load(w->store);
	if (e < 0) {
		wpad_error_set(err, e == -EACCES ? WPAD_ERR_PERMISSION_DENIED : WPAD_ERR_FAILED, e,
			       -1, -1, "state folder %s: %s (create it or set StateDirectory)", dir,
			       strerror(-e));
		return e;
	}
	return 0;
}

struct wpad *wpad_new(struct loop *loop, const struct wpad_conf *conf,
		      const struct wpad_observer *obs, struct wpad_error *err)
{
	struct wpad *w = calloc(1, sizeof(*w));
	if (!w) {
		wpad_error_set(err, WPAD_ERR_FAILED, ENOMEM, -1, -1, "out of memory");
		return NULL;
	}
	w->loop = loop;
	w->conf = conf;
	if (obs)
		w->obs = *obs;
	wpad_error_clear(err);
	if (open_store(w, err) < 0 || open_radios(w, err) < 0)
		goto fail;
	for (size_t i = 0; i < conf->n_aps; i++)
		if (add_ap(w, &conf->aps[i], err) < 0)
			goto fail;
	for (size_t i = 0; i < conf->n_stations; i++)
		if (add_station(w, &conf->stations[i], err) < 0)
			goto fail;
	return w;
fail:
	wpad_free(w);
	return NULL;
}

void wpad_free(struct wpad *w)
{
	if (!w)
		return;
	/* Roles first (they may still talk to their driver), then drivers. */
	for (size_t i = w->n_devices; i-- > 0;) {
		struct wpad_device *dev = &w->devices[i];
		if (dev->station)
			station_free(dev->station);
		if (dev->ap) {
			ap_stop(dev->ap);
			ap_free(dev->ap);
		}
		driver_iface_del(dev->radio->drv, dev->ifindex);
	}
	for (size_t i = 0; i < w->n_radios; i++)
		driver_close(w->radios[i].drv);
	free(w->radios);
	known_store_free(w->store);
	free(w);
}

size_t wpad_device_count(const struct wpad *w)
{
	return w->n_devices;
}

struct wpad_device *wpad_device_at(struct wpad *w, size_t i)
{
	return i < w->n_devices ? &w->devices[i] : NULL;
}

struct wpad_device *wpad_device_find(struct wpad *w, const char *name)
{
	for (size_t i = 0; i < w->n_devices; i++)
		if (strcmp(w->devices[i].name, name) == 0)
			return &w->devices[i];
	return NULL;
}

struct known_store *wpad_known_store(struct wpad *w)
{
	return w->store;
}
