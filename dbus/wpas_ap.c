/* mode=2 networks (NetworkManager's hotspot and shared connections) on
 * wpad's access point role; see wpas_i.h.
 *
 * wpa_supplicant runs a hotspot as an AP on the interface NetworkManager
 * gave it; wpad does the same with its own AP role: SelectNetwork turns the
 * station device into an access point (wpad_device_set_mode, the path of
 * org.wpad1.Device.Mode), starts it with a profile made from the network
 * block, and the interface object stays: the station role is put aside,
 * not the wpa_supplicant interface. Deselecting the network (Disconnect,
 * RemoveNetwork, another SelectNetwork, RemoveInterface) stops the AP and
 * gives the interface back to a station under NetworkManager's control.
 *
 * The network block is checked when it is added, so a hotspot wpad cannot
 * run is refused at AddNetwork (InvalidArgs naming the key), not accepted
 * and then failed; IBSS (mode=1) and mesh (mode=5) are refused there too.
 *
 * Key translation (what NetworkManager 1.42 sends for a hotspot):
 *   ssid -> SSID; frequency -> Band and Channel (none: the band's default);
 *   key_mgmt NONE -> Security=open; WPA-PSK, WPA-PSK-SHA256, SAE -> AKMs
 *   psk, psk-sha256, sae (SAE only with a passphrase: a raw PSK cannot be
 *   an SAE password, so it is dropped next to PSK and refused alone);
 *   psk -> Passphrase (8..63) or PSK (64 hex digits); proto must include
 *   RSN; pairwise CCMP/GCMP-256 -> Ciphers (TKIP is left out, refused
 *   alone); group must be CCMP or GCMP-256; ieee80211w 0/1/2 ->
 *   ManagementFrameProtection disabled/optional/required (not given:
 *   optional, so SAE and PSK stations both join: transition mode);
 *   ignore_broadcast_ssid -> Hidden.
 */
#define LOG_TAG "dbus"
#include "daemon/ap/ap.h"
#include "daemon/config/ap_profile.h"
#include "daemon/core/log.h"
#include "daemon/rsn/suites.h"
#include "daemon/station/station.h"
#include "daemon/wpad.h"
#include "drivers/driver.h"
#include "dbus/wpas.h"
#include "dbus/wpas_i.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct wdb_interface wpas_iface_iface;

/* A word of a space-separated list (case as wpa_supplicant: upper). */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

/* Every word of list is one of allowed[]. Returns NULL or the first
 * other word (into out). */
static const char *other_word(const char *list, const char *const *allowed, char *out,
			      size_t cap)
{
	const char *p = list;
	while (*p) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		if (!n)
			break;
		bool ok = false;
		for (size_t i = 0; allowed[i] && !ok; i++)
			ok = strlen(allowed[i]) == n && strncmp(allowed[i], p, n) == 0;
		if (!ok) {
			snprintf(out, cap, "%.*s", (int)(n < 32 ? n : 32), p);
			return out;
		}
		p += n;
	}
	return NULL;
}

static int refuse(struct wpad_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int refuse(struct wpad_error *e, const char *fmt, ...)
{
	va_list ap;
	wpad_error_clear(e);
	e->code = WPAD_ERR_INVALID_ARGUMENTS;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* frequency (MHz) -> band and channel. */
static bool channel_of(uint32_t f, enum ap_band *band, unsigned *ch)
{
	if (f >= 2412 && f <= 2472 && (f - 2407) % 5 == 0) {
		*band = AP_BAND_2GHZ;
		*ch = (f - 2407) / 5;
	} else if (f == 2484) {
		*band = AP_BAND_2GHZ;
		*ch = 14;
	} else if (f >= 5180 && f <= 5885 && (f - 5000) % 5 == 0) {
		*band = AP_BAND_5GHZ;
		*ch = (f - 5000) / 5;
	} else {
		return false;
	}
	return true;
}

static int set_key(struct ap_profile *p, const char *key, const char *value,
		   struct wpad_error *e)
{
	struct cfg_error ce = { 0 };
	int r = ap_profile_set(p, key, value, NULL, &ce);
	if (r < 0)
		wpad_error_set(e, WPAD_ERR_INVALID_ARGUMENTS, 0, -1, -1, "%s",
			       ce.msg[0] ? ce.msg : "invalid access point setting");
	return r < 0 ? -EINVAL : 0;
}

static int akms_of(const struct wpas_net *n, char *akms, size_t cap, bool *open,
		   struct wpad_error *e)
{
	static const char *const allowed[] = { "NONE", "WPA-PSK", "WPA-PSK-SHA256", "SAE", NULL };
	char word[40];
	const char *km = n->key_mgmt[0] ? n->key_mgmt : (n->have_psk ? "WPA-PSK" : "NONE");
	if (other_word(km, allowed, word, sizeof(word)))
		return refuse(e, "key_mgmt: %s is not served on a hotspot (NONE, WPA-PSK, "
				 "WPA-PSK-SHA256 and SAE are)", word);
	*open = has_word(km, "NONE");
	bool psk = has_word(km, "WPA-PSK"), sha = has_word(km, "WPA-PSK-SHA256");
	bool sae = has_word(km, "SAE") && wpas_sae_supported();
	if (*open && (psk || sha || has_word(km, "SAE")))
		return refuse(e, "key_mgmt: %s goes alone", "NONE");
	if (*open) {
		if (n->have_psk)
			return refuse(e, "psk: %s", "an open hotspot (key_mgmt NONE) takes no psk");
		akms[0] = '\0';
		return 0;
	}
	if (!n->have_psk)
		return refuse(e, "psk: %s", "a WPA2/WPA3 hotspot needs a passphrase");
	bool raw = strlen(n->psk) == 64;
	if (sae && (raw || n->ieee80211w == 0)) {
		if (!psk && !sha)
			return refuse(e, "key_mgmt: %s",
				      raw ? "SAE needs a passphrase, not a raw PSK"
					  : "SAE needs management frame protection (ieee80211w 1 or 2)");
		sae = false; /* PSK stations only */
	}
	if (!psk && !sha && !sae)
		return refuse(e, "key_mgmt: %s", "SAE is not implemented by this wpad");
	snprintf(akms, cap, "%s%s%s", psk ? "psk " : "", sha ? "psk-sha256 " : "", sae ? "sae" : "");
	size_t len = strlen(akms);
	if (len && akms[len - 1] == ' ')
		akms[len - 1] = '\0';
	return 0;
}

static int ciphers_of(const struct wpas_net *n, char *ciphers, size_t cap, struct wpad_error *e)
{
	static const char *const pair_ok[] = { "CCMP", "GCMP-256", "TKIP", NULL };
	static const char *const group_ok[] = { "CCMP", "GCMP-256", NULL };
	static const char *const proto_ok[] = { "RSN", "WPA2", "WPA", NULL };
	char word[40];
	if (other_word(n->proto, proto_ok, word, sizeof(word)))
		return refuse(e, "proto: %s is not a protocol (RSN)", word);
	if (n->proto[0] && !has_word(n->proto, "RSN") && !has_word(n->proto, "WPA2"))
		return refuse(e, "proto: %s", "wpad's access point speaks RSN (WPA2/WPA3) only");
	if (other_word(n->pairwise, pair_ok, word, sizeof(word)))
		return refuse(e, "pairwise: %s is not served (CCMP, GCMP-256)", word);
	if (other_word(n->group, group_ok, word, sizeof(word)))
		return refuse(e, "group: %s is not served (CCMP, GCMP-256)", word);
	bool ccmp = has_word(n->pairwise, "CCMP"), gcmp = has_word(n->pairwise, "GCMP-256");
	if (n->pairwise[0] && !ccmp && !gcmp)
		return refuse(e, "pairwise: %s", "TKIP alone is not served (CCMP, GCMP-256)");
	snprintf(ciphers, cap, "%s%s%s", ccmp ? "ccmp-128" : "", ccmp && gcmp ? " " : "",
		 gcmp ? "gcmp-256" : "");
	return 0;
}

/* The network block as an AP profile, validated. p initialised by the
 * caller, cleared by it. */
static int profile_of(const struct wpas_net *n, struct ap_profile *p, struct wpad_error *e)
{
	char akms[64], ciphers[64], num[16];
	bool open = false;
	int r;
	struct cfg_error ce = { 0 };
	if (n->ssid_len == 0)
		return refuse(e, "ssid: %s", "a hotspot needs an SSID");
	if ((r = akms_of(n, akms, sizeof(akms), &open, e)) < 0 ||
	    (r = ciphers_of(n, ciphers, sizeof(ciphers), e)) < 0)
		return r;
	if (ap_profile_set_ssid(p, n->ssid, n->ssid_len, &ce) < 0)
		return refuse(e, "ssid: %s", ce.msg);
	if (n->frequency) {
		enum ap_band band;
		unsigned ch;
		if (!channel_of(n->frequency, &band, &ch)) {
			snprintf(num, sizeof(num), "%u", (unsigned)n->frequency);
			return refuse(e, "frequency: %s MHz is not a 2.4 or 5 GHz channel", num);
		}
		snprintf(num, sizeof(num), "%u", ch);
		if ((r = set_key(p, "Band", band == AP_BAND_5GHZ ? "5" : "2.4", e)) < 0 ||
		    (r = set_key(p, "Channel", num, e)) < 0)
			return r;
	}
	static const char *const pmf[] = { "disabled", "optional", "required" };
	if (n->ieee80211w > 2)
		return refuse(e, "ieee80211w: %s", "0, 1 or 2");
	if ((r = set_key(p, "Security", open ? "open" : "wpa2-psk", e)) < 0 ||
	    (!open && (r = set_key(p, strlen(n->psk) == 64 ? "PSK" : "Passphrase", n->psk, e)) < 0) ||
	    (!open && (r = set_key(p, "AKMs", akms, e)) < 0) ||
	    (!open && ciphers[0] && (r = set_key(p, "Ciphers", ciphers, e)) < 0) ||
	    (r = set_key(p, "ManagementFrameProtection",
			 pmf[n->ieee80211w < 0 ? 1 : n->ieee80211w], e)) < 0 ||
	    (r = set_key(p, "Hidden", n->hidden ? "true" : "false", e)) < 0)
		return r;
	if (ap_profile_validate(p, "AddNetwork", 0, &ce) < 0)
		return wpad_error_set(e, ap_err_to_wpad(ce.code), 0, -1, -1, "%s", ce.msg), -EINVAL;
	return 0;
}

int wpas_ap_check(const struct wpas_net *n, struct wpad_error *e)
{
	if (n->mode == 0)
		return 0;
	if (n->mode != 2) {
		char m[16];
		snprintf(m, sizeof(m), "%d", n->mode);
		return refuse(e, "mode: %s is not served: wpad runs stations (0) and access "
				 "points (2), no IBSS (1) or mesh (5)", m);
	}
	struct ap_profile p;
	ap_profile_init(&p);
	int r = profile_of(n, &p, e);
	ap_profile_clear(&p);
	return r;
}

bool wpas_ap_capable(const struct wpas_iface *ifc)
{
	struct driver *drv = wpad_radio_driver(ifc->d->dev->radio);
	struct driver_iface_info info;
	struct driver_capa capa;
	return drv && driver_iface_info(drv, ifc->d->dev->ifindex, &info) == 0 &&
	       driver_get_capa(drv, info.radio_id, &capa) == 0 && (capa.iftypes & DRIVER_IFTYPE_AP);
}

/* The device changes role under the interface object: wpas_device_gone
 * is told to keep it (ifc->switching). */
static int switch_to(struct wpas_iface *ifc, enum wpad_device_kind kind, struct wpad_error *e)
{
	ifc->switching = true;
	int r = wpad_device_set_mode(ifc->d->dev, kind, e);
	ifc->switching = false;
	if (ifc->d->dev->station)
		station_set_external_control(ifc->d->dev->station, true);
	return r;
}

int wpas_ap_start(struct wpas_iface *ifc, struct wpas_net *n, struct wpad_error *e)
{
	struct ap_profile p;
	ap_profile_init(&p);
	int r = profile_of(n, &p, e);
	if (r == 0 && !wpas_ap_capable(ifc))
		r = (wpad_error_set(e, WPAD_ERR_NOT_SUPPORTED, 0, -1, -1,
				    "%s cannot be an access point (its radio has no AP mode)",
				    ifc->ifname),
		     -EOPNOTSUPP);
	if (r == 0 && ifc->d->dev->kind != WPAD_DEVICE_AP)
		r = switch_to(ifc, WPAD_DEVICE_AP, e);
	if (r == 0 && ifc->d->dev->ap && ap_get_state(ifc->d->dev->ap) != AP_STATE_STOPPED)
		r = (wpad_error_set(e, WPAD_ERR_BUSY, 0, -1, -1, "the access point is %s",
				    ap_state_to_string(ap_get_state(ifc->d->dev->ap))),
		     -EBUSY);
	if (r == 0)
		r = wpad_ap_start(ifc->d->dev, &p, e);
	ap_profile_clear(&p);
	if (r < 0) {
		struct wpad_error ignored;
		if (ifc->d->dev->kind == WPAD_DEVICE_AP)
			switch_to(ifc, WPAD_DEVICE_STATION, &ignored);
		return r;
	}
	ifc->hotspot = n;
	log_info("%s: hotspot %.*s started for %s", ifc->ifname, (int)n->ssid_len,
		 (const char *)n->ssid, WPAS_NAME);
	return 0;
}

static void sta_signal(struct wpas_iface *ifc, const char *member, const uint8_t addr[6])
{
	char mac[18];
	const char *m = mac;
	snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", addr[0], addr[1], addr[2],
		 addr[3], addr[4], addr[5]);
	DBusMessage *sig = wdb_signal_new(ifc->obj, &wpas_iface_iface, member);
	if (sig && dbus_message_append_args(sig, DBUS_TYPE_STRING, &m, DBUS_TYPE_INVALID))
		wdb_send(sig);
	else if (sig)
		dbus_message_unref(sig);
}

static bool deauthorized(void *data, const struct ap_station_info *info)
{
	if (info->state == AP_STA_AUTHORIZED)
		sta_signal(data, "StaDeauthorized", info->addr);
	return true;
}

void wpas_ap_stop(struct wpas_iface *ifc)
{
	struct wpad_error e;
	if (!ifc->hotspot)
		return;
	ifc->hotspot = NULL;
	if (ifc->d->dev->kind != WPAD_DEVICE_AP)
		return;
	/* The role is freed at once, without its station callbacks: the
	 * stations it had are announced gone here. */
	if (ifc->d->dev->ap)
		ap_foreach_station(ifc->d->dev->ap, deauthorized, ifc);
	/* Stations are told (deauthentication) by the AP's stop; the device
	 * is a station under NetworkManager's control again. */
	if (switch_to(ifc, WPAD_DEVICE_STATION, &e) < 0)
		log_warn("%s: back to a station after the hotspot: %s", ifc->ifname, e.text);
	else
		log_info("%s: hotspot stopped, a station again", ifc->ifname);
}

/* wpa_supplicant's states in AP mode: "completed" once the AP beacons
 * (its setup-complete callback), "disconnected" when it stopped. */
const char *wpas_ap_state_name(const struct wpas_iface *ifc)
{
	struct ap *ap = ifc->d->dev->ap;
	if (!ap)
		return "disconnected";
	switch (ap_get_state(ap)) {
	case AP_STATE_STARTED:
	case AP_STATE_SWITCHING:
		return "completed";
	case AP_STATE_STARTING:
	case AP_STATE_CAC:
		return "associating";
	case AP_STATE_STOPPING:
	case AP_STATE_STOPPED:
		return "disconnected";
	}
	return "disconnected";
}

/* StaAuthorized / StaDeauthorized (s address), as wpa_supplicant sends
 * them for its AP's stations. */
void wpas_ap_station(struct wdb_device *d, const uint8_t addr[6], const char *what)
{
	struct wpas *w = wpas_get();
	for (size_t i = 0; w && i < WPAS_MAX_IFACES; i++) {
		struct wpas_iface *ifc = w->ifaces[i];
		if (!ifc || ifc->d != d || !ifc->hotspot)
			continue;
		const char *member = strcmp(what, "authorized") == 0 ? "StaAuthorized"
				     : strcmp(what, "left") == 0     ? "StaDeauthorized"
								     : NULL;
		if (!member)
			return;
		sta_signal(ifc, member, addr);
	}
}

void wpas_ap_state(struct wdb_device *d)
{
	struct wpas *w = wpas_get();
	for (size_t i = 0; w && i < WPAS_MAX_IFACES; i++)
		if (w->ifaces[i] && w->ifaces[i]->d == d)
			wpas_iface_state(w->ifaces[i]);
}
