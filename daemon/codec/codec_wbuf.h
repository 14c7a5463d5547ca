/* Small wbuf helpers shared by the codec builders. */
#ifndef WPAD_CODEC_WBUF_H
#define WPAD_CODEC_WBUF_H

#include "daemon/codec/codec_err.h"
#include "daemon/core/bytes.h"

/* Builders write through a wbuf that latches overflow; this turns the
 * latch into the return code. */
static inline int codec_wbuf_result(const struct wbuf *w)
{
	return w->bad ? CODEC_E_NOSPACE : CODEC_OK;
}

/* A builder that fails after writing part of its output latches the
 * writer, so a half-built element can never be sent by mistake. */
static inline int codec_fail(struct wbuf *w, int err)
{
	w->bad = true;
	return err;
}

/* Writes n bytes from p, or n zeros when p is NULL: fields such as a MIC
 * or a nonce the caller has not filled yet. */
static inline void codec_put_or_zero(struct wbuf *w, const uint8_t *p, size_t n)
{
	uint8_t *dst = wbuf_reserve(w, n);
	if (!dst)
		return;
	if (p)
		memcpy(dst, p, n);
	else
		memset(dst, 0, n);
}

#endif
