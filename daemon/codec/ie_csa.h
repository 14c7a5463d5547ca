/* Channel Switch Announcement (element 37, IEEE 802.11-2020 9.4.2.18) and
 * Extended Channel Switch Announcement (element 60, 9.4.2.52): an AP
 * leaving its channel says where to and after how many beacons (count 0:
 * at any time now); mode 1 asks stations to stop transmitting until then.
 * Fixed lengths: 3 and 4 octets; anything else is CODEC_E_BAD_LENGTH. A
 * new channel 0 is CODEC_E_MALFORMED (no such channel), and so is a mode
 * other than 0 or 1 (reserved). */
#ifndef WPAD_CODEC_IE_CSA_H
#define WPAD_CODEC_IE_CSA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/bytes.h"

#define IE_CSA_LEN 3
#define IE_ECSA_LEN 4
/* Offset of the count octet from the start of the CSA element (header
 * included): what the driver decrements in the beacon template. */
#define IE_CSA_COUNT_OFFSET 4

struct ie_csa {
	uint8_t mode;        /* 1: no transmissions until the switch */
	uint8_t op_class;    /* ECSA only; 0 for CSA */
	uint8_t new_channel;
	uint8_t count;       /* beacons (TBTTs) until the switch */
};

int ie_parse_csa(const uint8_t *body, size_t len, struct ie_csa *out);
int ie_build_csa(struct wbuf *w, const struct ie_csa *csa);
int ie_parse_ecsa(const uint8_t *body, size_t len, struct ie_csa *out);
int ie_build_ecsa(struct wbuf *w, const struct ie_csa *csa);

/* The new channel's width for a switch to more than 40 MHz: a Channel
 * Switch Wrapper (element 196, 9.4.2.161) holding a Wide Bandwidth Channel
 * Switch subelement (194, 9.4.2.159), its fields those of VHT Operation
 * (width 0: 20/40 MHz, 1: 80 or 160 MHz; 2 and 3 deprecated; above 3
 * CODEC_E_MALFORMED). Without it a station follows at 20 MHz (or 40 with
 * a Secondary Channel Offset element) until it hears the new beacons.
 * Parsing takes the subelement (exactly 3 octets, else
 * CODEC_E_BAD_LENGTH); a wrapper without one gives *found false. */
struct ie_wide_bw_cs {
	uint8_t width;
	uint8_t seg0;
	uint8_t seg1;
};

int ie_parse_csw_wrapper(const uint8_t *body, size_t len, struct ie_wide_bw_cs *out, bool *found);
int ie_build_csw_wrapper(struct wbuf *w, const struct ie_wide_bw_cs *wb);

#endif
