/* Fuzz the EAP-TLS/PEAP/TTLS framing (eap/eap_tls_frag.h).
 *
 * Input: a sequence of Requests, each as a 2-octet big-endian length and
 * that many octets of type data; byte 0 picks a small fragment size and
 * whether we have output queued. Oracles: a reassembled message never
 * exceeds its announced length nor max_msg; an error leaves nothing half
 * assembled; the fragments we write fit the fragment size plus header.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eap/eap_tls_frag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct eap_tls_frag f;
	static uint8_t out[4096], buf[2048];

	if (size < 1)
		return 0;
	eap_tls_frag_init(&f);
	f.frag_size = 16 + (data[0] & 0x3f) * 16;
	f.max_msg = 8192;
	f.max_frags = 64;
	if (data[0] & 0x80) {
		memset(out, 0x42, sizeof(out));
		if (eap_tls_frag_set_out(&f, out, sizeof(out)) < 0)
			abort();
	}
	data++;
	size--;
	while (size >= 2) {
		size_t len = (size_t)data[0] << 8 | data[1];
		enum eap_tls_frag_rx r;

		data += 2;
		size -= 2;
		if (len > size)
			len = size;
		r = eap_tls_frag_rx(&f, data, len);
		data += len;
		size -= len;
		if (r == EAP_TLS_RX_MESSAGE) {
			size_t n;
			const uint8_t *m = eap_tls_frag_msg(&f, &n);
			if (n > f.max_msg || (n && !m))
				abort();
			if (f.in_announced && n != f.in_announced)
				abort();
		} else if (r == EAP_TLS_RX_ERROR) {
			if (f.in_len || f.in_progress || !f.error[0])
				abort();
		} else if (r == EAP_TLS_RX_NEED_MORE) {
			if (f.in_len > f.max_msg || (f.in_announced && f.in_len > f.in_announced))
				abort();
		}
		if (r == EAP_TLS_RX_ACK || r == EAP_TLS_RX_NEED_MORE) {
			int n = eap_tls_frag_next(&f, 0, buf, sizeof(buf));
			if (n < 1 || (size_t)n > f.frag_size + 5)
				abort();
		}
	}
	eap_tls_frag_reset(&f);
	return 0;
}
