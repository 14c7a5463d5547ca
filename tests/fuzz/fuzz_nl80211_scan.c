/* Fuzz the scan result parser (one message of a GET_SCAN dump).
 *
 * Oracle: no out-of-bounds access (ASan) or leak (LSan); a parsed result's
 * elements are a copy no longer than the message. */
#include "drivers/nl80211/nl80211-parse.h"
#include "tests/fuzz/fuzz_nl80211_msg.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nlmsghdr *h = fuzz_nl80211_msg(data, size, FUZZ_NL80211_FAMILY, NLM_F_MULTI);
	struct driver_scan_result r;
	uint32_t ifindex;

	if (!h)
		return 0;
	int e = nl80211_parse_scan_result(h, &ifindex, &r);
	if (e == 0) {
		if (r.ies_len > size || (r.ies_len && !r.ies) || (!r.ies_len && r.ies))
			abort();
		/* Touch every octet so ASan checks the copy. */
		uint8_t sum = 0;
		for (size_t i = 0; i < r.ies_len; i++)
			sum ^= r.ies[i];
		/* An opaque sink so the loop is neither unused nor optimized out. */
		__asm__ volatile("" : : "r"(sum));
		free(r.ies);
	} else if (r.ies) {
		abort(); /* a failed parse owns nothing */
	}
	free(h);
	return 0;
}
