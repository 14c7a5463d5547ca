/* Fuzz ie_parse_fte and ie_parse_mde on element bodies.
 *
 * Input: byte 0 picks the MIC length (0 = from the subfield, 16, 24, 32),
 * the rest is the FTE body. Oracle: parse -> build -> parse -> build gives
 * identical octets, and the MIC offset the builder reports is right.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/codec_err.h"
#include "daemon/codec/ie_ft.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t mic_lens[] = { 0, 16, 24, 32 };
	static uint8_t first[512], second[512];
	struct ie_fte fte, again;
	struct ie_mde mde;
	size_t mic_off;

	if (size < 1 || size > 1 + 255) /* an element body is at most 255 */
		return 0;
	(void)ie_parse_mde(data + 1, size - 1, &mde);
	if (ie_parse_fte(data + 1, size - 1, mic_lens[data[0] & 3], &fte) != CODEC_OK)
		return 0;
	struct wbuf w1 = wbuf_init(first, sizeof(first));
	if (ie_build_fte(&w1, &fte, &mic_off) != CODEC_OK || mic_off != 4 ||
	    memcmp(first + mic_off, fte.mic, fte.mic_len) != 0)
		abort();
	if (ie_parse_fte(first + 2, w1.len - 2, 0, &again) != CODEC_OK ||
	    again.mic_len != fte.mic_len)
		abort();
	struct wbuf w2 = wbuf_init(second, sizeof(second));
	if (ie_build_fte(&w2, &again, NULL) != CODEC_OK || w2.len != w1.len ||
	    memcmp(first, second, w1.len) != 0)
		abort();
	return 0;
}
