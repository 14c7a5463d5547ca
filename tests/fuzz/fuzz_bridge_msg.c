/* Fuzz the rtnetlink replies daemon/bridge.c reads (daemon/bridge_msg.c).
 *
 * Input: one netlink datagram as the kernel would answer RTM_GETLINK or a
 * request with NLM_F_ACK.
 * Oracles: the parser returns 0 or a negative errno (never positive); a 0
 * from a link message fills found, from an ACK leaves it clear; the same bytes parse the same way
 * with and without an output struct (no state between calls).
 */
#include <errno.h>
#include <linux/rtnetlink.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/bridge_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly size bytes, so ASan sees any read past it. */
	uint8_t *buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	struct bridge_link l;
	int r = bridge_msg_parse_reply(buf, size, &l);
	int r2 = bridge_msg_parse_reply(buf, size, NULL);
	if (r > 0 || r < -4095 || r != r2)
		abort();
	/* Success: an ACK finds no link, a link message always does. */
	if (r == 0) {
		uint16_t type;
		memcpy(&type, buf + 4, sizeof(type));
		if (l.found != (type == RTM_NEWLINK))
			abort();
	}
	free(buf);
	return 0;
}
