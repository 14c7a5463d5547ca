/* org.wpad1.Station, and the connect flow every connect goes through:
 *
 *   Network.Connect / ConnectHiddenNetwork
 *     -> a PSK network with nothing stored: ask the agent (NoAgent if none)
 *     -> station_connect()
 *     -> connect_done: NoAgent (a hidden network turned out to need a
 *        passphrase) asks the agent once and connects again, a step
 *        that leaves Device.LastError alone (dev->connect_asks_passphrase);
 *        anything else answers the call, and a failure also goes out as
 *        Device.ConnectionFailed.
 *
 * One D-Bus connect at a time per device: the same network again is
 * InProgress, another one aborts the first (its caller gets Aborted).
 */
#define LOG_TAG "dbus"
#include "daemon/station/station.h"

#include "daemon/config/value.h"
#include "daemon/core/log.h"
#include "daemon/store/known_store.h"
#include "daemon/wpad.h"
#include "dbus/agent.h"
#include "dbus/eapdict.h"
#include "dbus/errors.h"
#include "dbus/wdbus_i.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *dbus_state(enum station_state s)
{
	switch (s) {
	case STATION_DISCONNECTED:
		return "disconnected";
	case STATION_SCANNING:
		return "scanning";
	case STATION_AUTHENTICATING:
	case STATION_ASSOCIATING:
		return "connecting";
	case STATION_HANDSHAKING:
		return "authenticating";
	case STATION_CONNECTED:
		return "connected";
	case STATION_ROAMING:
		return "roaming";
	case STATION_DISCONNECTING:
		return "disconnecting";
	}
	return "disconnected";
}

static struct station *sta(const struct wdb_device *d)
{
	return d->dev->station;
}

/* ---- the connect flow ---- */

static void finish_connect(struct wdb_device *d, const struct wpad_error *err)
{
	DBusMessage *call = d->st.connect_call;
	d->dev->connect_asks_passphrase = false;
	if (d->st.agent_req)
		wdb_agent_cancel(d->st.agent_req, "canceled");
	d->st.agent_req = NULL;
	d->st.connect_call = NULL;
	d->st.started = false;
	d->st.agent_asked = false;
	if (err && err->code != WPAD_ERR_ABORTED)
		wdb_device_emit_failure(d, err);
	if (call)
		wdb_reply_later(call, err ? wdb_error_reply(call, err)
					  : dbus_message_new_method_return(call));
}

static void abort_connect(struct wdb_device *d, const char *why)
{
	struct wpad_error e;
	wpad_error_set(&e, WPAD_ERR_ABORTED, 0, -1, -1, "%s", why);
	wdb_agent_cancel(d->st.eap_req, why);
	d->st.eap_req = NULL;
	finish_connect(d, &e);
}

static void start_station(struct wdb_device *d, const char *passphrase)
{
	/* Only a hidden network's security is learnt after the start; the
	 * agent is asked then, once, so a NoAgent there is not the end. */
	d->dev->connect_asks_passphrase = d->st.hidden && !d->st.agent_asked &&
					  wdb_agent_registered();
	int r = station_connect(sta(d), d->st.ssid, d->st.ssid_len, passphrase, d->st.hidden);
	if (r == 0) {
		d->st.started = true;
		return;
	}
	d->dev->connect_asks_passphrase = false;
	struct wpad_error e;
	const struct wpad_error *last = station_last_error(sta(d));
	if (last)
		e = *last;
	else
		wpad_error_set(&e, wpad_device_error_code(d->dev, r), r, -1, -1,
			       "the connect did not start");
	finish_connect(d, &e);
}

static void agent_answered(void *data, const char *passphrase, const struct wpad_error *err)
{
	struct wdb_device *d = data;
	d->st.agent_req = NULL;
	if (!d->st.connect_call)
		return;
	if (err) {
		finish_connect(d, err);
		return;
	}
	start_station(d, passphrase);
}

/* The network's security as the station sees it now (hidden networks are
 * known only once probed). */
static enum bss_security current_security(struct wdb_device *d)
{
	const struct station_network *nets[BSS_LIST_MAX];
	size_t n = station_networks(sta(d), nets, BSS_LIST_MAX);
	for (size_t i = 0; i < n && i < BSS_LIST_MAX; i++)
		if (nets[i]->ssid_len == d->st.ssid_len &&
		    memcmp(nets[i]->ssid, d->st.ssid, d->st.ssid_len) == 0)
			return nets[i]->security;
	return d->st.security;
}

static int ask_agent(struct wdb_device *d, struct wpad_error *err)
{
	char path[WDB_PATH_MAX];
	if (!wdb_network_path(d, d->st.ssid, d->st.ssid_len, current_security(d), path,
			      sizeof(path)))
		return wpad_error_set(err, WPAD_ERR_FAILED, 0, -1, -1, "no network path"), -EINVAL;
	d->st.agent_asked = true;
	d->st.agent_req = wdb_agent_request_passphrase(path, agent_answered, d, err);
	return d->st.agent_req ? 0 : -ENOKEY;
}

static bool stored_key(struct wdb_device *d, bool passphrase_only)
{
	struct known_store *store = wpad_known_store(wdb_get()->w);
	struct known_network *k =
		store ? known_store_get(store, d->st.ssid, d->st.ssid_len, KNOWN_SEC_PSK) : NULL;
	return k && (k->has_passphrase || (!passphrase_only && k->psk_valid));
}

DBusMessage *wdb_station_connect(struct wdb_device *d, DBusMessage *msg, const uint8_t *ssid,
				 size_t ssid_len, enum bss_security sec, bool hidden)
{
	char s[BSS_SSID_STR_MAX];
	bss_ssid_str(ssid, ssid_len, s, sizeof(s));
	if (!d->dev->powered)
		return wdb_device_down_reply(d, msg);
	if (d->st.connect_call) {
		if (d->st.ssid_len == ssid_len && memcmp(d->st.ssid, ssid, ssid_len) == 0 &&
		    d->st.hidden == hidden)
			return wdb_error_replyf(msg, WPAD_ERR_IN_PROGRESS,
						"already connecting to '%s'", s);
		abort_connect(d, "superseded by another connect");
	}
	memcpy(d->st.ssid, ssid, ssid_len);
	d->st.ssid_len = ssid_len;
	d->st.security = sec;
	d->st.hidden = hidden;
	d->st.connect_call = dbus_message_ref(msg);
	log_info("%s: connect to '%s' asked over D-Bus", d->dev->name, s);
	/* A WPA3-only (SAE) network needs the passphrase itself. */
	bool need_key = sec == BSS_SECURITY_PSK ? !stored_key(d, false)
			: sec == BSS_SECURITY_SAE ? !stored_key(d, true) : false;
	if (need_key && !hidden) {
		struct wpad_error e;
		if (ask_agent(d, &e) < 0) {
			d->st.connect_call = NULL;
			dbus_message_unref(msg);
			d->st.agent_asked = false;
			return wdb_error_reply(msg, &e);
		}
		return WDB_REPLY_LATER;
	}
	start_station(d, NULL);
	return WDB_REPLY_LATER;
}

void wdb_station_connect_done(struct wdb_device *d, const struct wpad_error *err)
{
	/* Not ours (autoconnect, or the attempt a new connect just
	 * preempted): the flag stays with the attempt being started. */
	if (!d->st.connect_call || !d->st.started) {
		if (err && err->code != WPAD_ERR_ABORTED) /* autoconnect */
			wdb_device_emit_failure(d, err);
		wdb_schedule_sync();
		return;
	}
	bool asks = d->dev->connect_asks_passphrase;
	d->dev->connect_asks_passphrase = false;
	if (err && err->code == WPAD_ERR_NO_AGENT && asks) {
		struct wpad_error e;
		d->st.started = false;
		if (wdb_agent_registered() && ask_agent(d, &e) == 0)
			return;
		/* The agent left meanwhile: this ends the attempt after all. */
		if (!wdb_agent_registered())
			e = *err;
		wpad_device_set_error(d->dev, &e);
		finish_connect(d, &e);
		return;
	}
	wdb_station_sync(d); /* ConnectedNetwork is right when the caller hears back */
	finish_connect(d, err);
}

/* ---- methods ---- */

static DBusMessage *scan(void *data, DBusMessage *msg)
{
	struct wdb_device *d = data;
	if (!d->dev->powered)
		return wdb_device_down_reply(d, msg);
	int r = station_scan(sta(d));
	if (r == 0 || r == -EINPROGRESS) {
		if (!wdb_pending_add(&d->st.scans, msg))
			return wdb_error_replyf(msg, WPAD_ERR_BUSY, "too many callers waiting");
		wdb_schedule_sync();
		return WDB_REPLY_LATER;
	}
	if (r == -EBUSY)
		return wdb_error_replyf(msg, WPAD_ERR_BUSY,
					"%s is connecting; scan once it is connected or idle",
					d->dev->name);
	struct wpad_error e;
	wpad_error_set(&e, wpad_device_error_code(d->dev, r), r, -1, -1, "%s cannot scan",
		       d->dev->name);
	return wdb_error_reply(msg, &e);
}

static DBusMessage *disconnect(void *data, DBusMessage *msg)
{
	struct wdb_device *d = data;
	bool cancelled = false;
	if (d->st.connect_call && !d->st.started) {
		abort_connect(d, "disconnect requested");
		cancelled = true;
	}
	int r = station_disconnect(sta(d));
	if (r < 0 && !cancelled)
		return wdb_error_replyf(msg, WPAD_ERR_NOT_CONNECTED, "%s is not connected",
					d->dev->name);
	if (station_state(sta(d)) == STATION_DISCONNECTED)
		return dbus_message_new_method_return(msg);
	if (!wdb_pending_add(&d->st.disconnects, msg))
		return wdb_error_replyf(msg, WPAD_ERR_BUSY, "too many callers waiting");
	return WDB_REPLY_LATER;
}

static DBusMessage *connect_hidden(void *data, DBusMessage *msg)
{
	struct wdb_device *d = data;
	const char *name;
	dbus_message_get_args(msg, NULL, DBUS_TYPE_STRING, &name, DBUS_TYPE_INVALID);
	size_t len = strnlen(name, WDB_SSID_MAX + 1);
	if (len == 0 || len > WDB_SSID_MAX)
		return wdb_error_replyf(msg, WPAD_ERR_INVALID_ARGUMENTS,
					"a network name is 1 to 32 bytes, not %s%zu",
					len > WDB_SSID_MAX ? "more than " : "", len);
	return wdb_station_connect(d, msg, (const uint8_t *)name, len, BSS_SECURITY_OPEN, true);
}

/* FlushPMKSA(s name, s bssid) -> u removed: "" is "any" for either, so
 * ("", "") drops everything, as wpa_supplicant's PMKSA_FLUSH does. */
static DBusMessage *flush_pmksa(void *data, DBusMessage *msg)
{
	struct wdb_device *d = data;
	const char *name = NULL, *text = NULL;
	uint8_t bssid[CFG_MAC_LEN];
	dbus_message_get_args(msg, NULL, DBUS_TYPE_STRING, &name, DBUS_TYPE_STRING, &text,
			      DBUS_TYPE_INVALID);
	size_t len = strnlen(name, WDB_SSID_MAX + 1);
	if (len > WDB_SSID_MAX)
		return wdb_error_replyf(msg, WPAD_ERR_INVALID_ARGUMENTS,
					"a network name is at most 32 bytes (\"\" for every network)");
	if (text[0] && (cfg_parse_mac(text, bssid) < 0 || (bssid[0] & 0x01)))
		return wdb_error_replyf(msg, WPAD_ERR_INVALID_FORMAT,
					"'%.40s' is not an access point's address (aa:bb:cc:dd:ee:ff, "
					"or \"\" for every one)",
					text);
	/* Powered off, the station and its cache are gone: nothing to drop. */
	size_t n = sta(d) ? station_flush_pmksa(sta(d), len ? (const uint8_t *)name : NULL, len,
						text[0] ? bssid : NULL)
			  : 0;
	dbus_uint32_t removed = (dbus_uint32_t)n;
	DBusMessage *r = dbus_message_new_method_return(msg);
	if (r && !dbus_message_append_args(r, DBUS_TYPE_UINT32, &removed, DBUS_TYPE_INVALID)) {
		dbus_message_unref(r);
		return NULL;
	}
	return r;
}

static bool append_ordered(struct wdb_device *d, DBusMessageIter *it)
{
	const struct station_network *nets[BSS_LIST_MAX];
	size_t n = station_networks(sta(d), nets, BSS_LIST_MAX);
	DBusMessageIter arr, st;
	char path[WDB_PATH_MAX];
	if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "(on)", &arr))
		return false;
	for (size_t i = 0; i < n && i < BSS_LIST_MAX; i++) {
		int32_t mbm = nets[i]->signal_mbm;
		dbus_int16_t sig = (dbus_int16_t)(mbm < -32768 ? -32768 : mbm > 0 ? 0 : mbm);
		if (!wdb_network_path(d, nets[i]->ssid, nets[i]->ssid_len, nets[i]->security, path,
				      sizeof(path)))
			continue;
		if (!dbus_message_iter_open_container(&arr, DBUS_TYPE_STRUCT, NULL, &st) ||
		    !wdb_append_path(&st, path) || !wdb_append_basic(&st, DBUS_TYPE_INT16, &sig) ||
		    !dbus_message_iter_close_container(&arr, &st)) {
			dbus_message_iter_abandon_container(it, &arr);
			return false;
		}
	}
	return dbus_message_iter_close_container(it, &arr);
}

static DBusMessage *ordered_networks(void *data, DBusMessage *msg)
{
	struct wdb_device *d = data;
	wdb_networks_sync(d); /* every path returned has its object */
	DBusMessage *r = dbus_message_new_method_return(msg);
	DBusMessageIter it;
	if (!r)
		return NULL;
	dbus_message_iter_init_append(r, &it);
	if (!append_ordered(d, &it)) {
		dbus_message_unref(r);
		return NULL;
	}
	return r;
}

/* ---- properties ---- */

static bool get_state(void *data, DBusMessageIter *it)
{
	struct wdb_device *d = data;
	return wdb_append_str(it, dbus_state(station_state(sta(d))));
}

static bool get_connected(void *data, DBusMessageIter *it)
{
	struct wdb_device *d = data;
	return wdb_append_path(it, d->st.connected[0] ? d->st.connected : "/");
}

static bool get_scanning(void *data, DBusMessageIter *it)
{
	struct wdb_device *d = data;
	dbus_bool_t b = station_scanning(sta(d));
	return wdb_append_basic(it, DBUS_TYPE_BOOLEAN, &b);
}

static bool get_rssi(void *data, DBusMessageIter *it)
{
	struct wdb_device *d = data;
	dbus_int16_t dbm = (dbus_int16_t)(station_signal_mbm(sta(d)) / 100);
	return wdb_append_basic(it, DBUS_TYPE_INT16, &dbm);
}

/* While powered off the station does not autoconnect; the setting waits. */
static bool autoconnect_of(const struct wdb_device *d)
{
	return d->dev->powered ? station_autoconnect(sta(d)) : d->dev->station_autoconnect;
}

static bool get_autoconnect(void *data, DBusMessageIter *it)
{
	struct wdb_device *d = data;
	dbus_bool_t b = autoconnect_of(d);
	return wdb_append_basic(it, DBUS_TYPE_BOOLEAN, &b);
}

/* Not stored: wpad.conf's AutoConnect applies again at the next start. */
static int set_autoconnect(void *data, DBusMessageIter *it, struct wpad_error *err)
{
	struct wdb_device *d = data;
	dbus_bool_t on;
	wdb_read_basic(it, DBUS_TYPE_BOOLEAN, &on);
	d->dev->station_autoconnect = on;
	if (d->dev->powered)
		station_set_autoconnect(sta(d), on);
	wdb_station_sync(d);
	return 0;
}

static const struct wdb_method methods[] = {
	{ "Scan", "", "", scan, WDB_PRIVILEGED | WDB_ASYNC },
	{ "GetOrderedNetworks", "", "a(on) networks", ordered_networks, 0 },
	{ "Disconnect", "", "", disconnect, WDB_PRIVILEGED | WDB_ASYNC },
	{ "ConnectHiddenNetwork", "s name", "", connect_hidden, WDB_PRIVILEGED | WDB_ASYNC },
	{ "FlushPMKSA", "s name, s bssid", "u removed", flush_pmksa, WDB_PRIVILEGED },
	{ .name = NULL },
};

/* a{sv}: TLSVersion, ServerSubject, ServerSHA256, Resumed of the last
 * TLS-based 802.1X attempt (as Wired8021X.TLS); empty before one. */
static bool get_tls(void *data, DBusMessageIter *it)
{
	return wdb_append_tls_info(it, station_eap_tls_info(sta(data)));
}

static const struct wdb_property props[] = {
	{ "State", "s", get_state, NULL, 0 },
	{ "ConnectedNetwork", "o", get_connected, NULL, 0 },
	{ "Scanning", "b", get_scanning, NULL, 0 },
	{ "RSSI", "n", get_rssi, NULL, WDB_PROP_NO_EMIT },
	{ "AutoConnect", "b", get_autoconnect, set_autoconnect, 0 },
	{ "TLS", "a{sv}", get_tls, NULL, 0 },
	{ .name = NULL },
};

const struct wdb_interface wdb_station_iface = {
	.name = "org.wpad1.Station",
	.methods = methods,
	.props = props,
};

/* ---- keeping in step ---- */

void wdb_station_init(struct wdb_device *d)
{
	memset(&d->st, 0, sizeof(d->st));
	d->st.state = dbus_state(station_state(sta(d)));
	d->st.autoconnect = autoconnect_of(d);
}

void wdb_station_exit(struct wdb_device *d, const char *why)
{
	struct wpad_error e;
	wpad_error_set(&e, WPAD_ERR_ABORTED, 0, -1, -1, "%s", why);
	finish_connect(d, &e);
	wdb_pending_finish(&d->st.scans, &e);
	wdb_pending_finish(&d->st.disconnects, &e);
}

static void connected_path(struct wdb_device *d, char *out, size_t cap)
{
	uint8_t bssid[6];
	struct wdb_network *n = station_bssid(sta(d), bssid) ? wdb_network_by_bssid(d, bssid) : NULL;
	snprintf(out, cap, "%s", n ? wdb_network_obj_path(n) : "");
}

/* Whether the TLS property shows something else than last announced: an
 * attempt's end may change it, so it is looked at with State (PSK
 * networks never see it change). */
static bool tls_changed(struct wdb_device *d)
{
	const struct eap_peer_tls_info *t = station_eap_tls_info(sta(d));
	char seen[sizeof(d->st.tls_seen)] = "";
	if (t)
		snprintf(seen, sizeof(seen), "%s|%s|%d", t->version, t->server_sha256,
			 (int)t->resumed);
	if (strcmp(seen, d->st.tls_seen) == 0)
		return false;
	memcpy(d->st.tls_seen, seen, sizeof(seen));
	return true;
}

/* Announces what changed since the last sync in one PropertiesChanged: a
 * connect moves State, ConnectedNetwork and AutoConnect in one loop turn,
 * and libdbus builds each signal at ~70k instructions (it rewrites the
 * message's signature for every top-level argument), more than a cached
 * reconnect's whole station work. */
void wdb_station_sync(struct wdb_device *d)
{
	const char *changed[7];
	size_t n = 0;
	char path[WDB_PATH_MAX];
	wdb_networks_sync(d);
	const char *state = dbus_state(station_state(sta(d)));
	bool scanning = station_scanning(sta(d));
	connected_path(d, path, sizeof(path));
	if (state != d->st.state) {
		d->st.state = state;
		changed[n++] = "State";
		if (tls_changed(d))
			changed[n++] = "TLS";
	}
	if (scanning != d->st.scanning) {
		d->st.scanning = scanning;
		changed[n++] = "Scanning";
	}
	bool ac = autoconnect_of(d);
	if (ac != d->st.autoconnect) {
		d->st.autoconnect = ac;
		changed[n++] = "AutoConnect";
	}
	if (strcmp(path, d->st.connected) != 0) {
		snprintf(d->st.connected, sizeof(d->st.connected), "%s", path);
		changed[n++] = "ConnectedNetwork";
	}
	changed[n] = NULL;
	if (n)
		wdb_emit_properties(d->obj, &wdb_station_iface, changed);
	if (station_state(sta(d)) == STATION_DISCONNECTED)
		wdb_pending_finish(&d->st.disconnects, NULL);
}

/* From inside the station's state change: nothing is built here. State is
 * announced by the sync idle of this loop turn, with whatever else changed
 * (so a connect's Authentication frame goes out before the signal), and a
 * Disconnect waiting for the link is answered there, after it. */
void wdb_station_state(struct wdb_device *d)
{
	wdb_schedule_sync();
	if (station_state(sta(d)) == STATION_DISCONNECTED) {
		wdb_agent_cancel(d->st.eap_req, "the attempt ended");
		d->st.eap_req = NULL;
	}
}

static void on_eap_secret(void *data, const char *secret, const struct wpad_error *err)
{
	struct wdb_device *d = data;
	d->st.eap_req = NULL;
	if (err)
		log_warn("%s: no secret from the agent: %s", d->dev->name, err->text);
	station_eap_secret(sta(d), d->st.eap_which, secret);
}

void wdb_station_need_secret(struct wdb_device *d, int which)
{
	struct wpad_error err;
	const char *kind = which == EAP_SECRET_PASSWORD ? "password" : "key-passphrase";
	wdb_agent_cancel(d->st.eap_req, "a new request replaces it");
	d->st.eap_which = which;
	d->st.eap_req = wdb_agent_request_secret(wdb_object_path(d->obj), kind, on_eap_secret, d,
						 &err);
	if (!d->st.eap_req) {
		log_warn("%s: %s", d->dev->name, err.text);
		station_eap_secret(sta(d), which, NULL);
	}
}

void wdb_station_scan_done(struct wdb_device *d)
{
	wdb_station_sync(d);
	wdb_pending_finish(&d->st.scans, NULL);
}

bool wdb_station_is_connected_to(struct wdb_device *d, const uint8_t *ssid, size_t len,
				 enum bss_security sec)
{
	char path[WDB_PATH_MAX];
	return station_state(sta(d)) == STATION_CONNECTED &&
	       wdb_network_path(d, ssid, len, sec, path, sizeof(path)) &&
	       strcmp(path, d->st.connected) == 0;
}
