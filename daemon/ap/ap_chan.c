/* Channel definitions for the BSS: width, blocks, center frequencies. See
 * ap_chan.h. */
#include "daemon/ap/ap_chan.h"

#include "daemon/ap/ap_conf.h"

#include <errno.h>
#include <string.h>

/* HT Capabilities Info bit 1: 20/40 MHz supported. */
#define HT_CAP_WIDTH_40 0x0002u
/* VHT Capabilities Info bits 2-3: Supported Channel Width Set (1: 160,
 * 2: 160 and 80+80). */
#define VHT_CAP_WIDTH_SHIFT 2
#define VHT_CAP_WIDTH_MASK 0x3u

const char *ap_chan_width_name(unsigned width_mhz)
{
	switch (width_mhz) {
	case 0:
		return "auto";
	case 20:
		return "20 MHz";
	case 40:
		return "40 MHz";
	case 80:
		return "80 MHz";
	case 160:
		return "160 MHz";
	}
	return "invalid width";
}

static const char *radio_cannot(const struct driver_band_info *b, unsigned width)
{
	switch (width) {
	case 20:
		return NULL;
	case 40:
		return b->ht && (b->ht_capab & HT_CAP_WIDTH_40) ? NULL
								: "the radio has no 40 MHz (HT) here";
	case 80:
		return b->vht ? NULL : "the radio has no 80 MHz (VHT) here";
	case 160:
		return b->vht && ((b->vht_capab >> VHT_CAP_WIDTH_SHIFT) & VHT_CAP_WIDTH_MASK)
			       ? NULL
			       : "the radio has no 160 MHz here";
	}
	return "no such width";
}

/* A radar channel without a passed CAC. */
static bool needs_cac(const struct driver_channel *ch)
{
	return (ch->flags & DRIVER_CHAN_RADAR) && !(ch->flags & DRIVER_CHAN_DFS_AVAILABLE);
}

/* Why one 20 MHz channel of the block cannot be used, or NULL. */
static const char *channel_unusable(const struct driver_channel *ch, unsigned width,
				    bool allow_radar)
{
	if (!ch)
		return "a channel of the block is missing on this radio";
	if (ch->flags & DRIVER_CHAN_DISABLED)
		return "a channel of the block is disabled here";
	if (ch->flags & DRIVER_CHAN_DFS_UNAVAILABLE)
		return "radar was detected on a channel of the block (non-occupancy period)";
	if (ch->flags & DRIVER_CHAN_RADAR) {
		if (!allow_radar && !(ch->flags & DRIVER_CHAN_DFS_AVAILABLE))
			return "a channel of the block needs radar detection";
	} else if (ch->flags & DRIVER_CHAN_NO_IR) {
		return "a channel of the block may not be transmitted on (no-IR)";
	}
	if (width == 80 && ch->flags & DRIVER_CHAN_NO_80MHZ)
		return "the regulatory domain forbids 80 MHz there";
	if (width == 160 && ch->flags & DRIVER_CHAN_NO_160MHZ)
		return "the regulatory domain forbids 160 MHz there";
	return NULL;
}

/* First channel number of the 5 GHz block of `width` holding `chan`:
 * blocks are aligned on 36 below 149 and on 149 from there (Table E-4). */
static unsigned block_start_5g(unsigned chan, unsigned width)
{
	unsigned base = chan >= 149 ? 149 : 36;
	unsigned span = width / 5; /* in channel numbers: 40 MHz = 8 */
	return base + (chan - base) / span * span;
}

static int pick_5g(const struct driver_capa *capa, unsigned chan, unsigned width,
		   bool allow_radar, struct ap_chandef *cd, const char **why)
{
	if (chan < 36) {
		*why = "not a channel with wide blocks";
		return -EINVAL;
	}
	unsigned first = block_start_5g(chan, width);
	unsigned n = width / 20;
	for (unsigned i = 0; i < n; i++) {
		unsigned c = first + 4 * i;
		const struct driver_channel *ch =
			ap_find_channel(capa, DRIVER_BAND_5GHZ, 5000 + 5 * c);
		const char *bad = channel_unusable(ch, width, allow_radar);
		if (!bad && width == 40)
			bad = c == chan && (ch->flags & (c == first ? DRIVER_CHAN_NO_HT40_PLUS
								    : DRIVER_CHAN_NO_HT40_MINUS))
				      ? "the regulatory domain forbids 40 MHz there"
				      : NULL;
		if (bad) {
			*why = bad;
			return -EPERM;
		}
		if (needs_cac(ch))
			cd->radar = true;
	}
	cd->width_mhz = (uint16_t)width;
	cd->center1_mhz = 5000 + 5 * (first + 2 * (n - 1));
	cd->sec_offset = (int8_t)(width == 20 ? 0 : (chan - first) / 4 % 2 ? -1 : 1);
	return 0;
}

/* 2.4 GHz 40 MHz: secondary above where it fits, else below. */
static int pick_2g4_40(const struct driver_capa *capa, uint32_t ctl, struct ap_chandef *cd,
		       const char **why)
{
	const struct driver_channel *c = ap_find_channel(capa, DRIVER_BAND_2GHZ, ctl);
	static const int8_t order[2] = { 1, -1 };
	*why = "no secondary channel 4 channels above or below is usable";
	for (size_t i = 0; i < 2; i++) {
		uint32_t sec = ctl + (uint32_t)(order[i] * 20);
		const struct driver_channel *s = ap_find_channel(capa, DRIVER_BAND_2GHZ, sec);
		uint32_t no = order[i] > 0 ? DRIVER_CHAN_NO_HT40_PLUS : DRIVER_CHAN_NO_HT40_MINUS;
		if (ctl == 2484 || !s || channel_unusable(s, 40, false) || (c->flags & no))
			continue;
		cd->width_mhz = 40;
		cd->sec_offset = order[i];
		cd->center1_mhz = (ctl + sec) / 2;
		return 0;
	}
	return -EPERM;
}

static int pick_exact(const struct driver_capa *capa, enum driver_band band,
		      const struct ap_chandef *base, unsigned width, bool allow_radar,
		      struct ap_chandef *out, const char **why)
{
	*out = *base;
	if ((*why = radio_cannot(&capa->bands[band], width)))
		return -EOPNOTSUPP;
	if (width == 20)
		return 0;
	if (band == DRIVER_BAND_2GHZ) {
		if (width != 40) {
			*why = "2.4 GHz channels are at most 40 MHz wide";
			return -EOPNOTSUPP;
		}
		return pick_2g4_40(capa, base->control_mhz, out, why);
	}
	if (band != DRIVER_BAND_5GHZ) {
		*why = "wide channels are only set up on 2.4 and 5 GHz";
		return -EOPNOTSUPP;
	}
	return pick_5g(capa, ap_freq_to_channel(base->control_mhz), width, allow_radar, out, why);
}

int ap_chan_pick(const struct driver_capa *capa, enum driver_band band, uint32_t control_mhz,
		 unsigned want_mhz, bool allow_radar, struct ap_chandef *out, const char **why)
{
	static const unsigned auto_order[] = { 160, 80, 40, 20 };
	const char *local;
	if (!why)
		why = &local;
	*why = NULL;
	if (want_mhz != 0 && want_mhz != 20 && want_mhz != 40 && want_mhz != 80 &&
	    want_mhz != 160) {
		*why = "the width must be 20, 40, 80, 160 or auto";
		return -EINVAL;
	}
	const struct driver_channel *ch = ap_find_channel(capa, band, control_mhz);
	if (!ch) {
		*why = "the radio has no such channel";
		return -EINVAL;
	}
	if ((*why = channel_unusable(ch, 20, allow_radar)))
		return -EPERM;
	struct ap_chandef base = { .control_mhz = control_mhz, .width_mhz = 20,
				   .center1_mhz = control_mhz,
				   .radar = needs_cac(ch) };
	if (want_mhz)
		return pick_exact(capa, band, &base, want_mhz, allow_radar, out, why);
	/* auto: 20 MHz on 2.4 GHz; otherwise the widest that works. */
	for (size_t i = 0; i < sizeof(auto_order) / sizeof(auto_order[0]); i++) {
		if (band == DRIVER_BAND_2GHZ && auto_order[i] != 20)
			continue;
		if (pick_exact(capa, band, &base, auto_order[i], allow_radar, out, why) == 0) {
			*why = NULL;
			return 0;
		}
	}
	*out = base;
	return 0;
}

void ap_chan_vht_op(const struct ap_chandef *cd, uint8_t *width, uint8_t *seg0, uint8_t *seg1)
{
	uint8_t center = (uint8_t)((cd->center1_mhz - 5000) / 5);
	*width = 0;
	*seg0 = 0;
	*seg1 = 0;
	if (cd->width_mhz < 80) {
		*seg0 = cd->width_mhz == 40 ? center : 0;
		return;
	}
	*width = 1;
	if (cd->width_mhz == 80) {
		*seg0 = center;
		return;
	}
	/* 160: the 80 MHz half holding the control channel, then the whole. */
	*seg0 = cd->control_mhz < cd->center1_mhz ? (uint8_t)(center - 8) : (uint8_t)(center + 8);
	*seg1 = center;
}

void ap_chan_to_driver(const struct ap_chandef *cd, struct driver_chandef *out)
{
	memset(out, 0, sizeof(*out));
	out->control_mhz = cd->control_mhz;
	out->width_mhz = cd->width_mhz;
	out->center1_mhz = cd->center1_mhz;
}

bool ap_chan_2g4_40_allowed(const struct ap_chandef *cd, const struct ap_obss *bss, size_t n,
			    const char **why)
{
	const char *local;
	if (!why)
		why = &local;
	*why = NULL;
	if (cd->width_mhz != 40)
		return true;
	uint32_t sec = cd->control_mhz + (uint32_t)(cd->sec_offset * 20);
	uint32_t lo = cd->center1_mhz - 25, hi = cd->center1_mhz + 25;
	for (size_t i = 0; i < n; i++) {
		const struct ap_obss *b = &bss[i];
		if (b->intolerant) {
			*why = "a neighbouring BSS is Forty MHz Intolerant";
			return false;
		}
		if (b->pri_mhz < lo || b->pri_mhz > hi)
			continue;
		if (b->pri_mhz != cd->control_mhz) {
			*why = "a neighbouring BSS has its primary channel on our 40 MHz channel";
			return false;
		}
		if (b->sec_mhz && b->sec_mhz != sec) {
			*why = "a neighbouring 40 MHz BSS has another secondary channel";
			return false;
		}
	}
	return true;
}
