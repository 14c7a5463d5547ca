/* fi.w1.wpa_supplicant1.BSS objects: one per BSS in the station's scan
 * results (those with an SSID), kept in step on every sync; see wpas_i.h.
 * NetworkManager reads them with GetAll right after BSSAdded and follows
 * PropertiesChanged afterwards. */
#define LOG_TAG "dbus"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/loop.h"
#include "daemon/rsn/suites.h"
#include "daemon/station/network.h"
#include "daemon/station/station.h"
#include "daemon/wpad.h"
#include "dbus/wpas_i.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct wdb_interface wpas_iface_iface;
extern const struct wdb_interface wpas_bss_iface;

static struct station *sta(const struct wpas_iface *ifc)
{
	return ifc->d->dev->station;
}

/* ---- properties ---- */

static bool append_bytes(DBusMessageIter *it, const uint8_t *b, size_t len)
{
	DBusMessageIter arr;
	return dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "y", &arr) &&
	       dbus_message_iter_append_fixed_array(&arr, DBUS_TYPE_BYTE, &b, (int)len) &&
	       dbus_message_iter_close_container(it, &arr);
}

static bool get_ssid(void *data, DBusMessageIter *it)
{
	struct wpas_bss *b = data;
	return append_bytes(it, b->bss.ssid, b->bss.ssid_len);
}

static bool get_bssid(void *data, DBusMessageIter *it)
{
	struct wpas_bss *b = data;
	return append_bytes(it, b->bss.bssid, 6);
}

static bool get_frequency(void *data, DBusMessageIter *it)
{
	dbus_uint16_t f = (dbus_uint16_t)((struct wpas_bss *)data)->bss.freq_mhz;
	return wdb_append_basic(it, DBUS_TYPE_UINT16, &f);
}

static bool get_signal(void *data, DBusMessageIter *it)
{
	dbus_int16_t s = (dbus_int16_t)(((struct wpas_bss *)data)->bss.signal_mbm / 100);
	return wdb_append_basic(it, DBUS_TYPE_INT16, &s);
}

/* Seconds since the BSS was last heard. */
static bool get_age(void *data, DBusMessageIter *it)
{
	struct wpas_bss *b = data;
	uint64_t now = loop_now_us(wdb_get()->loop);
	dbus_uint32_t age = now > b->bss.last_seen_us
				    ? (dbus_uint32_t)((now - b->bss.last_seen_us) / 1000000u)
				    : 0;
	return wdb_append_basic(it, DBUS_TYPE_UINT32, &age);
}

static bool get_privacy(void *data, DBusMessageIter *it)
{
	dbus_bool_t p = (((struct wpas_bss *)data)->bss.capability & WLAN_CAPAB_PRIVACY) != 0;
	return wdb_append_basic(it, DBUS_TYPE_BOOLEAN, &p);
}

static bool get_mode(void *data, DBusMessageIter *it)
{
	return wdb_append_str(it, "infrastructure");
}

/* The station keeps no rate set: an empty list (NetworkManager then
 * shows no maximum rate rather than a wrong one). */
static bool get_rates(void *data, DBusMessageIter *it)
{
	DBusMessageIter arr;
	return dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "u", &arr) &&
	       dbus_message_iter_close_container(it, &arr);
}

static const char *akm_cap_name(uint32_t akm)
{
	switch (akm) {
	case RSN_AKM_8021X:
		return "wpa-eap";
	case RSN_AKM_PSK:
		return "wpa-psk";
	case RSN_AKM_FT_8021X:
		return "wpa-ft-eap";
	case RSN_AKM_FT_PSK:
		return "wpa-ft-psk";
	case RSN_AKM_8021X_SHA256:
		return "wpa-eap-sha256";
	case RSN_AKM_PSK_SHA256:
		return "wpa-psk-sha256";
	case RSN_AKM_SAE:
		return "sae";
	case RSN_AKM_FT_SAE:
		return "ft-sae";
	case RSN_AKM_OWE:
		return "owe";
	case RSN_AKM_8021X_SUITE_B_192:
		return "wpa-eap-suite-b-192";
	default:
		return NULL;
	}
}

static const char *cipher_cap_name(uint32_t c)
{
	switch (c) {
	case RSN_CIPHER_CCMP_128:
		return "ccmp";
	case RSN_CIPHER_TKIP:
		return "tkip";
	case RSN_CIPHER_GCMP_128:
		return "gcmp";
	case RSN_CIPHER_GCMP_256:
		return "gcmp-256";
	case RSN_CIPHER_CCMP_256:
		return "ccmp-256";
	default:
		return NULL;
	}
}

static bool dict_names(DBusMessageIter *dict, const char *key, uint32_t mask,
		       const char *(*name)(uint32_t))
{
	DBusMessageIter e, v, arr;
	if (!dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) ||
	    !dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key) ||
	    !dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "as", &v) ||
	    !dbus_message_iter_open_container(&v, DBUS_TYPE_ARRAY, "s", &arr))
		return false;
	for (unsigned t = 0; t < 32; t++) {
		const char *n = mask & (1u << t) ? name(RSN_SUITE(t)) : NULL;
		if (n && !dbus_message_iter_append_basic(&arr, DBUS_TYPE_STRING, &n))
			return false;
	}
	return dbus_message_iter_close_container(&v, &arr) &&
	       dbus_message_iter_close_container(&e, &v) && dbus_message_iter_close_container(dict, &e);
}

static bool get_rsn(void *data, DBusMessageIter *it)
{
	struct wpas_bss *b = data;
	DBusMessageIter dict;
	if (!dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict))
		return false;
	if (b->bss.has_rsn) {
		const char *group = cipher_cap_name(b->bss.group_cipher);
		if (!dict_names(&dict, "KeyMgmt", b->bss.akms, akm_cap_name) ||
		    !dict_names(&dict, "Pairwise", b->bss.pairwise_ciphers, cipher_cap_name) ||
		    (group && !wdb_append_dict_basic(&dict, "Group", DBUS_TYPE_STRING, &group)))
			return false;
		if (b->bss.mfp_capable) {
			const char *mgmt = b->bss.group_mgmt_cipher == RSN_CIPHER_BIP_GMAC_256
						   ? "bip-gmac-256"
						   : "aes128cmac";
			if (!wdb_append_dict_basic(&dict, "MgmtGroup", DBUS_TYPE_STRING, &mgmt))
				return false;
		}
	}
	return dbus_message_iter_close_container(it, &dict);
}

/* wpad joins no WPA1 network: an empty dict. */
static bool get_wpa(void *data, DBusMessageIter *it)
{
	DBusMessageIter dict;
	return dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict) &&
	       dbus_message_iter_close_container(it, &dict);
}

static bool get_wps(void *data, DBusMessageIter *it)
{
	DBusMessageIter dict;
	const char *none = "";
	return dbus_message_iter_open_container(it, DBUS_TYPE_ARRAY, "{sv}", &dict) &&
	       wdb_append_dict_basic(&dict, "Type", DBUS_TYPE_STRING, &none) &&
	       dbus_message_iter_close_container(it, &dict);
}

/* The elements the station keeps of the BSS: SSID, RSNE, RSNXE. */
static bool get_ies(void *data, DBusMessageIter *it)
{
	struct wpas_bss *b = data;
	uint8_t ies[2 + BSS_SSID_MAX + BSS_RSNE_MAX + BSS_RSNXE_MAX];
	size_t n = 0;
	ies[n++] = WLAN_EID_SSID;
	ies[n++] = b->bss.ssid_len;
	memcpy(ies + n, b->bss.ssid, b->bss.ssid_len);
	n += b->bss.ssid_len;
	memcpy(ies + n, b->bss.rsne, b->bss.rsne_len);
	n += b->bss.rsne_len;
	memcpy(ies + n, b->bss.rsnxe, b->bss.rsnxe_len);
	n += b->bss.rsnxe_len;
	return append_bytes(it, ies, n);
}

static const struct wdb_property bss_props[] = {
	{ "SSID", "ay", get_ssid, NULL, WDB_PROP_CONST },
	{ "BSSID", "ay", get_bssid, NULL, WDB_PROP_CONST },
	{ "Frequency", "q", get_frequency, NULL, 0 },
	{ "Signal", "n", get_signal, NULL, 0 },
	{ "Age", "u", get_age, NULL, 0 },
	{ "Privacy", "b", get_privacy, NULL, 0 },
	{ "Mode", "s", get_mode, NULL, WDB_PROP_CONST },
	{ "Rates", "au", get_rates, NULL, 0 },
	{ "RSN", "a{sv}", get_rsn, NULL, 0 },
	{ "WPA", "a{sv}", get_wpa, NULL, 0 },
	{ "WPS", "a{sv}", get_wps, NULL, 0 },
	{ "IEs", "ay", get_ies, NULL, 0 },
	{ .name = NULL },
};

const struct wdb_interface wpas_bss_iface = {
	.name = WPAS_NAME ".BSS",
	.props = bss_props,
};

/* ---- the set ---- */

static void emit(struct wpas_iface *ifc, const char *member, struct wpas_bss *b, bool props)
{
	DBusMessage *sig = wdb_signal_new(ifc->obj, &wpas_iface_iface, member);
	if (!sig)
		return;
	DBusMessageIter it, dict;
	dbus_message_iter_init_append(sig, &it);
	bool ok = wdb_append_path(&it, wdb_object_path(b->obj));
	if (ok && props)
		ok = dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict) &&
		     dbus_message_iter_close_container(&it, &dict);
	if (ok)
		wdb_send(sig);
	else
		dbus_message_unref(sig);
}

static struct wpas_bss *find(struct wpas_iface *ifc, const uint8_t bssid[6])
{
	for (struct wpas_bss *b = ifc->bsses; b; b = b->next)
		if (memcmp(b->bss.bssid, bssid, 6) == 0)
			return b;
	return NULL;
}

/* A BSS object is one (BSSID, SSID) pair, as in wpa_supplicant: an AP that
 * comes back on the same address with another SSID is a new object, since
 * NetworkManager takes SSID as constant and would go on showing the old one. */
static struct wpas_bss *find_same(struct wpas_iface *ifc, const struct station_bss *sb)
{
	for (struct wpas_bss *b = ifc->bsses; b; b = b->next)
		if (memcmp(b->bss.bssid, sb->bssid, 6) == 0 && b->bss.ssid_len == sb->ssid_len &&
		    memcmp(b->bss.ssid, sb->ssid, sb->ssid_len) == 0)
			return b;
	return NULL;
}

static void drop(struct wpas_iface *ifc, struct wpas_bss **link, bool announce)
{
	struct wpas_bss *b = *link;
	*link = b->next;
	if (announce)
		emit(ifc, "BSSRemoved", b, false);
	wdb_object_free(b->obj);
	free(b);
}

static bool add(struct wpas_iface *ifc, const struct station_bss *from, size_t count)
{
	if (count >= WPAS_MAX_BSS)
		return false;
	struct wpas_bss *b = calloc(1, sizeof(*b));
	if (!b)
		return false;
	char path[WDB_PATH_MAX];
	b->id = ifc->next_bss_id++;
	b->ifc = ifc;
	b->bss = *from;
	b->seen = true;
	snprintf(path, sizeof(path), "%s/BSSs/%u", ifc->path, b->id);
	b->obj = wdb_object_new(path);
	if (!b->obj || wdb_object_add_iface(b->obj, &wpas_bss_iface, b) < 0) {
		wdb_object_free(b->obj);
		free(b);
		return false;
	}
	b->next = ifc->bsses;
	ifc->bsses = b;
	emit(ifc, "BSSAdded", b, true);
	return true;
}

void wpas_bss_sync(struct wpas_iface *ifc)
{
	if (!sta(ifc)) /* the hotspot: no station role, no scan results */
		return;
	const struct station_network *nets[128];
	size_t n_nets = station_networks(sta(ifc), nets, 128), count = 0;
	bool changed = false;
	if (n_nets > 128)
		n_nets = 128;
	for (struct wpas_bss *b = ifc->bsses; b; b = b->next) {
		b->seen = false;
		count++;
	}
	for (size_t i = 0; i < n_nets; i++) {
		for (size_t j = 0; j < nets[i]->n_bss; j++) {
			const struct station_bss *sb = nets[i]->bss[j];
			struct wpas_bss *b = find_same(ifc, sb);
			if (!b) {
				if (add(ifc, sb, count)) {
					count++;
					changed = true;
				}
				continue;
			}
			bool moved = b->bss.last_seen_us != sb->last_seen_us;
			b->bss = *sb;
			b->seen = true;
			if (moved)
				wdb_emit_changed(b->obj, &wpas_bss_iface, "Signal", "Frequency", "Age",
						 "Privacy", "RSN", "IEs");
		}
	}
	for (struct wpas_bss **link = &ifc->bsses; *link;) {
		if ((*link)->seen) {
			link = &(*link)->next;
			continue;
		}
		drop(ifc, link, true);
		changed = true;
	}
	if (changed)
		wdb_emit_changed(ifc->obj, &wpas_iface_iface, "BSSs");
}

void wpas_bss_clear(struct wpas_iface *ifc)
{
	while (ifc->bsses)
		drop(ifc, &ifc->bsses, false);
}

const char *wpas_bss_path(struct wpas_iface *ifc, const uint8_t bssid[6])
{
	struct wpas_bss *b = find(ifc, bssid);
	return b ? wdb_object_path(b->obj) : "/";
}
