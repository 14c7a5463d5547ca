/* MMIE, SA Query and Timeout Interval codecs, and the robust-frame rule. */
#include "daemon/codec/pmf.h"

#include "daemon/codec/codec_wbuf.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ieee80211.h"

#define MMIE_KEY_ID_MAX 7
#define IPN_MAX ((UINT64_C(1) << 48) - 1)
#define TIMEOUT_INTERVAL_LEN 5

/* Categories Table 9-51 marks "No" in its Robust column: Public, HT,
 * Unprotected WNM, TDLS, Self-protected, DMG, Unprotected DMG, VHT,
 * Unprotected S1G, FILS, HE, Vendor-specific. Reserved values (not listed
 * here) count as robust: a receiver drops an unprotected one, as the
 * standard asks of any frame it cannot classify as not robust. */
bool action_category_is_robust(uint8_t category)
{
	switch (category) {
	case WLAN_ACTION_PUBLIC:
	case WLAN_ACTION_HT:
	case WLAN_ACTION_UNPROTECTED_WNM:
	case WLAN_ACTION_TDLS:
	case WLAN_ACTION_SELF_PROTECTED:
	case 16: /* DMG */
	case 20: /* Unprotected DMG */
	case 21: /* VHT */
	case 22: /* Unprotected S1G */
	case WLAN_ACTION_FILS:
	case 30: /* HE */
	case WLAN_ACTION_VENDOR:
		return false;
	default:
		return true;
	}
}

bool mgmt_is_robust(uint8_t subtype, const uint8_t *body, size_t body_len)
{
	switch (subtype) {
	case IEEE80211_STYPE_DEAUTH:
	case IEEE80211_STYPE_DISASSOC:
		return true;
	case IEEE80211_STYPE_ACTION:
	case IEEE80211_STYPE_ACTION_NO_ACK:
		return body && body_len >= 1 && action_category_is_robust(body[0]);
	default:
		return false;
	}
}

static uint64_t get_le48(const uint8_t *p)
{
	uint64_t v = 0;

	for (size_t i = 0; i < MMIE_IPN_LEN; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

int mmie_parse(const uint8_t *body, size_t len, struct mmie *out)
{
	if (!body || !out)
		return CODEC_E_INVALID_ARG;
	if (len != MMIE_BODY_LEN_8 && len != MMIE_BODY_LEN_16)
		return CODEC_E_BAD_LENGTH;
	out->key_id = get_le16(body);
	if (out->key_id > MMIE_KEY_ID_MAX)
		return CODEC_E_MALFORMED;
	out->ipn = get_le48(body + 2);
	out->mic = body + 2 + MMIE_IPN_LEN;
	out->mic_len = len - 2 - MMIE_IPN_LEN;
	return CODEC_OK;
}

int mmie_parse_trailer(const uint8_t *frame_body, size_t len, size_t mic_len, struct mmie *out)
{
	if (mic_len != 8 && mic_len != 16)
		return CODEC_E_INVALID_ARG;
	size_t total = MMIE_TOTAL_LEN(mic_len);
	if (!frame_body || len < total)
		return CODEC_E_TRUNCATED;
	const uint8_t *e = frame_body + len - total;
	if (e[0] != WLAN_EID_MMIE || e[1] != total - 2)
		return CODEC_E_MALFORMED;
	return mmie_parse(e + 2, total - 2, out);
}

int mmie_build(struct wbuf *w, uint16_t key_id, uint64_t ipn, size_t mic_len)
{
	if ((mic_len != 8 && mic_len != 16) || key_id > MMIE_KEY_ID_MAX || ipn > IPN_MAX)
		return CODEC_E_INVALID_ARG;
	wbuf_u8(w, WLAN_EID_MMIE);
	wbuf_u8(w, (uint8_t)(MMIE_TOTAL_LEN(mic_len) - 2));
	wbuf_le16(w, key_id);
	for (size_t i = 0; i < MMIE_IPN_LEN; i++)
		wbuf_u8(w, (uint8_t)(ipn >> (8 * i)));
	codec_put_or_zero(w, NULL, mic_len);
	return codec_wbuf_result(w);
}

int sa_query_parse(const uint8_t *action, size_t len, struct sa_query_frame *out)
{
	if (!out)
		return CODEC_E_INVALID_ARG;
	if (!action || len < 1)
		return CODEC_E_TRUNCATED;
	if (action[0] != WLAN_ACTION_SA_QUERY)
		return CODEC_E_UNSUPPORTED;
	if (len < 2 + SA_QUERY_TRANS_ID_LEN)
		return CODEC_E_TRUNCATED;
	if (action[1] != SA_QUERY_ACTION_REQUEST && action[1] != SA_QUERY_ACTION_RESPONSE)
		return CODEC_E_MALFORMED;
	out->action = action[1];
	memcpy(out->trans_id, action + 2, SA_QUERY_TRANS_ID_LEN);
	out->ies_len = len - 2 - SA_QUERY_TRANS_ID_LEN;
	out->ies = out->ies_len ? action + 2 + SA_QUERY_TRANS_ID_LEN : NULL;
	return out->ies ? ie_validate(out->ies, out->ies_len) : CODEC_OK;
}

int sa_query_build(struct wbuf *w, enum sa_query_action action,
		   const uint8_t trans_id[SA_QUERY_TRANS_ID_LEN])
{
	if ((action != SA_QUERY_ACTION_REQUEST && action != SA_QUERY_ACTION_RESPONSE) || !trans_id)
		return CODEC_E_INVALID_ARG;
	wbuf_u8(w, WLAN_ACTION_SA_QUERY);
	wbuf_u8(w, (uint8_t)action);
	wbuf_put(w, trans_id, SA_QUERY_TRANS_ID_LEN);
	return codec_wbuf_result(w);
}

int ie_parse_timeout_interval(const uint8_t *body, size_t len, struct ie_timeout_interval *out)
{
	if (!out)
		return CODEC_E_INVALID_ARG;
	if (!body || len != TIMEOUT_INTERVAL_LEN)
		return CODEC_E_BAD_LENGTH;
	if (body[0] < TIMEOUT_REASSOC_DEADLINE || body[0] > TIMEOUT_ASSOC_COMEBACK)
		return CODEC_E_MALFORMED;
	out->type = body[0];
	out->value = (uint32_t)get_le16(body + 1) | (uint32_t)get_le16(body + 3) << 16;
	return CODEC_OK;
}

int ie_build_timeout_interval(struct wbuf *w, enum timeout_interval_type type, uint32_t value)
{
	if (type < TIMEOUT_REASSOC_DEADLINE || type > TIMEOUT_ASSOC_COMEBACK)
		return CODEC_E_INVALID_ARG;
	wbuf_u8(w, WLAN_EID_TIMEOUT_INTERVAL);
	wbuf_u8(w, TIMEOUT_INTERVAL_LEN);
	wbuf_u8(w, (uint8_t)type);
	wbuf_le32(w, value);
	return codec_wbuf_result(w);
}
