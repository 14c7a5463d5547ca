/* Beacon and probe-response templates, association-response elements, and
 * our RSN element.
 *
 * Element order follows IEEE 802.11-2020 Table 9-32 (Beacon) and 9-38
 * (Probe Response): SSID, Supported Rates, DS Parameter Set, [TIM: added
 * by the driver between head and tail], Country, ERP (2.4 GHz),
 * Extended Supported Rates, RSN, HT Capabilities, HT Operation, Extended
 * Capabilities, VHT Capabilities, VHT Operation (5 GHz), HE Capabilities,
 * HE Operation (element ID extension 35/36), then vendor elements (WMM
 * Parameter). The HT/VHT/HE operation fields describe conf.chandef.
 */
#define LOG_TAG "ap"
#include "daemon/ap/ap_internal.h"

#include "daemon/codec/frame.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_basic.h"
#include "daemon/codec/ie_csa.h"
#include "daemon/codec/ie_ht.h"
#include "daemon/codec/ie_owe.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ie_set.h"
#include "daemon/codec/ie_wmm.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/config/utf8.h"
#include "daemon/core/log.h"
#include "daemon/rsn/suites.h"

#include <errno.h>
#include <string.h>

static const uint8_t broadcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

/* Extended Capabilities bit 48: the SSID is UTF-8 encoded. */
#define EXT_CAPAB_UTF8_SSID 48
#define EXT_CAPAB_OCTETS 7
#define MAX_TRIPLETS 32

const struct driver_band_info *ap_band_info(const struct ap *ap)
{
	return &ap->capa.bands[ap->conf.band];
}

uint16_t ap_capability(const struct ap *ap)
{
	uint16_t capab = WLAN_CAPAB_ESS | WLAN_CAPAB_SHORT_SLOT_TIME;
	if (ap->conf.rsn)
		capab |= WLAN_CAPAB_PRIVACY;
	return capab;
}

/* Basic rates: the 802.11b set on 2.4 GHz (1, 2, 5.5, 11 Mb/s) so older
 * stations can join; 6, 12, 24 Mb/s elsewhere (the mandatory OFDM set). */
static bool rate_is_basic(enum driver_band band, uint8_t rate_500k)
{
	if (band == DRIVER_BAND_2GHZ)
		return rate_500k == 2 || rate_500k == 4 || rate_500k == 11 || rate_500k == 22;
	return rate_500k == 12 || rate_500k == 24 || rate_500k == 48;
}

size_t ap_rates(const struct ap *ap, uint8_t *out, size_t max)
{
	const struct driver_band_info *b = ap_band_info(ap);
	size_t n = 0;
	for (size_t i = 0; i < b->n_rates && n < max; i++) {
		uint16_t r100 = b->rates_100kbps[i];
		if (r100 == 0 || r100 % 5 || r100 / 5 > WLAN_RATE_VALUE_MASK)
			continue; /* not expressible in 500 kb/s units */
		uint8_t r = (uint8_t)(r100 / 5);
		out[n++] = rate_is_basic(ap->conf.band, r) ? (uint8_t)(r | WLAN_RATE_BASIC) : r;
	}
	return n;
}

/* Country element triplets: runs of usable channels at equal power. */
static size_t country_triplets(const struct ap *ap, uint8_t *out, size_t max)
{
	const struct driver_band_info *b = ap_band_info(ap);
	unsigned step = ap->conf.band == DRIVER_BAND_2GHZ ? 1 : 4;
	size_t n = 0;
	for (size_t i = 0; i < b->n_channels && n < max; i++) {
		const struct driver_channel *c = &b->channels[i];
		if (c->flags & DRIVER_CHAN_DISABLED || c->number > 255)
			continue;
		uint8_t *t = out + 3 * (n ? n - 1 : 0);
		if (n && t[0] + t[1] * step == c->number && (int8_t)t[2] == c->max_power_dbm) {
			t[1]++;
			continue;
		}
		t = out + 3 * n++;
		t[0] = (uint8_t)c->number;
		t[1] = 1;
		t[2] = (uint8_t)c->max_power_dbm;
	}
	return n;
}

static void put_country(const struct ap *ap, struct wbuf *w)
{
	uint8_t triplets[3 * MAX_TRIPLETS];
	if (!ap->country[0] || strcmp(ap->country, "00") == 0)
		return; /* the world domain has no country element */
	size_t n = country_triplets(ap, triplets, MAX_TRIPLETS);
	if (!n)
		return;
	uint8_t cs[3] = { (uint8_t)ap->country[0], (uint8_t)ap->country[1], ' ' };
	ie_build_country(w, cs, triplets, n);
}

static void put_ht(const struct ap *ap, struct wbuf *w)
{
	const struct driver_band_info *b = ap_band_info(ap);
	struct ie_ht_cap cap = { .cap_info = b->ht_capab };
	memcpy(cap.mcs_set, b->ht_mcs_rx, sizeof(b->ht_mcs_rx));
	ie_build_ht_cap(w, &cap);
	/* The secondary channel of the operating channel (ap_chan.c); no
	 * protection mode needed yet. */
	const struct ap_chandef *cd = &ap->conf.chandef;
	struct ie_ht_op op = { .primary_channel = ap->conf.channel,
			       .sec_chan_offset = cd->sec_offset > 0   ? HT_OP_SEC_CHAN_ABOVE
						  : cd->sec_offset < 0 ? HT_OP_SEC_CHAN_BELOW
								       : HT_OP_SEC_CHAN_NONE,
			       .sta_chan_width_any = cd->width_mhz >= 40 };
	ie_build_ht_op(w, &op);
}

/* Basic MCS maps: MCS 0-7 on one spatial stream, the rest "not
 * supported" (2 bits per stream, 3 = none), as every VHT/HE station can. */
#define BASIC_MCS_MAP_1SS 0xfffc

static void put_vht(const struct ap *ap, struct wbuf *w)
{
	const struct driver_band_info *b = ap_band_info(ap);
	struct ie_vht_cap cap = {
		.cap_info = b->vht_capab,
		.rx_mcs_map = (uint16_t)(b->vht_mcs[0] | b->vht_mcs[1] << 8),
		.rx_highest = (uint16_t)(b->vht_mcs[2] | b->vht_mcs[3] << 8),
		.tx_mcs_map = (uint16_t)(b->vht_mcs[4] | b->vht_mcs[5] << 8),
		.tx_highest = (uint16_t)(b->vht_mcs[6] | b->vht_mcs[7] << 8),
	};
	ie_build_vht_cap(w, &cap);
	struct ie_vht_op op = { .basic_mcs_map = BASIC_MCS_MAP_1SS };
	ap_chan_vht_op(&ap->conf.chandef, &op.chan_width, &op.center_seg0, &op.center_seg1);
	ie_build_vht_op(w, &op);
}

/* HE Capabilities as the radio reports them; HE Operation with a BSS
 * colour from our address (neighbours of one vendor then differ), RTS by
 * TXOP duration off. */
static void put_he(const struct ap *ap, struct wbuf *w)
{
	const struct driver_band_info *b = ap_band_info(ap);
	struct ie_he_cap cap = {
		.mac_cap = b->he_mac_cap,
		.phy_cap = b->he_phy_cap,
		.mcs_nss = b->he_mcs,
		.mcs_nss_len = (uint8_t)ie_he_mcs_nss_len(b->he_phy_cap),
		.ppe = b->he_ppe_len ? b->he_ppe : NULL,
		.ppe_len = b->he_ppe_len,
	};
	if (ie_build_he_cap(w, &cap) < 0)
		return; /* inconsistent radio data: no HE rather than a bad element */
	struct ie_he_op op = {
		.params = HE_OP_TXOP_RTS_DISABLED,
		.bss_color_info = (uint8_t)(1 + ap->addr[5] % HE_OP_BSS_COLOR_MASK),
		.basic_mcs_nss = BASIC_MCS_MAP_1SS,
	};
	ie_build_he_op(w, &op);
}

static bool use_vht(const struct ap *ap)
{
	return ap->conf.band == DRIVER_BAND_5GHZ && ap_band_info(ap)->ht && ap_band_info(ap)->vht;
}

static bool use_he(const struct ap *ap)
{
	return ap_band_info(ap)->ht && ap_band_info(ap)->he;
}

static void put_ext_capab(const struct ap *ap, struct wbuf *w)
{
	uint8_t bits[EXT_CAPAB_OCTETS] = { 0 };
	if (utf8_valid(ap->conf.ssid, ap->conf.ssid_len, NULL))
		bits[EXT_CAPAB_UTF8_SSID / 8] |= 1u << (EXT_CAPAB_UTF8_SSID % 8);
	ie_build_ext_capab(w, bits, sizeof(bits));
}

/* The WMM Parameter element with the default EDCA parameters of an AP
 * (WMM specification table 14; the same as 802.11 dot11EDCATable's AP
 * column): ECW values are exponents, CW = 2^ECW - 1; TXOP in 32 us. */
static void put_wmm_param(struct wbuf *w)
{
	struct ie_wmm wmm = {
		.subtype = WMM_SUBTYPE_PARAM,
		.version = WMM_VERSION,
		.qos_info = 0,
		.ac = {
			{ .aci = WMM_AC_BE, .aifsn = 3, .ecw_min = 4, .ecw_max = 6 },
			{ .aci = WMM_AC_BK, .aifsn = 7, .ecw_min = 4, .ecw_max = 10 },
			{ .aci = WMM_AC_VI, .aifsn = 2, .ecw_min = 3, .ecw_max = 4,
			  .txop_limit = 94 },
			{ .aci = WMM_AC_VO, .aifsn = 2, .ecw_min = 2, .ecw_max = 3,
			  .txop_limit = 47 },
		},
	};
	ie_build_wmm(w, &wmm);
}

struct rsn_policy ap_rsn_policy(const struct ap *ap)
{
	struct rsn_policy p = ap->conf.policy;
	if (ap->conf.akm_psk_sha256)
		p.akms |= RSN_SUITE_BIT(RSN_AKM_PSK) | RSN_SUITE_BIT(RSN_AKM_PSK_SHA256);
	return p;
}

int ap_build_rsne(struct ap *ap)
{
	struct ie_rsn rsn;
	struct wbuf w = wbuf_init(ap->rsne, sizeof(ap->rsne));
	const char *why = NULL;
	ap->rsne_len = 0;
	ap->offer = (struct rsn_offer){ 0 };
	if (!ap->conf.rsn)
		return 0;
	struct rsn_policy policy = ap_rsn_policy(ap);
	if (rsn_offer(&policy, ap->capa.ciphers, &ap->offer, &why) < 0) {
		log_error("the security policy cannot be met: %s", why);
		return -EOPNOTSUPP;
	}
	rsn_offer_to_ie(&ap->offer, &rsn);
	int r = ie_build_rsn(&w, &rsn);
	if (r < 0 || w.bad)
		return -EINVAL;
	ap->rsne_len = w.len;
	return 0;
}

/* The OWE Transition Mode element naming the other BSS of the pair, with
 * its channel (ours: the pair shares the radio's channel or names it). */
static void put_owe_trans(const struct ap *ap, struct wbuf *w)
{
	if (!ap->conf.owe_trans_ssid_len)
		return;
	struct ie_owe_trans t = { .ssid_len = (uint8_t)ap->conf.owe_trans_ssid_len };
	memcpy(t.bssid, ap->conf.owe_trans_bssid, 6);
	memcpy(t.ssid, ap->conf.owe_trans_ssid, t.ssid_len);
	ie_build_owe_trans(w, &t);
}

/* Everything after the DS Parameter Set, shared by beacon tail and probe
 * response. */
static void put_tail(const struct ap *ap, struct wbuf *w, const uint8_t *rates, size_t n_rates)
{
	put_country(ap, w);
	if (ap->csa.in_beacon) { /* Table 9-32: after Country, before ERP */
		struct ie_csa csa = { .mode = ap->csa.mode, .new_channel = ap_freq_to_channel(ap->csa.freq_mhz),
				      .count = ap->csa.count };
		ie_build_csa(w, &csa);
	}
	if (ap->conf.band == DRIVER_BAND_2GHZ)
		ie_build(w, WLAN_EID_ERP_INFO, "\0", 1);
	if (n_rates > IE_SUPP_RATES_MAX)
		ie_build_ext_rates(w, rates, n_rates);
	if (ap->rsne_len)
		wbuf_put(w, ap->rsne, ap->rsne_len);
	if (ap->rsnxe_len)
		wbuf_put(w, ap->rsnxe, ap->rsnxe_len);
	if (ap_band_info(ap)->ht)
		put_ht(ap, w);
	put_ext_capab(ap, w);
	if (use_vht(ap))
		put_vht(ap, w);
	if (ap->csa.in_beacon && use_vht(ap) && ap->csa.chandef.width_mhz >= 80) {
		/* Table 9-32: after VHT Operation; the new width, so that
		 * stations follow at 80/160 MHz rather than 20. */
		struct ie_wide_bw_cs wb;
		ap_chan_vht_op(&ap->csa.chandef, &wb.width, &wb.seg0, &wb.seg1);
		ie_build_csw_wrapper(w, &wb);
	}
	if (use_he(ap))
		put_he(ap, w);
	put_wmm_param(w);
	put_owe_trans(ap, w);
}

/* Header, fixed fields, SSID, Supported Rates, DS Parameter Set. */
static int put_head(const struct ap *ap, struct wbuf *w, uint8_t subtype, const uint8_t *da,
		    bool show_ssid, const uint8_t *rates, size_t n_rates)
{
	struct mgmt_frame f;
	mgmt_init(&f, subtype, da, ap->addr, ap->addr);
	f.u.beacon.beacon_int = ap->conf.beacon_int;
	f.u.beacon.capab = ap_capability(ap);
	int r = mgmt_build(w, &f);
	if (r < 0)
		return r;
	ie_build_ssid(w, ap->conf.ssid, show_ssid ? ap->conf.ssid_len : 0);
	ie_build_supp_rates(w, rates, n_rates);
	ie_build_ds(w, ap->conf.channel);
	return w->bad ? -ENOSPC : 0;
}

/* The rates of Beacons and Probe Responses, with the SAE H2E-only BSS
 * membership selector (9.4.2.3) when the BSS takes only H2E commits: a
 * station that cannot do H2E then knows before it tries. */
static size_t advertised_rates(const struct ap *ap, uint8_t *rates, size_t max)
{
	size_t n = ap_rates(ap, rates, max - 1);
	if (ap->conf.rsn && ap->conf.sae && ap->conf.sae_pwe == SAE_PWE_H2E)
		rates[n++] = WLAN_RATE_BASIC | WLAN_BSS_MEMBERSHIP_SAE_H2E_ONLY;
	return n;
}

int ap_build_beacon(struct ap *ap, uint8_t *head, size_t head_cap, size_t *head_len,
		    uint8_t *tail, size_t tail_cap, size_t *tail_len)
{
	uint8_t rates[DRIVER_MAX_RATES];
	size_t n_rates = advertised_rates(ap, rates, DRIVER_MAX_RATES);
	struct wbuf h = wbuf_init(head, head_cap);
	struct wbuf t = wbuf_init(tail, tail_cap);

	if (!n_rates)
		return -EINVAL;
	int r = put_head(ap, &h, IEEE80211_STYPE_BEACON, broadcast, !ap->conf.hidden, rates,
			 n_rates);
	if (r < 0)
		return r;
	put_tail(ap, &t, rates, n_rates);
	if (t.bad)
		return -ENOSPC;
	*head_len = h.len;
	*tail_len = t.len;
	return 0;
}

int ap_build_probe_resp(struct ap *ap, const uint8_t da[6], uint8_t *out, size_t cap,
			size_t *len)
{
	uint8_t rates[DRIVER_MAX_RATES];
	size_t n_rates = advertised_rates(ap, rates, DRIVER_MAX_RATES);
	struct wbuf w = wbuf_init(out, cap);

	int r = put_head(ap, &w, IEEE80211_STYPE_PROBE_RESP, da, true, rates, n_rates);
	if (r < 0)
		return r;
	put_tail(ap, &w, rates, n_rates);
	if (w.bad)
		return -ENOSPC;
	*len = w.len;
	return 0;
}

int ap_build_assoc_resp_ies(struct ap *ap, bool wmm, bool ht, uint8_t *out, size_t cap,
			    size_t *len)
{
	uint8_t rates[DRIVER_MAX_RATES];
	size_t n_rates = ap_rates(ap, rates, DRIVER_MAX_RATES);
	struct wbuf w = wbuf_init(out, cap);

	ie_build_supp_rates(&w, rates, n_rates);
	if (n_rates > IE_SUPP_RATES_MAX)
		ie_build_ext_rates(&w, rates, n_rates);
	if (ht && ap_band_info(ap)->ht)
		put_ht(ap, &w);
	put_ext_capab(ap, &w);
	if (ht && use_vht(ap))
		put_vht(ap, &w);
	if (ht && use_he(ap))
		put_he(ap, &w);
	if (wmm)
		put_wmm_param(&w);
	if (w.bad)
		return -ENOSPC;
	*len = w.len;
	return 0;
}

/* Re-encodes a decoded element and points at its body (after the header,
 * and after the extension ID for an extension element). */
static const uint8_t *rebuilt_body(struct wbuf *w, size_t start, size_t hdr, size_t *len)
{
	if (w->bad || w->len < start + hdr)
		return NULL;
	*len = w->len - start - hdr;
	return w->data + start + hdr;
}

void ap_sta_phy_caps(const struct ap *ap, const struct ie_set *ies, struct driver_sta_params *p,
		     uint8_t *buf, size_t cap)
{
	struct wbuf w = wbuf_init(buf, cap);
	size_t start, len;
	if (!ies->has_ht_cap || !ap_band_info(ap)->ht)
		return;
	start = w.len;
	ie_build_ht_cap(&w, &ies->ht_cap);
	p->ht_cap = rebuilt_body(&w, start, 2, &len);
	if (ies->has_vht_cap && use_vht(ap)) {
		start = w.len;
		ie_build_vht_cap(&w, &ies->vht_cap);
		p->vht_cap = rebuilt_body(&w, start, 2, &len);
	}
	if (ies->has_he_cap && use_he(ap)) {
		start = w.len;
		ie_build_he_cap(&w, &ies->he_cap);
		p->he_cap = rebuilt_body(&w, start, 3, &p->he_cap_len);
	}
}
