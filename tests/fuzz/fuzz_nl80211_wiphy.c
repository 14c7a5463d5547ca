/* Fuzz the NEW_WIPHY capability parser: the input is merged twice into one
 * wiphy (as parts of a split dump), then finished.
 *
 * Oracle: no out-of-bounds access (ASan), and the result stays within the
 * driver.h limits: channel and rate counts, unique flags per channel. */
#include "drivers/nl80211/nl80211-parse.h"
#include "tests/fuzz/fuzz_nl80211_msg.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nlmsghdr *h = fuzz_nl80211_msg(data, size, FUZZ_NL80211_FAMILY, 0);
	struct nl80211_wiphy w;
	uint32_t id;

	if (!h)
		return 0;
	nl80211_wiphy_init(&w);
	if (nl80211_wiphy_parse(&w, h) == 0) {
		if (!w.have_id || nl80211_wiphy_index(h, &id) != 0 || id != w.id)
			abort();
		if (nl80211_wiphy_parse(&w, h) != 0)
			abort(); /* the same part again merges cleanly */
	}
	nl80211_wiphy_finish(&w);
	for (int b = 0; b < DRIVER_BAND_COUNT; b++) {
		const struct driver_band_info *band = &w.capa.bands[b];
		if (band->n_channels > DRIVER_MAX_CHANNELS || band->n_rates > DRIVER_MAX_RATES)
			abort();
		for (size_t i = 0; i < band->n_channels; i++) {
			if (!band->channels[i].freq_mhz)
				abort(); /* finish() drops unfilled slots */
			if (!nl80211_wiphy_channel(&w.capa, band->channels[i].freq_mhz))
				abort();
		}
	}
	if (w.capa.max_scan_ssids > DRIVER_MAX_SCAN_SSIDS || !w.capa.max_interfaces)
		abort();
	free(h);
	return 0;
}
