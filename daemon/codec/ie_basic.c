/* SSID, rates, DS, TIM, Country and Extended Capabilities elements. */
#include "daemon/codec/ie_basic.h"

#include "daemon/codec/codec_err.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ieee80211.h"

int ie_parse_ssid(const uint8_t *body, size_t len, struct ie_ssid *out)
{
	if (len > IE_SSID_MAX_LEN)
		return CODEC_E_BAD_LENGTH;
	out->ssid = body;
	out->len = (uint8_t)len;
	return CODEC_OK;
}

int ie_build_ssid(struct wbuf *w, const uint8_t *ssid, size_t len)
{
	if (len > IE_SSID_MAX_LEN)
		return CODEC_E_BAD_LENGTH;
	return ie_build(w, WLAN_EID_SSID, ssid, len);
}

int ie_parse_supp_rates(const uint8_t *body, size_t len, struct ie_rates *out)
{
	if (len < 1 || len > IE_SUPP_RATES_MAX)
		return CODEC_E_BAD_LENGTH;
	out->rates = body;
	out->n = (uint8_t)len;
	return CODEC_OK;
}

int ie_parse_ext_rates(const uint8_t *body, size_t len, struct ie_rates *out)
{
	if (len < 1 || len > IE_MAX_BODY)
		return CODEC_E_BAD_LENGTH;
	out->rates = body;
	out->n = (uint8_t)len;
	return CODEC_OK;
}

int ie_build_supp_rates(struct wbuf *w, const uint8_t *rates, size_t n)
{
	if (n < 1)
		return CODEC_E_BAD_LENGTH;
	return ie_build(w, WLAN_EID_SUPP_RATES, rates,
			n > IE_SUPP_RATES_MAX ? IE_SUPP_RATES_MAX : n);
}

int ie_build_ext_rates(struct wbuf *w, const uint8_t *rates, size_t n)
{
	if (n <= IE_SUPP_RATES_MAX)
		return CODEC_OK;
	return ie_build(w, WLAN_EID_EXT_SUPP_RATES, rates + IE_SUPP_RATES_MAX,
			n - IE_SUPP_RATES_MAX);
}

bool ie_rate_is_membership_selector(uint8_t rate)
{
	/* Selectors are allocated downwards from 127 and always carry the
	 * basic bit; no real rate uses those values. */
	return (rate & WLAN_RATE_BASIC) && (rate & WLAN_RATE_VALUE_MASK) >= 120;
}

int ie_parse_ds(const uint8_t *body, size_t len, uint8_t *channel)
{
	if (len != 1)
		return CODEC_E_BAD_LENGTH;
	*channel = body[0];
	return CODEC_OK;
}

int ie_build_ds(struct wbuf *w, uint8_t channel)
{
	return ie_build(w, WLAN_EID_DS_PARAMS, &channel, 1);
}

int ie_parse_tim(const uint8_t *body, size_t len, struct ie_tim *out)
{
	if (len < IE_TIM_MIN_LEN || len > 3 + IE_TIM_PVB_MAX)
		return CODEC_E_BAD_LENGTH;
	out->dtim_count = body[0];
	out->dtim_period = body[1];
	out->bitmap_ctrl = body[2];
	out->pvb = body + 3;
	out->pvb_len = (uint8_t)(len - 3);
	/* A DTIM period of 0 is reserved, and the count must be below it. */
	if (out->dtim_period == 0 || out->dtim_count >= out->dtim_period)
		return CODEC_E_MALFORMED;
	return CODEC_OK;
}

int ie_build_tim(struct wbuf *w, const struct ie_tim *tim)
{
	if (tim->pvb_len < 1 || tim->pvb_len > IE_TIM_PVB_MAX || !tim->pvb)
		return CODEC_E_INVALID_ARG;
	size_t start = ie_begin(w, WLAN_EID_TIM);
	wbuf_u8(w, tim->dtim_count);
	wbuf_u8(w, tim->dtim_period);
	wbuf_u8(w, tim->bitmap_ctrl);
	wbuf_put(w, tim->pvb, tim->pvb_len);
	return ie_end(w, start);
}

int ie_parse_country(const uint8_t *body, size_t len, struct ie_country *out)
{
	/* Country string plus at least one triplet, and a zero pad octet
	 * when needed to make the length even (the standard requires even),
	 * so the remainder after the string is 3n or 3n+1. */
	if (len < IE_COUNTRY_STRING_LEN + IE_COUNTRY_TRIPLET_LEN || len % 2)
		return CODEC_E_BAD_LENGTH;
	size_t rest = len - IE_COUNTRY_STRING_LEN;
	size_t extra = rest % IE_COUNTRY_TRIPLET_LEN;
	if (extra == 2)
		return CODEC_E_BAD_LENGTH;
	out->country = body;
	out->triplets = body + IE_COUNTRY_STRING_LEN;
	out->n_triplets = (uint8_t)(rest / IE_COUNTRY_TRIPLET_LEN);
	out->padded = extra == 1;
	if (out->padded && body[len - 1] != 0)
		return CODEC_E_MALFORMED;
	return CODEC_OK;
}

struct ie_country_triplet ie_country_get(const struct ie_country *c, size_t i)
{
	struct ie_country_triplet t = { 0 };

	if (i >= c->n_triplets)
		return t;
	const uint8_t *p = c->triplets + i * IE_COUNTRY_TRIPLET_LEN;
	t.is_op_ext = p[0] >= IE_COUNTRY_OP_EXT_MIN;
	t.first = p[0];
	t.second = p[1];
	t.third = p[2];
	return t;
}

int ie_build_country(struct wbuf *w, const uint8_t country[3], const uint8_t *triplets,
		     size_t n_triplets)
{
	if (n_triplets < 1 || !triplets || !country)
		return CODEC_E_INVALID_ARG;
	size_t body_len = IE_COUNTRY_STRING_LEN + n_triplets * IE_COUNTRY_TRIPLET_LEN;
	if (body_len + (body_len & 1) > IE_MAX_BODY)
		return CODEC_E_BAD_LENGTH;
	size_t start = ie_begin(w, WLAN_EID_COUNTRY);
	wbuf_put(w, country, IE_COUNTRY_STRING_LEN);
	wbuf_put(w, triplets, n_triplets * IE_COUNTRY_TRIPLET_LEN);
	if (body_len & 1)
		wbuf_u8(w, 0);
	return ie_end(w, start);
}

int ie_parse_ext_capab(const uint8_t *body, size_t len, struct ie_ext_capab *out)
{
	if (len < 1)
		return CODEC_E_BAD_LENGTH;
	out->bits = body;
	out->len = (uint8_t)len;
	return CODEC_OK;
}

bool ie_ext_capab_has(const struct ie_ext_capab *c, unsigned bit)
{
	/* Bits past the end of a shorter element read as zero. */
	if (!c->bits || bit / 8 >= c->len)
		return false;
	return c->bits[bit / 8] & (1u << (bit % 8));
}

int ie_build_ext_capab(struct wbuf *w, const uint8_t *bits, size_t len)
{
	if (len < 1)
		return CODEC_E_BAD_LENGTH;
	return ie_build(w, WLAN_EID_EXT_CAPAB, bits, len);
}
