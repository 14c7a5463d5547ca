/* Channel Switch Announcement elements. See ie_csa.h. */
#include "daemon/codec/ie_csa.h"

#include "daemon/codec/codec_err.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ieee80211.h"

static int check(const struct ie_csa *c)
{
	return c->mode > 1 || c->new_channel == 0 ? CODEC_E_MALFORMED : CODEC_OK;
}

int ie_parse_csa(const uint8_t *body, size_t len, struct ie_csa *out)
{
	if (len != IE_CSA_LEN)
		return CODEC_E_BAD_LENGTH;
	*out = (struct ie_csa){ .mode = body[0], .new_channel = body[1], .count = body[2] };
	return check(out);
}

int ie_build_csa(struct wbuf *w, const struct ie_csa *csa)
{
	if (check(csa) != CODEC_OK)
		return CODEC_E_INVALID_ARG;
	size_t start = ie_begin(w, WLAN_EID_CHANNEL_SWITCH);
	wbuf_u8(w, csa->mode);
	wbuf_u8(w, csa->new_channel);
	wbuf_u8(w, csa->count);
	return ie_end(w, start);
}

int ie_parse_csw_wrapper(const uint8_t *body, size_t len, struct ie_wide_bw_cs *out, bool *found)
{
	struct ie_elem e;
	*found = false;
	if (!ie_find(body, len, WLAN_EID_WIDE_BW_CHANNEL_SWITCH, &e))
		return CODEC_OK; /* other subelements only (country, power) */
	if (e.len != 3)
		return CODEC_E_BAD_LENGTH;
	*out = (struct ie_wide_bw_cs){ .width = e.data[0], .seg0 = e.data[1], .seg1 = e.data[2] };
	if (out->width > 3)
		return CODEC_E_MALFORMED;
	*found = true;
	return CODEC_OK;
}

int ie_build_csw_wrapper(struct wbuf *w, const struct ie_wide_bw_cs *wb)
{
	if (wb->width > 3)
		return CODEC_E_INVALID_ARG;
	size_t start = ie_begin(w, WLAN_EID_CHANNEL_SWITCH_WRAPPER);
	size_t sub = ie_begin(w, WLAN_EID_WIDE_BW_CHANNEL_SWITCH);
	wbuf_u8(w, wb->width);
	wbuf_u8(w, wb->seg0);
	wbuf_u8(w, wb->seg1);
	int r = ie_end(w, sub);
	return r < 0 ? r : ie_end(w, start);
}

int ie_parse_ecsa(const uint8_t *body, size_t len, struct ie_csa *out)
{
	if (len != IE_ECSA_LEN)
		return CODEC_E_BAD_LENGTH;
	*out = (struct ie_csa){ .mode = body[0], .op_class = body[1], .new_channel = body[2],
				.count = body[3] };
	return check(out);
}

int ie_build_ecsa(struct wbuf *w, const struct ie_csa *csa)
{
	if (check(csa) != CODEC_OK)
		return CODEC_E_INVALID_ARG;
	size_t start = ie_begin(w, WLAN_EID_EXT_CHANNEL_SWITCH);
	wbuf_u8(w, csa->mode);
	wbuf_u8(w, csa->op_class);
	wbuf_u8(w, csa->new_channel);
	wbuf_u8(w, csa->count);
	return ie_end(w, start);
}
