/* The 802.1X supplicant PAE (IEEE 802.1X-2010 8.5's supplicant PAE state
 * machine, with the supplicant backend's authWhile folded in): it sits on
 * an EAPOL port (eapol_port.h), sends EAPOL-Start and EAPOL-Logoff, feeds
 * EAP-Packets to an EAP peer (eap/eap_peer.h) and sends its Responses, and
 * runs the protocol timers on the loop's clock:
 *
 *   startWhen  CONNECTING: resend EAPOL-Start every startPeriod, at most
 *              maxStart times; then AUTHENTICATED if the port is valid
 *              without EAP (a wired port with no authenticator), else HELD
 *              with EAP_PEER_ERR_NO_RESPONSE
 *   authWhile  AUTHENTICATING: the authenticator's next Request must come
 *              within authPeriod, else the attempt fails (NO_RESPONSE) and
 *              the PAE goes back to CONNECTING
 *   heldWhile  HELD: after a failure, quiet for heldPeriod, then CONNECTING
 *
 * An EAP-Packet in CONNECTING, HELD or AUTHENTICATED restarts EAP (RESTART,
 * a reauthentication). The role owns the port; the PAE only transmits on
 * it and, when told to (wired), authorizes it on success.
 *
 * Ownership: pae_supp_new() returns a PAE the caller frees with
 * pae_supp_free(). The profile is borrowed for the PAE's life. ops must not
 * free the PAE.
 */
#ifndef WPAD_RSN_PAE_SUPP_H
#define WPAD_RSN_PAE_SUPP_H

#include <stdbool.h>
#include <stdint.h>

#include "daemon/rsn/eapol_port.h"
#include "eap/eap_peer.h"

enum pae_supp_state {
	PAE_SUPP_DISCONNECTED,
	PAE_SUPP_LOGOFF,
	PAE_SUPP_CONNECTING,
	PAE_SUPP_AUTHENTICATING,
	PAE_SUPP_HELD,
	PAE_SUPP_AUTHENTICATED,
	PAE_SUPP_RESTART,
};
const char *pae_supp_state_to_string(enum pae_supp_state s);

/* 0 in a field: the IEEE 802.1X-2004/2010 defaults (as wpa_supplicant
 * uses them): startPeriod 30 s, heldPeriod 60 s, authPeriod 30 s,
 * maxStart 3. */
struct pae_supp_config {
	unsigned start_period_ms;
	unsigned held_period_ms;
	unsigned auth_period_ms;
	unsigned max_start;
	/* The first EAPOL-Start waits this long (0: sent at once): on Wi-Fi
	 * the AP starts EAP itself right after the association. */
	unsigned first_start_delay_ms;
	uint8_t eapol_version;	 /* 0: 2 (802.1X-2004) */
	bool port_valid_without_eap; /* portValid when nobody answers Start */
	bool authorize_port;	     /* AUTHENTICATED authorizes the port (wired) */
};

struct pae_supp_ops {
	/* Every state change, after its entry actions. */
	void (*state_changed)(void *ctx, enum pae_supp_state from, enum pae_supp_state to);
	/* An EAP attempt ended: success (pae_supp_peer() has the keys) or
	 * failure (pae_supp_error()). */
	void (*eap_result)(void *ctx, enum eap_peer_result result);
	/* A secret is needed: answer with pae_supp_set_secret(). */
	void (*need_secret)(void *ctx, enum eap_peer_secret which);
};

struct loop;
struct pae_supp;

/* NULL on bad arguments or allocation failure. Starts DISCONNECTED with
 * the port disabled: pae_supp_port_enabled(true) starts it. */
struct pae_supp *pae_supp_new(struct loop *loop, struct eapol_port *port,
			      const struct pae_supp_config *cfg,
			      const struct eap_peer_profile *profile,
			      const struct pae_supp_ops *ops, void *ctx);
void pae_supp_free(struct pae_supp *pae);

/* portEnabled: the link is up (associated / carrier). */
void pae_supp_port_enabled(struct pae_supp *pae, bool enabled);
/* userLogoff: true sends EAPOL-Logoff (LOGOFF); false logs on again. */
void pae_supp_logoff(struct pae_supp *pae, bool logoff);
/* eapolEap: the port's rx_eap op hands EAP-Packets here. Returns the EAP
 * peer's verdict (0, -EBADMSG), or -ENOTCONN when the PAE takes none. */
int pae_supp_rx_eap(struct pae_supp *pae, const struct eap_hdr_info *eap);
/* The answer to need_secret (eap_peer_set_secret()). authWhile does not
 * run while a secret is asked; it starts again with the answer. */
int pae_supp_set_secret(struct pae_supp *pae, enum eap_peer_secret which, const char *value);
/* A fresh authentication now: the port unauthorized, CONNECTING with a
 * new EAPOL-Start, the EAP peer (and its TLS session) kept. No Logoff:
 * hostapd ends a port 10 ms after a Logoff, which cuts the next attempt. */
void pae_supp_reconnect(struct pae_supp *pae);
/* A new profile (borrowed): the EAP peer of the old one is dropped (with
 * its TLS session) and, when the port is up, CONNECTING starts over. */
void pae_supp_set_profile(struct pae_supp *pae, const struct eap_peer_profile *profile);

enum pae_supp_state pae_supp_state(const struct pae_supp *pae);
/* The current or last EAP peer (keys, method, TLS info); NULL before one. */
const struct eap_peer *pae_supp_peer(const struct pae_supp *pae);
/* The last failure: the EAP peer's, or NO_RESPONSE when no authenticator
 * answered; EAP_PEER_ERR_NONE if none. detail as eap_peer_error(). */
enum eap_peer_err pae_supp_error(const struct pae_supp *pae, const char **detail);

/* The PMK of an 802.1X AKM from the last successful attempt's MSK, IEEE
 * 802.11-2020 12.7.1.3: the first 256 bits (384 for the SHA-384 AKMs).
 * Returns the PMK length, -ENOENT (no success, or an MSK too short, as
 * MD5's none), -EINVAL (not an 802.1X AKM) or -ENOSPC. The caller wipes
 * pmk, hands it to rsn_supp_set_pmk() and the PMKSA cache. */
int pae_supp_pmk(const struct pae_supp *pae, uint32_t akm, uint8_t *pmk, size_t max);

struct pae_supp_stats {
	unsigned tx_start, tx_logoff, tx_eap, rx_eap, auth_timeouts, successes, failures;
};
const struct pae_supp_stats *pae_supp_stats(const struct pae_supp *pae);

#endif
