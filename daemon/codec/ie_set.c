/* Aggregate element-list parser; see ie_set.h for the policy. */
#include "daemon/codec/ie_set.h"

#include "daemon/codec/codec_err.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ieee80211.h"

/* The smallest FTE: MIC Control, a 16-octet MIC and both nonces. */
#define FTE_MIN_LEN (2 + 16 + 2 * FT_NONCE_LEN)
#define VENDOR_OUI_LEN 3
#define WMM_SUBTYPE_OFFSET 4

/* Marks a singleton element as seen, failing on the second one. */
#define TAKE_ONCE(flag)                          \
	do {                                     \
		if (flag)                        \
			return CODEC_E_DUPLICATE; \
		(flag) = true;                   \
	} while (0)

static int parse_vendor(const struct ie_elem *e, struct ie_set *s)
{
	s->n_vendor++;
	if (e->len < VENDOR_OUI_LEN)
		return CODEC_E_BAD_LENGTH;
	if (ie_vendor_is(e, OUI_MICROSOFT, VENDOR_TYPE_WPA)) {
		TAKE_ONCE(s->has_wpa);
		s->wpa_elem = e->start;
		s->wpa_elem_len = IE_HDR_LEN + (size_t)e->len;
		return ie_parse_wpa(e->data, e->len, &s->wpa);
	}
	if (ie_vendor_is(e, OUI_MICROSOFT, VENDOR_TYPE_WMM)) {
		if (e->len <= WMM_SUBTYPE_OFFSET)
			return CODEC_E_BAD_LENGTH;
		uint8_t subtype = e->data[WMM_SUBTYPE_OFFSET];
		if (subtype != WMM_SUBTYPE_INFO && subtype != WMM_SUBTYPE_PARAM)
			return CODEC_OK; /* TSPEC and friends: not ours */
		TAKE_ONCE(s->has_wmm);
		return ie_parse_wmm(e->data, e->len, &s->wmm);
	}
	return CODEC_OK;
}

static int parse_extension(const struct ie_elem *e, struct ie_set *s)
{
	switch (e->ext_id) {
	case WLAN_EID_EXT_HE_CAP:
		TAKE_ONCE(s->has_he_cap);
		return ie_parse_he_cap(e->data + 1, e->len - 1u, &s->he_cap);
	case WLAN_EID_EXT_HE_OPERATION:
		TAKE_ONCE(s->has_he_op);
		return ie_parse_he_op(e->data + 1, e->len - 1u, &s->he_op);
	default:
		return CODEC_OK;
	}
}

static int parse_security(const struct ie_elem *e, struct ie_set *s)
{
	switch (e->id) {
	case WLAN_EID_RSN:
		TAKE_ONCE(s->has_rsn);
		s->rsn_elem = e->start;
		s->rsn_elem_len = IE_HDR_LEN + (size_t)e->len;
		return ie_parse_rsn(e->data, e->len, &s->rsn);
	case WLAN_EID_RSNX:
		TAKE_ONCE(s->has_rsnxe);
		s->rsnxe_elem = e->start;
		s->rsnxe_elem_len = IE_HDR_LEN + (size_t)e->len;
		return ie_parse_rsnxe(e->data, e->len, &s->rsnxe);
	case WLAN_EID_MOBILITY_DOMAIN:
		TAKE_ONCE(s->has_mde);
		return ie_parse_mde(e->data, e->len, &s->mde);
	case WLAN_EID_FAST_BSS_TRANSITION:
		if (s->fte)
			return CODEC_E_DUPLICATE;
		s->fte = e->data;
		s->fte_len = e->len;
		return e->len < FTE_MIN_LEN ? CODEC_E_BAD_LENGTH : CODEC_OK;
	default:
		return CODEC_OK;
	}
}

static int parse_phy(const struct ie_elem *e, struct ie_set *s)
{
	switch (e->id) {
	case WLAN_EID_CHANNEL_SWITCH:
		TAKE_ONCE(s->has_csa);
		return ie_parse_csa(e->data, e->len, &s->csa);
	case WLAN_EID_EXT_CHANNEL_SWITCH:
		TAKE_ONCE(s->has_ecsa);
		return ie_parse_ecsa(e->data, e->len, &s->ecsa);
	case WLAN_EID_CHANNEL_SWITCH_WRAPPER:
		TAKE_ONCE(s->has_csw);
		return ie_parse_csw_wrapper(e->data, e->len, &s->wide_bw_cs, &s->has_wide_bw_cs);
	case WLAN_EID_HT_CAP:
		TAKE_ONCE(s->has_ht_cap);
		return ie_parse_ht_cap(e->data, e->len, &s->ht_cap);
	case WLAN_EID_HT_OPERATION:
		TAKE_ONCE(s->has_ht_op);
		return ie_parse_ht_op(e->data, e->len, &s->ht_op);
	case WLAN_EID_VHT_CAP:
		TAKE_ONCE(s->has_vht_cap);
		return ie_parse_vht_cap(e->data, e->len, &s->vht_cap);
	case WLAN_EID_VHT_OPERATION:
		TAKE_ONCE(s->has_vht_op);
		return ie_parse_vht_op(e->data, e->len, &s->vht_op);
	default:
		return parse_security(e, s);
	}
}

static int parse_elem(const struct ie_elem *e, struct ie_set *s)
{
	switch (e->id) {
	case WLAN_EID_SSID:
		TAKE_ONCE(s->has_ssid);
		return ie_parse_ssid(e->data, e->len, &s->ssid);
	case WLAN_EID_SUPP_RATES:
		TAKE_ONCE(s->has_supp_rates);
		return ie_parse_supp_rates(e->data, e->len, &s->supp_rates);
	case WLAN_EID_EXT_SUPP_RATES:
		TAKE_ONCE(s->has_ext_rates);
		return ie_parse_ext_rates(e->data, e->len, &s->ext_rates);
	case WLAN_EID_DS_PARAMS:
		TAKE_ONCE(s->has_ds);
		return ie_parse_ds(e->data, e->len, &s->ds_channel);
	case WLAN_EID_TIM:
		TAKE_ONCE(s->has_tim);
		return ie_parse_tim(e->data, e->len, &s->tim);
	case WLAN_EID_COUNTRY:
		TAKE_ONCE(s->has_country);
		return ie_parse_country(e->data, e->len, &s->country);
	case WLAN_EID_EXT_CAPAB:
		TAKE_ONCE(s->has_ext_capab);
		return ie_parse_ext_capab(e->data, e->len, &s->ext_capab);
	case WLAN_EID_VENDOR_SPECIFIC:
		return parse_vendor(e, s);
	case WLAN_EID_EXTENSION:
		return parse_extension(e, s);
	default:
		return parse_phy(e, s);
	}
}

int ie_parse(const uint8_t *buf, size_t len, struct ie_set *set)
{
	struct ie_iter it;
	struct ie_elem e;

	*set = (struct ie_set){ 0 };
	ie_iter_init(&it, buf, len);
	while (ie_iter_next(&it, &e)) {
		set->n_elems++;
		int err = parse_elem(&e, set);
		if (err) {
			set->bad_id = e.id;
			set->bad_ext_id = e.ext_id;
			return err;
		}
	}
	return it.err;
}
