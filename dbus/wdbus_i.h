/* Internals of the D-Bus layer, shared by its files and nothing else:
 *
 *   bus.c          the connection on the event loop
 *   object.c       object registry, dispatcher; properties.c, introspect.c
 *   access.c       who may configure
 *   errors.c       the error catalogue; msg.c message helpers
 *   wdbus.c        start/stop, the daemon observer, the sync idle
 *   manager.c      /org/wpad1: org.wpad1.Manager
 *   radio.c        org.wpad1.Radio objects
 *   device.c       org.wpad1.Device (every device object)
 *   station.c      org.wpad1.Station, the connect flow
 *   network.c      org.wpad1.Network and org.wpad1.BSS objects
 *   ap.c           org.wpad1.AccessPoint; apdict.c a{sv} -> AP profile
 *   ap_station.c   org.wpad1.ApStation objects
 *   known.c        org.wpad1.KnownNetwork objects
 *   agent.c        the registered org.wpad1.Agent and its requests
 *
 * Objects:
 *   /org/wpad1                          Manager
 *   /org/wpad1/radio/NAME               Radio
 *   /org/wpad1/device/NAME              Device + Station or AccessPoint
 *   /org/wpad1/device/NAME/HEXSSID_SEC  Network (SEC: open, psk, sae, ...)
 *   /org/wpad1/device/NAME/HEXSSID_SEC/BSSIDHEX   BSS
 *   /org/wpad1/device/NAME/sta_MACHEX   ApStation
 *   /org/wpad1/known/HEXSSID_SEC        KnownNetwork
 * NAME is the configuration's name with bytes outside [A-Za-z0-9] as _XX.
 */
#ifndef WPAD_DBUS_WDBUS_I_H
#define WPAD_DBUS_WDBUS_I_H

#include "dbus/libdbus.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/error.h"
#include "daemon/station/bss.h"
#include "dbus/msg.h"
#include "dbus/object.h"

struct wpad;
struct wpad_device;
struct wpad_radio;
struct loop;

#define WDB_NAME "org.wpad1"
#define WDB_ROOT "/org/wpad1"
#define WDB_PENDING_MAX 16 /* callers waiting for one scan, disconnect or stop */
#define WDB_SSID_MAX 32

extern const struct wdb_interface wdb_manager_iface;
extern const struct wdb_interface wdb_radio_iface;
extern const struct wdb_interface wdb_device_iface;
extern const struct wdb_interface wdb_station_iface;
extern const struct wdb_interface wdb_network_iface;
extern const struct wdb_interface wdb_bss_iface;
extern const struct wdb_interface wdb_ap_iface;
extern const struct wdb_interface wdb_ap_station_iface;
extern const struct wdb_interface wdb_known_iface;
extern const struct wdb_interface wdb_wired_iface;

/* Calls kept until an operation ends. */
struct wdb_pending {
	DBusMessage *calls[WDB_PENDING_MAX];
	size_t n;
};
/* false when full. Takes a reference. */
bool wdb_pending_add(struct wdb_pending *p, DBusMessage *call);
/* Replies to every call: success when err is NULL. */
void wdb_pending_finish(struct wdb_pending *p, const struct wpad_error *err);

struct wdb_network;
struct wdb_ap_station;
struct wdb_agent_request;

struct wdb_station {
	/* The Network.Connect / ConnectHiddenNetwork call being served. */
	DBusMessage *connect_call;
	uint8_t ssid[WDB_SSID_MAX];
	size_t ssid_len;
	enum bss_security security;
	bool hidden;
	bool started;       /* station_connect() was called for it */
	bool agent_asked;   /* the agent was asked once already */
	struct wdb_agent_request *agent_req;
	struct wdb_pending scans;
	struct wdb_pending disconnects;
	/* What was last announced, to emit only changes. */
	const char *state;
	bool scanning;
	bool autoconnect;
	char connected[WDB_PATH_MAX];
	char tls_seen[160]; /* the TLS property's values as last announced */
	struct wdb_network *nets;
	/* An 802.1X secret asked from the agent (RequestSecret). */
	struct wdb_agent_request *eap_req;
	int eap_which;
};

struct wdb_ap {
	struct wdb_pending stops;
	bool started;
	uint32_t freq;
	uint32_t count;
	unsigned acl_gen;             /* ap_acl_generation() last announced */
	struct wdb_ap_station *stas;
	uint32_t width;         /* ChannelWidth last emitted */
	char choice[256];       /* ChannelChoice last emitted */
	char state[16];         /* State last emitted */
};

/* org.wpad1.Wired8021X of a wired port, as last announced. */
struct wdb_wired {
	const char *state;
	bool authorized;
	char method[16];
	struct wdb_agent_request *agent_req;
	int agent_which; /* enum eap_peer_secret asked for */
};

struct wdb_device {
	struct wpad_device *dev;
	struct wdb_object *obj;
	char radio_path[WDB_PATH_MAX];
	bool powered;                 /* as last announced */
	struct wpad_error last_error; /* as last announced */
	struct wdb_station st;
	struct wdb_ap ap;
	struct wdb_wired wired;
};

struct wdb_radio {
	struct wpad_radio *radio;
	struct wdb_object *obj;
};

struct wdb_known;

struct wdb {
	struct loop *loop;
	struct wpad *w;
	struct wdb_object *manager;
	struct wdb_radio *radios;
	size_t n_radios;
	/* WPAD_MAX_DEVICES slots, each allocated when first used (a
	 * wdb_device is ~1.8 kB: all 32 at once were 58 kB of heap for a
	 * daemon with two interfaces); n_devices slots have been used. */
	struct wdb_device **devices;
	size_t n_devices;
	struct wdb_known *known;
	struct loop_idle *sync;
	bool closing;
};

/* The one context (NULL when the layer is not running). */
struct wdb *wdb_get(void);
/* Asks for a sync of every derived property and object set soon. */
void wdb_schedule_sync(void);
struct wdb_device *wdb_device_of(struct wpad_device *dev);

/* ---- per file ---- */

int wdb_manager_init(struct wdb *b);
void wdb_manager_exit(struct wdb *b);

int wdb_radio_add(struct wdb_radio *r, struct wpad_radio *radio);
void wdb_radio_remove(struct wdb_radio *r);
bool wdb_radio_path(const struct wpad_radio *radio, char *out, size_t cap);

int wdb_device_add(struct wdb_device *d, struct wpad_device *dev);
void wdb_device_remove(struct wdb_device *d, const char *why);
void wdb_device_changed(struct wdb_device *d);
/* The device changes role: let go of the old one (done false), export the
 * new one (done true). */
void wdb_device_mode(struct wdb_device *d, bool done);
/* ConnectionFailed(s, i, i, s) on the device object. */
void wdb_device_emit_failure(struct wdb_device *d, const struct wpad_error *err);
/* The error for an operation on a device that is powered off. */
DBusMessage *wdb_device_down_reply(struct wdb_device *d, DBusMessage *msg);

void wdb_station_init(struct wdb_device *d);
/* Answers what is pending with Aborted, saying why. */
void wdb_station_exit(struct wdb_device *d, const char *why);
void wdb_station_sync(struct wdb_device *d);
void wdb_station_scan_done(struct wdb_device *d);
void wdb_station_connect_done(struct wdb_device *d, const struct wpad_error *err);
void wdb_station_state(struct wdb_device *d);
/* The station's 802.1X profile lacks a secret: the agent is asked. */
void wdb_station_need_secret(struct wdb_device *d, int which);
/* Connects to a network (Network.Connect or ConnectHiddenNetwork). */
DBusMessage *wdb_station_connect(struct wdb_device *d, DBusMessage *msg, const uint8_t *ssid,
				 size_t ssid_len, enum bss_security sec, bool hidden);
/* Whether (ssid, security) is what the station is connected to. */
bool wdb_station_is_connected_to(struct wdb_device *d, const uint8_t *ssid, size_t len,
				 enum bss_security sec);

/* The network objects of a station, kept in step with its list. */
void wdb_networks_sync(struct wdb_device *d);
void wdb_networks_clear(struct wdb_device *d);
/* The path of the network object (ssid, security) of device d; false if
 * it does not fit. */
bool wdb_network_path(const struct wdb_device *d, const uint8_t *ssid, size_t len,
		      enum bss_security sec, char *out, size_t cap);
/* The network object containing this BSSID, or NULL. */
struct wdb_network *wdb_network_by_bssid(struct wdb_device *d, const uint8_t bssid[6]);
const char *wdb_network_obj_path(const struct wdb_network *n);

void wdb_ap_init(struct wdb_device *d);
void wdb_ap_exit(struct wdb_device *d, const char *why);
void wdb_ap_sync(struct wdb_device *d);
void wdb_ap_state(struct wdb_device *d, const char *state);

void wdb_ap_station_event(struct wdb_device *d, const uint8_t addr[6], const char *what);
void wdb_ap_stations_sync(struct wdb_device *d);
void wdb_ap_stations_clear(struct wdb_device *d);
/* org.wpad1.AccessControl on AP devices (ap_acl.c). */
extern const struct wdb_interface wdb_ap_acl_iface;
void wdb_ap_acl_sync(struct wdb_device *d);

void wdb_wired_init(struct wdb_device *d);
void wdb_wired_exit(struct wdb_device *d);
/* The port changed state, or the device's LastError: emit what changed. */
void wdb_wired_sync(struct wdb_device *d);
/* The port's EAP method needs a secret: ask the agent. */
void wdb_wired_need_secret(struct wdb_device *d, int which);

void wdb_known_sync(struct wdb *b);
void wdb_known_clear(struct wdb *b);
/* The path of a known network object, "" when not known. */
bool wdb_known_path(const uint8_t *ssid, size_t len, const char *sec, char *out, size_t cap);
/* known_add.c: Manager.AddKnownNetwork. */
DBusMessage *wdb_known_add(void *data, DBusMessage *msg);
/* The 802.1X network's profile changed: its EAP property is announced. */
void wdb_known_profile_changed(const uint8_t *ssid, size_t len);

/* Security names ("open", "psk", ...) and the path element HEXSSID_SEC. */
bool wdb_ssid_element(const uint8_t *ssid, size_t len, const char *sec, char *out, size_t cap);

#endif
