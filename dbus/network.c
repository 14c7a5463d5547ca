/* org.wpad1.Network and org.wpad1.BSS objects, kept in step with the
 * station's ranked network list (daemon/station/network.h). A network is
 * named by SSID and security, never by the station's pointers, which live
 * only until its next event. */
#include "daemon/station/station.h"

#include "daemon/rsn/suites.h"
#include "daemon/wpad.h"
#include "dbus/wdbus_i.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a BSS's RSN element offers (all zero without one). */
struct wdb_rsn {
	uint32_t akms;     /* RSN_SUITE_BIT masks */
	uint32_t pairwise;
	uint32_t group;    /* suite */
	bool mfpc, mfpr;
};

/* Field by field: a struct copy leaves its padding undefined. */
static bool rsn_equal(const struct wdb_rsn *a, const struct wdb_rsn *b)
{
	return a->akms == b->akms && a->pairwise == b->pairwise && a->group == b->group &&
	       a->mfpc == b->mfpc && a->mfpr == b->mfpr;
}

static struct wdb_rsn rsn_of(const struct station_bss *sb)
{
	struct wdb_rsn r = { 0 };
	if (!sb->has_rsn)
		return r;
	r.akms = sb->akms;
	r.pairwise = sb->pairwise_ciphers;
	r.group = sb->group_cipher;
	r.mfpc = sb->mfp_capable;
	r.mfpr = sb->mfp_required;
	return r;
}

struct wdb_bss {
	struct wdb_network *net;
	struct wdb_object *obj;
	uint8_t bssid[6];
	uint32_t freq;
	dbus_int16_t signal; /* 100 * dBm */
	struct wdb_rsn rsn;
	bool seen;
	struct wdb_bss *next;
};

struct wdb_network {
	struct wdb_device *d;
	struct wdb_object *obj;
	uint8_t ssid[WDB_SSID_MAX];
	size_t ssid_len;
	enum bss_security sec;
	dbus_int16_t signal;
	bool known;
	bool connected;
	bool seen;
	bool bss_changed;
	struct wdb_rsn rsn; /* over its BSSes: AKMs any offers, PMF as below */
	struct wdb_bss *bss;
	struct wdb_network *next;
};

static dbus_int16_t to_int16(int32_t mbm)
{
	return (dbus_int16_t)(mbm < -32768 ? -32768 : mbm > 0 ? 0 : mbm);
}

bool wdb_ssid_element(const uint8_t *ssid, size_t len, const char *sec, char *out, size_t cap)
{
	if (len > WDB_SSID_MAX || 2 * len + strlen(sec) + 2 > cap)
		return false;
	wdb_hex(out, ssid, len);
	snprintf(out + 2 * len, cap - 2 * len, "_%s", sec);
	return true;
}

bool wdb_network_path(const struct wdb_device *d, const uint8_t *ssid, size_t len,
		      enum bss_security sec, char *out, size_t cap)
{
	char el[2 * WDB_SSID_MAX + 16];
	const char *base = wdb_object_path(d->obj);
	if (!wdb_ssid_element(ssid, len, bss_security_name(sec), el, sizeof(el)))
		return false;
	return snprintf(out, cap, "%s/%s", base, el) < (int)cap;
}

const char *wdb_network_obj_path(const struct wdb_network *n)
{
	return wdb_object_path(n->obj);
}

struct wdb_network *wdb_network_by_bssid(struct wdb_device *d, const uint8_t bssid[6])
{
	for (struct wdb_network *n = d->st.nets; n; n = n->next)
		for (struct wdb_bss *b = n->bss; b; b = b->next)
			if (memcmp(b->bssid, bssid, 6) == 0)
				return n;
	return NULL;
}

/* ---- Network ---- */

static DBusMessage *net_connect(void *data, DBusMessage *msg)
{
	struct wdb_network *n = data;
	return wdb_station_connect(n->d, msg, n->ssid, n->ssid_len, n->sec, false);
}

static bool get_name(void *data, DBusMessageIter *it)
{
	struct wdb_network *n = data;
	return wdb_append_bytes_as_str(it, n->ssid, n->ssid_len);
}

static bool get_security(void *data, DBusMessageIter *it)
{
	struct wdb_network *n = data;
	return wdb_append_str(it, bss_security_name(n->sec));
}

static bool get_connected(void *data, DBusMessageIter *it)
{
	struct wdb_network *n = data;
	dbus_bool_t b = n->connected;
	return wdb_append_basic(it, DBUS_TYPE_BOOLEAN, &b);
}

static bool get_known(void *data, DBusMessageIter *it)
{
	struct wdb_network *n = data;
	dbus_bool_t b = n->known;
	return wdb_append_basic(it, DBUS_TYPE_BOOLEAN, &b);
}

static bool get_known_network(void *data, DBusMessageIter *it)
{
	struct wdb_network *n = data;
	char path[WDB_PATH_MAX] = "/";
	if (n->known)
		wdb_known_path(n->ssid, n->ssid_len, bss_security_name(n->sec), path, sizeof(path));
	return wdb_append_path(it, path[0] ? path : "/");
}

static bool get_signal(void *data, DBusMessageIter *it)
{
	struct wdb_network *n = data;
	return wdb_append_basic(it, DBUS_TYPE_INT16, &n->signal);
}

static bool get_device(void *data, DBusMessageIter *it)
{
	struct wdb_network *n = data;
	return wdb_append_path(it, wdb_object_path(n->d->obj));
}

static bool get_ess(void *data, DBusMessageIter *it)
{
	struct wdb_network *n = data;
	DBusMessageIter arr;
	bool ok = dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "o", &arr);
	for (struct wdb_bss *b = n->bss; ok && b; b = b->next)
		ok = wdb_append_path(&arr, wdb_object_path(b->obj));
	return ok && dbus_message_iter_close_container(it, &arr);
}

/* AKMs offered by any of its BSSes, by name ("psk", "psk-sha256", "sae"). */
static bool get_net_akms(void *data, DBusMessageIter *it)
{
	struct wdb_network *n = data;
	return wdb_append_suite_names(it, n->rsn.akms, rsn_akm_name);
}

/* PMF required: every BSS of it sets MFPR; capable: any sets MFPC. */
static bool get_net_pmf_required(void *data, DBusMessageIter *it)
{
	struct wdb_network *n = data;
	dbus_bool_t b = n->rsn.mfpr;
	return wdb_append_basic(it, DBUS_TYPE_BOOLEAN, &b);
}

static bool get_net_pmf_capable(void *data, DBusMessageIter *it)
{
	struct wdb_network *n = data;
	dbus_bool_t b = n->rsn.mfpc;
	return wdb_append_basic(it, DBUS_TYPE_BOOLEAN, &b);
}

static const struct wdb_method net_methods[] = {
	{ "Connect", "", "", net_connect, WDB_PRIVILEGED | WDB_ASYNC },
	{ .name = NULL },
};

static const struct wdb_property net_props[] = {
	{ "Name", "s", get_name, NULL, WDB_PROP_CONST },
	{ "Security", "s", get_security, NULL, WDB_PROP_CONST },
	{ "Connected", "b", get_connected, NULL, 0 },
	{ "Known", "b", get_known, NULL, 0 },
	{ "KnownNetwork", "o", get_known_network, NULL, 0 },
	{ "SignalStrength", "n", get_signal, NULL, WDB_PROP_NO_EMIT },
	{ "Device", "o", get_device, NULL, WDB_PROP_CONST },
	{ "ExtendedServiceSet", "ao", get_ess, NULL, 0 },
	{ "AKMs", "as", get_net_akms, NULL, 0 },
	{ "PMFRequired", "b", get_net_pmf_required, NULL, 0 },
	{ "PMFCapable", "b", get_net_pmf_capable, NULL, 0 },
	{ .name = NULL },
};

const struct wdb_interface wdb_network_iface = {
	.name = "org.wpad1.Network",
	.methods = net_methods,
	.props = net_props,
};

/* ---- BSS ---- */

static bool bss_address(void *data, DBusMessageIter *it)
{
	struct wdb_bss *b = data;
	char a[18];
	return wdb_append_str(it, bss_addr_str(b->bssid, a));
}

static bool bss_frequency(void *data, DBusMessageIter *it)
{
	struct wdb_bss *b = data;
	dbus_uint32_t f = b->freq;
	return wdb_append_basic(it, DBUS_TYPE_UINT32, &f);
}

static bool bss_signal(void *data, DBusMessageIter *it)
{
	struct wdb_bss *b = data;
	return wdb_append_basic(it, DBUS_TYPE_INT16, &b->signal);
}

static bool bss_network(void *data, DBusMessageIter *it)
{
	struct wdb_bss *b = data;
	return wdb_append_path(it, wdb_object_path(b->net->obj));
}

static bool bss_akms(void *data, DBusMessageIter *it)
{
	struct wdb_bss *b = data;
	return wdb_append_suite_names(it, b->rsn.akms, rsn_akm_name);
}

static bool bss_pairwise(void *data, DBusMessageIter *it)
{
	struct wdb_bss *b = data;
	return wdb_append_suite_names(it, b->rsn.pairwise, rsn_cipher_name);
}

static bool bss_group(void *data, DBusMessageIter *it)
{
	struct wdb_bss *b = data;
	return wdb_append_str(it, b->rsn.group ? rsn_cipher_name(b->rsn.group) : "");
}

static bool bss_pmf_required(void *data, DBusMessageIter *it)
{
	struct wdb_bss *b = data;
	dbus_bool_t v = b->rsn.mfpr;
	return wdb_append_basic(it, DBUS_TYPE_BOOLEAN, &v);
}

static bool bss_pmf_capable(void *data, DBusMessageIter *it)
{
	struct wdb_bss *b = data;
	dbus_bool_t v = b->rsn.mfpc;
	return wdb_append_basic(it, DBUS_TYPE_BOOLEAN, &v);
}

static const struct wdb_property bss_props[] = {
	{ "Address", "s", bss_address, NULL, WDB_PROP_CONST },
	{ "Frequency", "u", bss_frequency, NULL, 0 },
	{ "SignalStrength", "n", bss_signal, NULL, WDB_PROP_NO_EMIT },
	{ "Network", "o", bss_network, NULL, WDB_PROP_CONST },
	{ "AKMs", "as", bss_akms, NULL, 0 },
	{ "PairwiseCiphers", "as", bss_pairwise, NULL, 0 },
	{ "GroupCipher", "s", bss_group, NULL, 0 },
	{ "PMFRequired", "b", bss_pmf_required, NULL, 0 },
	{ "PMFCapable", "b", bss_pmf_capable, NULL, 0 },
	{ .name = NULL },
};

const struct wdb_interface wdb_bss_iface = {
	.name = "org.wpad1.BSS",
	.props = bss_props,
};

/* ---- keeping in step ---- */

static struct wdb_bss *bss_new(struct wdb_network *n, const struct station_bss *sb)
{
	char path[WDB_PATH_MAX], hex[13];
	struct wdb_bss *b = calloc(1, sizeof(*b));
	wdb_hex(hex, sb->bssid, 6);
	if (!b || snprintf(path, sizeof(path), "%s/%s", wdb_object_path(n->obj), hex) >=
			  (int)sizeof(path) ||
	    !(b->obj = wdb_object_new(path))) {
		free(b);
		return NULL;
	}
	b->net = n;
	memcpy(b->bssid, sb->bssid, 6);
	b->freq = sb->freq_mhz;
	b->rsn = rsn_of(sb);
	b->next = n->bss;
	n->bss = b;
	wdb_object_add_iface(b->obj, &wdb_bss_iface, b);
	return b;
}

static void bss_sync(struct wdb_network *n, const struct station_network *sn)
{
	for (struct wdb_bss *b = n->bss; b; b = b->next)
		b->seen = false;
	for (size_t i = 0; i < sn->n_bss && i < NETWORK_MAX_BSS; i++) {
		const struct station_bss *sb = sn->bss[i];
		struct wdb_bss *b = n->bss;
		while (b && memcmp(b->bssid, sb->bssid, 6) != 0)
			b = b->next;
		if (!b && (b = bss_new(n, sb)))
			n->bss_changed = true;
		if (!b)
			continue;
		b->seen = true;
		b->signal = to_int16(sb->signal_mbm);
		if (b->freq != sb->freq_mhz) {
			b->freq = sb->freq_mhz;
			wdb_emit_changed(b->obj, &wdb_bss_iface, "Frequency");
		}
		struct wdb_rsn r = rsn_of(sb);
		if (!rsn_equal(&r, &b->rsn)) {
			b->rsn = r;
			wdb_emit_changed(b->obj, &wdb_bss_iface, "AKMs", "PairwiseCiphers",
					 "GroupCipher", "PMFRequired", "PMFCapable");
		}
	}
	for (struct wdb_bss **pp = &n->bss; *pp;) {
		struct wdb_bss *b = *pp;
		if (b->seen) {
			pp = &b->next;
			continue;
		}
		*pp = b->next;
		wdb_object_free(b->obj);
		free(b);
		n->bss_changed = true;
	}
}

/* The network's security over its BSSes. */
static struct wdb_rsn net_rsn(const struct wdb_network *n)
{
	struct wdb_rsn r = { .mfpr = n->bss != NULL };
	for (const struct wdb_bss *b = n->bss; b; b = b->next) {
		r.akms |= b->rsn.akms;
		r.pairwise |= b->rsn.pairwise;
		r.mfpc = r.mfpc || b->rsn.mfpc;
		r.mfpr = r.mfpr && b->rsn.mfpr;
	}
	return r;
}

static struct wdb_network *net_find(struct wdb_device *d, const struct station_network *sn)
{
	for (struct wdb_network *n = d->st.nets; n; n = n->next)
		if (n->sec == sn->security && n->ssid_len == sn->ssid_len &&
		    memcmp(n->ssid, sn->ssid, sn->ssid_len) == 0)
			return n;
	return NULL;
}

static struct wdb_network *net_new(struct wdb_device *d, const struct station_network *sn)
{
	char path[WDB_PATH_MAX];
	struct wdb_network *n = calloc(1, sizeof(*n));
	if (!n || !wdb_network_path(d, sn->ssid, sn->ssid_len, sn->security, path, sizeof(path)) ||
	    !(n->obj = wdb_object_new(path))) {
		free(n);
		return NULL;
	}
	n->d = d;
	memcpy(n->ssid, sn->ssid, sn->ssid_len);
	n->ssid_len = sn->ssid_len;
	n->sec = sn->security;
	n->known = sn->known;
	n->signal = to_int16(sn->signal_mbm);
	n->next = d->st.nets;
	d->st.nets = n;
	bss_sync(n, sn); /* the BSS objects exist before the network appears */
	n->bss_changed = false;
	n->rsn = net_rsn(n);
	wdb_object_add_iface(n->obj, &wdb_network_iface, n);
	return n;
}

static void net_free(struct wdb_network *n)
{
	while (n->bss) {
		struct wdb_bss *b = n->bss;
		n->bss = b->next;
		wdb_object_free(b->obj);
		free(b);
	}
	wdb_object_free(n->obj);
	free(n);
}

static void net_update(struct wdb_network *n, const struct station_network *sn)
{
	bss_sync(n, sn);
	n->signal = to_int16(sn->signal_mbm);
	if (n->known != sn->known) {
		n->known = sn->known;
		wdb_emit_changed(n->obj, &wdb_network_iface, "Known", "KnownNetwork");
	}
	if (n->bss_changed) {
		n->bss_changed = false;
		wdb_emit_changed(n->obj, &wdb_network_iface, "ExtendedServiceSet");
	}
	struct wdb_rsn r = net_rsn(n);
	if (!rsn_equal(&r, &n->rsn)) {
		n->rsn = r;
		wdb_emit_changed(n->obj, &wdb_network_iface, "AKMs", "PMFRequired", "PMFCapable");
	}
}

static void update_connected(struct wdb_device *d)
{
	uint8_t bssid[6];
	bool link = station_state(d->dev->station) == STATION_CONNECTED &&
		    station_bssid(d->dev->station, bssid);
	struct wdb_network *cur = link ? wdb_network_by_bssid(d, bssid) : NULL;
	for (struct wdb_network *n = d->st.nets; n; n = n->next) {
		bool c = n == cur;
		if (c != n->connected) {
			n->connected = c;
			wdb_emit_changed(n->obj, &wdb_network_iface, "Connected");
		}
	}
}

void wdb_networks_sync(struct wdb_device *d)
{
	const struct station_network *nets[BSS_LIST_MAX];
	size_t count = station_networks(d->dev->station, nets, BSS_LIST_MAX);
	for (struct wdb_network *n = d->st.nets; n; n = n->next)
		n->seen = false;
	for (size_t i = 0; i < count && i < BSS_LIST_MAX; i++) {
		struct wdb_network *n = net_find(d, nets[i]);
		if (n)
			net_update(n, nets[i]);
		else
			n = net_new(d, nets[i]);
		if (n)
			n->seen = true;
	}
	for (struct wdb_network **pp = &d->st.nets; *pp;) {
		struct wdb_network *n = *pp;
		if (n->seen) {
			pp = &n->next;
			continue;
		}
		*pp = n->next;
		net_free(n);
	}
	update_connected(d);
}

void wdb_networks_clear(struct wdb_device *d)
{
	while (d->st.nets) {
		struct wdb_network *n = d->st.nets;
		d->st.nets = n->next;
		net_free(n);
	}
}
