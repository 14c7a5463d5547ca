/* The authenticator (access point) side of the 4-way and group key
 * handshakes for one station, IEEE 802.11-2020 12.7.6, 12.7.7 and the
 * per-station state machines of 13.
 *
 * States:
 *   IDLE                created or stopped
 *   PTKSTART            message 1 sent (fresh ANonce), waiting for message 2;
 *                       message 1 is resent on the retry timer
 *   PTKINITNEGOTIATING  message 2 verified, message 3 sent (GTK inside),
 *                       waiting for message 4; message 3 is resent
 *   PTKINITDONE         PTK installed, port authorized
 *   REKEYNEGOTIATING    group message 1 sent, waiting for group message 2;
 *                       the PTK stays in use
 *   FAILED              on_failure() was called; rsn_auth_start() restarts
 *
 * Every message is sent at most timing.max_attempts times, each with a new
 * replay counter; an answer to any of those sends is accepted. After the
 * last wait the handshake fails: a station whose message 2 MIC never
 * verified most likely has the wrong passphrase (RSN_FAIL_LIKELY_WRONG_-
 * PASSPHRASE, reason 15), otherwise RSN_FAIL_TIMEOUT (15) or
 * RSN_FAIL_GROUP_TIMEOUT (16).
 *
 * The PMK: given in the configuration (PSK), or set later with
 * rsn_auth_set_pmk() once SAE, 802.1X or the PMKSA cache provides it, before
 * rsn_auth_start(). With a PMKID (a PMKSA: not PSK), message 1 carries it
 * in a PMKID KDE.
 *
 * Ownership: rsn_auth_new() copies the configuration; the group is borrowed
 * and must outlive the machine. on_complete()/on_failure() may free it.
 */
#ifndef WPAD_RSN_AUTHENTICATOR_H
#define WPAD_RSN_AUTHENTICATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/loop.h"
#include "daemon/rsn/group.h"
#include "daemon/rsn/rsn_types.h"

enum rsn_auth_state {
	RSN_AUTH_STATE_IDLE,
	RSN_AUTH_STATE_PTKSTART,
	RSN_AUTH_STATE_PTKINITNEGOTIATING,
	RSN_AUTH_STATE_PTKINITDONE,
	RSN_AUTH_STATE_REKEYNEGOTIATING,
	RSN_AUTH_STATE_FAILED,
};

struct rsn_auth_stats {
	unsigned int rx_accepted;
	unsigned int rx_dropped;
	unsigned int mic_failures; /* frames from the station whose MIC failed */
	unsigned int msg1_sent;
	unsigned int msg3_sent;
	unsigned int group_msg1_sent;
	unsigned int handshakes; /* completed 4-way handshakes */
	unsigned int group_handshakes;
};

struct rsn_auth;

/* cfg->own_addr is the AP, peer_addr the station. Returns NULL on a bad
 * configuration (logged) or allocation failure. */
struct rsn_auth *rsn_auth_new(struct loop *loop, const struct rsn_config *cfg,
			      const struct rsn_ops *ops, void *ctx, struct rsn_group *group);
void rsn_auth_free(struct rsn_auth *sm);

/* Sets or replaces the PMK (16..64 octets, copied; the old one wiped) and
 * its PMKID (NULL: none, no PMKID KDE). Returns 0, -EINVAL, or -EBUSY while
 * a 4-way handshake runs. */
int rsn_auth_set_pmk(struct rsn_auth *sm, const uint8_t *pmk, size_t len, const uint8_t *pmkid);
/* Starts a 4-way handshake (also a PTK rekey from PTKINITDONE): fresh
 * ANonce, message 1. Returns 0, -ENOKEY when no PMK is set yet (nothing
 * happens), or -EIO when no nonce could be drawn (the handshake has then
 * failed). */
int rsn_auth_start(struct rsn_auth *sm);
/* Station gone: back to IDLE without callbacks. */
void rsn_auth_stop(struct rsn_auth *sm);

/* One received EAPOL frame. Returns RSN_RX_OK or why it was dropped. */
int rsn_auth_rx_eapol(struct rsn_auth *sm, const uint8_t *frame, size_t len);
/* The TX status of the EAPOL-Key frame sent last. Message 1 or 3 sent
 * once waits only retry_first_ms, for a frame lost on the way; once it is
 * acknowledged the station has it and its answer gets retry_ms from now
 * (hostapd does the same for message 1), instead of a copy into a busy
 * channel that only delays the answer more. */
void rsn_auth_tx_status(struct rsn_auth *sm, bool acked);

/* Sends the group's current GTK in a group key handshake. During a 4-way
 * handshake it is sent once that completes, if message 3 carried an older
 * key. Returns 0, or -ENOTCONN when no handshake has run. */
int rsn_auth_group_rekey(struct rsn_auth *sm);

enum rsn_auth_state rsn_auth_state(const struct rsn_auth *sm);
const char *rsn_auth_state_name(enum rsn_auth_state state);
const struct rsn_auth_stats *rsn_auth_stats(const struct rsn_auth *sm);
/* Message 2/4 or group message 2 frames whose MIC did not verify. */
unsigned int rsn_auth_mic_failures(const struct rsn_auth *sm);

#endif
