/* fi.w1.wpa_supplicant1.Interface objects over a wpad station; see
 * wpas_i.h.
 *
 * State: the station's states in wpa_supplicant's words. One rule is
 * NetworkManager's, not wpa_supplicant's: NetworkManager 1.42 takes
 * "4way_handshake" -> "disconnected" as a wrong passphrase and asks the
 * user for a new one, whatever the cause. wpad knows the cause, so it
 * sends that transition only for InvalidPassphrase and passes through
 * "associated" for every other loss during the handshake (an AP that
 * restarted it, a timeout before the passphrase was tested).
 */
#define LOG_TAG "dbus"
#include "daemon/ap/ap.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/rsn/negotiate.h"
#include "daemon/rsn/suites.h"
#include "daemon/station/station.h"
#include "daemon/wpad.h"
#include "drivers/driver.h"
#include "dbus/errors.h"
#include "dbus/wpas_i.h"
#include "dbus/wpas_scanargs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RECONNECT_DELAY_MS 1000
#define RECONNECT_TRIES 5

extern const struct wdb_interface wpas_iface_iface;
extern const struct wdb_interface wpas_p2p_iface;

struct wpas_iface_priv {
	struct loop_timer *reconnect;
	unsigned reconnect_tries;
};

static struct station *sta(const struct wpas_iface *ifc)
{
	return ifc->d->dev->station;
}

/* ---- capabilities ---- */

bool wpas_sae_supported(void)
{
	return rsn_akm_implemented(RSN_AKM_SAE);
}

bool wpas_owe_supported(void)
{
	return rsn_akm_implemented(RSN_AKM_OWE);
}

/* wpa_supplicant's key_mgmt capability names of the AKMs wpad runs. */
bool wpas_append_key_mgmt_caps(DBusMessageIter *it)
{
	static const struct {
		uint32_t akm;
		const char *name;
	} map[] = {
		{ RSN_AKM_8021X, "wpa-eap" },
		{ RSN_AKM_8021X_SHA256, "wpa-eap-sha256" },
		{ RSN_AKM_PSK, "wpa-psk" },
		{ RSN_AKM_PSK_SHA256, "wpa-psk-sha256" },
		{ RSN_AKM_SAE, "sae" },		     { RSN_AKM_OWE, "owe" },
	};
	DBusMessageIter arr;
	const char *none = "none";
	if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "s", &arr) ||
	    !dbus_message_iter_append_basic(&arr, DBUS_TYPE_STRING, &none))
		return false;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (rsn_akm_implemented(map[i].akm) &&
		    !dbus_message_iter_append_basic(&arr, DBUS_TYPE_STRING, &map[i].name))
			return false;
	return dbus_message_iter_close_container(it, &arr);
}

/* The radio's capabilities; all zero when the driver cannot tell. */
static struct driver_capa device_capa(const struct wpas_iface *ifc)
{
	struct driver *drv = wpad_radio_driver(ifc->d->dev->radio);
	struct driver_iface_info info;
	struct driver_capa capa;
	if (!drv || driver_iface_info(drv, ifc->d->dev->ifindex, &info) < 0 ||
	    driver_get_capa(drv, info.radio_id, &capa) < 0)
		memset(&capa, 0, sizeof(capa));
	return capa;
}

/* SSIDs one Scan may name, the wildcard counted, as the station probes
 * for them: what the radio takes in one scan, at most WPAS_SCAN_MAX_SSIDS.
 * NetworkManager puts its hidden profiles' SSIDs in its scans only when
 * this is above 0 and Scan lists "active" and "ssid". */
static dbus_int32_t max_scan_ssids(const struct driver_capa *capa)
{
	return capa->max_scan_ssids < WPAS_SCAN_MAX_SSIDS ? capa->max_scan_ssids
							    : WPAS_SCAN_MAX_SSIDS;
}

static bool append_names(DBusMessageIter *it, const char *key, const char *const *names,
			 size_t n)
{
	DBusMessageIter e, v, arr;
	if (!dbus_message_iter_open_container(it, DBUS_TYPE_DICT_ENTRY, NULL, &e) ||
	    !dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key) ||
	    !dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "as", &v) ||
	    !dbus_message_iter_open_container(&v, DBUS_TYPE_ARRAY, "s", &arr))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!dbus_message_iter_append_basic(&arr, DBUS_TYPE_STRING, &names[i]))
			return false;
	return dbus_message_iter_close_container(&v, &arr) &&
	       dbus_message_iter_close_container(&e, &v) && dbus_message_iter_close_container(it, &e);
}

static bool get_capabilities(void *data, DBusMessageIter *it)
{
	struct wpas_iface *ifc = data;
	struct driver_capa capa = device_capa(ifc);
	uint32_t c = capa.ciphers;
	const char *pairwise[4], *group[4], *mgmt[4];
	size_t np = 0, ng = 0, nm = 0;
	if (c & DRIVER_CIPHER_CCMP_128)
		pairwise[np++] = group[ng++] = "ccmp";
	if (c & DRIVER_CIPHER_GCMP_256)
		pairwise[np++] = group[ng++] = "gcmp-256";
	if (c & DRIVER_CIPHER_TKIP)
		group[ng++] = "tkip";
	if (c & DRIVER_CIPHER_BIP_CMAC_128)
		mgmt[nm++] = "aes-128-cmac";
	if (c & DRIVER_CIPHER_BIP_GMAC_256)
		mgmt[nm++] = "bip-gmac-256";
	static const char *const protocol[] = { "rsn" }, *const auth_alg[] = { "open" },
				 *const scan[] = { "active", "passive", "ssid" },
				 *const modes[] = { "infrastructure", "ap" };
	DBusMessageIter dict, e, v, km;
	const char *key = "KeyMgmt", *max_key = "MaxScanSSID";
	dbus_int32_t max_ssid = max_scan_ssids(&capa);
	return dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict) &&
	       append_names(&dict, "Pairwise", pairwise, np) &&
	       append_names(&dict, "Group", group, ng) &&
	       append_names(&dict, "GroupMgmt", mgmt, nm) &&
	       dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) &&
	       dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key) &&
	       dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "as", &km) &&
	       wpas_append_key_mgmt_caps(&km) && dbus_message_iter_close_container(&e, &km) &&
	       dbus_message_iter_close_container(&dict, &e) &&
	       append_names(&dict, "Protocol", protocol, 1) &&
	       append_names(&dict, "AuthAlg", auth_alg, 1) && append_names(&dict, "Scan", scan, 3) &&
	       append_names(&dict, "Modes", modes, wpas_ap_capable(ifc) ? 2 : 1) &&
	       dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) &&
	       dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &max_key) &&
	       dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "i", &v) &&
	       dbus_message_iter_append_basic(&v, DBUS_TYPE_INT32, &max_ssid) &&
	       dbus_message_iter_close_container(&e, &v) &&
	       dbus_message_iter_close_container(&dict, &e) &&
	       dbus_message_iter_close_container(it, &dict);
}

/* ---- state ---- */

static const char *state_name(struct wpas_iface *ifc)
{
	if (!sta(ifc)) /* the hotspot's access point (wpas_ap.c) */
		return wpas_ap_state_name(ifc);
	switch (station_state(sta(ifc))) {
	case STATION_DISCONNECTED:
	case STATION_DISCONNECTING:
		return ifc->nets ? "disconnected" : "inactive";
	case STATION_SCANNING:
		return "scanning";
	case STATION_AUTHENTICATING:
		return "authenticating";
	case STATION_ASSOCIATING:
	case STATION_ROAMING:
		return "associating";
	case STATION_HANDSHAKING:
		return "4way_handshake";
	case STATION_CONNECTED:
		return "completed";
	}
	return "disconnected";
}

static bool link_state(enum station_state s)
{
	return s == STATION_HANDSHAKING || s == STATION_CONNECTED || s == STATION_ROAMING;
}

/* wpa_supplicant's DisconnectReason: the IEEE reason code, negative when
 * our side ended the link. */
static int32_t disconnect_reason(const struct wpad_error *e)
{
	if (!e)
		return 0;
	if (e->ieee_reason > 0)
		return e->ieee_reason;
	switch (e->code) {
	case WPAD_ERR_INVALID_PASSPHRASE:
		return -WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT;
	case WPAD_ERR_ABORTED:
		return -WLAN_REASON_DEAUTH_LEAVING;
	default:
		return -WLAN_REASON_UNSPECIFIED;
	}
}

static void announce_state(struct wpas_iface *ifc, const char *state)
{
	ifc->state = state;
	wdb_emit_changed(ifc->obj, &wpas_iface_iface, "State");
}

static void reconnect_later(struct wpas_iface *ifc, const struct wpad_error *why)
{
	struct wpas_iface_priv *p = (struct wpas_iface_priv *)(ifc + 1);
	if (!ifc->selected || !why || why->code == WPAD_ERR_ABORTED ||
	    why->code == WPAD_ERR_INVALID_PASSPHRASE || p->reconnect_tries >= RECONNECT_TRIES ||
	    station_eap_needs_user(sta(ifc)))
		return;
	/* wpa_supplicant keeps trying the selected network; NetworkManager
	 * relies on it and gives up on its own schedule. */
	p->reconnect_tries++;
	loop_timer_arm_ms(p->reconnect, RECONNECT_DELAY_MS);
}

/* The hotspot: State from the AP, CurrentNetwork the mode=2 network,
 * CurrentBSS "/" (wpa_supplicant has no BSS entry for its own AP). */
static void ap_iface_state(struct wpas_iface *ifc)
{
	const char *state = state_name(ifc);
	if (state != ifc->state)
		announce_state(ifc, state);
	if (strcmp(ifc->current_bss, "/") != 0) {
		snprintf(ifc->current_bss, sizeof(ifc->current_bss), "/");
		wdb_emit_changed(ifc->obj, &wpas_iface_iface, "CurrentBSS");
	}
	const char *net = ifc->hotspot ? wdb_object_path(ifc->hotspot->obj) : "/";
	if (strcmp(net, ifc->current_net) != 0) {
		snprintf(ifc->current_net, sizeof(ifc->current_net), "%s", net);
		wdb_emit_changed(ifc->obj, &wpas_iface_iface, "CurrentNetwork");
	}
	if (ifc->scanning) {
		ifc->scanning = false;
		wdb_emit_changed(ifc->obj, &wpas_iface_iface, "Scanning");
	}
}

void wpas_iface_state(struct wpas_iface *ifc)
{
	if (!sta(ifc)) {
		ap_iface_state(ifc);
		return;
	}
	const char *state = state_name(ifc);
	enum station_state s = station_state(sta(ifc));
	if (state != ifc->state) {
		if (ifc->state && strcmp(ifc->state, "4way_handshake") == 0 &&
		    strcmp(state, "4way_handshake") != 0 && strcmp(state, "completed") != 0) {
			const struct wpad_error *e = station_last_error(sta(ifc));
			if (!e || e->code != WPAD_ERR_INVALID_PASSPHRASE)
				announce_state(ifc, "associated");
		}
		if (s == STATION_DISCONNECTED) {
			const struct wpad_error *e = station_last_error(sta(ifc));
			ifc->disconnect_reason = disconnect_reason(e);
			wdb_emit_changed(ifc->obj, &wpas_iface_iface, "DisconnectReason");
			reconnect_later(ifc, e);
		}
		if (s == STATION_CONNECTED) {
			struct wpas_iface_priv *p = (struct wpas_iface_priv *)(ifc + 1);
			p->reconnect_tries = 0;
		}
		announce_state(ifc, state);
	}
	uint8_t bssid[6];
	const char *bss = link_state(s) && station_bssid(sta(ifc), bssid) ? wpas_bss_path(ifc, bssid)
									  : "/";
	if (strcmp(bss, ifc->current_bss) != 0) {
		snprintf(ifc->current_bss, sizeof(ifc->current_bss), "%s", bss);
		wdb_emit_changed(ifc->obj, &wpas_iface_iface, "CurrentBSS");
	}
	const char *net = ifc->selected ? wdb_object_path(ifc->selected->obj) : "/";
	if (strcmp(net, ifc->current_net) != 0) {
		snprintf(ifc->current_net, sizeof(ifc->current_net), "%s", net);
		wdb_emit_changed(ifc->obj, &wpas_iface_iface, "CurrentNetwork");
	}
	bool scanning = station_scanning(sta(ifc)) || s == STATION_SCANNING;
	if (scanning != ifc->scanning) {
		ifc->scanning = scanning;
		wdb_emit_changed(ifc->obj, &wpas_iface_iface, "Scanning");
	}
}

void wpas_iface_sync(struct wpas_iface *ifc)
{
	wpas_bss_sync(ifc);
	wpas_iface_state(ifc);
}

void wpas_iface_scan_done(struct wpas_iface *ifc)
{
	wpas_bss_sync(ifc);
	DBusMessage *sig = wdb_signal_new(ifc->obj, &wpas_iface_iface, "ScanDone");
	dbus_bool_t ok = true;
	if (sig && dbus_message_append_args(sig, DBUS_TYPE_BOOLEAN, &ok, DBUS_TYPE_INVALID))
		wdb_send(sig);
	else if (sig)
		dbus_message_unref(sig);
	wpas_iface_state(ifc);
}

/* ---- connecting ---- */

static bool heard(struct wpas_iface *ifc, const struct wpas_net *n)
{
	const struct station_network *nets[64];
	size_t count = station_networks(sta(ifc), nets, 64);
	for (size_t i = 0; i < count && i < 64; i++)
		if (nets[i]->ssid_len == n->ssid_len && memcmp(nets[i]->ssid, n->ssid, n->ssid_len) == 0)
			return true;
	return false;
}

static bool wants(const struct wpas_net *n, const char *akm)
{
	char list[WPAS_STR_MAX + 2];
	char word[64];
	snprintf(list, sizeof(list), " %s ", n->key_mgmt);
	snprintf(word, sizeof(word), " %s ", akm);
	return strstr(list, word) != NULL;
}

/* wpa_supplicant's sae_pwe values (0 hunting-and-pecking only, 1 H2E
 * only, 2 both) in the station's words; NULL for another value. */
static const char *sae_pwe_name(const char *v)
{
	static const char *const names[] = { "hunt-and-peck", "h2e", "both" };
	if (v[0] >= '0' && v[0] <= '2' && v[1] == '\0')
		return names[v[0] - '0'];
	return NULL;
}

/* The network's key_mgmt and ieee80211w, with the interface's Pmf as
 * the default of the latter (wpa_supplicant's rule), as the station's
 * policy for this connect. Returns 0 or -EOPNOTSUPP with *e set. */
static int net_policy(const struct wpas_iface *ifc, const struct wpas_net *n,
		      struct rsn_policy *pol, struct wpad_error *e)
{
	int pmf = n->ieee80211w >= 0 ? n->ieee80211w : ifc->pmf[0] - '0';
	*pol = (struct rsn_policy){ .pmf = pmf == 2   ? RSN_PMF_REQUIRED
					   : pmf == 1 ? RSN_PMF_OPTIONAL
						      : RSN_PMF_DISABLED };
	if (n->akms && !(n->akms & rsn_akms_implemented()))
		return wpad_error_set(e, WPAD_ERR_NOT_SUPPORTED, 0, -1, -1,
				      "wpad implements none of key_mgmt '%s'", n->key_mgmt),
		       -EOPNOTSUPP;
	pol->akms = n->akms & rsn_akms_implemented();
	return 0;
}

/* Starts (or restarts) the connect to the selected network. Returns 0 or
 * a negative errno with *e saying why. */
static int connect_selected(struct wpas_iface *ifc, struct wpad_error *e)
{
	struct wpas_net *n = ifc->selected;
	if (n->mode == 2)
		return wpas_ap_start(ifc, n, e);
	if (n->mode != 0)
		return wpad_error_set(e, WPAD_ERR_NOT_SUPPORTED, 0, -1, -1,
				      "mode=%d (access point or mesh) is not served through %s "
				      "yet: start an access point with org.wpad1.AccessPoint",
				      n->mode, WPAS_NAME),
		       -EOPNOTSUPP;
	bool personal = wants(n, "WPA-PSK") || wants(n, "WPA-PSK-SHA256") || wants(n, "SAE");
	bool enterprise = n->eap_conf != NULL && !personal;
	int given = wpas_net_give_profile(ifc, enterprise ? n : NULL, e);
	if (given < 0)
		return given;
	if (personal && !n->have_psk)
		return wpad_error_set(e, WPAD_ERR_NO_AGENT, 0, -1, -1,
				      "the network has no psk: give its passphrase"),
		       -ENOKEY;
	struct rsn_policy pol;
	if (net_policy(ifc, n, &pol, e) < 0)
		return -EOPNOTSUPP;
	bool hidden = n->scan_ssid && !heard(ifc, n);
	int r = station_connect(sta(ifc), n->ssid, n->ssid_len, personal ? n->psk : NULL, hidden);
	if (r == -EALREADY)
		return 0;
	if (r == 0)
		station_connect_restrict(sta(ifc), &pol, sae_pwe_name(ifc->sae_pwe));
	if (r < 0) {
		const struct wpad_error *last = station_last_error(sta(ifc));
		if (last)
			*e = *last;
		else
			wpad_error_set(e, wpad_device_error_code(ifc->d->dev, r), r, -1, -1,
				       "the connect did not start");
	}
	return r;
}

static void on_reconnect(struct loop_timer *t, void *data)
{
	struct wpas_iface *ifc = data;
	struct wpad_error e;
	if (ifc->selected && sta(ifc) && station_state(sta(ifc)) == STATION_DISCONNECTED &&
	    connect_selected(ifc, &e) < 0)
		log_info("%s: reconnect to the selected network failed: %s", ifc->ifname, e.text);
}

/* ---- methods ---- */

static DBusMessage *scan(void *data, DBusMessage *msg)
{
	struct wpas_iface *ifc = data;
	if (!sta(ifc))
		return wpas_error(msg, "Interface.ScanError",
				  "Scan request rejected: %s runs a hotspot (access point)", ifc->ifname);
	/* wpad scans actively where allowed (passive on no-IR channels),
	 * whatever Type says; SSIDs are probed for by name. */
	struct wpas_scan_args args;
	char why[WPAS_STR_MAX];
	if (wpas_scan_args_parse(msg, &args, why, sizeof(why)) < 0)
		return wpas_error(msg, "InvalidArgs", "%s", why);
	int r = station_scan_ssids(sta(ifc), args.ssids, args.n_ssids);
	if (r == 0 || r == -EINPROGRESS) {
		wpas_iface_state(ifc);
		return dbus_message_new_method_return(msg);
	}
	return wpas_error(msg, "Interface.ScanError", "Scan request rejected: %s",
			  r == -EBUSY ? "a connect is under way" : strerror(-r));
}

static DBusMessage *add_network(void *data, DBusMessage *msg)
{
	struct wpas_iface *ifc = data;
	DBusMessage *reply = NULL;
	struct wpas_net *n = wpas_net_add(ifc, msg, &reply);
	if (!n)
		return reply;
	wdb_emit_changed(ifc->obj, &wpas_iface_iface, "Networks");
	wpas_iface_state(ifc); /* inactive -> disconnected */
	reply = dbus_message_new_method_return(msg);
	if (reply) {
		DBusMessageIter it;
		dbus_message_iter_init_append(reply, &it);
		wdb_append_path(&it, wdb_object_path(n->obj));
	}
	return reply;
}

static struct wpas_net *net_arg(struct wpas_iface *ifc, DBusMessage *msg, DBusMessage **reply)
{
	DBusMessageIter it;
	const char *path;
	dbus_message_iter_init(msg, &it);
	dbus_message_iter_get_basic(&it, &path);
	struct wpas_net *n = wpas_net_by_path(ifc, path);
	if (!n)
		*reply = wpas_error(msg, "NetworkUnknown", "no network at %s", path);
	return n;
}

/* The network goes (RemoveNetwork, or the interface): a connect to it
 * ends, as in wpa_supplicant. */
void wpas_iface_net_gone(struct wpas_iface *ifc, struct wpas_net *n)
{
	if (ifc->hotspot == n)
		wpas_ap_stop(ifc);
	if (ifc->selected != n)
		return;
	ifc->selected = NULL;
	if (sta(ifc) && station_state(sta(ifc)) != STATION_DISCONNECTED)
		station_disconnect(sta(ifc));
}

static DBusMessage *remove_network(void *data, DBusMessage *msg)
{
	struct wpas_iface *ifc = data;
	DBusMessage *reply = NULL;
	struct wpas_net *n = net_arg(ifc, msg, &reply);
	if (!n)
		return reply;
	wpas_net_free(n);
	wdb_emit_changed(ifc->obj, &wpas_iface_iface, "Networks");
	wpas_iface_state(ifc);
	return dbus_message_new_method_return(msg);
}

static DBusMessage *remove_all_networks(void *data, DBusMessage *msg)
{
	struct wpas_iface *ifc = data;
	while (ifc->nets)
		wpas_net_free(ifc->nets);
	wdb_emit_changed(ifc->obj, &wpas_iface_iface, "Networks");
	wpas_iface_state(ifc);
	return dbus_message_new_method_return(msg);
}

static DBusMessage *select_network(void *data, DBusMessage *msg)
{
	struct wpas_iface *ifc = data;
	struct wpas_iface_priv *p = (struct wpas_iface_priv *)(ifc + 1);
	DBusMessage *reply = NULL;
	struct wpas_net *n = net_arg(ifc, msg, &reply);
	if (!n)
		return reply;
	struct wpad_error e;
	if (ifc->hotspot && ifc->hotspot != n)
		wpas_ap_stop(ifc); /* another network: the station comes back first */
	if (ifc->hotspot == n && ifc->d->dev->ap && ap_get_state(ifc->d->dev->ap) != AP_STATE_STOPPED) {
		wpas_iface_state(ifc); /* already running */
		return dbus_message_new_method_return(msg);
	}
	ifc->selected = n;
	p->reconnect_tries = 0;
	loop_timer_disarm(p->reconnect);
	if (connect_selected(ifc, &e) < 0) {
		ifc->selected = NULL;
		log_info("%s: SelectNetwork: %s", ifc->ifname, e.text);
		return wpas_error(msg, e.code == WPAD_ERR_NOT_SUPPORTED ? "NotSupported" : "UnknownError",
				  "%s", e.text);
	}
	DBusMessage *sig = wdb_signal_new(ifc->obj, &wpas_iface_iface, "NetworkSelected");
	DBusMessageIter it;
	if (sig) {
		dbus_message_iter_init_append(sig, &it);
		if (wdb_append_path(&it, wdb_object_path(n->obj)))
			wdb_send(sig);
		else
			dbus_message_unref(sig);
	}
	wpas_iface_state(ifc);
	return dbus_message_new_method_return(msg);
}

static DBusMessage *disconnect(void *data, DBusMessage *msg)
{
	struct wpas_iface *ifc = data;
	struct wpas_iface_priv *p = (struct wpas_iface_priv *)(ifc + 1);
	bool had = ifc->selected != NULL;
	ifc->selected = NULL;
	loop_timer_disarm(p->reconnect);
	if (ifc->hotspot) {
		wpas_ap_stop(ifc);
		wpas_iface_state(ifc);
		return dbus_message_new_method_return(msg);
	}
	if (station_disconnect(sta(ifc)) < 0 && !had)
		return wpas_error(msg, "NotConnected", "not connected");
	wpas_iface_state(ifc);
	return dbus_message_new_method_return(msg);
}

/* ---- properties ---- */

static bool get_state(void *data, DBusMessageIter *it)
{
	struct wpas_iface *ifc = data;
	return wdb_append_str(it, ifc->state ? ifc->state : state_name(ifc));
}

static bool get_scanning(void *data, DBusMessageIter *it)
{
	struct wpas_iface *ifc = data;
	dbus_bool_t b = ifc->scanning;
	return wdb_append_basic(it, DBUS_TYPE_BOOLEAN, &b);
}

static bool get_ifname(void *data, DBusMessageIter *it)
{
	return wdb_append_str(it, ((struct wpas_iface *)data)->ifname);
}

static bool get_driver(void *data, DBusMessageIter *it)
{
	return wdb_append_str(it, ((struct wpas_iface *)data)->driver);
}

static bool get_current_bss(void *data, DBusMessageIter *it)
{
	struct wpas_iface *ifc = data;
	return wdb_append_path(it, ifc->current_bss[0] ? ifc->current_bss : "/");
}

static bool get_current_net(void *data, DBusMessageIter *it)
{
	struct wpas_iface *ifc = data;
	return wdb_append_path(it, ifc->current_net[0] ? ifc->current_net : "/");
}

static bool get_auth_mode(void *data, DBusMessageIter *it)
{
	struct wpas_iface *ifc = data;
	const char *mode = sta(ifc) && station_state(sta(ifc)) == STATION_CONNECTED ? "WPA2-PSK"
										      : "INACTIVE";
	return wdb_append_str(it, mode);
}

static bool get_bsss(void *data, DBusMessageIter *it)
{
	struct wpas_iface *ifc = data;
	DBusMessageIter arr;
	if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "o", &arr))
		return false;
	for (struct wpas_bss *b = ifc->bsses; b; b = b->next)
		if (!wdb_append_path(&arr, wdb_object_path(b->obj)))
			return false;
	return dbus_message_iter_close_container(it, &arr);
}

static bool get_networks(void *data, DBusMessageIter *it)
{
	struct wpas_iface *ifc = data;
	DBusMessageIter arr;
	if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "o", &arr))
		return false;
	for (struct wpas_net *n = ifc->nets; n; n = n->next)
		if (!wdb_append_path(&arr, wdb_object_path(n->obj)))
			return false;
	return dbus_message_iter_close_container(it, &arr);
}

static bool get_reason(void *data, DBusMessageIter *it)
{
	dbus_int32_t v = ((struct wpas_iface *)data)->disconnect_reason;
	return wdb_append_basic(it, DBUS_TYPE_INT32, &v);
}

static bool get_auth_status(void *data, DBusMessageIter *it)
{
	dbus_int32_t v = ((struct wpas_iface *)data)->auth_status;
	return wdb_append_basic(it, DBUS_TYPE_INT32, &v);
}

#define U32_PROP(field)                                                                            \
	static bool get_##field(void *data, DBusMessageIter *it)                                   \
	{                                                                                          \
		dbus_uint32_t v = ((struct wpas_iface *)data)->field;                              \
		return wdb_append_basic(it, DBUS_TYPE_UINT32, &v);                                 \
	}                                                                                          \
	static int set_##field(void *data, DBusMessageIter *it, struct wpad_error *err)            \
	{                                                                                          \
		dbus_uint32_t v;                                                                   \
		dbus_message_iter_get_basic(it, &v);                                               \
		((struct wpas_iface *)data)->field = v;                                            \
		return 0;                                                                          \
	}
U32_PROP(ap_scan)
U32_PROP(bss_expire_age)
U32_PROP(bss_expire_count)

/* Settings NetworkManager writes as strings; kept and read back (wpad's
 * own policy decides PMF: optional by default, required per network). */
#define STR_PROP(field)                                                                            \
	static bool get_##field(void *data, DBusMessageIter *it)                                   \
	{                                                                                          \
		return wdb_append_str(it, ((struct wpas_iface *)data)->field);                     \
	}                                                                                          \
	static int set_##field(void *data, DBusMessageIter *it, struct wpad_error *err)            \
	{                                                                                          \
		struct wpas_iface *ifc = data;                                                     \
		const char *v;                                                                     \
		if (!wdb_read_string(it, &v, sizeof(ifc->field) - 1))                              \
			return wpad_error_set(err, WPAD_ERR_INVALID_ARGUMENTS, 0, -1, -1, "too long"),  \
			       -EINVAL;                                                            \
		snprintf(ifc->field, sizeof(ifc->field), "%s", v);                                 \
		return 0;                                                                          \
	}
STR_PROP(pmf)
STR_PROP(sae_pwe)

/* Pmf and SaePwe take wpa_supplicant's values, 0, 1 or 2, only: what
 * wpad cannot honour is refused, not kept. */
static int set_012(int (*set)(void *, DBusMessageIter *, struct wpad_error *), void *data,
		   DBusMessageIter *it, struct wpad_error *err)
{
	const char *v;
	if (!wdb_read_string(it, &v, 2) || !sae_pwe_name(v))
		return wpad_error_set(err, WPAD_ERR_INVALID_ARGUMENTS, 0, -1, -1,
				      "0, 1 or 2 as a string"),
		       -EINVAL;
	return set(data, it, err);
}

static int set_pmf_checked(void *data, DBusMessageIter *it, struct wpad_error *err)
{
	return set_012(set_pmf, data, it, err);
}

static int set_sae_pwe_checked(void *data, DBusMessageIter *it, struct wpad_error *err)
{
	return set_012(set_sae_pwe, data, it, err);
}
STR_PROP(pmk_lifetime)
STR_PROP(ap_isolate)
STR_PROP(bridge)

static const struct wdb_method methods[] = {
	{ "Scan", "a{sv} args", "", scan, WDB_PRIVILEGED },
	{ "AddNetwork", "a{sv} args", "o path", add_network, WDB_PRIVILEGED },
	{ "RemoveNetwork", "o path", "", remove_network, WDB_PRIVILEGED },
	{ "RemoveAllNetworks", "", "", remove_all_networks, WDB_PRIVILEGED },
	{ "SelectNetwork", "o path", "", select_network, WDB_PRIVILEGED },
	{ "AddBlob", "s name, ay data", "", wpas_add_blob, WDB_PRIVILEGED },
	{ "RemoveBlob", "s name", "", wpas_remove_blob, WDB_PRIVILEGED },
	{ "Disconnect", "", "", disconnect, WDB_PRIVILEGED },
	{ .name = NULL },
};

static const struct wdb_signal signals[] = {
	{ "ScanDone", "b success" },
	{ "BSSAdded", "o path, a{sv} properties" },
	{ "BSSRemoved", "o path" },
	{ "NetworkAdded", "o path, a{sv} properties" },
	{ "NetworkRemoved", "o path" },
	{ "NetworkSelected", "o path" },
	{ .name = NULL },
};

static const struct wdb_property props[] = {
	{ "State", "s", get_state, NULL, 0 },
	{ "Scanning", "b", get_scanning, NULL, 0 },
	{ "Capabilities", "a{sv}", get_capabilities, NULL, WDB_PROP_CONST },
	{ "Ifname", "s", get_ifname, NULL, WDB_PROP_CONST },
	{ "Driver", "s", get_driver, NULL, WDB_PROP_CONST },
	{ "CurrentBSS", "o", get_current_bss, NULL, 0 },
	{ "CurrentNetwork", "o", get_current_net, NULL, 0 },
	{ "CurrentAuthMode", "s", get_auth_mode, NULL, WDB_PROP_NO_EMIT },
	{ "BSSs", "ao", get_bsss, NULL, 0 },
	{ "Networks", "ao", get_networks, NULL, 0 },
	{ "DisconnectReason", "i", get_reason, NULL, 0 },
	{ "AuthStatusCode", "i", get_auth_status, NULL, 0 },
	{ "ApScan", "u", get_ap_scan, set_ap_scan, 0 },
	{ "BSSExpireAge", "u", get_bss_expire_age, set_bss_expire_age, 0 },
	{ "BSSExpireCount", "u", get_bss_expire_count, set_bss_expire_count, 0 },
	{ "Pmf", "s", get_pmf, set_pmf_checked, 0 },
	{ "SaePwe", "s", get_sae_pwe, set_sae_pwe_checked, 0 },
	{ "Dot11RSNAConfigPMKLifetime", "s", get_pmk_lifetime, set_pmk_lifetime, 0 },
	{ "ApIsolate", "s", get_ap_isolate, set_ap_isolate, 0 },
	{ "BridgeIfname", "s", get_bridge, set_bridge, 0 },
	{ .name = NULL },
};

const struct wdb_interface wpas_iface_iface = {
	.name = WPAS_IFACE,
	.methods = methods,
	.signals = signals,
	.props = props,
};

/* NetworkManager reads P2PDevice of every interface and cancels any P2P
 * operation at start; wpad has no P2P: no properties, Cancel refused. */
static DBusMessage *p2p_cancel(void *data, DBusMessage *msg)
{
	return wpas_error(msg, "UnknownError", "wpad does not do Wi-Fi P2P");
}

static const struct wdb_method p2p_methods[] = {
	{ "Cancel", "", "", p2p_cancel, 0 },
	{ .name = NULL },
};

const struct wdb_interface wpas_p2p_iface = {
	.name = WPAS_IFACE ".P2PDevice",
	.methods = p2p_methods,
};

/* ---- life ---- */

struct wpas_iface *wpas_iface_new(struct wpas *w, struct wdb_device *d, const char *ifname,
				  const char *driver)
{
	struct wpas_iface *ifc = calloc(1, sizeof(*ifc) + sizeof(struct wpas_iface_priv));
	if (!ifc)
		return NULL;
	struct wpas_iface_priv *p = (struct wpas_iface_priv *)(ifc + 1);
	ifc->id = w->next_iface_id++;
	ifc->d = d;
	snprintf(ifc->ifname, sizeof(ifc->ifname), "%s", ifname);
	snprintf(ifc->driver, sizeof(ifc->driver), "%s", driver);
	snprintf(ifc->path, sizeof(ifc->path), WPAS_PATH "/Interfaces/%u", ifc->id);
	snprintf(ifc->current_bss, sizeof(ifc->current_bss), "/");
	snprintf(ifc->current_net, sizeof(ifc->current_net), "/");
	ifc->ap_scan = 1;
	ifc->bss_expire_age = 180;
	ifc->bss_expire_count = 2;
	snprintf(ifc->pmf, sizeof(ifc->pmf), "0");
	snprintf(ifc->sae_pwe, sizeof(ifc->sae_pwe), "0");
	snprintf(ifc->pmk_lifetime, sizeof(ifc->pmk_lifetime), "43200");
	snprintf(ifc->ap_isolate, sizeof(ifc->ap_isolate), "0");
	p->reconnect = loop_timer_new(wdb_get()->loop, on_reconnect, ifc);
	ifc->obj = wdb_object_new(ifc->path);
	if (!p->reconnect || !ifc->obj) {
		wpas_iface_free(ifc);
		return NULL;
	}
	station_set_external_control(d->dev->station, true);
	ifc->state = state_name(ifc);
	ifc->scanning = station_scanning(d->dev->station);
	wpas_bss_sync(ifc);
	if (wdb_object_add_iface(ifc->obj, &wpas_iface_iface, ifc) < 0 ||
	    wdb_object_add_iface(ifc->obj, &wpas_p2p_iface, ifc) < 0) {
		wpas_iface_free(ifc);
		return NULL;
	}
	return ifc;
}

void wpas_iface_free(struct wpas_iface *ifc)
{
	if (!ifc)
		return;
	struct wpas_iface_priv *p = (struct wpas_iface_priv *)(ifc + 1);
	if (ifc->hotspot && wdb_get() && !wdb_get()->closing)
		wpas_ap_stop(ifc); /* NetworkManager let go: the station comes back */
	ifc->hotspot = NULL;
	while (ifc->nets)
		wpas_net_free(ifc->nets);
	wpas_blobs_drop(ifc);
	wpas_bss_clear(ifc);
	if (ifc->d && ifc->d->dev && ifc->d->dev->station)
		station_set_external_control(ifc->d->dev->station, false);
	loop_timer_free(p->reconnect);
	wdb_object_free(ifc->obj);
	free(ifc);
}
