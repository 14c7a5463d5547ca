/* The daemon: turns a configuration into open drivers, interfaces and roles,
 * and routes every driver event to the role that owns its interface.
 *
 * One struct wpad owns everything it creates: the driver instances (one per
 * [Radio NAME]), the interfaces it added (those it adopted stay the
 * system's, given back at exit), the station and AP roles, and the
 * known-network store. The D-Bus layer reaches the roles through it.
 */
#ifndef WPAD_WPAD_H
#define WPAD_WPAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/bridge.h"
#include "daemon/core/error.h"

struct loop;
struct wpad;
struct wpad_conf;
struct station;
struct ap;
struct driver;
struct known_store;
struct wpad_radio;
struct ap_profile;
struct wired_port;
struct eap_conf;

enum wpad_device_kind {
	WPAD_DEVICE_STATION,
	WPAD_DEVICE_AP,
	WPAD_DEVICE_WIRED, /* an 802.1X supplicant on a wired port */
};

struct wpad_device {
	enum wpad_device_kind kind;
	char name[32];
	struct wpad_radio *radio;
	uint32_t ifindex;
	/* The interface was the system's (Interface=, CreateInterface): given
	 * back at exit, not deleted. */
	bool adopted;
	/* Adopted for a client (wpad_station_adopt), not from wpad.conf: the
	 * client may give it back before exit (wpad_station_release). */
	bool on_demand;
	struct station *station; /* kind STATION */
	struct ap *ap;           /* kind AP */
	struct wired_port *wired; /* kind WIRED */
	/* kind WIRED: a profile given over D-Bus (owned; NULL: the one of
	 * wpad.conf) -- the role borrows whichever is in use. */
	struct eap_conf *wired_profile;
	struct wpad *owner;
	bool powered;            /* the interface is up */
	bool station_autoconnect; /* the setting to restore when powered again */
	/* The last failure of the device, whatever its source (a connect,
	 * a lost link, the AP refusing to start, the radio's firmware);
	 * code WPAD_OK when none yet. */
	struct wpad_error last_error;
	/* Set by the caller of a station connect that asks for a passphrase
	 * itself when the network turns out to need one (the D-Bus agent):
	 * a NoAgent is then a step of the attempt, not its end, and leaves
	 * last_error alone. The caller clears it when the attempt ends. */
	bool connect_asks_passphrase;
	/* The BSS the AP was last started with (kind AP), for display. */
	uint8_t ap_ssid[32];
	size_t ap_ssid_len;
	bool ap_secured; /* WPA2-PSK, else open */
	/* Bridge= of the running BSS (kind AP): joined on start, left when
	 * the AP is STOPPED. data_ifname: DataInterface=, the OS netdev that
	 * joins instead of the driver's own interface (sim TAP). */
	struct bridge_port bridge;
	char data_ifname[16];
};

/* Observers the daemon notifies (the demo prints, D-Bus emits). Any hook
 * may be NULL. They run inside the event loop and may call wpad_* and role
 * functions, but never wpad_free(). */
struct wpad_observer {
	void (*station_state)(void *ctx, struct wpad_device *dev, const char *old_state,
			      const char *new_state);
	void (*station_connect_done)(void *ctx, struct wpad_device *dev,
				     const struct wpad_error *err);
	/* An on-demand scan (station_scan) finished. */
	void (*station_scan_done)(void *ctx, struct wpad_device *dev);
	/* The link went down: why->code is Aborted when we asked for it. */
	void (*station_disconnected)(void *ctx, struct wpad_device *dev,
				     const struct wpad_error *why);
	void (*ap_state)(void *ctx, struct wpad_device *dev, const char *new_state);
	void (*ap_station)(void *ctx, struct wpad_device *dev, const uint8_t addr[6],
			   const char *what);
	/* dev->last_error or dev->powered changed. */
	void (*device_changed)(void *ctx, struct wpad_device *dev);
	/* The device changes role (wpad_device_set_mode): first with done
	 * false, while the old role still exists (let go of it), then with
	 * done true, with the new one (or the old one again on failure). */
	void (*device_mode)(void *ctx, struct wpad_device *dev, bool done);
	/* After the roles handled a driver event of the device (or of its
	 * radio): lets an observer refresh what it derives from role state. */
	void (*device_event)(void *ctx, struct wpad_device *dev, int driver_event_type);
	/* A wired port changed state (enum wired_state names). */
	void (*wired_state)(void *ctx, struct wpad_device *dev, const char *old_state,
			    const char *new_state);
	/* A wired port's EAP method needs a secret its profile lacks (enum
	 * eap_peer_secret): answer with wpad_wired_set_secret(). */
	void (*wired_need_secret)(void *ctx, struct wpad_device *dev, int which);
	/* A station's 802.1X attempt needs a secret its profile lacks (enum
	 * eap_peer_secret): answer with station_eap_secret(). */
	void (*station_need_secret)(void *ctx, struct wpad_device *dev, int which);
	/* A device appeared after wpad_new (wpad_station_adopt). */
	void (*device_added)(void *ctx, struct wpad_device *dev);
	/* A device is about to go (wpad_station_release): its role still
	 * exists during the call, the pointer is invalid afterwards. */
	void (*device_removed)(void *ctx, struct wpad_device *dev);
	void *ctx;
};

/* Devices at most, those of wpad.conf and those adopted later; a device's
 * address never changes while the daemon lives. */
#define WPAD_MAX_DEVICES 32

#define WPAD_MAX_OBSERVERS 4

/* Builds everything conf describes and starts the access points. conf must
 * outlive the daemon. Returns NULL with *err saying what failed. */
struct wpad *wpad_new(struct loop *loop, const struct wpad_conf *conf,
		      const struct wpad_observer *obs, struct wpad_error *err);
void wpad_free(struct wpad *w);

/* Says goodbye on the air: stations disconnect (deauthentication), access
 * points deauthenticate their clients and stop; done(ctx) is called from
 * the loop once the frames are out, or after at most one second. The caller
 * then quits its loop and calls wpad_free(). -EALREADY when already under
 * way. */
int wpad_shutdown(struct wpad *w, void (*done)(void *ctx), void *ctx);

/* Adds an observer after wpad_new() (at most WPAD_MAX_OBSERVERS in all).
 * Returns 0 or -ENOSPC. wpad_remove_observer() drops every observer with
 * this ctx; safe from inside a hook. */
int wpad_add_observer(struct wpad *w, const struct wpad_observer *obs);
void wpad_remove_observer(struct wpad *w, void *ctx);

/* Device slots: wpad_device_at() is NULL for one left vacant by
 * wpad_station_release(). */
size_t wpad_device_count(const struct wpad *w);
struct wpad_device *wpad_device_at(struct wpad *w, size_t i);
struct wpad_device *wpad_device_find(struct wpad *w, const char *name);
struct known_store *wpad_known_store(struct wpad *w);
/* The store changed (a network forgotten or edited): every station
 * refreshes its known flags and autoconnect looks again. */
void wpad_known_changed(struct wpad *w);

/* A station device on the existing wireless interface ifname (the
 * kernel's wlan0), looked for on every radio and taken over as [Station]
 * Interface= does; named ifname, no autoconnect. For a client that names
 * an interface wpad does not manage yet (the fi.w1.wpa_supplicant1 front's
 * CreateInterface, as wpa_supplicant opens any netdev). It stays until
 * wpad_station_release() or exit, when the interface is given back as
 * found. NULL with *err from
 * the catalogue: NotFound (no such netdev), NotSupported (not wireless or
 * another radio's), Busy (in use), DriverError (the retype refused). */
struct wpad_device *wpad_station_adopt(struct wpad *w, const char *ifname,
				       struct wpad_error *err);
/* Gives a device of wpad_station_adopt back before exit (the client that
 * asked for it let go): observers are told, the role ends, the interface
 * returns to the type and up state it was found in, and the device is no
 * more (its slot is reused by the next device). -EINVAL for any other
 * device; otherwise 0 or the driver's error giving the interface back
 * (the device is gone either way). */
int wpad_station_release(struct wpad_device *dev);

/* Brings the device's interface up or down. Down: a station disconnects
 * and stops autoconnecting, an AP stops. Up: a station autoconnects again
 * if it did; an AP must be started again. Returns 0 or a negative errno
 * with *err filled (and dev->last_error set). */
int wpad_device_set_powered(struct wpad_device *dev, bool on, struct wpad_error *err);
/* Turns a station device into an access point (not started) or the other
 * way round: the role is freed (disconnecting or stopping), the interface
 * retyped, the new role created. Returns 0 or a negative errno with *err
 * filled; on failure the device keeps (a fresh instance of) its role. */
int wpad_device_set_mode(struct wpad_device *dev, enum wpad_device_kind kind,
			 struct wpad_error *err);
/* Starts the device's access point with this profile (validated, list
 * files loaded) and remembers its SSID and security for display. Returns
 * 0 or a negative errno with *err filled (and dev->last_error set). */
int wpad_ap_start(struct wpad_device *dev, const struct ap_profile *profile,
		  struct wpad_error *err);
/* The catalogue code for a driver errno on this device: a radio whose
 * firmware is missing turns every failure into FirmwareMissing. */
enum wpad_error_code wpad_device_error_code(const struct wpad_device *dev, int err);
/* Records a failure as dev->last_error and tells the observers. */
void wpad_device_set_error(struct wpad_device *dev, const struct wpad_error *err);

/* Wired ports: a new profile (taken over by the device, replacing any
 * earlier D-Bus one; NULL: back to wpad.conf's), the agent's answer to
 * wired_need_secret (NULL: refused). Return 0 or a negative errno. */
int wpad_wired_set_profile(struct wpad_device *dev, struct eap_conf *profile);
int wpad_wired_set_secret(struct wpad_device *dev, int which, const char *value);
/* SIGHUP: every started access point re-reads its MacAllowFile and
 * MacDenyFile (ap_acl_reload); a bad file keeps that AP's lists and is
 * logged and recorded as its last_error. Returns how many failed. */
int wpad_reload_access_lists(struct wpad *w);

/* Radios, one per [Radio NAME]. */
size_t wpad_radio_count(const struct wpad *w);
struct wpad_radio *wpad_radio_at(struct wpad *w, size_t i);
const char *wpad_radio_name(const struct wpad_radio *r);
/* The backend's name: "sim", "nl80211", "wired". */
const char *wpad_radio_backend(const struct wpad_radio *r);
struct driver *wpad_radio_driver(const struct wpad_radio *r);
uint32_t wpad_radio_id(const struct wpad_radio *r);
/* The radio's own error (firmware missing or crashed, rfkill); NULL when
 * it reported none. */
const struct wpad_error *wpad_radio_error(const struct wpad_radio *r);

#endif
