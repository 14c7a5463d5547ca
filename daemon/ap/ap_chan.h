/* The BSS's operating channel: from a control channel and a wanted width
 * to a channel definition (center frequencies, secondary channel), checked
 * against what the radio and the regulatory domain allow.
 *
 * 5 GHz (IEEE 802.11-2020 Annex E, Table E-4): 40, 80 and 160 MHz channels
 * are fixed blocks of adjacent 20 MHz channels (36-40, 36-48, 36-64, ...);
 * the control channel picks the block, every channel of it must be usable.
 * 2.4 GHz: the secondary channel is 4 channels above or below the control
 * one (11.16.2); a 40 MHz BSS may start only where the 20/40 coexistence
 * rules of 11.16.3 allow it (ap_chan_2g4_40_allowed with the neighbours an
 * overlapping-BSS scan found).
 *
 * Width 0 is "auto": the widest the radio, the regulatory domain and the
 * band allow; on 2.4 GHz auto stays at 20 MHz (40 MHz there is opt-in,
 * as it halves the usable channels for everyone around).
 */
#ifndef WPAD_AP_AP_CHAN_H
#define WPAD_AP_AP_CHAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/driver.h"

struct ap_chandef {
	uint32_t control_mhz;
	uint16_t width_mhz;   /* 20, 40, 80, 160 */
	uint32_t center1_mhz; /* the whole channel's center */
	int8_t sec_offset;    /* +1 secondary above, -1 below, 0 at 20 MHz */
	bool radar;           /* some channel of it needs a CAC first */
};

/* Picks the definition for control_mhz in band at want_mhz (0: auto).
 * allow_radar: channels needing radar detection are usable (the caller
 * runs the CAC). Returns 0, or:
 *   -EINVAL     want_mhz not 0/20/40/80/160, or no such control channel
 *   -EOPNOTSUPP the radio cannot use that width in this band
 *   -EPERM      the regulatory domain forbids it (a channel of the block
 *               disabled, no-IR, radar without allow_radar, a NO_* flag)
 * with *why (static text) saying which. */
int ap_chan_pick(const struct driver_capa *capa, enum driver_band band, uint32_t control_mhz,
		 unsigned want_mhz, bool allow_radar, struct ap_chandef *out, const char **why);

/* VHT Operation fields (9.4.2.158): channel width 0 (20/40) or 1 (80/160)
 * and the segment center channel numbers (160 MHz: seg0 the 80 MHz half
 * holding the control channel, seg1 the whole channel, as 802.11-2020
 * Table 9-274 prefers). */
void ap_chan_vht_op(const struct ap_chandef *cd, uint8_t *width, uint8_t *seg0, uint8_t *seg1);

/* The driver's form. */
void ap_chan_to_driver(const struct ap_chandef *cd, struct driver_chandef *out);

/* A neighbouring BSS found by the overlapping-BSS scan (2.4 GHz). */
struct ap_obss {
	uint32_t pri_mhz;
	uint32_t sec_mhz;      /* 0: a 20 MHz BSS */
	bool intolerant;       /* its HT Capabilities has Forty MHz Intolerant */
};

/* 20/40 coexistence (11.16.3.2, as for starting a 20/40 BSS): every BSS
 * whose primary channel lies within the frequencies the 40 MHz channel
 * affects (its center +-25 MHz) must have our primary channel as its
 * primary, and a 40 MHz one our secondary as its secondary; none may be
 * Forty MHz Intolerant. False with *why otherwise. */
bool ap_chan_2g4_40_allowed(const struct ap_chandef *cd, const struct ap_obss *bss, size_t n,
			    const char **why);

/* "20 MHz", "80 MHz" ... for logs. */
const char *ap_chan_width_name(unsigned width_mhz);

#endif
