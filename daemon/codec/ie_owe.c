/* OWE Diffie-Hellman Parameter and OWE Transition Mode elements; see
 * ie_owe.h. */
#include "daemon/codec/ie_owe.h"

#include "daemon/codec/codec_err.h"
#include "daemon/codec/codec_wbuf.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ieee80211.h"

#include <string.h>

#define TRANS_FIXED 7 /* BSSID + SSID Length */

int ie_parse_owe_dh(const uint8_t *body, size_t len, struct ie_owe_dh *out)
{
	if (len < 2 + IE_OWE_DH_MIN_KEY)
		return len < 2 ? CODEC_E_TRUNCATED : CODEC_E_BAD_LENGTH;
	if (len > 2 + IE_OWE_DH_MAX_KEY)
		return CODEC_E_BAD_LENGTH;
	out->group = get_le16(body);
	out->key = body + 2;
	out->key_len = len - 2;
	return CODEC_OK;
}

int ie_build_owe_dh(struct wbuf *w, const struct ie_owe_dh *dh)
{
	if (!dh->key || dh->key_len < IE_OWE_DH_MIN_KEY || dh->key_len > IE_OWE_DH_MAX_KEY)
		return CODEC_E_INVALID_ARG;
	size_t start = ie_begin(w, WLAN_EID_EXTENSION);
	wbuf_u8(w, WLAN_EID_EXT_OWE_DH_PARAM);
	wbuf_le16(w, dh->group);
	wbuf_put(w, dh->key, dh->key_len);
	return ie_end(w, start);
}

int ie_find_owe_dh(const uint8_t *ies, size_t len, struct ie_owe_dh *out)
{
	struct ie_elem e;
	if (!ie_find_ext(ies, len, WLAN_EID_EXT_OWE_DH_PARAM, &e))
		return CODEC_E_UNSUPPORTED;
	return ie_parse_owe_dh(e.data + 1, e.len - 1u, out);
}

int ie_parse_owe_trans(const uint8_t *body, size_t len, struct ie_owe_trans *out)
{
	if (len < TRANS_FIXED)
		return CODEC_E_TRUNCATED;
	memset(out, 0, sizeof(*out));
	memcpy(out->bssid, body, 6);
	size_t ssid_len = body[6];
	if (ssid_len > IE_OWE_TRANS_SSID_MAX)
		return CODEC_E_BAD_LENGTH;
	if (len < TRANS_FIXED + ssid_len)
		return CODEC_E_OVERRUN;
	memcpy(out->ssid, body + TRANS_FIXED, ssid_len);
	out->ssid_len = (uint8_t)ssid_len;
	size_t rest = len - TRANS_FIXED - ssid_len;
	if (rest == 0)
		return CODEC_OK;
	if (rest != 2)
		return CODEC_E_BAD_LENGTH; /* band and channel come as a pair */
	out->has_channel = true;
	out->op_class = body[TRANS_FIXED + ssid_len];
	out->channel = body[TRANS_FIXED + ssid_len + 1];
	return CODEC_OK;
}

int ie_build_owe_trans(struct wbuf *w, const struct ie_owe_trans *t)
{
	if (t->ssid_len > IE_OWE_TRANS_SSID_MAX)
		return CODEC_E_INVALID_ARG;
	size_t start = ie_begin(w, WLAN_EID_VENDOR_SPECIFIC);
	wbuf_u8(w, (uint8_t)(OUI_WFA >> 16));
	wbuf_be16(w, (uint16_t)OUI_WFA);
	wbuf_u8(w, WFA_TYPE_OWE_TRANSITION);
	wbuf_put(w, t->bssid, 6);
	wbuf_u8(w, t->ssid_len);
	wbuf_put(w, t->ssid, t->ssid_len);
	if (t->has_channel) {
		wbuf_u8(w, t->op_class);
		wbuf_u8(w, t->channel);
	}
	return ie_end(w, start);
}

int ie_find_owe_trans(const uint8_t *ies, size_t len, struct ie_owe_trans *out)
{
	struct ie_elem e;
	if (!ie_find_vendor(ies, len, OUI_WFA, WFA_TYPE_OWE_TRANSITION, &e))
		return CODEC_E_UNSUPPORTED;
	return ie_parse_owe_trans(e.data + 4, e.len - 4u, out);
}
