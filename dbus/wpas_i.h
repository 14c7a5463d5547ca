/* The fi.w1.wpa_supplicant1 front: wpa_supplicant's D-Bus API, as
 * NetworkManager 1.42 uses it, served over wpad's own objects so that an
 * unmodified NetworkManager drives wpad. Shared by its files only:
 *
 *   wpas.c        the name, /fi/w1/wpa_supplicant1 (CreateInterface...),
 *                 the hooks wdbus.c calls
 *   wpas_iface.c  interface objects: Scan, SelectNetwork, State...
 *   wpas_net.c    AddNetwork's dictionary and the network objects
 *   wpas_bss.c    BSS objects, from the station's scan results
 *
 * Objects (wpa_supplicant's own layout, numbers never reused):
 *   /fi/w1/wpa_supplicant1                          the manager
 *   /fi/w1/wpa_supplicant1/Interfaces/N             an interface
 *   /fi/w1/wpa_supplicant1/Interfaces/N/Networks/M  a network NM added
 *   /fi/w1/wpa_supplicant1/Interfaces/N/BSSs/M      a BSS heard
 *
 * An interface is a wpad station device looked up by its interface name
 * (an existing interface wpad does not manage yet is adopted first:
 * wpad_station_adopt);
 * while it exists the station is under external control (no autoconnect,
 * no known networks: NetworkManager decides, as with wpa_supplicant).
 * What NetworkManager really sends and reads is in docs/nm.md.
 */
#ifndef WPAD_DBUS_WPAS_I_H
#define WPAD_DBUS_WPAS_I_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/station/bss.h"
#include "dbus/wdbus_i.h"

#define WPAS_NAME "fi.w1.wpa_supplicant1"
#define WPAS_PATH "/fi/w1/wpa_supplicant1"
#define WPAS_IFACE WPAS_NAME ".Interface"
#define WPAS_ERR WPAS_NAME "."
#define WPAS_MAX_IFACES 8
#define WPAS_MAX_NETS 32
#define WPAS_MAX_BSS 256
#define WPAS_PASS_MAX 64
#define WPAS_STR_MAX 256

/* One network NetworkManager added (AddNetwork). Strings are as given;
 * secrets (psk, password) are wiped when the network goes. */
struct wpas_net {
	unsigned id;
	struct wdb_object *obj;
	struct wpas_iface *ifc;
	bool enabled;
	uint8_t ssid[WDB_SSID_MAX];
	size_t ssid_len;
	bool scan_ssid;
	int mode;	     /* 0 station, 2 access point, 5 mesh */
	uint32_t frequency;  /* mode 2 */
	int ieee80211w;	     /* -1: not given */
	char key_mgmt[WPAS_STR_MAX];
	char eap[WPAS_STR_MAX]; /* 802.1X: not served yet */
	char psk[WPAS_PASS_MAX + 1]; /* a passphrase, or 64 hex digits */
	bool have_psk;
	/* key_mgmt as RSN_SUITE_BIT() AKMs (NONE and IEEE8021X add none) */
	uint32_t akms;
	struct wpas_net *next;
	/* mode 2 (wpas_ap.c): kept to build the access point's profile. */
	char proto[32], pairwise[64], group[64];
	bool hidden; /* ignore_broadcast_ssid */
	/* 802.1X (wpas_neteap.c): the keys as [EAP] text while AddNetwork's
	 * dictionary is read, then the checked profile (owned; NULL when the
	 * network is not 802.1X). */
	struct ini *eap_ini;
	struct eap_conf *eap_conf;
};

struct wpas_bss {
	unsigned id;
	struct wdb_object *obj;
	struct wpas_iface *ifc;
	struct station_bss bss; /* a copy, refreshed on every sync */
	bool seen;		/* in the last sync */
	struct wpas_bss *next;
};

struct wpas_iface {
	unsigned id;
	struct wdb_object *obj;
	struct wdb_device *d;
	char path[64]; /* WPAS_PATH/Interfaces/N */
	char ifname[32];
	char driver[32];
	unsigned next_net_id, next_bss_id;
	struct wpas_net *nets;
	struct wpas_net *selected; /* SelectNetwork's, while it is in use */
	struct wpas_bss *bsses;
	/* As last announced. */
	const char *state;
	bool scanning;
	char current_bss[WDB_PATH_MAX];
	char current_net[WDB_PATH_MAX];
	int32_t disconnect_reason;
	int32_t auth_status;
	/* Settings NetworkManager writes; kept and read back. */
	uint32_t ap_scan;
	uint32_t bss_expire_age, bss_expire_count;
	char pmf[8], sae_pwe[8], pmk_lifetime[16], ap_isolate[8], bridge[32];
	/* The mode=2 network whose access point runs on the device (the
	 * station role put aside); switching: wpas_ap.c changes the
	 * device's role, the interface object stays. */
	struct wpas_net *hotspot;
	bool switching;
};

struct wpas {
	struct wdb_object *root;
	struct wpas_iface *ifaces[WPAS_MAX_IFACES];
	unsigned next_iface_id;
	bool owns_name;
	uint8_t wfd_ies[256];
	size_t wfd_ies_len;
	char debug_level[16];
};

struct wpas *wpas_get(void);

/* AddBlob's blobs (wpas_blob.c), referenced as blob://NAME by ca_cert,
 * client_cert and private_key. */
#define WPAS_BLOB_PREFIX "blob://"
bool wpas_blob_name_ok(const char *name);
DBusMessage *wpas_add_blob(void *data, DBusMessage *msg);
DBusMessage *wpas_remove_blob(void *data, DBusMessage *msg);
void wpas_blobs_drop(struct wpas_iface *ifc);
/* Gives the station n's 802.1X profile (none: drops any given before),
 * its blob:// references made the interface's. 0, or a negative errno
 * with *e (NotFound: a blob not added). */
int wpas_net_give_profile(struct wpas_iface *ifc, const struct wpas_net *n,
			  struct wpad_error *e);

/* An error reply fi.w1.wpa_supplicant1.<name> with a sentence saying what
 * to do. */
DBusMessage *wpas_error(DBusMessage *call, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* wpas_iface.c */
struct wpas_iface *wpas_iface_new(struct wpas *w, struct wdb_device *d, const char *ifname,
				  const char *driver);
void wpas_iface_free(struct wpas_iface *ifc);
void wpas_iface_sync(struct wpas_iface *ifc);
void wpas_iface_state(struct wpas_iface *ifc);
void wpas_iface_scan_done(struct wpas_iface *ifc);
void wpas_iface_net_gone(struct wpas_iface *ifc, struct wpas_net *n);
/* The capability lists both the manager and the interface report. */
bool wpas_append_key_mgmt_caps(DBusMessageIter *it);
bool wpas_sae_supported(void);
bool wpas_owe_supported(void);

/* wpas_net.c */
/* Builds a network from AddNetwork's a{sv}; NULL with *reply set (an
 * error for the caller) when a key is unknown or a value malformed. */
struct wpas_net *wpas_net_add(struct wpas_iface *ifc, DBusMessage *msg, DBusMessage **reply);
void wpas_net_free(struct wpas_net *n);
struct wpas_net *wpas_net_by_path(struct wpas_iface *ifc, const char *path);

/* wpas_neteap.c: the 802.1X keys. wpas_eap_key: key is one of them;
 * wpas_eap_take: keeps one (NULL) or says what is wrong with it;
 * wpas_eap_finish: after the dictionary, checks key_mgmt against the keys
 * and reads the profile into n->eap_conf (0, or -EINVAL with why);
 * wpas_eap_release frees what the network holds of it. */
bool wpas_eap_key(const char *key);
const char *wpas_eap_take(struct wpas_net *n, const char *key, const uint8_t *b, size_t len);
int wpas_eap_finish(struct wpas_net *n, char *why, size_t cap);
void wpas_eap_release(struct wpas_net *n);
bool wpas_net_is_8021x(const struct wpas_net *n);
/* The profile in Network.Properties, as wpa_supplicant shows it: text
 * values, secrets as "*" (set) and never their value. */
bool wpas_eap_append_props(DBusMessageIter *dict, const struct wpas_net *n);

/* wpas_bss.c */
void wpas_bss_sync(struct wpas_iface *ifc);
void wpas_bss_clear(struct wpas_iface *ifc);
/* The path of the BSS object of bssid, "/" when there is none. */
const char *wpas_bss_path(struct wpas_iface *ifc, const uint8_t bssid[6]);

/* wpas_ap.c: mode=2 networks on wpad's access point role. */
/* 0 for a station network or a hotspot wpad can run; else -EINVAL or
 * -EOPNOTSUPP with *e naming the key (IBSS and mesh modes refused). */
int wpas_ap_check(const struct wpas_net *n, struct wpad_error *e);
/* The device becomes an access point running n (ifc->hotspot). */
int wpas_ap_start(struct wpas_iface *ifc, struct wpas_net *n, struct wpad_error *e);
/* Stops the hotspot, if any: the device is a station again. */
void wpas_ap_stop(struct wpas_iface *ifc);
const char *wpas_ap_state_name(const struct wpas_iface *ifc);
bool wpas_ap_capable(const struct wpas_iface *ifc);

#endif
