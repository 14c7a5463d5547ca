/* What both ends of the RSN key handshakes share: the negotiated
 * configuration of one association, the timers, and the I/O the state
 * machines reach the rest of wpad through.
 *
 * One struct rsn_config serves both sides. Addresses are "own" and "peer";
 * the two RSN elements are named by who sent them: sta_rsne is the element
 * the station put in its (Re)Association Request, ap_rsne the element the AP
 * advertises in Beacons and Probe Responses. The supplicant sends sta_rsne in
 * message 2 and expects ap_rsne in message 3; the authenticator expects
 * sta_rsne in message 2 and sends ap_rsne in message 3.
 *
 * The PMK is an input: a PSK (from the passphrase), the MSK-derived PMK of an
 * 802.1X exchange, the PMK of SAE, or one from the PMKSA cache. The
 * handshakes do not care which. A PSK is known at creation; the others
 * arrive after an authentication exchange: create the machine without one
 * and hand it over with rsn_supp_set_pmk()/rsn_auth_set_pmk() before the
 * handshake needs it.
 */
#ifndef WPAD_RSN_TYPES_H
#define WPAD_RSN_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/rsn/rsn_err.h"

#define RSN_ADDR_LEN 6
#define RSN_PMK_MAX_LEN 64
#define RSN_ELEM_MAX_LEN 257 /* ID + Length + 255 */
#define RSN_SEQ_LEN 6	     /* a receive sequence counter / packet number */
#define RSN_KEY_MAX_LEN 32
#define RSN_ADDR_STR_LEN 18
#define RSN_PMKID_LEN 16

/* Timers; 0 picks the default named beside each field. */
struct rsn_timing {
	/* Supplicant: from rsn_supp_start() to a completed handshake. */
	unsigned int handshake_timeout_ms; /* 2000 */
	/* Authenticator: wait after the first send of message 1 or 3. */
	unsigned int retry_first_ms; /* 100 */
	/* Authenticator: wait after each later send. */
	unsigned int retry_ms; /* 1000 */
	/* Authenticator: wait after the first send of group message 1. */
	unsigned int group_retry_first_ms; /* 500 */
	/* Authenticator: sends of one message before giving up (max 16). */
	unsigned int max_attempts; /* 4 */
};

struct rsn_config {
	uint8_t own_addr[RSN_ADDR_LEN];
	uint8_t peer_addr[RSN_ADDR_LEN];
	uint32_t akm;		    /* RSN_AKM_PSK, RSN_AKM_PSK_SHA256, ... */
	uint32_t pairwise_cipher;   /* RSN_CIPHER_CCMP_128, ... */
	uint32_t group_cipher;	    /* RSN_CIPHER_CCMP_128, ... */
	uint32_t group_mgmt_cipher; /* 0: no management frame protection */
	const uint8_t *pmk;	    /* copied; 16..64 bytes; NULL/0: set later */
	size_t pmk_len;
	/* The PMKID of the PMKSA in use (16 octets, copied), or NULL. The
	 * authenticator sends it in the PMKID KDE of message 1; the
	 * supplicant, which offered it in its RSNE, requires message 1 to
	 * name it when message 1 names one (12.7.6.2). Not used with PSK. */
	const uint8_t *pmkid;
	const uint8_t *sta_rsne; /* whole element, header included; copied */
	size_t sta_rsne_len;
	const uint8_t *ap_rsne; /* whole element, header included; copied */
	size_t ap_rsne_len;
	/* RSNXEs, likewise, when the (Re)Association Request or the Beacon
	 * carried one; NULL/0 when not. Compared in messages 2 and 3 like the
	 * RSNEs (their absence too), so a downgrade of e.g. SAE H2E shows. */
	const uint8_t *sta_rsnxe;
	size_t sta_rsnxe_len;
	const uint8_t *ap_rsnxe;
	size_t ap_rsnxe_len;
	/* Authenticator: the Transition Disable bitmap (KDE_TD_* of
	 * daemon/codec/kde.h) message 3 carries in its encrypted Key Data;
	 * 0: no KDE. The supplicant ignores it (it reports what it receives
	 * through on_transition_disable). */
	uint8_t transition_disable;
	/* EAPOL protocol version of frames we send; 0: the authenticator sends
	 * 2, the supplicant answers with the version the authenticator used. */
	uint8_t eapol_version;
	struct rsn_timing timing;
	/* Authenticator: its replay counters start above this one (message 1
	 * uses replay_counter_base + 1). Give each handshake with a station a
	 * base above every counter an earlier handshake with it used: a late
	 * answer to the earlier one is then told apart by its replay counter,
	 * instead of failing the MIC of the new one like a wrong passphrase. */
	uint64_t replay_counter_base;
};

/* The I/O of both machines. ctx is the pointer given at creation. Every op
 * may be called only from inside an rsn_* call (never later); none may call
 * back into the same machine synchronously, except that on_complete and
 * on_failure may free it. send_eapol must queue the frame, not deliver it
 * to a peer machine in the same call stack.
 *
 * Key install ops return 0 or a negative errno; a failure ends the handshake
 * with RSN_FAIL_INSTALL. Optional ops may be NULL.
 *
 *   op                  supplicant  authenticator
 *   send_eapol          yes         yes
 *   install_ptk         yes         yes
 *   install_gtk         yes         -
 *   install_igtk        optional    -
 *   set_port_authorized yes         yes
 *   get_gtk_seq         -           optional (else the group's stored RSC)
 *   on_complete         yes         yes
 *   on_group_complete   -           optional
 *   on_failure          yes         yes
 *   on_transition_disable optional  -  (a verified message 3's KDE)
 *   get_random          optional (tests inject nonces; else crypto_random)
 */
struct rsn_ops {
	/* body: a whole EAPOL frame, its 4-octet header included. */
	int (*send_eapol)(void *ctx, const uint8_t *body, size_t len);
	int (*install_ptk)(void *ctx, uint32_t cipher, const uint8_t *tk, size_t tk_len);
	int (*install_gtk)(void *ctx, uint8_t key_idx, uint32_t cipher, const uint8_t *gtk,
			   size_t len, const uint8_t rsc[RSN_SEQ_LEN]);
	int (*install_igtk)(void *ctx, uint16_t key_idx, uint32_t cipher, const uint8_t *igtk,
			    size_t len, const uint8_t ipn[RSN_SEQ_LEN]);
	void (*set_port_authorized)(void *ctx, bool authorized);
	/* AP: the current transmit PN of group key key_idx (little-endian). */
	int (*get_gtk_seq)(void *ctx, uint8_t key_idx, uint8_t seq[RSN_SEQ_LEN]);
	void (*on_complete)(void *ctx);
	void (*on_group_complete)(void *ctx);
	void (*on_failure)(void *ctx, const struct rsn_failure *failure);
	int (*get_random)(void *ctx, uint8_t *buf, size_t len);
	/* Supplicant: the AP's Transition Disable KDE (bitmap, KDE_TD_*)
	 * from a message 3 whose MIC verified. */
	void (*on_transition_disable)(void *ctx, uint8_t bitmap);
};

/* "aa:bb:cc:dd:ee:ff" into buf; returns buf. */
const char *rsn_addr_str(const uint8_t addr[RSN_ADDR_LEN], char buf[RSN_ADDR_STR_LEN]);

#endif
