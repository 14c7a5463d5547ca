/* The supplicant (station) side of the 4-way and group key handshakes,
 * IEEE 802.11-2020 12.7.6 and 12.7.7.
 *
 * States:
 *   IDLE         created or stopped; a message 1 starts it implicitly
 *   WAIT_MSG1    started (association done); handshake timer running
 *   WAIT_MSG3    message 2 sent, a temporary PTK derived, nothing installed
 *   ESTABLISHED  PTK and GTK installed, port authorized; group key
 *                handshakes and retransmitted message 3s are answered here
 *   REKEYING     a message 1 after completion: a new temporary PTK is
 *                derived and message 2 sent, the installed PTK stays in use
 *                until a message 3 confirms the new one
 *   FAILED       on_failure() was called; only rsn_supp_start() leaves it
 *
 * The PMK: given in the configuration (PSK), or set later with
 * rsn_supp_set_pmk() once SAE, 802.1X or the PMKSA cache provides it; a
 * message 1 that arrives before is dropped (RSN_RX_E_NO_PMK) and the AP
 * retransmits it. When the configuration names the PMKID we offered, a
 * message 1 naming another ends the handshake with RSN_FAIL_PMKID (reason
 * 49): the AP did not take our PMKSA.
 *
 * Ownership: rsn_supp_new() copies the configuration (PMK included, wiped
 * on free). The caller owns the machine and frees it with rsn_supp_free(),
 * which on_complete()/on_failure() may also call.
 */
#ifndef WPAD_RSN_SUPPLICANT_H
#define WPAD_RSN_SUPPLICANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/loop.h"
#include "daemon/rsn/rsn_types.h"

enum rsn_supp_state {
	RSN_SUPP_STATE_IDLE,
	RSN_SUPP_STATE_WAIT_MSG1,
	RSN_SUPP_STATE_WAIT_MSG3,
	RSN_SUPP_STATE_ESTABLISHED,
	RSN_SUPP_STATE_REKEYING,
	RSN_SUPP_STATE_FAILED,
};

struct rsn_supp_stats {
	unsigned int rx_accepted;  /* frames acted upon */
	unsigned int rx_dropped;   /* frames dropped, any reason */
	unsigned int mic_failures; /* frames whose MIC did not verify */
	unsigned int ptk_installs;
	unsigned int gtk_installs;
	unsigned int igtk_installs;
	unsigned int rekeys; /* completed handshakes after the first */
};

struct rsn_supp;

/* Returns NULL on a bad configuration (logged) or allocation failure. */
struct rsn_supp *rsn_supp_new(struct loop *loop, const struct rsn_config *cfg,
			      const struct rsn_ops *ops, void *ctx);
void rsn_supp_free(struct rsn_supp *sm);

/* Association complete: wait for message 1 (arms the handshake timer). From
 * any state; a running handshake is abandoned and the keys forgotten. */
void rsn_supp_start(struct rsn_supp *sm);
/* Sets or replaces the PMK (16..64 octets, copied; the old one wiped) and
 * the PMKID offered for it (NULL: none). Returns 0, -EINVAL, or -EBUSY
 * between message 1 and message 3, when the PTK being derived depends on
 * the PMK in use. */
int rsn_supp_set_pmk(struct rsn_supp *sm, const uint8_t *pmk, size_t len,
		     const uint8_t *pmkid);
/* The PMKID KDE of the last message 1 into pmkid; false when it had none. */
bool rsn_supp_msg1_pmkid(const struct rsn_supp *sm, uint8_t pmkid[RSN_PMKID_LEN]);
/* Disassociated: back to IDLE without callbacks. */
void rsn_supp_stop(struct rsn_supp *sm);

/* One received EAPOL frame (header included, Ethernet padding allowed).
 * Returns RSN_RX_OK when it was acted upon, or why it was dropped. */
int rsn_supp_rx_eapol(struct rsn_supp *sm, const uint8_t *frame, size_t len);

/* Sends a Michael MIC Failure Report (IEEE 802.11-2020 12.5.2.4, 12.7.2):
 * an EAPOL-Key Request with the Error, MIC and Secure bits, Key Type
 * pairwise when the failed frame was unicast. Its replay counter is the
 * supplicant's request counter (0 after each new PTK, then +1 per request).
 * Returns 0, or -ENOTCONN before a PTK exists. */
int rsn_supp_mic_failure_report(struct rsn_supp *sm, bool pairwise);

enum rsn_supp_state rsn_supp_state(const struct rsn_supp *sm);
const char *rsn_supp_state_name(enum rsn_supp_state state);
const struct rsn_supp_stats *rsn_supp_stats(const struct rsn_supp *sm);

#endif
