/* libFuzzer target for medium_msg_decode(): any bytes must decode without
 * touching memory outside the input, and whatever decodes must encode back
 * to exactly the same bytes (the wire form is canonical), so the encoder and
 * decoder can never disagree about a field. */
#include "drivers/sim/medium-proto.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t out[MEDIUM_MAX_MSG];
	struct medium_msg msg;

	if (medium_msg_decode(data, size, &msg) != 0)
		return 0;
	if (msg.frame && (msg.frame < data || msg.frame + msg.frame_len != data + size))
		abort();
	(void)medium_msg_type_name(msg.type);
	int n = medium_msg_encode(&msg, out, sizeof(out));
	if (n < 0 || (size_t)n != size || memcmp(out, data, size) != 0)
		abort();
	return 0;
}
