/* Fuzz data_hdr_parse.
 *
 * Oracle: a parsed header builds back to exactly the input's header
 * octets, and the derived lengths and address roles stay in the frame.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool inside(const uint8_t *p, const uint8_t *data, size_t size)
{
	return !p || (p >= data && p + 6 <= data + size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t out[64];
	struct data_hdr h;

	if (data_hdr_parse(data, size, &h) != CODEC_OK)
		return 0;
	if (h.hdr_len != data_hdr_len(h.fc) || h.hdr_len + h.body_len != size)
		abort();
	if (!inside(h.da, data, size) || !inside(h.sa, data, size) ||
	    !inside(h.bssid, data, size) || !inside(h.addr4, data, size))
		abort();
	struct wbuf w = wbuf_init(out, sizeof(out));
	if (data_hdr_build(&w, &h) != CODEC_OK || w.len != h.hdr_len ||
	    memcmp(out, data, w.len) != 0)
		abort();
	return 0;
}
