/* Bounds-checked MAC header parsing for the receive path, and the small
 * header builder the MLME and AP use. Bodies are left to daemon/codec's
 * element parsers; this is only what a MAC needs to filter and route. */
#include "drivers/sim/radio.h"
#include "daemon/codec/ieee80211.h"

#include <errno.h>
#include <string.h>

const uint8_t sim_bcast[SIM_ADDR_LEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

static int parse_mgmt(struct rbuf *r, struct sim_hdr *h)
{
	if (h->to_ds || h->from_ds)
		return -EBADMSG; /* management frames never cross the DS */
	h->a1 = rbuf_take(r, SIM_ADDR_LEN);
	h->a2 = rbuf_take(r, SIM_ADDR_LEN);
	h->a3 = rbuf_take(r, SIM_ADDR_LEN);
	h->seq_ctrl = rbuf_le16(r);
	if (h->order)
		rbuf_take(r, IEEE80211_HTC_LEN);
	return r->bad ? -EBADMSG : 0;
}

static int parse_data(struct rbuf *r, struct sim_hdr *h)
{
	h->a1 = rbuf_take(r, SIM_ADDR_LEN);
	h->a2 = rbuf_take(r, SIM_ADDR_LEN);
	h->a3 = rbuf_take(r, SIM_ADDR_LEN);
	h->seq_ctrl = rbuf_le16(r);
	if (h->to_ds && h->from_ds)
		h->a4 = rbuf_take(r, SIM_ADDR_LEN);
	h->qos = (h->subtype & IEEE80211_STYPE_QOS_BIT) != 0;
	if (h->qos) {
		h->qos_ctrl = rbuf_le16(r);
		h->tid = (uint8_t)(h->qos_ctrl & IEEE80211_QOS_TID_MASK);
		if (h->order)
			rbuf_take(r, IEEE80211_HTC_LEN);
	}
	return r->bad ? -EBADMSG : 0;
}

int sim_hdr_parse(const uint8_t *frame, size_t len, struct sim_hdr *h)
{
	struct rbuf r = rbuf_init(frame, len);
	int err;

	memset(h, 0, sizeof(*h));
	h->fc = rbuf_le16(&r);
	rbuf_le16(&r); /* duration */
	if (r.bad)
		return -EBADMSG;
	if (h->fc & IEEE80211_FC_VERSION_MASK)
		return -EPROTONOSUPPORT;
	h->type = (uint8_t)IEEE80211_FC_GET_TYPE(h->fc);
	h->subtype = (uint8_t)IEEE80211_FC_GET_SUBTYPE(h->fc);
	h->to_ds = h->fc & IEEE80211_FC_TODS;
	h->from_ds = h->fc & IEEE80211_FC_FROMDS;
	h->protected_frame = h->fc & IEEE80211_FC_PROTECTED;
	h->retry = h->fc & IEEE80211_FC_RETRY;
	h->order = h->fc & IEEE80211_FC_ORDER;
	if (h->type == IEEE80211_FTYPE_MGMT)
		err = parse_mgmt(&r, h);
	else if (h->type == IEEE80211_FTYPE_DATA)
		err = parse_data(&r, h);
	else
		return -EPROTONOSUPPORT; /* control frames are the medium's business */
	if (err)
		return err;
	h->hdr_len = r.pos;
	h->body = frame + r.pos;
	h->body_len = len - r.pos;
	return 0;
}

void sim_mgmt_hdr(struct wbuf *w, uint8_t subtype, const uint8_t *da, const uint8_t *sa,
		  const uint8_t *bssid)
{
	wbuf_le16(w, IEEE80211_FC(IEEE80211_FTYPE_MGMT, subtype));
	wbuf_le16(w, 0); /* duration: the medium does not model NAV */
	wbuf_put(w, da, SIM_ADDR_LEN);
	wbuf_put(w, sa, SIM_ADDR_LEN);
	wbuf_put(w, bssid, SIM_ADDR_LEN);
	wbuf_le16(w, 0); /* sequence control: numbered when transmitted */
}
