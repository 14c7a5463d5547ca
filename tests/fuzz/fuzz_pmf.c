/* Fuzz the PMF codecs: mmie_parse_trailer (both MIC sizes), sa_query_parse
 * and ie_parse_timeout_interval. The first input octet picks the parser.
 *
 * Oracle: whatever parses builds again to the same bytes (the MMIE with its
 * MIC copied back, the SA Query header and its elements, the Timeout
 * Interval element), and pointers stay inside the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/pmf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_mmie(const uint8_t *d, size_t n, size_t mic_len)
{
	struct mmie m;
	uint8_t out[32];

	if (mmie_parse_trailer(d, n, mic_len, &m) != CODEC_OK)
		return;
	if (m.mic < d || m.mic + m.mic_len != d + n || m.mic_len != mic_len)
		abort();
	struct wbuf w = wbuf_init(out, sizeof(out));
	if (mmie_build(&w, m.key_id, m.ipn, m.mic_len) != CODEC_OK)
		abort();
	memcpy(out + w.len - m.mic_len, m.mic, m.mic_len);
	if (memcmp(out, d + n - w.len, w.len) != 0)
		abort();
}

static void check_sa_query(const uint8_t *d, size_t n)
{
	struct sa_query_frame q;
	uint8_t out[4];

	if (sa_query_parse(d, n, &q) != CODEC_OK)
		return;
	struct wbuf w = wbuf_init(out, sizeof(out));
	if (sa_query_build(&w, (enum sa_query_action)q.action, q.trans_id) != CODEC_OK ||
	    memcmp(out, d, 4) != 0 || q.ies_len != n - 4 || (q.ies && q.ies != d + 4))
		abort();
}

static void check_timeout(const uint8_t *d, size_t n)
{
	struct ie_timeout_interval t;
	uint8_t out[7];

	if (ie_parse_timeout_interval(d, n, &t) != CODEC_OK)
		return;
	struct wbuf w = wbuf_init(out, sizeof(out));
	if (ie_build_timeout_interval(&w, (enum timeout_interval_type)t.type, t.value) != CODEC_OK ||
	    memcmp(out + 2, d, 5) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	const uint8_t *d = data + 1;
	size_t n = size - 1;

	switch (data[0] & 3) {
	case 0:
		check_mmie(d, n, 8);
		break;
	case 1:
		check_mmie(d, n, 16);
		break;
	case 2:
		check_sa_query(d, n);
		break;
	default:
		check_timeout(d, n);
		break;
	}
	return 0;
}
