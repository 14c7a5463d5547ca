/* Management frame parse and build. */
#include "daemon/codec/frame.h"

#include "daemon/codec/codec_err.h"
#include "daemon/codec/codec_wbuf.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ieee80211.h"

#define MAC_LEN ETH_ALEN_80211
/* Frame Control flags a builder copies from the caller. */
#define FC_COPIED_FLAGS \
	(IEEE80211_FC_MOREFRAG | IEEE80211_FC_RETRY | IEEE80211_FC_PWRMGT | IEEE80211_FC_MOREDATA)

static bool is_group_addr(const uint8_t *addr)
{
	return addr[0] & 0x01;
}

/* Subtypes 7 and 15 are reserved. */
static bool subtype_known(uint8_t subtype)
{
	return subtype <= IEEE80211_STYPE_ACTION_NO_ACK && subtype != 7;
}

/* Only Authentication (shared key) and the individually addressed robust
 * frames carry the Protected bit; a protected beacon is nonsense. */
static bool subtype_may_be_protected(uint8_t subtype)
{
	switch (subtype) {
	case IEEE80211_STYPE_AUTH:
	case IEEE80211_STYPE_DEAUTH:
	case IEEE80211_STYPE_DISASSOC:
	case IEEE80211_STYPE_ACTION:
	case IEEE80211_STYPE_ACTION_NO_ACK:
		return true;
	default:
		return false;
	}
}

static int parse_header(struct rbuf *r, struct mgmt_frame *out)
{
	if (rbuf_left(r) < 2)
		return CODEC_E_TRUNCATED;
	out->fc = rbuf_le16(r);
	if (out->fc & IEEE80211_FC_VERSION_MASK)
		return CODEC_E_MALFORMED;
	if (IEEE80211_FC_GET_TYPE(out->fc) != IEEE80211_FTYPE_MGMT)
		return CODEC_E_UNSUPPORTED;
	out->subtype = (uint8_t)IEEE80211_FC_GET_SUBTYPE(out->fc);
	out->duration = rbuf_le16(r);
	out->da = rbuf_take(r, MAC_LEN);
	out->sa = rbuf_take(r, MAC_LEN);
	out->bssid = rbuf_take(r, MAC_LEN);
	out->seq_ctrl = rbuf_le16(r);
	out->has_htc = out->fc & IEEE80211_FC_ORDER;
	if (out->has_htc)
		out->htc = rbuf_le32(r);
	if (r->bad)
		return CODEC_E_TRUNCATED;
	/* Management frames never travel via the DS, and are never sent
	 * from a group address. */
	if (out->fc & (IEEE80211_FC_TODS | IEEE80211_FC_FROMDS) || is_group_addr(out->sa))
		return CODEC_E_MALFORMED;
	if (!subtype_known(out->subtype))
		return CODEC_E_UNSUPPORTED;
	out->protected_frame = out->fc & IEEE80211_FC_PROTECTED;
	if (out->protected_frame && !subtype_may_be_protected(out->subtype))
		return CODEC_E_MALFORMED;
	return CODEC_OK;
}

/* Fixed fields per subtype. Returns false for reserved subtypes. */
static bool read_fixed_fields(struct rbuf *r, struct mgmt_frame *f)
{
	switch (f->subtype) {
	case IEEE80211_STYPE_BEACON:
	case IEEE80211_STYPE_PROBE_RESP:
		f->u.beacon.timestamp = rbuf_le64(r);
		f->u.beacon.beacon_int = rbuf_le16(r);
		f->u.beacon.capab = rbuf_le16(r);
		return true;
	case IEEE80211_STYPE_TIMING_ADV:
		f->u.beacon.timestamp = rbuf_le64(r);
		f->u.beacon.capab = rbuf_le16(r);
		return true;
	case IEEE80211_STYPE_ASSOC_REQ:
	case IEEE80211_STYPE_REASSOC_REQ:
		f->u.assoc_req.capab = rbuf_le16(r);
		f->u.assoc_req.listen_interval = rbuf_le16(r);
		if (f->subtype == IEEE80211_STYPE_REASSOC_REQ)
			f->u.assoc_req.current_ap = rbuf_take(r, MAC_LEN);
		return true;
	case IEEE80211_STYPE_ASSOC_RESP:
	case IEEE80211_STYPE_REASSOC_RESP:
		f->u.assoc_resp.capab = rbuf_le16(r);
		f->u.assoc_resp.status = rbuf_le16(r);
		f->u.assoc_resp.aid = rbuf_le16(r) & WLAN_AID_MASK;
		return true;
	case IEEE80211_STYPE_AUTH:
		f->u.auth.alg = rbuf_le16(r);
		f->u.auth.seq = rbuf_le16(r);
		f->u.auth.status = rbuf_le16(r);
		return true;
	case IEEE80211_STYPE_DEAUTH:
	case IEEE80211_STYPE_DISASSOC:
		f->u.reason = rbuf_le16(r);
		return true;
	case IEEE80211_STYPE_ACTION:
	case IEEE80211_STYPE_ACTION_NO_ACK:
		f->u.action.category = rbuf_u8(r);
		return true;
	case IEEE80211_STYPE_PROBE_REQ:
	case IEEE80211_STYPE_ATIM:
		return true;
	default:
		return false;
	}
}

/* What follows the fixed fields: elements, an SAE body, an action body. */
static int read_tail(struct rbuf *r, struct mgmt_frame *f)
{
	size_t n = rbuf_left(r);
	const uint8_t *p = rbuf_take(r, n);

	switch (f->subtype) {
	case IEEE80211_STYPE_ACTION:
	case IEEE80211_STYPE_ACTION_NO_ACK:
		f->u.action.body = p;
		f->u.action.len = n;
		return CODEC_OK;
	case IEEE80211_STYPE_ATIM:
		return n ? CODEC_E_MALFORMED : CODEC_OK; /* ATIM has no body */
	case IEEE80211_STYPE_AUTH:
		if (f->u.auth.alg == WLAN_AUTH_SAE) {
			f->u.auth.sae_body = p;
			f->u.auth.sae_len = n;
			return CODEC_OK;
		}
		break;
	default:
		break;
	}
	f->ies = p;
	f->ies_len = n;
	return ie_validate(p, n);
}

static int parse(const uint8_t *frame, size_t len, struct mgmt_frame *out, bool body_plain)
{
	struct rbuf r = rbuf_init(frame, len);

	*out = (struct mgmt_frame){ 0 };
	int err = parse_header(&r, out);
	if (err)
		return err;
	out->body_len = rbuf_left(&r);
	out->body = frame + r.pos;
	if (out->protected_frame && !body_plain)
		return CODEC_OK;
	if (!read_fixed_fields(&r, out))
		return CODEC_E_UNSUPPORTED;
	if (r.bad)
		return CODEC_E_TRUNCATED;
	return read_tail(&r, out);
}

int mgmt_parse(const uint8_t *frame, size_t len, struct mgmt_frame *out)
{
	return parse(frame, len, out, false);
}

int mgmt_parse_decrypted(const uint8_t *frame, size_t len, struct mgmt_frame *out)
{
	return parse(frame, len, out, true);
}

void mgmt_init(struct mgmt_frame *f, uint8_t subtype, const uint8_t *da, const uint8_t *sa,
	       const uint8_t *bssid)
{
	*f = (struct mgmt_frame){ 0 };
	f->subtype = subtype;
	f->da = da;
	f->sa = sa;
	f->bssid = bssid;
}

static void write_header(struct wbuf *w, const struct mgmt_frame *f)
{
	uint16_t fc = (uint16_t)((f->fc & FC_COPIED_FLAGS) |
				 IEEE80211_FC(IEEE80211_FTYPE_MGMT, f->subtype));
	if (f->protected_frame)
		fc |= IEEE80211_FC_PROTECTED;
	if (f->has_htc)
		fc |= IEEE80211_FC_ORDER;
	wbuf_le16(w, fc);
	wbuf_le16(w, f->duration);
	wbuf_put(w, f->da, MAC_LEN);
	wbuf_put(w, f->sa, MAC_LEN);
	wbuf_put(w, f->bssid, MAC_LEN);
	wbuf_le16(w, f->seq_ctrl);
	if (f->has_htc)
		wbuf_le32(w, f->htc);
}

/* Writes the fixed fields; returns the tail (elements or opaque body). */
static void write_fixed_fields(struct wbuf *w, const struct mgmt_frame *f,
			       const uint8_t **tail, size_t *tail_len)
{
	*tail = f->ies;
	*tail_len = f->ies_len;
	switch (f->subtype) {
	case IEEE80211_STYPE_BEACON:
	case IEEE80211_STYPE_PROBE_RESP:
		wbuf_le64(w, f->u.beacon.timestamp);
		wbuf_le16(w, f->u.beacon.beacon_int);
		wbuf_le16(w, f->u.beacon.capab);
		break;
	case IEEE80211_STYPE_TIMING_ADV:
		wbuf_le64(w, f->u.beacon.timestamp);
		wbuf_le16(w, f->u.beacon.capab);
		break;
	case IEEE80211_STYPE_ASSOC_REQ:
	case IEEE80211_STYPE_REASSOC_REQ:
		wbuf_le16(w, f->u.assoc_req.capab);
		wbuf_le16(w, f->u.assoc_req.listen_interval);
		if (f->subtype == IEEE80211_STYPE_REASSOC_REQ)
			wbuf_put(w, f->u.assoc_req.current_ap, MAC_LEN);
		break;
	case IEEE80211_STYPE_ASSOC_RESP:
	case IEEE80211_STYPE_REASSOC_RESP:
		wbuf_le16(w, f->u.assoc_resp.capab);
		wbuf_le16(w, f->u.assoc_resp.status);
		/* On the air a valid AID carries its two top bits set; a
		 * failed association sends 0. */
		wbuf_le16(w, f->u.assoc_resp.aid ? (uint16_t)(f->u.assoc_resp.aid | ~WLAN_AID_MASK)
						 : 0);
		break;
	case IEEE80211_STYPE_AUTH:
		wbuf_le16(w, f->u.auth.alg);
		wbuf_le16(w, f->u.auth.seq);
		wbuf_le16(w, f->u.auth.status);
		if (f->u.auth.alg == WLAN_AUTH_SAE) {
			*tail = f->u.auth.sae_body;
			*tail_len = f->u.auth.sae_len;
		}
		break;
	case IEEE80211_STYPE_DEAUTH:
	case IEEE80211_STYPE_DISASSOC:
		wbuf_le16(w, f->u.reason);
		break;
	case IEEE80211_STYPE_ACTION:
	case IEEE80211_STYPE_ACTION_NO_ACK:
		wbuf_u8(w, f->u.action.category);
		*tail = f->u.action.body;
		*tail_len = f->u.action.len;
		break;
	default: /* probe request, ATIM: no fixed fields */
		break;
	}
}

int mgmt_build(struct wbuf *w, const struct mgmt_frame *f)
{
	const uint8_t *tail;
	size_t tail_len;

	if (!f->da || !f->sa || !f->bssid || !subtype_known(f->subtype))
		return CODEC_E_INVALID_ARG;
	if (f->protected_frame && !subtype_may_be_protected(f->subtype))
		return CODEC_E_INVALID_ARG;
	if (f->subtype == IEEE80211_STYPE_REASSOC_REQ && !f->protected_frame &&
	    !f->u.assoc_req.current_ap)
		return CODEC_E_INVALID_ARG;
	write_header(w, f);
	if (f->protected_frame) {
		tail = f->body;
		tail_len = f->body_len;
	} else {
		write_fixed_fields(w, f, &tail, &tail_len);
	}
	if (tail_len && !tail)
		return codec_fail(w, CODEC_E_INVALID_ARG);
	wbuf_put(w, tail, tail_len);
	return codec_wbuf_result(w);
}

int mgmt_build_action(struct wbuf *w, const uint8_t *da, const uint8_t *sa, const uint8_t *bssid,
		      const uint8_t *action, size_t len)
{
	struct mgmt_frame f;
	if (len < 1)
		return CODEC_E_INVALID_ARG;
	mgmt_init(&f, IEEE80211_STYPE_ACTION, da, sa, bssid);
	f.u.action.category = action[0];
	f.u.action.body = action + 1;
	f.u.action.len = len - 1;
	return mgmt_build(w, &f);
}
