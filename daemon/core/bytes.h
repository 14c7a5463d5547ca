/* Bounds-checked byte reader and writer.
 *
 * Every parser of outside bytes reads through a struct rbuf: a read past the
 * end never touches memory, it only latches the `bad` flag and yields zeros,
 * so a parser can read a whole fixed header and check once at the end.
 * Builders write through a struct wbuf the same way: overflow latches `bad`.
 */
#ifndef WPAD_CORE_BYTES_H
#define WPAD_CORE_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct rbuf {
	const uint8_t *data;
	size_t len;
	size_t pos;
	bool bad; /* a read went past the end */
};

static inline struct rbuf rbuf_init(const void *data, size_t len)
{
	struct rbuf r = { .data = data, .len = data ? len : 0, .pos = 0, .bad = false };
	return r;
}

static inline size_t rbuf_left(const struct rbuf *r)
{
	return r->len - r->pos;
}

/* Returns a pointer to the next n bytes and advances, or NULL (and latches
 * bad) when fewer than n remain. */
static inline const uint8_t *rbuf_take(struct rbuf *r, size_t n)
{
	if (r->bad || n > r->len - r->pos) {
		r->bad = true;
		return NULL;
	}
	const uint8_t *p = r->data + r->pos;
	r->pos += n;
	return p;
}

static inline bool rbuf_copy(struct rbuf *r, void *out, size_t n)
{
	const uint8_t *p = rbuf_take(r, n);
	if (!p) {
		memset(out, 0, n);
		return false;
	}
	memcpy(out, p, n);
	return true;
}

static inline uint8_t rbuf_u8(struct rbuf *r)
{
	const uint8_t *p = rbuf_take(r, 1);
	return p ? p[0] : 0;
}

static inline uint16_t rbuf_le16(struct rbuf *r)
{
	const uint8_t *p = rbuf_take(r, 2);
	return p ? (uint16_t)(p[0] | p[1] << 8) : 0;
}

static inline uint16_t rbuf_be16(struct rbuf *r)
{
	const uint8_t *p = rbuf_take(r, 2);
	return p ? (uint16_t)(p[0] << 8 | p[1]) : 0;
}

static inline uint32_t rbuf_le32(struct rbuf *r)
{
	const uint8_t *p = rbuf_take(r, 4);
	return p ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			   (uint32_t)p[3] << 24
		 : 0;
}

static inline uint32_t rbuf_be32(struct rbuf *r)
{
	const uint8_t *p = rbuf_take(r, 4);
	return p ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
			   (uint32_t)p[3]
		 : 0;
}

static inline uint64_t rbuf_be64(struct rbuf *r)
{
	uint64_t hi = rbuf_be32(r);
	return hi << 32 | rbuf_be32(r);
}

static inline uint64_t rbuf_le64(struct rbuf *r)
{
	uint64_t lo = rbuf_le32(r);
	return lo | (uint64_t)rbuf_le32(r) << 32;
}

struct wbuf {
	uint8_t *data;
	size_t cap;
	size_t len;
	bool bad; /* a write did not fit */
};

static inline struct wbuf wbuf_init(void *data, size_t cap)
{
	struct wbuf w = { .data = data, .cap = data ? cap : 0, .len = 0, .bad = false };
	return w;
}

/* Reserves n bytes and returns them for the caller to fill, or NULL. */
static inline uint8_t *wbuf_reserve(struct wbuf *w, size_t n)
{
	if (w->bad || n > w->cap - w->len) {
		w->bad = true;
		return NULL;
	}
	uint8_t *p = w->data + w->len;
	w->len += n;
	return p;
}

static inline void wbuf_put(struct wbuf *w, const void *src, size_t n)
{
	uint8_t *p = wbuf_reserve(w, n);
	if (p && n)
		memcpy(p, src, n);
}

static inline void wbuf_u8(struct wbuf *w, uint8_t v)
{
	uint8_t *p = wbuf_reserve(w, 1);
	if (p)
		p[0] = v;
}

static inline void wbuf_le16(struct wbuf *w, uint16_t v)
{
	uint8_t *p = wbuf_reserve(w, 2);
	if (p) {
		p[0] = (uint8_t)v;
		p[1] = (uint8_t)(v >> 8);
	}
}

static inline void wbuf_be16(struct wbuf *w, uint16_t v)
{
	uint8_t *p = wbuf_reserve(w, 2);
	if (p) {
		p[0] = (uint8_t)(v >> 8);
		p[1] = (uint8_t)v;
	}
}

static inline void wbuf_le32(struct wbuf *w, uint32_t v)
{
	wbuf_le16(w, (uint16_t)v);
	wbuf_le16(w, (uint16_t)(v >> 16));
}

static inline void wbuf_be32(struct wbuf *w, uint32_t v)
{
	wbuf_be16(w, (uint16_t)(v >> 16));
	wbuf_be16(w, (uint16_t)v);
}

static inline void wbuf_be64(struct wbuf *w, uint64_t v)
{
	wbuf_be32(w, (uint32_t)(v >> 32));
	wbuf_be32(w, (uint32_t)v);
}

static inline void wbuf_le64(struct wbuf *w, uint64_t v)
{
	wbuf_le32(w, (uint32_t)v);
	wbuf_le32(w, (uint32_t)(v >> 32));
}

/* Little-endian store/load helpers for fixed buffers we own. */
static inline void put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline uint16_t get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline uint16_t get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

#endif
