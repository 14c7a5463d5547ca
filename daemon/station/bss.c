/* The BSS list; see bss.h. */
#define LOG_TAG "bss"
#include "daemon/station/bss.h"

#include "daemon/codec/codec_err.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ie_owe.h"
#include "daemon/codec/ie_set.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/rsn/negotiate.h"
#include "daemon/rsn/suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bss_list {
	struct station_bss *entries[BSS_LIST_MAX];
	size_t n;
};

static const char *const security_names[BSS_SECURITY_COUNT] = {
	[BSS_SECURITY_WEP] = "wep",   [BSS_SECURITY_OPEN] = "open", [BSS_SECURITY_OWE] = "owe",
	[BSS_SECURITY_PSK] = "psk",   [BSS_SECURITY_SAE] = "sae",   [BSS_SECURITY_8021X] = "8021x",
};

const char *bss_security_name(enum bss_security sec)
{
	return (unsigned)sec < BSS_SECURITY_COUNT ? security_names[sec] : "unknown";
}

const char *bss_support_text(enum bss_support s)
{
	switch (s) {
	case BSS_OK:
		return "supported";
	case BSS_UNSUPPORTED_WEP:
		return "WEP is insecure and not supported";
	case BSS_UNSUPPORTED_WPA1:
		return "only the legacy WPA (version 1) element is offered; WPA2 is required";
	case BSS_UNSUPPORTED_CIPHER:
		return "the network offers no cipher wpad can use (TKIP-only is insecure and not "
		       "supported)";
	case BSS_UNSUPPORTED_AKM:
		return "the network's key management (AKM) is not supported yet";
	case BSS_UNSUPPORTED_MFP:
		return "the management frame protection (PMF) policies of the network and of "
		       "wpad conflict";
	case BSS_UNSUPPORTED_RSN:
		return "the network's RSN element is not usable";
	}
	return "unknown";
}

enum driver_band bss_band_from_freq(uint32_t freq_mhz)
{
	if (freq_mhz < 3000)
		return DRIVER_BAND_2GHZ;
	if (freq_mhz > 5925 && freq_mhz <= 7125)
		return DRIVER_BAND_6GHZ;
	return DRIVER_BAND_5GHZ;
}

unsigned bss_channel_from_freq(uint32_t freq_mhz)
{
	if (freq_mhz == 2484)
		return 14;
	if (freq_mhz >= 2412 && freq_mhz < 2484)
		return (freq_mhz - 2407) / 5;
	if (freq_mhz == 5935)
		return 2;
	if (freq_mhz > 5950 && freq_mhz <= 7115)
		return (freq_mhz - 5950) / 5;
	if (freq_mhz >= 5000 && freq_mhz <= 5925)
		return (freq_mhz - 5000) / 5;
	if (freq_mhz >= 4900 && freq_mhz < 5000)
		return (freq_mhz - 4000) / 5;
	return 0;
}

const char *bss_addr_str(const uint8_t addr[DRIVER_ADDR_LEN], char *buf)
{
	return log_addr_str(addr, buf);
}

const char *bss_ssid_str(const uint8_t *ssid, size_t len, char *buf, size_t cap)
{
	size_t o = 0;
	if (cap == 0)
		return buf;
	for (size_t i = 0; i < len && o + 5 <= cap; i++) {
		if (ssid[i] >= 0x20 && ssid[i] < 0x7f && ssid[i] != '\\')
			buf[o++] = (char)ssid[i];
		else
			o += (size_t)snprintf(buf + o, cap - o, "\\x%02x", ssid[i]);
	}
	buf[o < cap ? o : cap - 1] = '\0';
	return buf;
}

/* ---- security classification ---- */

static bool akm_is_psk(uint32_t akm)
{
	return akm == RSN_AKM_PSK || akm == RSN_AKM_PSK_SHA256 || akm == RSN_AKM_FT_PSK ||
	       akm == RSN_AKM_PSK_SHA384 || akm == RSN_AKM_FT_PSK_SHA384;
}

static bool akm_is_sae(uint32_t akm)
{
	return akm == RSN_AKM_SAE || akm == RSN_AKM_FT_SAE || akm == RSN_AKM_SAE_EXT_KEY ||
	       akm == RSN_AKM_FT_SAE_EXT_KEY;
}

static bool akm_is_8021x(uint32_t akm)
{
	return akm == RSN_AKM_8021X || akm == RSN_AKM_FT_8021X || akm == RSN_AKM_8021X_SHA256 ||
	       akm == RSN_AKM_8021X_SUITE_B || akm == RSN_AKM_8021X_SUITE_B_192 ||
	       akm == RSN_AKM_FT_8021X_SHA384 || akm == RSN_AKM_8021X_SHA384 ||
	       akm == RSN_AKM_FILS_SHA256 || akm == RSN_AKM_FILS_SHA384 ||
	       akm == RSN_AKM_FT_FILS_SHA256 || akm == RSN_AKM_FT_FILS_SHA384;
}

static bool rsn_has_akm_where(const struct ie_rsn *rsn, bool (*pred)(uint32_t))
{
	for (size_t i = 0; i < rsn->n_akm; i++)
		if (pred(rsn->akm[i]))
			return true;
	return false;
}

enum bss_support bss_support_from_status(uint16_t status)
{
	switch (status) {
	case WLAN_STATUS_SUCCESS:
		return BSS_OK;
	case WLAN_STATUS_GROUP_CIPHER_NOT_VALID:
	case WLAN_STATUS_PAIRWISE_CIPHER_NOT_VALID:
	case WLAN_STATUS_CIPHER_REJECTED_PER_POLICY:
		return BSS_UNSUPPORTED_CIPHER;
	case WLAN_STATUS_AKMP_NOT_VALID:
		return BSS_UNSUPPORTED_AKM;
	case WLAN_STATUS_ROBUST_MGMT_FRAME_POLICY_VIOLATION:
		return BSS_UNSUPPORTED_MFP;
	default:
		return BSS_UNSUPPORTED_RSN;
	}
}

/* Every cipher the driver contract knows: the list tells what wpad could
 * join on some driver; the connect asks the real one. */
#define BSS_ANY_DRIVER_CIPHERS 0xffffffffu

static uint32_t suites_mask(const uint32_t *list, size_t n)
{
	uint32_t m = 0;
	for (size_t i = 0; i < n; i++)
		m |= RSN_SUITE_BIT(list[i]);
	return m;
}

static enum bss_security rsn_security(const struct ie_rsn *rsn)
{
	if (rsn_has_akm_where(rsn, akm_is_psk))
		return BSS_SECURITY_PSK;
	if (rsn_has_akm_where(rsn, akm_is_sae))
		return BSS_SECURITY_SAE;
	if (ie_rsn_has_akm(rsn, RSN_AKM_OWE))
		return BSS_SECURITY_OWE;
	if (rsn_has_akm_where(rsn, akm_is_8021x))
		return BSS_SECURITY_8021X;
	return BSS_SECURITY_8021X; /* unknown AKMs: treated as enterprise, unsupported */
}

static void classify_rsn(struct station_bss *b, const struct ie_set *set)
{
	const struct ie_rsn *rsn = &set->rsn;

	b->has_rsn = true;
	b->security = rsn_security(rsn);
	struct rsn_policy def = { .pmf = RSN_PMF_OPTIONAL };
	struct rsn_negotiated n;
	b->rsn_status = rsn_negotiate(RSN_ROLE_STATION, &def, BSS_ANY_DRIVER_CIPHERS, rsn,
				      set->has_rsnxe, &n);
	b->akm = b->rsn_status ? 0 : n.akm;
	b->pairwise_cipher = b->rsn_status ? 0 : n.pairwise;
	b->akms = suites_mask(rsn->akm, rsn->n_akm);
	b->pairwise_ciphers = suites_mask(rsn->pairwise, rsn->n_pairwise);
	b->group_cipher = rsn->group_cipher;
	b->group_mgmt_cipher = rsn->group_mgmt_cipher;
	b->rsn_capab = rsn->capab;
	b->mfp_capable = rsn->capab & RSN_CAPAB_MFPC;
	b->mfp_required = rsn->capab & RSN_CAPAB_MFPR;
	if (set->rsn_elem_len <= sizeof(b->rsne)) {
		memcpy(b->rsne, set->rsn_elem, set->rsn_elem_len);
		b->rsne_len = set->rsn_elem_len;
	}
	if (set->has_rsnxe && set->rsnxe_elem_len <= sizeof(b->rsnxe)) {
		memcpy(b->rsnxe, set->rsnxe_elem, set->rsnxe_elem_len);
		b->rsnxe_len = set->rsnxe_elem_len;
	}
	b->support = bss_support_from_status(b->rsn_status);
}

static void classify(struct station_bss *b, const struct ie_set *set)
{
	if (set->has_rsn) {
		classify_rsn(b, set);
		return;
	}
	if (set->has_wpa) {
		const struct ie_rsn *wpa = &set->wpa;
		bool psk = false;
		for (size_t i = 0; i < wpa->n_akm; i++)
			psk = psk || wpa->akm[i] == WPA_AKM_PSK;
		b->security = psk ? BSS_SECURITY_PSK : BSS_SECURITY_8021X;
		b->support = BSS_UNSUPPORTED_WPA1;
		return;
	}
	if (b->capability & WLAN_CAPAB_PRIVACY) {
		b->security = BSS_SECURITY_WEP;
		b->support = BSS_UNSUPPORTED_WEP;
		return;
	}
	b->security = BSS_SECURITY_OPEN;
	b->support = BSS_OK;
}

/* A BSS membership selector (sent as a basic rate) in either rates list. */
static bool rates_have(const struct ie_set *set, uint8_t selector)
{
	uint8_t want = (uint8_t)(WLAN_RATE_BASIC | selector);
	if (set->has_supp_rates && memchr(set->supp_rates.rates, want, set->supp_rates.n))
		return true;
	return set->has_ext_rates && memchr(set->ext_rates.rates, want, set->ext_rates.n);
}

static bool ssid_is_hidden(const struct ie_set *set)
{
	if (!set->has_ssid || set->ssid.len == 0)
		return true;
	for (size_t i = 0; i < set->ssid.len; i++)
		if (set->ssid.ssid[i] != 0)
			return false;
	return true;
}

/* The frequency of a channel of an operating class (IEEE 802.11-2020
 * Table E-4): 2.4 GHz classes 81/82, 6 GHz 131-137, the rest 5 GHz. */
static uint32_t opclass_freq(uint8_t op_class, uint8_t channel)
{
	if (op_class == 81 || op_class == 82)
		return channel == 14 ? 2484 : 2407 + 5u * channel;
	if (op_class >= 131 && op_class <= 137)
		return 5950 + 5u * channel;
	return 5000 + 5u * channel;
}

/* An open BSS's OWE Transition Mode element; a malformed one is ignored
 * (the BSS stays a plain open one). */
static void parse_owe_trans(struct station_bss *b, const uint8_t *ies, size_t len)
{
	struct ie_owe_trans t;
	if (ie_find_owe_trans(ies, len, &t) != CODEC_OK || !t.ssid_len)
		return;
	b->owe_trans = true;
	memcpy(b->owe_bssid, t.bssid, DRIVER_ADDR_LEN);
	memcpy(b->owe_ssid, t.ssid, t.ssid_len);
	b->owe_ssid_len = t.ssid_len;
	b->owe_freq_mhz = t.has_channel ? opclass_freq(t.op_class, t.channel) : 0;
}

int bss_parse(struct station_bss *out, const uint8_t bssid[DRIVER_ADDR_LEN], uint32_t freq_mhz,
	      int32_t signal_mbm, uint16_t capability, uint16_t beacon_interval,
	      const uint8_t *ies, size_t ies_len, uint64_t now_us)
{
	struct ie_set set;
	int err = ie_parse(ies, ies_len, &set);

	memset(out, 0, sizeof(*out));
	if (err != CODEC_OK)
		return err;
	memcpy(out->bssid, bssid, DRIVER_ADDR_LEN);
	out->freq_mhz = freq_mhz;
	out->band = bss_band_from_freq(freq_mhz);
	out->signal_mbm = signal_mbm;
	out->capability = capability;
	out->beacon_interval = beacon_interval;
	out->last_seen_us = now_us;
	out->hidden = ssid_is_hidden(&set);
	if (!out->hidden) {
		memcpy(out->ssid, set.ssid.ssid, set.ssid.len);
		out->ssid_len = set.ssid.len;
	}
	out->wmm = set.has_wmm;
	out->sae_h2e_only = rates_have(&set, WLAN_BSS_MEMBERSHIP_SAE_H2E_ONLY);
	classify(out, &set);
	if (out->security == BSS_SECURITY_OPEN)
		parse_owe_trans(out, ies, ies_len);
	return 0;
}

/* ---- the list ---- */

struct bss_list *bss_list_new(void)
{
	return calloc(1, sizeof(struct bss_list));
}

void bss_list_clear(struct bss_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		free(list->entries[i]);
	list->n = 0;
}

void bss_list_free(struct bss_list *list)
{
	if (!list)
		return;
	bss_list_clear(list);
	free(list);
}

size_t bss_list_count(const struct bss_list *list)
{
	return list->n;
}

struct station_bss *bss_list_at(struct bss_list *list, size_t i)
{
	return i < list->n ? list->entries[i] : NULL;
}

static size_t index_of(const struct bss_list *list, const uint8_t bssid[DRIVER_ADDR_LEN])
{
	for (size_t i = 0; i < list->n; i++)
		if (memcmp(list->entries[i]->bssid, bssid, DRIVER_ADDR_LEN) == 0)
			return i;
	return list->n;
}

struct station_bss *bss_list_find(struct bss_list *list, const uint8_t bssid[DRIVER_ADDR_LEN])
{
	size_t i = index_of(list, bssid);
	return i < list->n ? list->entries[i] : NULL;
}

static size_t oldest_index(const struct bss_list *list)
{
	size_t oldest = 0;
	for (size_t i = 1; i < list->n; i++)
		if (list->entries[i]->last_seen_us < list->entries[oldest]->last_seen_us)
			oldest = i;
	return oldest;
}

struct station_bss *bss_list_update(struct bss_list *list, const struct station_bss *bss)
{
	size_t i = index_of(list, bss->bssid);

	if (i < list->n) {
		struct station_bss *cur = list->entries[i];
		if (bss->last_seen_us < cur->last_seen_us)
			return cur; /* an older report than what we hold */
		bool keep_ssid = bss->hidden && !cur->hidden;
		uint8_t ssid[BSS_SSID_MAX];
		uint8_t ssid_len = cur->ssid_len;
		memcpy(ssid, cur->ssid, sizeof(ssid));
		*cur = *bss;
		if (keep_ssid) {
			/* A hidden AP's beacons keep the SSID a probe response told us. */
			memcpy(cur->ssid, ssid, sizeof(ssid));
			cur->ssid_len = ssid_len;
			cur->hidden = false;
		}
		return cur;
	}
	if (list->n == BSS_LIST_MAX) {
		i = oldest_index(list);
		*list->entries[i] = *bss;
		return list->entries[i];
	}
	struct station_bss *e = malloc(sizeof(*e));
	if (!e)
		return NULL;
	*e = *bss;
	list->entries[list->n++] = e;
	return e;
}

size_t bss_list_merge_scan(struct bss_list *list, const struct driver_scan_results *res,
			   uint64_t now_us)
{
	size_t taken = 0;
	for (size_t i = 0; i < res->n; i++) {
		const struct driver_scan_result *r = &res->results[i];
		uint64_t age_us = (uint64_t)r->age_ms * 1000u;
		struct station_bss b;
		int err = bss_parse(&b, r->bssid, r->freq_mhz, r->signal_mbm, r->capability,
				    r->beacon_interval, r->ies, r->ies_len,
				    age_us < now_us ? now_us - age_us : 0);
		if (err) {
			char a[18];
			log_debug("ignoring %s: its elements do not parse (%s)",
				  bss_addr_str(r->bssid, a), codec_strerror(err));
			continue;
		}
		if (bss_list_update(list, &b))
			taken++;
	}
	return taken;
}

int bss_list_update_from_frame(struct bss_list *list, const uint8_t *frame, size_t len,
			       uint32_t freq_mhz, int32_t signal_mbm, uint64_t now_us)
{
	struct mgmt_frame f;
	struct station_bss b;
	int err = mgmt_parse(frame, len, &f);

	if (err)
		return err;
	if (f.subtype != IEEE80211_STYPE_BEACON && f.subtype != IEEE80211_STYPE_PROBE_RESP)
		return CODEC_E_UNSUPPORTED;
	err = bss_parse(&b, f.bssid, freq_mhz, signal_mbm, f.u.beacon.capab,
			f.u.beacon.beacon_int, f.ies, f.ies_len, now_us);
	if (err)
		return err;
	return bss_list_update(list, &b) ? 0 : CODEC_E_NOSPACE;
}

static void remove_at(struct bss_list *list, size_t i)
{
	free(list->entries[i]);
	list->entries[i] = list->entries[--list->n];
	list->entries[list->n] = NULL;
}

size_t bss_list_expire(struct bss_list *list, uint64_t now_us, uint64_t max_age_us,
		       const uint8_t *keep)
{
	size_t dropped = 0;
	size_t i = 0;
	while (i < list->n) {
		struct station_bss *b = list->entries[i];
		bool kept = keep && memcmp(b->bssid, keep, DRIVER_ADDR_LEN) == 0;
		if (!kept && b->last_seen_us + max_age_us < now_us) {
			remove_at(list, i);
			dropped++;
			continue;
		}
		i++;
	}
	return dropped;
}

bool bss_list_oldest(const struct bss_list *list, const uint8_t *keep, uint64_t *seen_us)
{
	bool any = false;
	for (size_t i = 0; i < list->n; i++) {
		const struct station_bss *b = list->entries[i];
		if (keep && memcmp(b->bssid, keep, DRIVER_ADDR_LEN) == 0)
			continue;
		if (!any || b->last_seen_us < *seen_us)
			*seen_us = b->last_seen_us;
		any = true;
	}
	return any;
}

void bss_list_remove(struct bss_list *list, const uint8_t bssid[DRIVER_ADDR_LEN])
{
	size_t i = index_of(list, bssid);
	if (i < list->n)
		remove_at(list, i);
}
