/* Data frame header parse and build. */
#include "daemon/codec/frame.h"

#include "daemon/codec/codec_err.h"
#include "daemon/codec/codec_wbuf.h"
#include "daemon/codec/ieee80211.h"

#define MAC_LEN ETH_ALEN_80211
#define FC_DS_BITS (IEEE80211_FC_TODS | IEEE80211_FC_FROMDS)

static bool fc_is_qos(uint16_t fc)
{
	return IEEE80211_FC_GET_SUBTYPE(fc) & IEEE80211_STYPE_QOS_BIT;
}

/* +HTC only exists in QoS data frames; in other data frames the Order
 * bit means strictly-ordered service. */
static bool fc_has_htc(uint16_t fc)
{
	return fc_is_qos(fc) && (fc & IEEE80211_FC_ORDER);
}

size_t data_hdr_len(uint16_t fc)
{
	size_t n = IEEE80211_MGMT_HDR_LEN;
	if ((fc & FC_DS_BITS) == FC_DS_BITS)
		n += MAC_LEN;
	if (fc_is_qos(fc))
		n += IEEE80211_QOS_CTL_LEN;
	if (fc_has_htc(fc))
		n += IEEE80211_HTC_LEN;
	return n;
}

static void map_addresses(struct data_hdr *h)
{
	h->ra = h->addr1;
	h->ta = h->addr2;
	if (!h->to_ds && !h->from_ds) {
		h->da = h->addr1;
		h->sa = h->addr2;
		h->bssid = h->addr3;
	} else if (!h->to_ds && h->from_ds) {
		h->da = h->addr1;
		h->bssid = h->addr2;
		h->sa = h->amsdu ? NULL : h->addr3;
	} else if (h->to_ds && !h->from_ds) {
		h->bssid = h->addr1;
		h->sa = h->addr2;
		h->da = h->amsdu ? NULL : h->addr3;
	} else {
		h->da = h->amsdu ? NULL : h->addr3;
		h->sa = h->amsdu ? NULL : h->addr4;
		h->bssid = h->amsdu ? h->addr3 : NULL;
	}
}

static int read_fields(struct rbuf *r, struct data_hdr *h)
{
	h->duration = rbuf_le16(r);
	h->addr1 = rbuf_take(r, MAC_LEN);
	h->addr2 = rbuf_take(r, MAC_LEN);
	h->addr3 = rbuf_take(r, MAC_LEN);
	h->seq_ctrl = rbuf_le16(r);
	if (h->to_ds && h->from_ds)
		h->addr4 = rbuf_take(r, MAC_LEN);
	if (h->qos) {
		h->qos_ctrl = rbuf_le16(r);
		h->tid = h->qos_ctrl & IEEE80211_QOS_TID_MASK;
		h->amsdu = h->qos_ctrl & IEEE80211_QOS_AMSDU_PRESENT;
	}
	if (h->has_htc)
		h->htc = rbuf_le32(r);
	return r->bad ? CODEC_E_TRUNCATED : CODEC_OK;
}

int data_hdr_parse(const uint8_t *frame, size_t len, struct data_hdr *out)
{
	struct rbuf r = rbuf_init(frame, len);

	*out = (struct data_hdr){ 0 };
	if (len < 2)
		return CODEC_E_TRUNCATED;
	out->fc = rbuf_le16(&r);
	if (out->fc & IEEE80211_FC_VERSION_MASK)
		return CODEC_E_MALFORMED;
	if (IEEE80211_FC_GET_TYPE(out->fc) != IEEE80211_FTYPE_DATA)
		return CODEC_E_UNSUPPORTED;
	out->subtype = (uint8_t)IEEE80211_FC_GET_SUBTYPE(out->fc);
	out->to_ds = out->fc & IEEE80211_FC_TODS;
	out->from_ds = out->fc & IEEE80211_FC_FROMDS;
	out->protected_frame = out->fc & IEEE80211_FC_PROTECTED;
	out->qos = fc_is_qos(out->fc);
	out->has_htc = fc_has_htc(out->fc);
	int err = read_fields(&r, out);
	if (err)
		return err;
	if (out->addr2[0] & 0x01) /* a transmitter is never a group */
		return CODEC_E_MALFORMED;
	map_addresses(out);
	out->hdr_len = r.pos;
	out->body = frame + r.pos;
	out->body_len = rbuf_left(&r);
	if ((out->subtype & IEEE80211_STYPE_NODATA_BIT) && out->body_len)
		return CODEC_E_MALFORMED;
	return CODEC_OK;
}

int data_hdr_build(struct wbuf *w, const struct data_hdr *h)
{
	uint16_t fc = (uint16_t)((h->fc & ~(IEEE80211_FC_VERSION_MASK | IEEE80211_FC_TYPE_MASK)) |
				 IEEE80211_FTYPE_DATA << IEEE80211_FC_TYPE_SHIFT);
	bool four_addr = (fc & FC_DS_BITS) == FC_DS_BITS;

	if (!h->addr1 || !h->addr2 || !h->addr3 || (four_addr && !h->addr4))
		return CODEC_E_INVALID_ARG;
	wbuf_le16(w, fc);
	wbuf_le16(w, h->duration);
	wbuf_put(w, h->addr1, MAC_LEN);
	wbuf_put(w, h->addr2, MAC_LEN);
	wbuf_put(w, h->addr3, MAC_LEN);
	wbuf_le16(w, h->seq_ctrl);
	if (four_addr)
		wbuf_put(w, h->addr4, MAC_LEN);
	if (fc_is_qos(fc))
		wbuf_le16(w, h->qos_ctrl);
	if (fc_has_htc(fc))
		wbuf_le32(w, h->htc);
	return codec_wbuf_result(w);
}
