/* TKIP countermeasures (IEEE 802.11-2020 12.5.2.4): the timing of Michael
 * MIC failures on a link with a TKIP key. Every failure is reported (the
 * supplicant sends a Michael MIC Failure Report, an EAPOL-Key Request with
 * the Error bit); a second failure within 60 s of the previous one starts
 * countermeasures: the station deauthenticates with reason 14 (MIC
 * failure) and associates with no TKIP network for 60 s.
 *
 * Pure logic on a clock given by the caller (microseconds), so tests drive
 * it without waiting. One struct per station interface, zeroed to start. */
#ifndef WPAD_RSN_MIC_CM_H
#define WPAD_RSN_MIC_CM_H

#include <stdbool.h>
#include <stdint.h>

#define RSN_MIC_CM_WINDOW_US (60ull * 1000000ull) /* between two failures */
#define RSN_MIC_CM_BLOCK_US (60ull * 1000000ull)  /* TKIP refused after */

struct rsn_mic_cm {
	bool have_last;
	uint64_t last_failure_us;
	uint64_t blocked_until_us; /* 0: not blocked */
	unsigned failures;         /* counted, for status and logs */
	unsigned countermeasures;  /* how often they started */
};

enum rsn_mic_cm_action {
	RSN_MIC_CM_REPORT,          /* report it; nothing more */
	RSN_MIC_CM_COUNTERMEASURES, /* report it, deauthenticate (14), block TKIP */
};

/* A MIC failure at now_us. */
enum rsn_mic_cm_action rsn_mic_cm_failure(struct rsn_mic_cm *cm, uint64_t now_us);
/* Whether TKIP networks are refused at now_us. */
bool rsn_mic_cm_blocked(const struct rsn_mic_cm *cm, uint64_t now_us);
/* Microseconds the block still lasts at now_us (0 when not blocked). */
uint64_t rsn_mic_cm_remaining_us(const struct rsn_mic_cm *cm, uint64_t now_us);

#endif
