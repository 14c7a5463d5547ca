/* Fuzz the channel survey parser (one message of a GET_SURVEY dump).
 *
 * Oracle: no out-of-bounds access (ASan); a parsed entry has a frequency,
 * and its busy time never exceeds its active time. */
#include "drivers/nl80211/nl80211-parse.h"
#include "tests/fuzz/fuzz_nl80211_msg.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nlmsghdr *h = fuzz_nl80211_msg(data, size, FUZZ_NL80211_FAMILY, NLM_F_MULTI);
	struct driver_survey s;
	uint32_t ifindex;

	if (!h)
		return 0;
	if (nl80211_parse_survey(h, &ifindex, &s) == 0 &&
	    (!s.freq_mhz || (s.has_time && s.busy_ms > s.active_ms)))
		abort();
	free(h);
	return 0;
}
