/* The daemon composition; see wpad.h. */
#define LOG_TAG "wpad"
#include "daemon/wpad.h"
#include "daemon/ap/ap.h"
#include "daemon/config/ap_profile.h"
#include "daemon/config/wpad_conf.h"
#include "daemon/core/file_watch.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/station/station.h"
#include "daemon/store/known_store.h"
#include "daemon/wired/wired_port.h"
#include "drivers/driver.h"
#include "eap/eap_peer_catalogue.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct wpad_radio {
	char name[32];
	const char *backend;
	struct driver *drv;
	uint32_t radio_id; /* the driver's first radio: one [Radio] is one radio */
	struct wpad *owner;
	bool has_error;
	struct wpad_error error; /* the radio's own failure (firmware, rfkill) */
};

/* Leaving gracefully: peers are told (deauthentication) before the roles
 * and radios go, so they reconnect elsewhere at once instead of waiting
 * for beacon loss. */
struct wpad_shutdown {
	void (*done)(void *ctx);
	void *ctx;
	bool grace_over;          /* a station's deauth has left the driver's queue */
	struct loop_timer *grace; /* WPAD_SHUTDOWN_GRACE_MS */
	struct loop_timer *limit; /* WPAD_SHUTDOWN_LIMIT_MS: silent peers never hold us */
};

struct wpad {
	struct loop *loop;
	const struct wpad_conf *conf;
	struct wpad_observer obs[WPAD_MAX_OBSERVERS];
	size_t n_obs;
	struct known_store *store;
	struct wpad_radio *radios;
	size_t n_radios;
	struct wpad_device devices[WPAD_MAX_DEVICES];
	size_t n_devices;
	struct wpad_shutdown shutdown;
	/* MacAllowFile/MacDenyFile of the running APs, reloaded on change;
	 * made with the first such file. */
	struct file_watch *acl_watch;
};

/* ---- observers ---- */

/* Calls hook of every observer. A snapshot is walked, so a hook may add
 * or remove observers. */
#define NOTIFY(w, hook, ...)                                                                      \
	do {                                                                                      \
		struct wpad_observer snap_[WPAD_MAX_OBSERVERS];                                   \
		size_t n_ = (w)->n_obs;                                                           \
		memcpy(snap_, (w)->obs, n_ * sizeof(snap_[0]));                                   \
		for (size_t i_ = 0; i_ < n_; i_++)                                                \
			if (snap_[i_].hook && observer_present((w), snap_[i_].ctx))               \
				snap_[i_].hook(snap_[i_].ctx, __VA_ARGS__);                       \
	} while (0)

static bool observer_present(const struct wpad *w, void *ctx)
{
	for (size_t i = 0; i < w->n_obs; i++)
		if (w->obs[i].ctx == ctx)
			return true;
	return false;
}

int wpad_add_observer(struct wpad *w, const struct wpad_observer *obs)
{
	if (w->n_obs == WPAD_MAX_OBSERVERS)
		return -ENOSPC;
	w->obs[w->n_obs++] = *obs;
	return 0;
}

void wpad_remove_observer(struct wpad *w, void *ctx)
{
	size_t j = 0;
	for (size_t i = 0; i < w->n_obs; i++)
		if (w->obs[i].ctx != ctx)
			w->obs[j++] = w->obs[i];
	w->n_obs = j;
}

void wpad_device_set_error(struct wpad_device *dev, const struct wpad_error *err)
{
	dev->last_error = *err;
	NOTIFY(dev->owner, device_changed, dev);
}

enum wpad_error_code wpad_device_error_code(const struct wpad_device *dev, int err)
{
	const struct wpad_radio *r = dev->radio;
	if (r->has_error && r->error.code == WPAD_ERR_FIRMWARE_MISSING)
		return WPAD_ERR_FIRMWARE_MISSING;
	return wpad_error_code_from_errno(err);
}

/* ---- event routing ---- */

/* The radio reported a fault: remember it (later failures of its
 * interfaces are explained by it) and tell every device of the radio. */
static void radio_failed(struct wpad_radio *radio, const struct driver_event *ev)
{
	static const char *const what[] = {
		[DRIVER_RADIO_ERR_FIRMWARE_MISSING] = "the adapter's firmware is missing",
		[DRIVER_RADIO_ERR_FIRMWARE_CRASH] = "the adapter's firmware crashed",
		[DRIVER_RADIO_ERR_RFKILL] = "the radio was switched off (rfkill)",
	};
	enum driver_radio_error kind = ev->u.radio_error.kind;
	const char *detail = ev->u.radio_error.detail ? ev->u.radio_error.detail : "no detail";
	enum wpad_error_code code = kind == DRIVER_RADIO_ERR_FIRMWARE_MISSING
					    ? WPAD_ERR_FIRMWARE_MISSING
					    : WPAD_ERR_DRIVER_ERROR;
	log_error("radio %s: %s (%s)", radio->name, what[kind], detail);
	wpad_error_set(&radio->error, code, ev->u.radio_error.err, -1, -1, "radio %s: %s: %s",
		       radio->name, what[kind], detail);
	radio->has_error = true;
	struct wpad *w = radio->owner;
	for (size_t i = 0; i < w->n_devices; i++)
		if (w->devices[i].radio == radio)
			wpad_device_set_error(&w->devices[i], &radio->error);
}

static void route_event(void *ctx, const struct driver_event *ev)
{
	struct wpad_radio *radio = ctx;
	struct wpad *w = radio->owner;
	if (ev->type == DRIVER_EV_RADIO_ERROR)
		radio_failed(radio, ev);
	for (size_t i = 0; i < w->n_devices; i++) {
		struct wpad_device *dev = &w->devices[i];
		if (dev->radio != radio || (ev->ifindex && ev->ifindex != dev->ifindex))
			continue;
		if (dev->station)
			station_handle_event(dev->station, ev);
		else if (dev->ap)
			ap_handle_event(dev->ap, ev);
		else if (dev->wired)
			wired_port_handle_event(dev->wired, ev);
		NOTIFY(w, device_event, dev, (int)ev->type);
	}
}

/* ---- role callbacks ---- */

/* AP + station on one radio: the AP follows the station's channel, a thing
 * two separate daemons cannot coordinate. Usually it is there already
 * (announced before the station went: on_station_radio_move); this
 * catches the moves that could not be announced. */
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

/* The station of a radio is about to take it to freq: every AP of the
 * radio announces its move there first (a CSA its stations follow), and
 * the station waits for the longest of them. */
static uint32_t on_station_radio_move(void *ctx, uint32_t freq)
{
	struct wpad_device *sta = ctx;
	struct wpad *w = sta->owner;
	uint32_t wait_ms = 0;
	for (size_t i = 0; i < w->n_devices; i++) {
		struct wpad_device *dev = &w->devices[i];
		if (dev->kind != WPAD_DEVICE_AP || dev->radio != sta->radio || !dev->ap)
			continue;
		uint32_t ms = ap_announce_move(dev->ap, freq);
		if (ms)
			log_info("%s: announces its move to %u MHz, where station %s goes", dev->name,
				 freq, sta->name);
		if (ms > wait_ms)
			wait_ms = ms;
	}
	return wait_ms;
}

/* An AP of the radio ended its channel switch: once none is switching, a
 * station that waited for them goes on. */
static void radio_switches_done(struct wpad_device *ap_dev)
{
	struct wpad *w = ap_dev->owner;
	for (size_t i = 0; i < w->n_devices; i++) {
		struct wpad_device *dev = &w->devices[i];
		if (dev->radio == ap_dev->radio && dev->ap &&
		    ap_get_state(dev->ap) == AP_STATE_SWITCHING)
			return;
	}
	for (size_t i = 0; i < w->n_devices; i++) {
		struct wpad_device *dev = &w->devices[i];
		if (dev->radio == ap_dev->radio && dev->station)
			station_radio_ready(dev->station);
	}
}

static void on_station_state(void *ctx, enum station_state old_state,
			     enum station_state new_state)
{
	struct wpad_device *dev = ctx;
	struct wpad *w = dev->owner;
	if (new_state == STATION_CONNECTED)
		follow_station_channel(dev);
	NOTIFY(w, station_state, dev, station_state_name(old_state), station_state_name(new_state));
}

/* last_error holds what ended the last attempt: a success clears it, a
 * step that the attempt goes on from (a passphrase its caller will ask
 * for) never sets it, nor does a cancel. */
static void on_station_connect_done(void *ctx, const struct wpad_error *err)
{
	struct wpad_device *dev = ctx;
	struct wpad *w = dev->owner;
	if (!err && wpad_error_is_set(&dev->last_error)) {
		wpad_error_clear(&dev->last_error);
		NOTIFY(w, device_changed, dev);
	} else if (err && err->code == WPAD_ERR_NO_AGENT && dev->connect_asks_passphrase) {
		log_info("%s: the network needs a passphrase; the connect goes on once one is given",
			 dev->name);
	} else if (err) {
		log_warn("%s: connect failed: %s: %s", dev->name, wpad_error_name(err->code),
			 err->text);
		if (err->code != WPAD_ERR_ABORTED)
			wpad_device_set_error(dev, err);
	}
	NOTIFY(w, station_connect_done, dev, err);
}

static void on_station_scan_done(void *ctx)
{
	struct wpad_device *dev = ctx;
	NOTIFY(dev->owner, station_scan_done, dev);
}

static void on_station_disconnected(void *ctx, const struct wpad_error *why)
{
	struct wpad_device *dev = ctx;
	if (why && why->code != WPAD_ERR_ABORTED)
		wpad_device_set_error(dev, why);
	NOTIFY(dev->owner, station_disconnected, dev, why);
}

static void shutdown_check(struct wpad *w);

/* Re-reads dev's MAC lists: a bad file is the device's last_error and
 * changes nothing. Returns 0 or -EINVAL. */
static int reload_access_lists(struct wpad_device *dev)
{
	struct wpad_error err;
	int r = ap_acl_reload(dev->ap, &err);
	if (r < 0)
		wpad_device_set_error(dev, &err);
	NOTIFY(dev->owner, device_event, dev, -1);
	return r < 0 ? -EINVAL : 0;
}

static void acl_file_changed(void *ctx)
{
	struct wpad_device *dev = ctx;
	if (!dev->ap || ap_get_state(dev->ap) != AP_STATE_STARTED)
		return;
	log_info("%s: a MAC list file changed: reloading the access lists", dev->name);
	reload_access_lists(dev);
}

/* A started AP's list files are watched (SIGHUP and D-Bus reload them
 * too); a stopped one's are not. */
static void watch_acl_files(struct wpad_device *dev, bool on)
{
	struct wpad *w = dev->owner;
	file_watch_remove_ctx(w->acl_watch, dev);
	if (!on)
		return;
	const char *paths[2] = { ap_acl_file(dev->ap, AP_ACL_ALLOW),
				 ap_acl_file(dev->ap, AP_ACL_DENY) };
	for (size_t i = 0; i < 2; i++) {
		if (!paths[i])
			continue;
		if (!w->acl_watch && !(w->acl_watch = file_watch_new(w->loop))) {
			log_warn("%s: MAC list files not watched (%s): reload them with SIGHUP",
				 dev->name, strerror(errno));
			return;
		}
		int r = file_watch_add(w->acl_watch, paths[i], acl_file_changed, dev);
		if (r < 0)
			log_warn("%s: %s not watched (%s): reload it with SIGHUP", dev->name,
				 paths[i], strerror(-r));
	}
}

static void on_ap_state(void *ctx, enum ap_state old_state, enum ap_state new_state)
{
	struct wpad_device *dev = ctx;
	if (new_state == AP_STATE_STARTED && old_state != AP_STATE_SWITCHING)
		watch_acl_files(dev, true);
	else if (new_state == AP_STATE_STOPPING || new_state == AP_STATE_STOPPED)
		watch_acl_files(dev, false);
	if (new_state == AP_STATE_STOPPED)
		bridge_port_leave(&dev->bridge);
	if (old_state == AP_STATE_SWITCHING)
		radio_switches_done(dev);
	NOTIFY(dev->owner, ap_state, dev, ap_state_to_string(new_state));
	if (new_state == AP_STATE_STOPPED)
		shutdown_check(dev->owner);
}

static void ap_station_event(struct wpad_device *dev, const uint8_t addr[6], const char *what)
{
	NOTIFY(dev->owner, ap_station, dev, addr, what);
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
		r->backend = backend;
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

/* Several BSSs on one radio: as many AP interfaces as the radio's
 * interface combinations allow (nl80211 NL80211_ATTR_INTERFACE_COMBINATIONS,
 * the sim's model of them). Each later BSS gets an address of its own,
 * derived from the radio's (locally administered, last octet + n), so
 * stations tell the BSSs apart; NULL lets the driver pick the first. */
static int check_combination(struct wpad *w, struct wpad_radio *radio, enum wpad_device_kind kind,
			     const char *name, uint8_t addr[6], bool *has_addr,
			     struct wpad_error *err)
{
	struct driver_capa capa;
	size_t n_ap = 0, n_all = 0;
	*has_addr = false;
	for (size_t i = 0; i < w->n_devices; i++) {
		if (w->devices[i].radio != radio)
			continue;
		n_all++;
		n_ap += w->devices[i].kind == WPAD_DEVICE_AP;
	}
	if (driver_get_capa(radio->drv, radio->radio_id, &capa) < 0)
		return 0; /* the driver will answer for itself */
	size_t max_ap = capa.max_ap_interfaces, max_all = capa.max_interfaces;
	/* Only a second interface is checked here: a radio that cannot be an
	 * AP at all is refused by ap_start, leaving the daemon up. */
	if ((kind == WPAD_DEVICE_AP && n_ap > 0 && n_ap >= max_ap) ||
	    (n_all > 0 && max_all && n_all >= max_all)) {
		wpad_error_set(err, WPAD_ERR_NOT_SUPPORTED, EBUSY, -1, -1,
			       "%s: radio %s allows %zu access point%s and %zu interface%s at once "
			       "(its interface combinations); this one is too many",
			       name, radio->name, max_ap, max_ap == 1 ? "" : "s", max_all,
			       max_all == 1 ? "" : "s");
		log_error("%s", err->text);
		return -EBUSY;
	}
	struct driver_radio_info info[8];
	size_t n = 0;
	if (kind != WPAD_DEVICE_AP || n_ap == 0 || driver_list_radios(radio->drv, info, 8, &n) < 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (info[i].id != radio->radio_id)
			continue;
		memcpy(addr, info[i].perm_addr, 6);
		addr[0] = (uint8_t)((addr[0] | 0x02) & ~0x01);
		addr[5] = (uint8_t)(addr[5] + n_ap);
		*has_addr = true;
	}
	return 0;
}

/* What a failed adoption means, in words that say what to do. */
static void adopt_error(struct wpad_error *err, const char *name, const char *ifname,
			const struct wpad_radio *radio, int e)
{
	enum wpad_error_code code = WPAD_ERR_DRIVER_ERROR;
	const char *why = strerror(-e);
	switch (-e) {
	case ENODEV:
		code = WPAD_ERR_NOT_FOUND;
		why = "no network interface has that name (see `ip link`; is the device's driver "
		      "loaded?)";
		break;
	case EMEDIUMTYPE:
		code = WPAD_ERR_NOT_SUPPORTED;
		why = "it is not a wireless interface of this radio (`iw dev` lists them by phy)";
		break;
	case EBUSY:
		code = WPAD_ERR_BUSY;
		why = "it is in use: wpad has it already, or another program (wpa_supplicant, "
		      "hostapd, iwd) is connected or beaconing on it; stop that program first";
		break;
	case EOPNOTSUPP:
		code = WPAD_ERR_NOT_SUPPORTED;
		why = "this radio's backend cannot take over an existing interface";
		break;
	default: /* the retype refused, usually */
		break;
	}
	wpad_error_set(err, code, e, -1, -1, "%s: cannot use the interface %s of radio %s: %s",
		       name, ifname, radio->name, why);
}

/* The one place that decides between taking the system's interface and
 * creating one: adopt_ifname names an existing netdev ([Station]
 * Interface=, or the fi.w1.wpa_supplicant1 front's CreateInterface); NULL
 * creates one, its address derived as check_combination says. */
static int open_iface(struct wpad_device *dev, enum driver_iftype type, const char *adopt_ifname,
		      const uint8_t *addr, struct wpad_error *err)
{
	struct wpad_radio *radio = dev->radio;
	if (adopt_ifname) {
		int e = driver_iface_adopt(radio->drv, radio->radio_id, adopt_ifname, type,
					   &dev->ifindex);
		if (e < 0)
			adopt_error(err, dev->name, adopt_ifname, radio, e);
		dev->adopted = e == 0;
		return e;
	}
	int e = driver_iface_add(radio->drv, radio->radio_id, NULL, type, addr, &dev->ifindex);
	if (e == -EADDRINUSE && addr) /* taken: the driver picks one */
		e = driver_iface_add(radio->drv, radio->radio_id, NULL, type, NULL, &dev->ifindex);
	if (e < 0)
		wpad_error_set(err, wpad_error_code_from_errno(e), e, -1, -1,
			       "%s: cannot create a %s interface on radio %s: %s", dev->name,
			       driver_iftype_name(type), radio->name, strerror(-e));
	return e;
}

/* Devices never move (roles and observers hold their pointers): one that
 * goes (wpad_station_release) leaves a vacant slot, radio NULL, that every
 * walk over the devices passes by (no radio, no role, no name) and the next
 * device takes. */
static bool vacant(const struct wpad_device *dev)
{
	return dev->radio == NULL;
}

static struct wpad_device *free_slot(struct wpad *w)
{
	for (size_t i = 0; i < w->n_devices; i++)
		if (vacant(&w->devices[i]))
			return &w->devices[i];
	return w->n_devices < WPAD_MAX_DEVICES ? &w->devices[w->n_devices] : NULL;
}

static void vacate(struct wpad *w, struct wpad_device *dev)
{
	memset(dev, 0, sizeof(*dev));
	while (w->n_devices > 0 && vacant(&w->devices[w->n_devices - 1]))
		w->n_devices--;
}

static struct wpad_device *add_device(struct wpad *w, enum wpad_device_kind kind,
				      const char *name, const char *radio_name,
				      const char *adopt_ifname, struct wpad_error *err)
{
	struct wpad_radio *radio = radio_by_name(w, radio_name);
	if (!radio) {
		wpad_error_set(err, WPAD_ERR_NOT_FOUND, 0, -1, -1, "%s: no radio named %s", name,
			       radio_name);
		return NULL;
	}
	if (!free_slot(w)) {
		wpad_error_set(err, WPAD_ERR_BUSY, 0, -1, -1, "too many interfaces");
		return NULL;
	}
	uint8_t addr[6];
	bool has_addr = false;
	/* An adopted interface exists already: it adds none to the radio. */
	if (!adopt_ifname && check_combination(w, radio, kind, name, addr, &has_addr, err) < 0)
		return NULL;
	struct wpad_device *dev = free_slot(w);
	memset(dev, 0, sizeof(*dev));
	dev->kind = kind;
	dev->radio = radio;
	dev->owner = w;
	snprintf(dev->name, sizeof(dev->name), "%s", name);
	enum driver_iftype type = kind == WPAD_DEVICE_AP ? DRIVER_IFTYPE_AP : DRIVER_IFTYPE_STATION;
	if (open_iface(dev, type, adopt_ifname, has_addr ? addr : NULL, err) < 0) {
		memset(dev, 0, sizeof(*dev));
		return NULL;
	}
	if (dev == &w->devices[w->n_devices])
		w->n_devices++;
	wpad_error_clear(&dev->last_error);
	/* An interface that cannot come up stays, down, with the reason in
	 * last_error: the daemon keeps running so clients can see why. */
	int e = driver_iface_set_up(radio->drv, dev->ifindex, true);
	dev->powered = e == 0;
	if (e < 0) {
		wpad_error_set(&dev->last_error, wpad_device_error_code(dev, e), e, -1, -1,
			       "%s: the interface cannot come up on radio %s: %s", name, radio->name,
			       strerror(-e));
		log_error("%s", dev->last_error.text);
	}
	return dev;
}

/* An observer asks the agent; with none the attempt fails at once. */
static void on_station_eap_secret(void *ctx, int which)
{
	struct wpad_device *dev = ctx;
	struct wpad *w = dev->owner;
	bool asked = false;
	for (size_t i = 0; i < w->n_obs; i++)
		asked |= w->obs[i].station_need_secret != NULL;
	if (!asked) {
		log_warn("%s: the 802.1X profile has no %s and no agent can give one", dev->name,
			 which == EAP_SECRET_PASSWORD ? "password" : "key passphrase");
		station_eap_secret(dev->station, which, NULL);
		return;
	}
	NOTIFY(w, station_need_secret, dev, which);
}

/* The station role on dev's interface. Returns 0 or -ENOMEM. */
static int attach_station(struct wpad_device *dev)
{
	static const struct station_callbacks proto = {
		.state_changed = on_station_state,
		.scan_done = on_station_scan_done,
		.connect_done = on_station_connect_done,
		.disconnected = on_station_disconnected,
		.eap_secret = on_station_eap_secret,
		.radio_move = on_station_radio_move,
	};
	struct station_callbacks cb = proto;
	struct wpad *w = dev->owner;
	cb.ctx = dev;
	dev->station = station_new(w->loop, dev->radio->drv, dev->ifindex, w->store, &cb);
	if (!dev->station)
		return -ENOMEM;
	station_set_autoconnect(dev->station, dev->station_autoconnect && dev->powered);
	return 0;
}

/* The access point role on dev's interface, not started. */
static int attach_ap(struct wpad_device *dev)
{
	static const struct ap_callbacks proto = {
		.state_changed = on_ap_state,
		.station_added = on_ap_station_added,
		.station_authorized = on_ap_station_authorized,
		.station_removed = on_ap_station_removed,
		.mic_failure = on_ap_mic_failure,
	};
	struct ap_callbacks cb = proto;
	cb.ctx = dev;
	dev->ap = ap_new(dev->owner->loop, dev->radio->drv, dev->ifindex, &cb);
	dev->ap_ssid_len = 0;
	return dev->ap ? 0 : -ENOMEM;
}

/* last_error follows the port: the failed stage on HELD, or when the
 * authenticator went silent mid-way (back to CONNECTING with an error), in
 * the catalogue with the peer's detail (the offered methods, the name
 * seen); cleared on success. */
static void wired_error_update(struct wpad_device *dev, enum wired_state old, enum wired_state s)
{
	bool silent = old == WIRED_S_AUTHENTICATING && s == WIRED_S_CONNECTING &&
		      wired_port_last_error(dev->wired, NULL) != EAP_PEER_ERR_NONE;
	if (s == WIRED_S_AUTHENTICATED && wpad_error_is_set(&dev->last_error)) {
		wpad_error_clear(&dev->last_error);
		NOTIFY(dev->owner, device_changed, dev);
	} else if (s == WIRED_S_HELD || silent) {
		const char *detail = "";
		enum eap_peer_err e = wired_port_last_error(dev->wired, &detail);
		const char *method = wired_port_method(dev->wired);
		struct wpad_error err;
		wpad_error_set(&err, eap_peer_err_code(e), 0, -1, -1, "%s: 802.1X%s%s failed: %s%s%.160s",
			       dev->name, method[0] ? " EAP-" : "", method, eap_peer_err_name(e),
			       detail[0] ? ": " : "", detail);
		wpad_device_set_error(dev, &err);
	}
}

static void on_wired_state(void *ctx, enum wired_state old_state, enum wired_state new_state)
{
	struct wpad_device *dev = ctx;
	wired_error_update(dev, old_state, new_state);
	NOTIFY(dev->owner, wired_state, dev, wired_state_to_string(old_state),
	       wired_state_to_string(new_state));
}

static void on_wired_need_secret(void *ctx, enum eap_peer_secret which)
{
	struct wpad_device *dev = ctx;
	struct wpad *w = dev->owner;
	bool asked = false;
	for (size_t i = 0; i < w->n_obs; i++)
		asked |= w->obs[i].wired_need_secret != NULL;
	if (!asked) { /* nobody to ask: the attempt fails with CREDENTIALS */
		log_warn("%s: the profile has no %s and no agent can give one", dev->name,
			 which == EAP_SECRET_PASSWORD ? "password" : "key passphrase");
		wired_port_set_secret(dev->wired, which, NULL);
		return;
	}
	NOTIFY(w, wired_need_secret, dev, (int)which);
}

static void detach_role(struct wpad_device *dev)
{
	wired_port_free(dev->wired);
	dev->wired = NULL;
	eap_conf_clear(dev->wired_profile);
	free(dev->wired_profile);
	dev->wired_profile = NULL;
	if (dev->station)
		station_free(dev->station);
	if (dev->ap) {
		ap_stop(dev->ap);
		ap_free(dev->ap);
		bridge_port_leave(&dev->bridge);
	}
	dev->station = NULL;
	dev->ap = NULL;
}

/* DataInterface=: the interface's data goes to and from this OS netdev
 * (a TAP device with the sim backend) instead of staying in the driver. */
static int bind_data_interface(struct wpad_device *dev, const char *ifname,
			       struct wpad_error *err)
{
	if (!ifname)
		return 0;
	int e = driver_bind_data_plane(dev->radio->drv, dev->ifindex, ifname);
	if (e < 0) {
		wpad_error_set(err, wpad_error_code_from_errno(e), e, -1, -1,
			       "%s: cannot carry data over %s: %s", dev->name, ifname, strerror(-e));
		return e;
	}
	log_info("%s: data interface %s", dev->name, ifname);
	return 0;
}

static int add_station(struct wpad *w, const struct wpad_conf_station *cs, struct wpad_error *err)
{
	struct wpad_device *dev = add_device(w, WPAD_DEVICE_STATION, cs->name, cs->radio,
					     cs->adopt_ifname, err);
	if (!dev)
		return -ENODEV;
	dev->station_autoconnect = cs->autoconnect;
	if (attach_station(dev) < 0) {
		wpad_error_set(err, WPAD_ERR_FAILED, ENOMEM, -1, -1, "%s: cannot create station",
			       cs->name);
		return -ENOMEM;
	}
	int bound = bind_data_interface(dev, cs->data_interface, err);
	if (bound < 0)
		return bound;
	log_info("%s: station on radio %s (ifindex %u)", dev->name, dev->radio->name, dev->ifindex);
	return 0;
}

/* How telling a failed adoption on one radio is: another radio's "not
 * mine" says least, a refusal by the radio that has the interface most. */
static int adopt_rank(const struct wpad_error *e)
{
	switch (e->err_no) {
	case ENODEV: return 0;
	case EOPNOTSUPP: return 1;
	case EMEDIUMTYPE: return 2;
	default: return 3;
	}
}

struct wpad_device *wpad_station_adopt(struct wpad *w, const char *ifname,
				       struct wpad_error *err)
{
	struct wpad_error tried;
	wpad_error_set(err, WPAD_ERR_NOT_FOUND, ENODEV, -1, -1,
		       "%s: wpad.conf has no radio to look for it on", ifname);
	if (wpad_device_find(w, ifname)) {
		wpad_error_set(err, WPAD_ERR_ALREADY_EXISTS, EEXIST, -1, -1,
			       "wpad already has a device named %s", ifname);
		return NULL;
	}
	for (size_t i = 0; i < w->n_radios; i++) {
		struct wpad_device *dev = add_device(w, WPAD_DEVICE_STATION, ifname,
						     w->radios[i].name, ifname, &tried);
		if (!dev) {
			if (i == 0 || adopt_rank(&tried) > adopt_rank(err))
				*err = tried;
			continue;
		}
		/* The front that asked decides what it joins: no autoconnect. */
		dev->station_autoconnect = false;
		dev->on_demand = true;
		if (attach_station(dev) < 0) {
			detach_role(dev);
			driver_iface_release(dev->radio->drv, dev->ifindex);
			vacate(w, dev);
			wpad_error_set(err, WPAD_ERR_FAILED, ENOMEM, -1, -1, "%s: out of memory",
				       ifname);
			return NULL;
		}
		wpad_error_clear(err);
		log_info("%s: station on radio %s, adopted (ifindex %u)", ifname,
			 dev->radio->name, dev->ifindex);
		NOTIFY(w, device_added, dev);
		return dev;
	}
	if (adopt_rank(err) < 3 && w->n_radios > 1) /* no radio had it: say so for all */
		wpad_error_set(err, err->code, err->err_no, -1, -1,
			       "%s is not a wireless interface of any radio in wpad.conf (%s)",
			       ifname, err->err_no == ENODEV ? "no network interface has that name"
							     : "`iw dev` lists them by phy");
	return NULL;
}

int wpad_station_release(struct wpad_device *dev)
{
	if (vacant(dev) || !dev->on_demand)
		return -EINVAL;
	struct wpad *w = dev->owner;
	char name[sizeof(dev->name)];
	snprintf(name, sizeof(name), "%s", dev->name);
	NOTIFY(w, device_removed, dev);
	detach_role(dev);
	int e = driver_iface_release(dev->radio->drv, dev->ifindex);
	if (e < 0)
		log_warn("%s: giving the interface back failed: %s", name, strerror(-e));
	else
		log_info("%s: given back as found (ifindex %u)", name, dev->ifindex);
	vacate(w, dev);
	return e;
}

static int add_ap(struct wpad *w, const struct wpad_conf_ap *ca, struct wpad_error *err)
{
	struct wpad_device *dev = add_device(w, WPAD_DEVICE_AP, ca->name, ca->radio, NULL, err);
	if (!dev)
		return -ENODEV;
	if (attach_ap(dev) < 0) {
		wpad_error_set(err, WPAD_ERR_FAILED, ENOMEM, -1, -1, "%s: cannot create AP", ca->name);
		return -ENOMEM;
	}
	int bound = bind_data_interface(dev, ca->data_interface, err);
	if (bound < 0)
		return bound;
	if (ca->data_interface)
		snprintf(dev->data_ifname, sizeof(dev->data_ifname), "%s", ca->data_interface);
	/* A BSS that cannot start (a driver fault, the regulatory domain)
	 * leaves the daemon running with the reason in last_error. */
	struct wpad_error e;
	if (dev->powered && wpad_ap_start(dev, &ca->profile, &e) < 0)
		log_error("%s: access point did not start: %s", ca->name, e.text);
	return 0;
}

/* [Wired NAME]: the 802.1X supplicant on a wired radio's port. */
static int add_wired(struct wpad *w, const struct wpad_conf_wired *cw, struct wpad_error *err)
{
	static const struct wired_port_callbacks proto = {
		.state_changed = on_wired_state,
		.need_secret = on_wired_need_secret,
	};
	struct wpad_device *dev = add_device(w, WPAD_DEVICE_WIRED, cw->name, cw->radio, NULL, err);
	if (!dev)
		return -ENODEV;
	struct wired_port_callbacks cb = proto;
	cb.ctx = dev;
	/* 802.1X-2010 defaults where the section sets nothing. */
	struct wired_timers t = {
		.start_period_ms = (cw->start_period_s ? cw->start_period_s : 30) * 1000u,
		.max_start = cw->max_start ? cw->max_start : 3,
		.auth_period_ms = (cw->auth_period_s ? cw->auth_period_s : 30) * 1000u,
		.held_period_ms = (cw->held_period_s ? cw->held_period_s : 60) * 1000u,
	};
	dev->wired = wired_port_new(w->loop, dev->radio->drv, dev->ifindex, cw->name, &cw->eap,
				    &t, &cb);
	if (!dev->wired) {
		wpad_error_set(err, WPAD_ERR_FAILED, ENOMEM, -1, -1, "%s: cannot create the port",
			       cw->name);
		return -ENOMEM;
	}
	struct driver_iface_info info;
	bool carrier = false;
	/* up is what the driver knows at open; the carrier arrives as an event
	 * when it changes, so start as if it were there when the link is up. */
	if (driver_iface_info(dev->radio->drv, dev->ifindex, &info) == 0)
		carrier = info.up;
	log_info("%s: wired 802.1X supplicant on radio %s (ifindex %u)", dev->name,
		 dev->radio->name, dev->ifindex);
	wired_port_set_link(dev->wired, carrier);
	return 0;
}

int wpad_wired_set_profile(struct wpad_device *dev, struct eap_conf *profile)
{
	if (dev->kind != WPAD_DEVICE_WIRED || !dev->wired)
		return -EOPNOTSUPP;
	const struct eap_conf *use = profile;
	if (!use) { /* back to the file's */
		for (size_t i = 0; i < dev->owner->conf->n_wireds; i++)
			if (strcmp(dev->owner->conf->wireds[i].name, dev->name) == 0)
				use = &dev->owner->conf->wireds[i].eap;
		if (!use)
			return -ENOENT;
	}
	wired_port_set_profile(dev->wired, use);
	eap_conf_clear(dev->wired_profile);
	free(dev->wired_profile);
	dev->wired_profile = profile;
	return 0;
}

int wpad_wired_set_secret(struct wpad_device *dev, int which, const char *value)
{
	if (!dev->wired)
		return -EOPNOTSUPP;
	return wired_port_set_secret(dev->wired, (enum eap_peer_secret)which, value);
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
		wpad_add_observer(w, obs);
	wpad_error_clear(err);
	if (open_store(w, err) < 0 || open_radios(w, err) < 0)
		goto fail;
	for (size_t i = 0; i < conf->n_aps; i++)
		if (add_ap(w, &conf->aps[i], err) < 0)
			goto fail;
	for (size_t i = 0; i < conf->n_stations; i++)
		if (add_station(w, &conf->stations[i], err) < 0)
			goto fail;
	for (size_t i = 0; i < conf->n_wireds; i++)
		if (add_wired(w, &conf->wireds[i], err) < 0)
			goto fail;
	return w;
fail:
	wpad_free(w);
	return NULL;
}

/* ---- graceful shutdown ---- */

#define WPAD_SHUTDOWN_GRACE_MS 30
#define WPAD_SHUTDOWN_LIMIT_MS 1000

static void shutdown_finish(struct wpad *w)
{
	void (*done)(void *) = w->shutdown.done;
	w->shutdown.done = NULL;
	loop_timer_disarm(w->shutdown.grace);
	loop_timer_disarm(w->shutdown.limit);
	log_info("said goodbye to every peer");
	done(w->shutdown.ctx);
}

static void shutdown_check(struct wpad *w)
{
	if (!w->shutdown.done || !w->shutdown.grace_over)
		return;
	for (size_t i = 0; i < w->n_devices; i++)
		if (w->devices[i].ap && ap_get_state(w->devices[i].ap) != AP_STATE_STOPPED)
			return; /* still waiting for its deauths' TX status */
	shutdown_finish(w);
}

static void on_shutdown_grace(struct loop_timer *t, void *data)
{
	(void)t;
	struct wpad *w = data;
	w->shutdown.grace_over = true;
	shutdown_check(w);
}

static void on_shutdown_limit(struct loop_timer *t, void *data)
{
	(void)t;
	struct wpad *w = data;
	if (!w->shutdown.done)
		return;
	log_warn("peers did not all acknowledge the goodbye within %u ms; stopping anyway",
		 WPAD_SHUTDOWN_LIMIT_MS);
	shutdown_finish(w);
}

int wpad_shutdown(struct wpad *w, void (*done)(void *ctx), void *ctx)
{
	if (w->shutdown.done)
		return -EALREADY;
	if (!w->shutdown.grace)
		w->shutdown.grace = loop_timer_new(w->loop, on_shutdown_grace, w);
	if (!w->shutdown.limit)
		w->shutdown.limit = loop_timer_new(w->loop, on_shutdown_limit, w);
	if (!w->shutdown.grace || !w->shutdown.limit)
		return -ENOMEM;
	w->shutdown.done = done;
	w->shutdown.ctx = ctx;
	w->shutdown.grace_over = false;
	bool station_left = false;
	for (size_t i = 0; i < w->n_devices; i++) {
		struct wpad_device *dev = &w->devices[i];
		/* Also stops autoconnect, so nothing starts again meanwhile. */
		if (dev->station && station_disconnect(dev->station) == 0)
			station_left = true;
		if (dev->ap)
			ap_stop(dev->ap);
	}
	loop_timer_arm_ms(w->shutdown.limit, WPAD_SHUTDOWN_LIMIT_MS);
	/* Even with nothing to wait for, done() comes from the loop, not from
	 * inside this call. */
	loop_timer_arm_ms(w->shutdown.grace, station_left ? WPAD_SHUTDOWN_GRACE_MS : 0);
	return 0;
}

void wpad_free(struct wpad *w)
{
	if (!w)
		return;
	loop_timer_free(w->shutdown.grace);
	loop_timer_free(w->shutdown.limit);
	file_watch_free(w->acl_watch);
	w->acl_watch = NULL; /* the roles' stop below must not use it */
	/* Roles first (they may still talk to their driver), then drivers. */
	for (size_t i = w->n_devices; i-- > 0;) {
		struct wpad_device *dev = &w->devices[i];
		if (vacant(dev))
			continue;
		detach_role(dev);
		/* The system's interface goes back as found; ours goes away. */
		if (dev->adopted)
			driver_iface_release(dev->radio->drv, dev->ifindex);
		else
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
	return i < w->n_devices && !vacant(&w->devices[i]) ? &w->devices[i] : NULL;
}

struct wpad_device *wpad_device_find(struct wpad *w, const char *name)
{
	for (size_t i = 0; i < w->n_devices; i++)
		if (!vacant(&w->devices[i]) && strcmp(w->devices[i].name, name) == 0)
			return &w->devices[i];
	return NULL;
}

struct known_store *wpad_known_store(struct wpad *w)
{
	return w->store;
}

void wpad_known_changed(struct wpad *w)
{
	for (size_t i = 0; i < w->n_devices; i++)
		if (w->devices[i].station)
			station_known_networks_changed(w->devices[i].station);
}

static int power_fail(struct wpad_device *dev, int e, const char *what, struct wpad_error *err)
{
	/* The radio's own fault explains it better than the errno does. */
	const char *why = dev->radio->has_error ? dev->radio->error.text : strerror(-e);
	wpad_error_set(err, wpad_device_error_code(dev, e), e, -1, -1,
		       "%s: cannot bring the interface %s: %.160s", dev->name, what, why);
	log_warn("%s", err->text);
	wpad_device_set_error(dev, err);
	return e;
}

int wpad_device_set_powered(struct wpad_device *dev, bool on, struct wpad_error *err)
{
	struct driver *drv = dev->radio->drv;
	wpad_error_clear(err);
	if (dev->powered == on)
		return 0;
	if (!on && dev->station) {
		dev->station_autoconnect = station_autoconnect(dev->station);
		station_set_autoconnect(dev->station, false);
		station_disconnect(dev->station);
	}
	if (!on && dev->ap)
		ap_stop(dev->ap);
	int e = driver_iface_set_up(drv, dev->ifindex, on);
	if (e < 0)
		return power_fail(dev, e, on ? "up" : "down", err);
	dev->powered = on;
	log_info("%s: powered %s", dev->name, on ? "on" : "off");
	if (on && dev->station)
		station_set_autoconnect(dev->station, dev->station_autoconnect);
	NOTIFY(dev->owner, device_changed, dev);
	return 0;
}

/* Bridge=: the AP's OS interface (DataInterface= when set, else the
 * driver's netdev) joins before the BSS starts, so the first station's
 * DHCP request already reaches the LAN. */
static int join_bridge(struct wpad_device *dev, const struct ap_profile *profile,
		       struct wpad_error *err)
{
	struct driver_iface_info info;
	const char *port = dev->data_ifname;
	if (!profile->bridge[0])
		return 0;
	if (!port[0]) {
		if (driver_iface_info(dev->radio->drv, dev->ifindex, &info) < 0)
			info.name[0] = '\0';
		port = info.name;
	}
	if (!port[0]) {
		wpad_error_set(err, WPAD_ERR_NOT_BRIDGEABLE, ENODEV, -1, -1,
			       "%s has no network interface to bridge (set DataInterface=)",
			       dev->name);
		return -ENODEV;
	}
	return bridge_port_join(&dev->bridge, profile->bridge, profile->bridge_create, port, err);
}

int wpad_ap_start(struct wpad_device *dev, const struct ap_profile *profile,
		  struct wpad_error *err)
{
	wpad_error_clear(err);
	if (!dev->ap) {
		wpad_error_set(err, WPAD_ERR_NOT_SUPPORTED, EOPNOTSUPP, -1, -1,
			       "%s is not an access point", dev->name);
		return -EOPNOTSUPP;
	}
	int e = join_bridge(dev, profile, err);
	if (e == 0 && (e = ap_start(dev->ap, profile, err)) < 0)
		bridge_port_leave(&dev->bridge);
	if (e < 0) {
		if (dev->radio->has_error) {
			err->code = dev->radio->error.code;
			snprintf(err->text, sizeof(err->text), "%s", dev->radio->error.text);
		}
		wpad_device_set_error(dev, err);
		return e;
	}
	memcpy(dev->ap_ssid, profile->ssid, profile->ssid_len);
	dev->ap_ssid_len = profile->ssid_len;
	dev->ap_secured = profile->security != AP_SECURITY_OPEN;
	return 0;
}

int wpad_reload_access_lists(struct wpad *w)
{
	int failed = 0;
	for (size_t i = 0; i < w->n_devices; i++) {
		struct wpad_device *dev = &w->devices[i];
		if (dev->ap && ap_get_state(dev->ap) == AP_STATE_STARTED &&
		    reload_access_lists(dev) < 0)
			failed++;
	}
	return failed;
}

size_t wpad_radio_count(const struct wpad *w)
{
	return w->n_radios;
}

struct wpad_radio *wpad_radio_at(struct wpad *w, size_t i)
{
	return i < w->n_radios ? &w->radios[i] : NULL;
}

const char *wpad_radio_name(const struct wpad_radio *r)
{
	return r->name;
}

const char *wpad_radio_backend(const struct wpad_radio *r)
{
	return r->backend;
}

struct driver *wpad_radio_driver(const struct wpad_radio *r)
{
	return r->drv;
}

uint32_t wpad_radio_id(const struct wpad_radio *r)
{
	return r->radio_id;
}

const struct wpad_error *wpad_radio_error(const struct wpad_radio *r)
{
	return r->has_error ? &r->error : NULL;
}

/* The interface as the other type: down, retyped, up again if it was. */
static int retype(struct wpad_device *dev, enum wpad_device_kind kind)
{
	struct driver *drv = dev->radio->drv;
	enum driver_iftype type = kind == WPAD_DEVICE_AP ? DRIVER_IFTYPE_AP : DRIVER_IFTYPE_STATION;
	int e = dev->powered ? driver_iface_set_up(drv, dev->ifindex, false) : 0;
	if (e == 0)
		e = driver_iface_set_type(drv, dev->ifindex, type);
	int up = dev->powered ? driver_iface_set_up(drv, dev->ifindex, true) : 0;
	return e < 0 ? e : up;
}

int wpad_device_set_mode(struct wpad_device *dev, enum wpad_device_kind kind,
			 struct wpad_error *err)
{
	static const char *const names[] = { [WPAD_DEVICE_STATION] = "station",
					     [WPAD_DEVICE_AP] = "access point" };
	wpad_error_clear(err);
	if (dev->kind == kind)
		return 0;
	if (dev->kind == WPAD_DEVICE_WIRED || kind == WPAD_DEVICE_WIRED)
		return wpad_error_set(err, WPAD_ERR_NOT_SUPPORTED, EOPNOTSUPP, -1, -1,
				      "%s: a wired port is neither a station nor an access point",
				      dev->name),
		       -EOPNOTSUPP;
	NOTIFY(dev->owner, device_mode, dev, false);
	enum wpad_device_kind old = dev->kind;
	detach_role(dev);
	int e = retype(dev, kind);
	if (e < 0) {
		wpad_error_set(err, wpad_device_error_code(dev, e), e, -1, -1,
			       "%s: the interface cannot become an %s: %s", dev->name, names[kind],
			       strerror(-e));
		kind = old; /* back to the role it had */
	}
	dev->kind = kind;
	int a = kind == WPAD_DEVICE_AP ? attach_ap(dev) : attach_station(dev);
	if (a < 0 && e == 0) {
		e = a;
		wpad_error_set(err, WPAD_ERR_FAILED, ENOMEM, -1, -1, "%s: out of memory", dev->name);
	}
	if (e < 0)
		wpad_device_set_error(dev, err);
	else
		log_info("%s: now a%s %s", dev->name, kind == WPAD_DEVICE_AP ? "n" : "", names[kind]);
	NOTIFY(dev->owner, device_mode, dev, true);
	return e;
}
