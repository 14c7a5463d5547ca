/* EAP-TLS/PEAP/TTLS fragmentation and reassembly (eap_tls_frag.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/crypto/secure.h"
#include "eap/eap_tls_frag.h"

const char *eap_tls_frag_rx_to_string(enum eap_tls_frag_rx r)
{
	switch (r) {
	case EAP_TLS_RX_START:
		return "start";
	case EAP_TLS_RX_MESSAGE:
		return "message";
	case EAP_TLS_RX_NEED_MORE:
		return "need-more";
	case EAP_TLS_RX_ACK:
		return "ack";
	case EAP_TLS_RX_ERROR:
		return "error";
	}
	return "?";
}

void eap_tls_frag_init(struct eap_tls_frag *f)
{
	memset(f, 0, sizeof(*f));
	f->max_msg = EAP_TLS_FRAG_MAX_MSG_DEFAULT;
	f->frag_size = EAP_TLS_FRAG_SIZE_DEFAULT;
	f->max_frags = EAP_TLS_FRAG_MAX_FRAGS_DEFAULT;
}

static void free_in(struct eap_tls_frag *f)
{
	if (f->in)
		crypto_zero(f->in, f->in_cap);
	free(f->in);
	f->in = NULL;
	f->in_len = f->in_cap = f->in_announced = 0;
	f->in_frags = 0;
	f->in_progress = false;
}

static void free_out(struct eap_tls_frag *f)
{
	if (f->out)
		crypto_zero(f->out, f->out_len);
	free(f->out);
	f->out = NULL;
	f->out_len = f->out_pos = 0;
}

void eap_tls_frag_reset(struct eap_tls_frag *f)
{
	free_in(f);
	free_out(f);
	f->error[0] = '\0';
}

__attribute__((format(printf, 2, 3))) static enum eap_tls_frag_rx fail(struct eap_tls_frag *f,
									 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->error, sizeof(f->error), fmt, ap);
	va_end(ap);
	free_in(f);
	return EAP_TLS_RX_ERROR;
}

static int in_append(struct eap_tls_frag *f, const uint8_t *data, size_t len)
{
	size_t need = f->in_len + len;

	if (len == 0)
		return 0;
	if (need > f->in_cap) {
		/* Grow to the announced size at once, else double: the
		 * limit was checked by the caller. */
		size_t cap = f->in_announced ? f->in_announced : (f->in_cap ? f->in_cap * 2 : 4096);
		uint8_t *n;

		while (cap < need)
			cap *= 2;
		if (cap > f->max_msg)
			cap = f->max_msg;
		n = malloc(cap);
		if (!n)
			return -ENOMEM;
		if (f->in) {
			memcpy(n, f->in, f->in_len);
			crypto_zero(f->in, f->in_cap);
			free(f->in);
		}
		f->in = n;
		f->in_cap = cap;
	}
	memcpy(f->in + f->in_len, data, len);
	f->in_len = need;
	return 0;
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A fragment (or a whole message) of the server's data. */
static enum eap_tls_frag_rx rx_data(struct eap_tls_frag *f, uint8_t flags, const uint8_t *data,
				    size_t len)
{
	bool more = flags & EAP_TLS_FLAG_MORE;

	if (flags & EAP_TLS_FLAG_LENGTH) {
		uint32_t announced;

		if (len < 4)
			return fail(f, "TLS Message Length truncated (%zu of 4 octets)", len);
		announced = get_be32(data);
		data += 4;
		len -= 4;
		if (announced > f->max_msg)
			return fail(f, "announced TLS message length %u exceeds the limit %zu",
				    (unsigned)announced, f->max_msg);
		if (f->in_progress && f->in_announced && announced != f->in_announced)
			return fail(f, "TLS Message Length changed from %zu to %u",
				    f->in_announced, (unsigned)announced);
		if (!f->in_progress)
			f->in_announced = announced;
	} else if (!f->in_progress && more) {
		/* RFC 5216 3.1: the first fragment carries the length. */
		return fail(f, "first fragment without TLS Message Length");
	}
	if (more && len == 0)
		return fail(f, "empty fragment with More set");
	if (++f->in_frags > f->max_frags)
		return fail(f, "more than %u fragments", f->max_frags);
	if (f->in_announced && f->in_len + len > f->in_announced)
		return fail(f, "fragment beyond the announced length: %zu of %zu octets",
			    f->in_len + len, f->in_announced);
	if (f->in_len + len > f->max_msg)
		return fail(f, "TLS message over the limit of %zu octets", f->max_msg);
	if (in_append(f, data, len) < 0)
		return fail(f, "out of memory reassembling %zu octets", f->in_len + len);
	if (more) {
		f->in_progress = true;
		return EAP_TLS_RX_NEED_MORE;
	}
	if (f->in_announced && f->in_len != f->in_announced)
		return fail(f, "TLS message ended at %zu of %zu announced octets", f->in_len,
			    f->in_announced);
	f->in_progress = false;
	return EAP_TLS_RX_MESSAGE;
}

enum eap_tls_frag_rx eap_tls_frag_rx(struct eap_tls_frag *f, const uint8_t *data, size_t len)
{
	uint8_t flags;

	f->error[0] = '\0';
	if (len < 1)
		return fail(f, "no Flags octet");
	flags = data[0];
	f->rx_flags = flags;
	data++;
	len--;
	if (flags & EAP_TLS_FLAG_START) {
		/* A (re)start drops anything half done. PEAP/TTLS Start may
		 * carry data (ignored: no Outer TLVs in the versions we run). */
		free_in(f);
		free_out(f);
		return EAP_TLS_RX_START;
	}
	if (f->out_pos < f->out_len) {
		/* We are sending fragments: only an ACK may come. */
		if (len != 0 || (flags & ~EAP_TLS_VERSION_MASK))
			return fail(f, "expected an ACK of our fragment, got %zu octets (flags 0x%02x)",
				    len, flags);
		return EAP_TLS_RX_ACK;
	}
	if (!f->in_progress) {
		/* A fresh message: the last one we returned is done with. */
		free_in(f);
	}
	return rx_data(f, flags, data, len);
}

const uint8_t *eap_tls_frag_msg(const struct eap_tls_frag *f, size_t *len)
{
	*len = f->in_len;
	return f->in;
}

int eap_tls_frag_set_out(struct eap_tls_frag *f, const uint8_t *data, size_t len)
{
	free_out(f);
	if (len == 0)
		return 0;
	if (len > UINT32_MAX)
		return -EMSGSIZE;
	f->out = malloc(len);
	if (!f->out)
		return -ENOMEM;
	memcpy(f->out, data, len);
	f->out_len = len;
	return 0;
}

bool eap_tls_frag_out_pending(const struct eap_tls_frag *f)
{
	return f->out_pos < f->out_len;
}

int eap_tls_frag_next(struct eap_tls_frag *f, uint8_t version, uint8_t *buf, size_t max)
{
	uint8_t flags = version & EAP_TLS_VERSION_MASK;
	size_t left = f->out_len - f->out_pos, n = left, hdr = 1;
	bool first = f->out_pos == 0;

	if (max < 1)
		return -ENOSPC;
	if (left == 0) {
		buf[0] = flags; /* an ACK of the server's fragment */
		return 1;
	}
	if (first && left > f->frag_size) {
		flags |= EAP_TLS_FLAG_LENGTH;
		hdr += 4;
	}
	if (n > f->frag_size)
		n = f->frag_size;
	if (n < left)
		flags |= EAP_TLS_FLAG_MORE;
	if (max < hdr + n)
		return -ENOSPC;
	buf[0] = flags;
	if (flags & EAP_TLS_FLAG_LENGTH) {
		uint32_t total = (uint32_t)f->out_len;

		buf[1] = total >> 24;
		buf[2] = total >> 16;
		buf[3] = total >> 8;
		buf[4] = total;
	}
	memcpy(buf + hdr, f->out + f->out_pos, n);
	f->out_pos += n;
	if (f->out_pos == f->out_len)
		free_out(f);
	return (int)(hdr + n);
}
