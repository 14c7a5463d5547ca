/* WMM information and parameter elements. */
#include "daemon/codec/ie_wmm.h"

#include "daemon/codec/codec_err.h"
#include "daemon/codec/codec_wbuf.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ieee80211.h"

#define ACI_AIFSN_AIFSN 0x0f
#define ACI_AIFSN_ACM 0x10
#define ACI_AIFSN_ACI_SHIFT 5
#define ACI_AIFSN_ACI_MASK 0x60

static void read_ac(struct rbuf *r, struct ie_wmm_ac *ac)
{
	uint8_t aci_aifsn = rbuf_u8(r);
	uint8_t ecw = rbuf_u8(r);

	ac->aifsn = aci_aifsn & ACI_AIFSN_AIFSN;
	ac->acm = aci_aifsn & ACI_AIFSN_ACM;
	ac->aci = (aci_aifsn & ACI_AIFSN_ACI_MASK) >> ACI_AIFSN_ACI_SHIFT;
	ac->ecw_min = ecw & 0x0f;
	ac->ecw_max = ecw >> 4;
	ac->txop_limit = rbuf_le16(r);
}

static int read_params(struct rbuf *r, struct ie_wmm *out)
{
	unsigned seen = 0;

	(void)rbuf_u8(r); /* reserved */
	for (size_t i = 0; i < IE_WMM_NUM_AC; i++) {
		read_ac(r, &out->ac[i]);
		seen |= 1u << out->ac[i].aci;
	}
	if (r->bad)
		return CODEC_E_TRUNCATED;
	/* Each access category must be described exactly once. */
	return seen == 0x0f ? CODEC_OK : CODEC_E_MALFORMED;
}

int ie_parse_wmm(const uint8_t *body, size_t len, struct ie_wmm *out)
{
	struct rbuf r = rbuf_init(body, len);

	if (len < 5)
		return CODEC_E_BAD_LENGTH;
	if (rbuf_be32(&r) != SUITE_SELECTOR(OUI_MICROSOFT, VENDOR_TYPE_WMM))
		return CODEC_E_MALFORMED;
	*out = (struct ie_wmm){ 0 };
	out->subtype = rbuf_u8(&r);
	if (out->subtype != WMM_SUBTYPE_INFO && out->subtype != WMM_SUBTYPE_PARAM)
		return CODEC_E_UNSUPPORTED;
	if (len != (out->subtype == WMM_SUBTYPE_INFO ? IE_WMM_INFO_LEN : IE_WMM_PARAM_LEN))
		return CODEC_E_BAD_LENGTH;
	out->version = rbuf_u8(&r);
	out->qos_info = rbuf_u8(&r);
	if (out->version != WMM_VERSION)
		return CODEC_E_MALFORMED;
	if (out->subtype == WMM_SUBTYPE_PARAM)
		return read_params(&r, out);
	return CODEC_OK;
}

static int write_ac(struct wbuf *w, const struct ie_wmm_ac *ac)
{
	if (ac->aci > 3 || ac->aifsn > 15 || ac->ecw_min > 15 || ac->ecw_max > 15)
		return CODEC_E_INVALID_ARG;
	uint8_t aci_aifsn = (uint8_t)(ac->aifsn | ac->aci << ACI_AIFSN_ACI_SHIFT);
	if (ac->acm)
		aci_aifsn |= ACI_AIFSN_ACM;
	wbuf_u8(w, aci_aifsn);
	wbuf_u8(w, (uint8_t)(ac->ecw_min | ac->ecw_max << 4));
	wbuf_le16(w, ac->txop_limit);
	return CODEC_OK;
}

int ie_build_wmm(struct wbuf *w, const struct ie_wmm *wmm)
{
	int err;

	if (wmm->subtype != WMM_SUBTYPE_INFO && wmm->subtype != WMM_SUBTYPE_PARAM)
		return CODEC_E_INVALID_ARG;
	size_t start = ie_begin(w, WLAN_EID_VENDOR_SPECIFIC);
	wbuf_be32(w, SUITE_SELECTOR(OUI_MICROSOFT, VENDOR_TYPE_WMM));
	wbuf_u8(w, wmm->subtype);
	wbuf_u8(w, wmm->version);
	wbuf_u8(w, wmm->qos_info);
	if (wmm->subtype == WMM_SUBTYPE_PARAM) {
		unsigned seen = 0;
		wbuf_u8(w, 0); /* reserved */
		for (size_t i = 0; i < IE_WMM_NUM_AC; i++) {
			if ((err = write_ac(w, &wmm->ac[i])))
				return codec_fail(w, err);
			seen |= 1u << wmm->ac[i].aci;
		}
		if (seen != 0x0f)
			return codec_fail(w, CODEC_E_INVALID_ARG);
	}
	return ie_end(w, start);
}
