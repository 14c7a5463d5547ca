/* EAPOL-Key Key Data parsing and KDE builders. */
#include "daemon/codec/kde.h"

#include "daemon/codec/codec_err.h"
#include "daemon/codec/codec_wbuf.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_ft.h"
#include "daemon/codec/ie_rsn.h"
#include "daemon/codec/ieee80211.h"

#define KDE_OUI_TYPE_LEN 4 /* OUI + data type, inside the element body */
#define FTE_MIN_LEN (2 + 16 + 2 * FT_NONCE_LEN)
#define TIMEOUT_INTERVAL_LEN 5
#define KEY_WRAP_MIN 16
#define KEY_WRAP_BLOCK 8
#define IGTK_KEY_ID_FIRST 4
#define BIGTK_KEY_ID_FIRST 6

/* A fixed-size KDE that may appear once. */
static int take_fixed(const uint8_t **slot, const uint8_t *d, size_t n, size_t want)
{
	if (*slot)
		return CODEC_E_DUPLICATE;
	if (n != want)
		return CODEC_E_BAD_LENGTH;
	*slot = d;
	return CODEC_OK;
}

static int parse_gtk(const uint8_t *d, size_t n, struct kde_set *s)
{
	if (s->has_gtk)
		return CODEC_E_DUPLICATE;
	if (n < 2 + KDE_GTK_MIN_KEY || n > 2 + KDE_GTK_MAX_KEY)
		return CODEC_E_BAD_LENGTH;
	s->has_gtk = true;
	s->gtk.key_id = d[0] & KDE_GTK_KEY_ID_MASK;
	s->gtk.tx = d[0] & KDE_GTK_TX;
	s->gtk.key = d + 2; /* d[1] is reserved */
	s->gtk.key_len = (uint8_t)(n - 2);
	return CODEC_OK;
}

/* IGTK key IDs are 4/5 and BIGTK 6/7; anything else names no key. */
static int parse_igtk(const uint8_t *d, size_t n, bool *has, struct kde_igtk *g,
		      uint16_t first_id)
{
	if (*has)
		return CODEC_E_DUPLICATE;
	if (n != 2 + KDE_IPN_LEN + 16 && n != 2 + KDE_IPN_LEN + 32)
		return CODEC_E_BAD_LENGTH;
	*has = true;
	g->key_id = get_le16(d);
	g->ipn = d + 2;
	g->key = d + 2 + KDE_IPN_LEN;
	g->key_len = (uint8_t)(n - 2 - KDE_IPN_LEN);
	if (g->key_id != first_id && g->key_id != first_id + 1)
		return CODEC_E_MALFORMED;
	return CODEC_OK;
}

static int parse_kde(uint8_t type, const uint8_t *d, size_t n, struct kde_set *s)
{
	switch (type) {
	case KDE_GTK:
		return parse_gtk(d, n, s);
	case KDE_IGTK:
		return parse_igtk(d, n, &s->has_igtk, &s->igtk, IGTK_KEY_ID_FIRST);
	case KDE_BIGTK:
		return parse_igtk(d, n, &s->has_bigtk, &s->bigtk, BIGTK_KEY_ID_FIRST);
	case KDE_MAC_ADDR:
		return take_fixed(&s->mac_addr, d, n, ETH_ALEN_80211);
	case KDE_PMKID:
		return take_fixed(&s->pmkid, d, n, PMKID_LEN);
	case KDE_NONCE:
		return take_fixed(&s->nonce, d, n, 32);
	case KDE_KEY_ID:
		if (s->has_key_id)
			return CODEC_E_DUPLICATE;
		if (n != 2)
			return CODEC_E_BAD_LENGTH;
		s->has_key_id = true;
		s->key_id = d[0] & 0x03;
		return CODEC_OK;
	case KDE_OCI:
		if (s->oci)
			return CODEC_E_DUPLICATE;
		if (n < 3)
			return CODEC_E_BAD_LENGTH;
		s->oci = d;
		s->oci_len = (uint8_t)n;
		return CODEC_OK;
	default:
		return CODEC_OK;
	}
}

/* Wi-Fi Alliance KDEs: Transition Disable; the others are not ours. */
static int parse_wfa_kde(uint8_t type, const uint8_t *d, size_t n, struct kde_set *s)
{
	if (type != KDE_WFA_TRANSITION_DISABLE)
		return CODEC_OK;
	if (s->has_transition_disable)
		return CODEC_E_DUPLICATE;
	if (n < 1) /* one octet; more is for later bits */
		return CODEC_E_BAD_LENGTH;
	s->has_transition_disable = true;
	s->transition_disable = d[0];
	return CODEC_OK;
}

static int parse_vendor(const struct ie_elem *e, struct kde_set *s)
{
	struct ie_rsn wpa;

	if (e->len < KDE_OUI_TYPE_LEN)
		return CODEC_E_BAD_LENGTH;
	uint32_t oui = (uint32_t)e->data[0] << 16 | (uint32_t)e->data[1] << 8 | e->data[2];
	if (oui == OUI_IEEE80211)
		return parse_kde(e->data[3], e->data + KDE_OUI_TYPE_LEN,
				 e->len - (size_t)KDE_OUI_TYPE_LEN, s);
	if (oui == OUI_WFA)
		return parse_wfa_kde(e->data[3], e->data + KDE_OUI_TYPE_LEN,
				     e->len - (size_t)KDE_OUI_TYPE_LEN, s);
	if (!ie_vendor_is(e, OUI_MICROSOFT, VENDOR_TYPE_WPA))
		return CODEC_OK;
	if (s->wpa_elem)
		return CODEC_E_DUPLICATE;
	s->wpa_elem = e->start;
	s->wpa_elem_len = IE_HDR_LEN + (size_t)e->len;
	return ie_parse_wpa(e->data, e->len, &wpa);
}

static int parse_rsn_elem(const struct ie_elem *e, struct kde_set *s)
{
	struct ie_rsn rsn;

	if (s->n_rsn == 2)
		return CODEC_E_DUPLICATE;
	s->rsn_elem[s->n_rsn] = e->start;
	s->rsn_elem_len[s->n_rsn] = IE_HDR_LEN + (size_t)e->len;
	s->n_rsn++;
	return ie_parse_rsn(e->data, e->len, &rsn);
}

static int parse_element(const struct ie_elem *e, struct kde_set *s)
{
	struct ie_mde mde;

	switch (e->id) {
	case WLAN_EID_VENDOR_SPECIFIC:
		return parse_vendor(e, s);
	case WLAN_EID_RSN:
		return parse_rsn_elem(e, s);
	case WLAN_EID_RSNX:
		/* Kept whole and not decoded: the receiver compares it octet
		 * for octet with the one it heard (12.7.6.3, 12.7.6.4), so a
		 * malformed one (an empty body, say) is a mismatch there,
		 * reason 17, like any other change. */
		if (s->rsnxe_elem)
			return CODEC_E_DUPLICATE;
		s->rsnxe_elem = e->start;
		s->rsnxe_elem_len = IE_HDR_LEN + (size_t)e->len;
		return CODEC_OK;
	case WLAN_EID_MOBILITY_DOMAIN:
		if (s->mde_elem)
			return CODEC_E_DUPLICATE;
		s->mde_elem = e->start;
		return ie_parse_mde(e->data, e->len, &mde);
	case WLAN_EID_FAST_BSS_TRANSITION:
		if (s->fte_elem)
			return CODEC_E_DUPLICATE;
		s->fte_elem = e->start;
		s->fte_elem_len = IE_HDR_LEN + (size_t)e->len;
		return e->len < FTE_MIN_LEN ? CODEC_E_BAD_LENGTH : CODEC_OK;
	case WLAN_EID_TIMEOUT_INTERVAL:
		if (s->has_timeout)
			return CODEC_E_DUPLICATE;
		if (e->len != TIMEOUT_INTERVAL_LEN)
			return CODEC_E_BAD_LENGTH;
		s->has_timeout = true;
		s->timeout_type = e->data[0];
		s->timeout_value = (uint32_t)get_le16(e->data + 1) |
				   (uint32_t)get_le16(e->data + 3) << 16;
		return CODEC_OK;
	default:
		return CODEC_OK;
	}
}

/* Padding is 0xdd then zeros to the end; a 0xdd with a zero length octet
 * can only be padding, since a vendor element needs an OUI. */
static bool padding_starts(const uint8_t *p, size_t left)
{
	return p[0] == KDE_PAD_OCTET && (left == 1 || p[1] == 0);
}

static int check_padding(const uint8_t *p, size_t left)
{
	for (size_t i = 1; i < left; i++)
		if (p[i])
			return CODEC_E_MALFORMED;
	return CODEC_OK;
}

int kde_parse(const uint8_t *key_data, size_t len, struct kde_set *out)
{
	struct rbuf r = rbuf_init(key_data, len);
	struct ie_elem e = { 0 };

	*out = (struct kde_set){ 0 };
	while (rbuf_left(&r) > 0) {
		const uint8_t *p = key_data + r.pos;
		size_t left = rbuf_left(&r);
		if (padding_starts(p, left)) {
			out->padding_len = left;
			return check_padding(p, left);
		}
		if (left < IE_HDR_LEN)
			return CODEC_E_TRUNCATED;
		e.start = p;
		e.id = rbuf_u8(&r);
		e.len = rbuf_u8(&r);
		e.data = rbuf_take(&r, e.len);
		if (!e.data)
			return CODEC_E_OVERRUN;
		int err = parse_element(&e, out);
		if (err)
			return err;
	}
	return CODEC_OK;
}

int kde_build(struct wbuf *w, uint8_t type, const void *data, size_t len)
{
	if (len && !data)
		return CODEC_E_INVALID_ARG;
	if (len > IE_MAX_BODY - KDE_OUI_TYPE_LEN)
		return CODEC_E_BAD_LENGTH;
	size_t start = ie_begin(w, WLAN_EID_VENDOR_SPECIFIC);
	wbuf_u8(w, (uint8_t)(OUI_IEEE80211 >> 16));
	wbuf_be16(w, (uint16_t)OUI_IEEE80211);
	wbuf_u8(w, type);
	wbuf_put(w, data, len);
	return ie_end(w, start);
}

int kde_build_transition_disable(struct wbuf *w, uint8_t bitmap)
{
	size_t start = ie_begin(w, WLAN_EID_VENDOR_SPECIFIC);
	wbuf_u8(w, (uint8_t)(OUI_WFA >> 16));
	wbuf_be16(w, (uint16_t)OUI_WFA);
	wbuf_u8(w, KDE_WFA_TRANSITION_DISABLE);
	wbuf_u8(w, bitmap);
	return ie_end(w, start);
}

int kde_build_gtk(struct wbuf *w, uint8_t key_id, bool tx, const uint8_t *key, size_t key_len)
{
	uint8_t buf[2 + KDE_GTK_MAX_KEY];

	if (key_len < KDE_GTK_MIN_KEY || key_len > KDE_GTK_MAX_KEY || !key || key_id > 3)
		return CODEC_E_INVALID_ARG;
	buf[0] = (uint8_t)(key_id | (tx ? KDE_GTK_TX : 0));
	buf[1] = 0;
	memcpy(buf + 2, key, key_len);
	int err = kde_build(w, KDE_GTK, buf, 2 + key_len);
	memset(buf, 0, sizeof(buf)); /* the GTK is secret */
	return err;
}

static int build_igtk_like(struct wbuf *w, uint8_t type, uint16_t key_id, const uint8_t *ipn,
			   const uint8_t *key, size_t key_len)
{
	uint8_t buf[2 + KDE_IPN_LEN + 32];

	if ((key_len != 16 && key_len != 32) || !key || !ipn)
		return CODEC_E_INVALID_ARG;
	put_le16(buf, key_id);
	memcpy(buf + 2, ipn, KDE_IPN_LEN);
	memcpy(buf + 2 + KDE_IPN_LEN, key, key_len);
	int err = kde_build(w, type, buf, 2 + KDE_IPN_LEN + key_len);
	memset(buf, 0, sizeof(buf));
	return err;
}

int kde_build_igtk(struct wbuf *w, uint16_t key_id, const uint8_t ipn[KDE_IPN_LEN],
		   const uint8_t *key, size_t key_len)
{
	return build_igtk_like(w, KDE_IGTK, key_id, ipn, key, key_len);
}

int kde_build_bigtk(struct wbuf *w, uint16_t key_id, const uint8_t bipn[KDE_IPN_LEN],
		    const uint8_t *key, size_t key_len)
{
	return build_igtk_like(w, KDE_BIGTK, key_id, bipn, key, key_len);
}

int kde_build_pmkid(struct wbuf *w, const uint8_t pmkid[16])
{
	return kde_build(w, KDE_PMKID, pmkid, PMKID_LEN);
}

int kde_build_mac_addr(struct wbuf *w, const uint8_t addr[6])
{
	return kde_build(w, KDE_MAC_ADDR, addr, ETH_ALEN_80211);
}

int kde_pad(struct wbuf *w, size_t start)
{
	if (w->bad)
		return CODEC_E_NOSPACE;
	if (start > w->len)
		return CODEC_E_INVALID_ARG;
	size_t n = w->len - start;
	if (n >= KEY_WRAP_MIN && n % KEY_WRAP_BLOCK == 0)
		return CODEC_OK;
	size_t target = n < KEY_WRAP_MIN ? KEY_WRAP_MIN
					 : (n + KEY_WRAP_BLOCK - 1) / KEY_WRAP_BLOCK * KEY_WRAP_BLOCK;
	uint8_t *p = wbuf_reserve(w, target - n);
	if (!p)
		return CODEC_E_NOSPACE;
	p[0] = KDE_PAD_OCTET;
	memset(p + 1, 0, target - n - 1);
	return CODEC_OK;
}
