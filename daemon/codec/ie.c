/* Element list framing. */
#include "daemon/codec/ie.h"

#include "daemon/codec/ieee80211.h"

void ie_iter_init(struct ie_iter *it, const uint8_t *buf, size_t len)
{
	it->r = rbuf_init(buf, len);
	it->err = CODEC_OK;
}

bool ie_iter_next(struct ie_iter *it, struct ie_elem *e)
{
	if (it->err != CODEC_OK || rbuf_left(&it->r) == 0)
		return false;
	if (rbuf_left(&it->r) < IE_HDR_LEN) {
		it->err = CODEC_E_TRUNCATED;
		return false;
	}
	e->start = it->r.data + it->r.pos;
	e->id = rbuf_u8(&it->r);
	e->len = rbuf_u8(&it->r);
	e->data = rbuf_take(&it->r, e->len);
	if (!e->data) {
		it->err = CODEC_E_OVERRUN;
		return false;
	}
	e->ext_id = 0;
	if (e->id == WLAN_EID_EXTENSION) {
		/* The extension ID is mandatory; without it the element is
		 * not identifiable. */
		if (e->len < 1) {
			it->err = CODEC_E_BAD_LENGTH;
			return false;
		}
		e->ext_id = e->data[0];
	}
	return true;
}

int ie_validate(const uint8_t *buf, size_t len)
{
	struct ie_iter it;
	struct ie_elem e;

	ie_iter_init(&it, buf, len);
	while (ie_iter_next(&it, &e))
		;
	return it.err;
}

bool ie_vendor_is(const struct ie_elem *e, uint32_t oui, uint8_t type)
{
	if (e->id != WLAN_EID_VENDOR_SPECIFIC || e->len < 4)
		return false;
	uint32_t got = (uint32_t)e->data[0] << 16 | (uint32_t)e->data[1] << 8 | e->data[2];
	return got == oui && e->data[3] == type;
}

/* Shared search loop: match() decides whether an element is the one. */
static bool find_matching(const uint8_t *buf, size_t len, struct ie_elem *out,
			  bool (*match)(const struct ie_elem *e, uint32_t a, uint8_t b),
			  uint32_t a, uint8_t b)
{
	struct ie_iter it;
	struct ie_elem e;

	ie_iter_init(&it, buf, len);
	while (ie_iter_next(&it, &e)) {
		if (match(&e, a, b)) {
			if (out)
				*out = e;
			return true;
		}
	}
	return false;
}

static bool match_id(const struct ie_elem *e, uint32_t id, uint8_t unused)
{
	return e->id == id;
}

static bool match_ext(const struct ie_elem *e, uint32_t ext_id, uint8_t unused)
{
	return e->id == WLAN_EID_EXTENSION && e->ext_id == ext_id;
}

bool ie_find(const uint8_t *buf, size_t len, uint8_t id, struct ie_elem *out)
{
	return find_matching(buf, len, out, match_id, id, 0);
}

bool ie_find_ext(const uint8_t *buf, size_t len, uint8_t ext_id, struct ie_elem *out)
{
	return find_matching(buf, len, out, match_ext, ext_id, 0);
}

bool ie_find_vendor(const uint8_t *buf, size_t len, uint32_t oui, uint8_t type,
		    struct ie_elem *out)
{
	return find_matching(buf, len, out, ie_vendor_is, oui, type);
}

size_t ie_begin(struct wbuf *w, uint8_t id)
{
	wbuf_u8(w, id);
	wbuf_u8(w, 0);
	return w->len;
}

int ie_end(struct wbuf *w, size_t body_start)
{
	if (w->bad)
		return CODEC_E_NOSPACE;
	if (body_start < IE_HDR_LEN || body_start > w->len)
		return CODEC_E_INVALID_ARG;
	size_t n = w->len - body_start;
	if (n > IE_MAX_BODY) {
		/* Latch the writer so the half-built element is never sent. */
		w->bad = true;
		return CODEC_E_BAD_LENGTH;
	}
	w->data[body_start - 1] = (uint8_t)n;
	return CODEC_OK;
}

int ie_build(struct wbuf *w, uint8_t id, const void *body, size_t len)
{
	if (!body && len)
		return CODEC_E_INVALID_ARG;
	if (len > IE_MAX_BODY)
		return CODEC_E_BAD_LENGTH;
	size_t start = ie_begin(w, id);
	wbuf_put(w, body, len);
	return ie_end(w, start);
}

int ie_build_ext(struct wbuf *w, uint8_t ext_id, const void *body, size_t len)
{
	if (!body && len)
		return CODEC_E_INVALID_ARG;
	if (len > IE_MAX_BODY - 1)
		return CODEC_E_BAD_LENGTH;
	size_t start = ie_begin(w, WLAN_EID_EXTENSION);
	wbuf_u8(w, ext_id);
	wbuf_put(w, body, len);
	return ie_end(w, start);
}

int ie_build_vendor(struct wbuf *w, uint32_t oui, uint8_t type, const void *body, size_t len)
{
	if (!body && len)
		return CODEC_E_INVALID_ARG;
	if (len > IE_MAX_BODY - 4)
		return CODEC_E_BAD_LENGTH;
	size_t start = ie_begin(w, WLAN_EID_VENDOR_SPECIFIC);
	wbuf_u8(w, (uint8_t)(oui >> 16));
	wbuf_be16(w, (uint16_t)oui);
	wbuf_u8(w, type);
	wbuf_put(w, body, len);
	return ie_end(w, start);
}
