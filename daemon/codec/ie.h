/* Information element (TLV) framing: iterate, find, validate, build.
 *
 * An element is ID (1) | Length (1) | body (Length). ID 255 is an
 * extension element whose first body octet is the Element ID Extension.
 * The iterator is flat: a vendor-specific element's body is opaque and is
 * never walked as nested elements.
 *
 * Decoding the content of particular elements lives in ie_*.h; the
 * aggregate parser over a whole element list is ie_set.h.
 */
#ifndef WPAD_CODEC_IE_H
#define WPAD_CODEC_IE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/codec/codec_err.h"
#include "daemon/core/bytes.h"

#define IE_HDR_LEN 2
#define IE_MAX_BODY 255

struct ie_elem {
	uint8_t id;
	uint8_t ext_id;        /* Element ID Extension when id == 255, else 0 */
	uint8_t len;           /* body length */
	const uint8_t *data;   /* body, right after the length octet */
	const uint8_t *start;  /* the element including its header */
};

struct ie_iter {
	struct rbuf r;
	int err; /* CODEC_OK, or why iteration stopped early */
};

void ie_iter_init(struct ie_iter *it, const uint8_t *buf, size_t len);
/* Yields the next element; false at the end of the list or on a framing
 * error (then it->err says which). */
bool ie_iter_next(struct ie_iter *it, struct ie_elem *e);

/* Checks only the TLV framing of a whole list. */
int ie_validate(const uint8_t *buf, size_t len);

/* First matching element, or false if none (or the list is malformed
 * before one is found). */
bool ie_find(const uint8_t *buf, size_t len, uint8_t id, struct ie_elem *out);
bool ie_find_ext(const uint8_t *buf, size_t len, uint8_t ext_id, struct ie_elem *out);
bool ie_find_vendor(const uint8_t *buf, size_t len, uint32_t oui, uint8_t type,
		    struct ie_elem *out);

/* Vendor element helpers: OUI is the first three body octets, type the
 * fourth. */
bool ie_vendor_is(const struct ie_elem *e, uint32_t oui, uint8_t type);

/* Builders (here and in ie_*.h) append whole elements to w and return a
 * codec_err. Input rejected up front leaves w untouched; a failure after
 * writing has begun latches w->bad, so a half-built element is never sent.
 * ie_begin writes the header with a placeholder length and returns where
 * the body starts; ie_end patches the length. */
size_t ie_begin(struct wbuf *w, uint8_t id);
int ie_end(struct wbuf *w, size_t body_start);
int ie_build(struct wbuf *w, uint8_t id, const void *body, size_t len);
int ie_build_ext(struct wbuf *w, uint8_t ext_id, const void *body, size_t len);
int ie_build_vendor(struct wbuf *w, uint32_t oui, uint8_t type, const void *body, size_t len);

#endif
