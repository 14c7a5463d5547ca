/* Automatic channel selection (Channel=auto): scores every channel the
 * BSS could use from the radio's survey (share of time the medium was
 * busy, noise floor) and the neighbouring BSSs a scan heard, and picks the
 * lowest score. Pure: the AP gathers the inputs (driver_get_survey,
 * driver_get_scan_results) and applies the choice.
 *
 * Score of a candidate (lower is better), over the 20 MHz channels its
 * channel definition covers (ap_chan.h, at the configured width):
 *   busy     average busy share in percent              (0..100)
 *   noise    + dB the noise floor is above -95 dBm      (0 when unknown)
 *   bss      + 10 per neighbouring BSS whose primary channel overlaps,
 *            + (signal + 100 dBm) / 4 for its strength  (stronger is worse)
 * On 2.4 GHz only 1, 6 and 11 (and 13/14 where 1/6/11 are missing) are
 * candidates: the non-overlapping set everyone should share. Radar
 * channels count only when allow_radar. Ties go to the lower frequency.
 */
#ifndef WPAD_AP_AP_ACS_H
#define WPAD_AP_AP_ACS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/ap/ap_chan.h"
#include "drivers/driver.h"

#define AP_ACS_WHY_LEN 96
#define AP_ACS_SUMMARY_LEN 256

struct ap_acs_bss {
	uint32_t freq_mhz;   /* primary channel */
	int32_t signal_mbm;
};

struct ap_acs_candidate {
	uint32_t freq_mhz;
	struct ap_chandef chandef;
	int score;
	unsigned busy_pct;
	int noise_dbm;       /* 0: unknown */
	unsigned n_bss;
	char why[AP_ACS_WHY_LEN]; /* "channel 36 (80 MHz): busy 12%, noise -92 dBm, 2 BSSs: 46" */
};

struct ap_acs_result {
	uint32_t freq_mhz;   /* the choice; 0 when no channel is usable */
	size_t chosen;       /* index into cand */
	size_t n;
	struct ap_acs_candidate cand[DRIVER_MAX_CHANNELS];
	char summary[AP_ACS_SUMMARY_LEN]; /* the choice and why, for logs and D-Bus */
};

struct ap_acs_input {
	const struct driver_capa *capa;
	enum driver_band band;
	unsigned width_mhz;  /* as Width= (0: auto) */
	bool allow_radar;
	const struct driver_survey *survey;
	size_t n_survey;
	const struct ap_acs_bss *bss;
	size_t n_bss;
};

/* Fills out (every candidate scored, the choice and a summary). Returns 0,
 * or -ENOENT when no channel of the band is usable (out->summary says so). */
int ap_acs_choose(const struct ap_acs_input *in, struct ap_acs_result *out);

#endif
