/* The framing shared by EAP-TLS (RFC 5216 3.1), PEAP and TTLS (RFC 5281
 * 9.1): after the Type octet, one Flags octet
 *
 *     L (0x80) a 4-octet TLS Message Length follows
 *     M (0x40) more fragments follow
 *     S (0x20) start
 *     low 3 bits: the version of PEAP/TTLS (0 for EAP-TLS)
 *
 * then the optional length, then TLS data. This module reassembles the
 * server's fragments (with limits: an announced length at most max_msg,
 * no fragment beyond the announced length, at most max_frags fragments,
 * no empty fragment with M set) and cuts our output to the fragment size,
 * answering the server's ACKs. It knows nothing of TLS or of the EAP
 * header: it reads and writes type data.
 *
 * Ownership: the buffers belong to the struct; eap_tls_frag_reset() wipes
 * and frees them.
 */
#ifndef WPAD_EAP_TLS_FRAG_H
#define WPAD_EAP_TLS_FRAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EAP_TLS_FLAG_LENGTH 0x80
#define EAP_TLS_FLAG_MORE 0x40
#define EAP_TLS_FLAG_START 0x20
#define EAP_TLS_VERSION_MASK 0x07

#define EAP_TLS_FRAG_MAX_MSG_DEFAULT 65536
#define EAP_TLS_FRAG_SIZE_DEFAULT 1398 /* TLS data per fragment */
#define EAP_TLS_FRAG_MAX_FRAGS_DEFAULT 256

enum eap_tls_frag_rx {
	EAP_TLS_RX_START,     /* S set: begin the handshake */
	EAP_TLS_RX_MESSAGE,   /* a whole message is ready (eap_tls_frag_msg) */
	EAP_TLS_RX_NEED_MORE, /* a fragment stored: answer with an ACK */
	EAP_TLS_RX_ACK,	      /* the server acknowledged our fragment: send the next */
	EAP_TLS_RX_ERROR,     /* malformed or over a limit: see f->error */
};
const char *eap_tls_frag_rx_to_string(enum eap_tls_frag_rx r);

struct eap_tls_frag {
	/* limits (set by eap_tls_frag_init, adjustable before use) */
	size_t max_msg, frag_size;
	unsigned max_frags;
	/* reassembly */
	uint8_t *in;
	size_t in_len, in_cap, in_announced; /* 0 announced: no L seen */
	unsigned in_frags;
	bool in_progress;
	/* output being sent */
	uint8_t *out;
	size_t out_len, out_pos;
	/* the last Request's flags (its version bits for PEAP/TTLS) */
	uint8_t rx_flags;
	char error[128];
};

void eap_tls_frag_init(struct eap_tls_frag *f);
void eap_tls_frag_reset(struct eap_tls_frag *f); /* wipe and free both directions */

/* One Request's type data. An ACK is a Request with no data and no flags
 * other than the version bits, while we have output left. */
enum eap_tls_frag_rx eap_tls_frag_rx(struct eap_tls_frag *f, const uint8_t *data, size_t len);
/* After EAP_TLS_RX_MESSAGE: the message (valid until the next rx). */
const uint8_t *eap_tls_frag_msg(const struct eap_tls_frag *f, size_t *len);

/* Queue our whole output (copied): 0 or -ENOMEM/-EMSGSIZE. */
int eap_tls_frag_set_out(struct eap_tls_frag *f, const uint8_t *data, size_t len);
bool eap_tls_frag_out_pending(const struct eap_tls_frag *f);
/* Write the next Response's type data into buf (max octets): Flags with
 * the given version bits, the length when fragmenting (first fragment),
 * the next piece of output; or a bare ACK when nothing is queued.
 * Returns the octets written or -ENOSPC. */
int eap_tls_frag_next(struct eap_tls_frag *f, uint8_t version, uint8_t *buf, size_t max);

#endif
