/* Automatic channel selection: the scoring. See ap_acs.h. */
#include "daemon/ap/ap_acs.h"

#include "daemon/ap/ap_conf.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define NOISE_REF_DBM (-95)
#define BSS_PENALTY 10
#define SIGNAL_FLOOR_DBM (-100)

static bool candidate_2g4(const struct driver_band_info *b, uint16_t number)
{
	bool have_1_6_11 = false;
	for (size_t i = 0; i < b->n_channels; i++) {
		uint16_t c = b->channels[i].number;
		if ((c == 1 || c == 6 || c == 11) && !(b->channels[i].flags & DRIVER_CHAN_DISABLED))
			have_1_6_11 = true;
	}
	if (!have_1_6_11)
		return true;
	return number == 1 || number == 6 || number == 11;
}

static const struct driver_survey *survey_of(const struct ap_acs_input *in, uint32_t freq)
{
	for (size_t i = 0; i < in->n_survey; i++)
		if (in->survey[i].freq_mhz == freq)
			return &in->survey[i];
	return NULL;
}

/* Does a BSS on primary `freq` overlap [lo, hi] (MHz)? A 20 MHz BSS spans
 * +-10 MHz, on 2.4 GHz its 22 MHz DSSS mask reaches further: +-11. */
static bool overlaps(uint32_t freq, uint32_t lo, uint32_t hi, enum driver_band band)
{
	uint32_t half = band == DRIVER_BAND_2GHZ ? 11 : 10;
	return freq + half > lo && freq < hi + half;
}

static void score(const struct ap_acs_input *in, struct ap_acs_candidate *c)
{
	const struct ap_chandef *cd = &c->chandef;
	uint32_t lo = cd->center1_mhz - cd->width_mhz / 2, hi = cd->center1_mhz + cd->width_mhz / 2;
	uint64_t busy_sum = 0;
	int noise_sum = 0;
	unsigned n_time = 0, n_noise = 0, bss_cost = 0;

	for (uint32_t f = lo + 10; f < hi; f += 20) {
		const struct driver_survey *s = survey_of(in, f);
		if (s && s->has_time && s->active_ms) {
			busy_sum += s->busy_ms * 100 / s->active_ms;
			n_time++;
		}
		if (s && s->has_noise) {
			noise_sum += s->noise_dbm;
			n_noise++;
		}
	}
	for (size_t i = 0; i < in->n_bss; i++) {
		if (!overlaps(in->bss[i].freq_mhz, lo, hi, in->band))
			continue;
		int dbm = in->bss[i].signal_mbm / 100;
		c->n_bss++;
		bss_cost += BSS_PENALTY + (dbm > SIGNAL_FLOOR_DBM ? (unsigned)(dbm - SIGNAL_FLOOR_DBM) / 4 : 0);
	}
	c->busy_pct = n_time ? (unsigned)(busy_sum / n_time) : 0;
	c->noise_dbm = n_noise ? noise_sum / (int)n_noise : 0;
	int noise_cost = n_noise && c->noise_dbm > NOISE_REF_DBM ? c->noise_dbm - NOISE_REF_DBM : 0;
	c->score = (int)c->busy_pct + noise_cost + (int)bss_cost;
	char noise[24] = "noise unknown";
	if (n_noise)
		snprintf(noise, sizeof(noise), "noise %d dBm", c->noise_dbm);
	snprintf(c->why, sizeof(c->why), "channel %u (%s): busy %u%%, %s, %u BSS%s: %d",
		 ap_freq_to_channel(c->freq_mhz), ap_chan_width_name(cd->width_mhz), c->busy_pct,
		 noise, c->n_bss, c->n_bss == 1 ? "" : "s", c->score);
}

int ap_acs_choose(const struct ap_acs_input *in, struct ap_acs_result *out)
{
	memset(out, 0, sizeof(*out));
	const struct driver_band_info *b = &in->capa->bands[in->band];
	for (size_t i = 0; b->present && i < b->n_channels && out->n < DRIVER_MAX_CHANNELS; i++) {
		const struct driver_channel *ch = &b->channels[i];
		struct ap_acs_candidate *c = &out->cand[out->n];
		if (in->band == DRIVER_BAND_2GHZ && !candidate_2g4(b, ch->number))
			continue;
		memset(c, 0, sizeof(*c));
		c->freq_mhz = ch->freq_mhz;
		if (ap_chan_pick(in->capa, in->band, ch->freq_mhz, in->width_mhz, in->allow_radar,
				 &c->chandef, NULL) < 0)
			continue;
		score(in, c);
		out->n++;
	}
	if (!out->n) {
		snprintf(out->summary, sizeof(out->summary),
			 "no channel of the band can be used at this width");
		return -ENOENT;
	}
	size_t best = 0, second = out->n;
	for (size_t i = 1; i < out->n; i++) {
		if (out->cand[i].score < out->cand[best].score) {
			second = best;
			best = i;
		} else if (second == out->n || out->cand[i].score < out->cand[second].score) {
			second = i;
		}
	}
	out->chosen = best;
	out->freq_mhz = out->cand[best].freq_mhz;
	if (second < out->n)
		snprintf(out->summary, sizeof(out->summary),
			 "%s; lowest of %zu candidates (next: %s)", out->cand[best].why, out->n,
			 out->cand[second].why);
	else
		snprintf(out->summary, sizeof(out->summary), "%s; the only candidate",
			 out->cand[best].why);
	return 0;
}
