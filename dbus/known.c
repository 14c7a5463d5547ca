/* org.wpad1.KnownNetwork: one object per network in the known store. No
 * secret is ever a property: the passphrase stays in the store's file. */
#define LOG_TAG "dbus"
#include "daemon/store/known_store.h"

#include "daemon/core/log.h"
#include "daemon/rsn/negotiate.h"
#include "daemon/rsn/suites.h"
#include "daemon/station/station.h"
#include "daemon/wpad.h"
#include "daemon/config/eap_conf.h"
#include "dbus/eapdict.h"
#include "dbus/errors.h"
#include "dbus/wdbus_i.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wdb_known {
	struct wdb_object *obj;
	uint8_t ssid[WDB_SSID_MAX];
	size_t ssid_len;
	enum known_security sec;
	bool autoconnect;
	bool hidden;
	char pmf[12], akms[96], ciphers[96]; /* as in the file; "" = default */
	uint64_t last_connected;
	bool seen;
	struct wdb_known *next;
};

static struct known_store *store(void)
{
	return wdb_get() ? wpad_known_store(wdb_get()->w) : NULL;
}

static struct known_network *lookup(const struct wdb_known *k)
{
	return store() ? known_store_get(store(), k->ssid, k->ssid_len, k->sec) : NULL;
}

bool wdb_known_path(const uint8_t *ssid, size_t len, const char *sec, char *out, size_t cap)
{
	char el[2 * WDB_SSID_MAX + 16];
	if (!wdb_ssid_element(ssid, len, sec, el, sizeof(el)))
		return false;
	return snprintf(out, cap, WDB_ROOT "/known/%s", el) < (int)cap;
}

static enum bss_security as_bss(enum known_security sec)
{
	return sec == KNOWN_SEC_OPEN ? BSS_SECURITY_OPEN
	       : sec == KNOWN_SEC_PSK ? BSS_SECURITY_PSK
				      : BSS_SECURITY_8021X;
}

/* A station connected to the network is disconnected first: forgetting
 * the network you are on means you do not want to be on it. */
static void leave_network(const struct wdb_known *k)
{
	struct wdb *b = wdb_get();
	for (size_t i = 0; i < b->n_devices; i++) {
		struct wdb_device *d = b->devices[i];
		if (d && d->dev && d->dev->station &&
		    wdb_station_is_connected_to(d, k->ssid, k->ssid_len, as_bss(k->sec)))
			station_disconnect(d->dev->station);
	}
}

static DBusMessage *forget(void *data, DBusMessage *msg)
{
	struct wdb_known *k = data;
	char s[BSS_SSID_STR_MAX];
	bss_ssid_str(k->ssid, k->ssid_len, s, sizeof(s));
	leave_network(k);
	int r = store() ? known_store_forget(store(), k->ssid, k->ssid_len, k->sec) : -ENOENT;
	if (r < 0) {
		struct wpad_error e;
		wpad_error_set(&e, wpad_error_code_from_errno(r), r, -1, -1,
			       "cannot forget '%s': %s", s, strerror(-r));
		return wdb_error_reply(msg, &e);
	}
	log_info("known network '%s' (%s) forgotten over D-Bus", s, known_security_name(k->sec));
	wpad_known_changed(wdb_get()->w);
	wdb_schedule_sync();
	wdb_known_sync(wdb_get()); /* frees k */
	return dbus_message_new_method_return(msg);
}

static bool get_name(void *data, DBusMessageIter *it)
{
	struct wdb_known *k = data;
	return wdb_append_bytes_as_str(it, k->ssid, k->ssid_len);
}

static bool get_security(void *data, DBusMessageIter *it)
{
	struct wdb_known *k = data;
	return wdb_append_str(it, known_security_name(k->sec));
}

static bool get_autoconnect(void *data, DBusMessageIter *it)
{
	struct wdb_known *k = data;
	dbus_bool_t b = k->autoconnect;
	return wdb_append_basic(it, DBUS_TYPE_BOOLEAN, &b);
}

static int set_autoconnect(void *data, DBusMessageIter *it, struct wpad_error *err)
{
	struct wdb_known *k = data;
	struct known_network *net = lookup(k);
	dbus_bool_t on;
	wdb_read_basic(it, DBUS_TYPE_BOOLEAN, &on);
	if (!net)
		return wpad_error_set(err, WPAD_ERR_NOT_FOUND, 0, -1, -1,
				      "the network is no longer known"),
		       -ENOENT;
	int r = known_store_set_autoconnect(store(), net, on);
	wpad_known_changed(wdb_get()->w);
	wdb_schedule_sync();
	wdb_known_sync(wdb_get());
	if (r < 0)
		return wpad_error_set(err, wpad_error_code_from_errno(r), r, -1, -1,
				      "AutoConnect changed, but the network's file in %s could not "
				      "be written: %s",
				      known_store_dir(store()), strerror(-r)),
		       r;
	return 0;
}

static bool get_hidden(void *data, DBusMessageIter *it)
{
	struct wdb_known *k = data;
	dbus_bool_t b = k->hidden;
	return wdb_append_basic(it, DBUS_TYPE_BOOLEAN, &b);
}

static bool get_last_connected(void *data, DBusMessageIter *it)
{
	struct wdb_known *k = data;
	dbus_uint64_t t = k->last_connected;
	return wdb_append_basic(it, DBUS_TYPE_UINT64, &t);
}

/* The security policy strings of the network ([Settings] of its file). */
static bool get_pmf(void *data, DBusMessageIter *it)
{
	struct wdb_known *k = data;
	return wdb_append_str(it, k->pmf[0] ? k->pmf : "optional");
}

static bool get_akms(void *data, DBusMessageIter *it)
{
	struct wdb_known *k = data;
	return wdb_append_str(it, k->akms);
}

static bool get_ciphers(void *data, DBusMessageIter *it)
{
	struct wdb_known *k = data;
	return wdb_append_str(it, k->ciphers);
}

/* Every name of a space-separated list is known to lookup. */
static bool names_ok(const char *list, uint32_t (*by_name)(const char *), char *bad, size_t cap)
{
	char buf[128], *save = NULL;
	if (strlen(list) >= sizeof(buf))
		return snprintf(bad, cap, "(too long)"), false;
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *t = strtok_r(buf, " ,", &save); t; t = strtok_r(NULL, " ,", &save))
		if (!by_name(t))
			return snprintf(bad, cap, "%.32s", t), false;
	return true;
}

static int set_policy(struct wdb_known *k, const char *key, const char *value,
		      struct wpad_error *err)
{
	struct known_network *net = lookup(k);
	if (!net)
		return wpad_error_set(err, WPAD_ERR_NOT_FOUND, 0, -1, -1,
				      "the network is no longer known"),
		       -ENOENT;
	int r = known_store_set_policy(store(), net, key, value);
	wpad_known_changed(wdb_get()->w);
	wdb_schedule_sync();
	wdb_known_sync(wdb_get());
	if (r == -EINVAL)
		return wpad_error_set(err, WPAD_ERR_INVALID_ARGUMENTS, 0, -1, -1,
				      "%s is too long", key),
		       r;
	if (r < 0)
		return wpad_error_set(err, wpad_error_code_from_errno(r), r, -1, -1,
				      "%s changed, but the network's file in %s could not be "
				      "written: %s",
				      key, known_store_dir(store()), strerror(-r)),
		       r;
	return 0;
}

static int set_pmf(void *data, DBusMessageIter *it, struct wpad_error *err)
{
	const char *v;
	enum rsn_pmf pmf;
	wdb_read_basic(it, DBUS_TYPE_STRING, &v);
	if (rsn_pmf_from_name(v, &pmf) < 0)
		return wpad_error_set(err, WPAD_ERR_INVALID_ARGUMENTS, 0, -1, -1,
				      "ManagementFrameProtection is disabled, optional or "
				      "required, not \"%.32s\"", v),
		       -EINVAL;
	return set_policy(data, "ManagementFrameProtection", v, err);
}

static int set_akms(void *data, DBusMessageIter *it, struct wpad_error *err)
{
	const char *v;
	char bad[40];
	wdb_read_basic(it, DBUS_TYPE_STRING, &v);
	if (!names_ok(v, rsn_akm_from_name, bad, sizeof(bad)))
		return wpad_error_set(err, WPAD_ERR_INVALID_ARGUMENTS, 0, -1, -1,
				      "AKMs: unknown AKM %s (psk, psk-sha256, ...)", bad),
		       -EINVAL;
	return set_policy(data, "AKMs", v, err);
}

static int set_ciphers(void *data, DBusMessageIter *it, struct wpad_error *err)
{
	const char *v;
	char bad[40];
	wdb_read_basic(it, DBUS_TYPE_STRING, &v);
	if (!names_ok(v, rsn_cipher_from_name, bad, sizeof(bad)))
		return wpad_error_set(err, WPAD_ERR_INVALID_ARGUMENTS, 0, -1, -1,
				      "Ciphers: unknown cipher %s (ccmp-128, gcmp-256, tkip, ...)",
				      bad),
		       -EINVAL;
	return set_policy(data, "Ciphers", v, err);
}

/* a{sv}: the 802.1X profile without its secrets (HasPassword,
 * HasKeyPassphrase say whether one is known, stored or in memory); empty
 * for other networks, or with Error when the file's [EAP] is unusable. */
static bool get_eap(void *data, DBusMessageIter *it)
{
	struct wdb_known *k = data;
	struct known_network *net = k->sec == KNOWN_SEC_8021X ? lookup(k) : NULL;
	struct eap_conf c;
	struct cfg_error ce = { 0 };
	int r = net ? known_network_eap(net, &c, &ce) : -ENOENT;
	if (r == 0) {
		bool ok = wdb_append_eap_profile(it, &c);
		eap_conf_clear(&c);
		return ok;
	}
	DBusMessageIter dict;
	const char *why = ce.msg;
	return dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict) &&
	       (r == -ENOENT || wdb_append_dict_basic(&dict, "Error", DBUS_TYPE_STRING, &why)) &&
	       dbus_message_iter_close_container(it, &dict);
}

static const struct wdb_method methods[] = {
	{ "Forget", "", "", forget, WDB_PRIVILEGED },
	{ .name = NULL },
};

static const struct wdb_property props[] = {
	{ "Name", "s", get_name, NULL, WDB_PROP_CONST },
	{ "Security", "s", get_security, NULL, WDB_PROP_CONST },
	{ "AutoConnect", "b", get_autoconnect, set_autoconnect, 0 },
	{ "Hidden", "b", get_hidden, NULL, 0 },
	{ "LastConnected", "t", get_last_connected, NULL, 0 },
	{ "ManagementFrameProtection", "s", get_pmf, set_pmf, 0 },
	{ "AKMs", "s", get_akms, set_akms, 0 },
	{ "Ciphers", "s", get_ciphers, set_ciphers, 0 },
	{ "EAP", "a{sv}", get_eap, NULL, 0 },
	{ .name = NULL },
};

const struct wdb_interface wdb_known_iface = {
	.name = "org.wpad1.KnownNetwork",
	.methods = methods,
	.props = props,
};

/* ---- keeping in step ---- */

static struct wdb_known *known_new(struct wdb *b, const struct known_network *net)
{
	char path[WDB_PATH_MAX];
	struct wdb_known *k = calloc(1, sizeof(*k));
	if (!k || !wdb_known_path(net->ssid, net->ssid_len, known_security_name(net->security),
				  path, sizeof(path)) ||
	    !(k->obj = wdb_object_new(path))) {
		free(k);
		return NULL;
	}
	memcpy(k->ssid, net->ssid, net->ssid_len);
	k->ssid_len = net->ssid_len;
	k->sec = net->security;
	k->autoconnect = net->autoconnect;
	k->hidden = net->hidden;
	memcpy(k->pmf, net->pmf, sizeof(k->pmf));
	memcpy(k->akms, net->akms, sizeof(k->akms));
	memcpy(k->ciphers, net->ciphers, sizeof(k->ciphers));
	k->last_connected = net->last_connected;
	k->next = b->known;
	b->known = k;
	wdb_object_add_iface(k->obj, &wdb_known_iface, k);
	return k;
}

static struct wdb_known *known_find(struct wdb *b, const struct known_network *net)
{
	for (struct wdb_known *k = b->known; k; k = k->next)
		if (k->sec == net->security && k->ssid_len == net->ssid_len &&
		    memcmp(k->ssid, net->ssid, net->ssid_len) == 0)
			return k;
	return NULL;
}

static void known_update(struct wdb_known *k, const struct known_network *net)
{
	if (k->autoconnect != net->autoconnect) {
		k->autoconnect = net->autoconnect;
		wdb_emit_changed(k->obj, &wdb_known_iface, "AutoConnect");
	}
	if (k->hidden != net->hidden) {
		k->hidden = net->hidden;
		wdb_emit_changed(k->obj, &wdb_known_iface, "Hidden");
	}
	if (strcmp(k->pmf, net->pmf) || strcmp(k->akms, net->akms) ||
	    strcmp(k->ciphers, net->ciphers)) {
		memcpy(k->pmf, net->pmf, sizeof(k->pmf));
		memcpy(k->akms, net->akms, sizeof(k->akms));
		memcpy(k->ciphers, net->ciphers, sizeof(k->ciphers));
		wdb_emit_changed(k->obj, &wdb_known_iface, "ManagementFrameProtection", "AKMs",
				 "Ciphers");
	}
	if (k->last_connected != net->last_connected) {
		k->last_connected = net->last_connected;
		wdb_emit_changed(k->obj, &wdb_known_iface, "LastConnected");
	}
}

void wdb_known_sync(struct wdb *b)
{
	struct known_network **list = NULL;
	size_t n = 0;
	if (!store() || known_store_list(store(), &list, &n) < 0)
		return;
	for (struct wdb_known *k = b->known; k; k = k->next)
		k->seen = false;
	for (size_t i = 0; i < n; i++) {
		struct wdb_known *k = known_find(b, list[i]);
		if (k)
			known_update(k, list[i]);
		else
			k = known_new(b, list[i]);
		if (k)
			k->seen = true;
	}
	free(list);
	for (struct wdb_known **pp = &b->known; *pp;) {
		struct wdb_known *k = *pp;
		if (k->seen) {
			pp = &k->next;
			continue;
		}
		*pp = k->next;
		wdb_object_free(k->obj);
		free(k);
	}
}

void wdb_known_profile_changed(const uint8_t *ssid, size_t len)
{
	for (struct wdb_known *k = wdb_get()->known; k; k = k->next)
		if (k->sec == KNOWN_SEC_8021X && k->ssid_len == len && memcmp(k->ssid, ssid, len) == 0)
			wdb_emit_changed(k->obj, &wdb_known_iface, "EAP");
}

void wdb_known_clear(struct wdb *b)
{
	while (b->known) {
		struct wdb_known *k = b->known;
		b->known = k->next;
		wdb_object_free(k->obj);
		free(k);
	}
}
