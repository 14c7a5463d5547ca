/* Internals of the station role, shared by its files and by nothing else:
 *
 *   station.c     the public API, the state machine (station_enter_state),
 *                 event dispatch, disconnect
 *   scan.c        scan plans: active/passive passes, directed probes,
 *                 merging results, aging
 *   connect.c     choosing the network, credentials, fast connect
 *   sme.c         authenticate -> associate -> handshake on one BSS, with
 *                 timeouts, bounded retries and failure classification
 *   handshake.c   the 4-way handshake wiring (daemon/rsn <-> driver)
 *   autoconnect.c known networks in order, reconnect with backoff
 *   known.c       the known-network store seen through what the station needs
 *   enterprise.c  802.1X: the EAP profile of a network, the supplicant PAE
 *                 on the link's port, the PMK from EAP into the handshake
 */
#ifndef WPAD_STATION_STATION_I_H
#define WPAD_STATION_STATION_I_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/config/eap_conf.h"
#include "daemon/core/error.h"
#include "daemon/rsn/mic_cm.h"
#include "daemon/rsn/auth_sae.h"
#include "daemon/rsn/negotiate.h"
#include "daemon/station/bss.h"
#include "daemon/station/network.h"
#include "daemon/station/station.h"
#include "drivers/driver.h"
#include "eap/eap_peer.h"

struct loop_timer;
struct loop_idle;
struct rsn_supp;
struct auth_sess;
struct eapol_port;
struct pmksa_cache;
struct pae_supp;
struct eap_hdr_info;

#define STATION_PSK_LEN 32
#define STATION_KNOWN_MAX_FREQS 8
#define STATION_SCAN_MAX_PASSES 6
#define STATION_AC_MAX_CANDIDATES 16
/* How a 4-way handshake failure that only a wrong PSK explains ends its
 * text; sme_bss_failed drops it where SAE had proven the password. */
#define STATION_WRONG_PSK_HINT ": the passphrase is most likely wrong"
#define STATION_AC_MAX_BLOCKED 8

/* ---- known networks (known.c) ---- */

struct station_known {
	uint8_t ssid[BSS_SSID_MAX];
	uint8_t ssid_len;
	enum bss_security security;
	bool autoconnect;
	bool hidden;
	struct rsn_policy policy; /* PMF, AKMs and ciphers allowed (0: defaults) */
	char sae_pwe[16];         /* SAEPWE of the file, "" when unset */
	uint64_t last_connected; /* CLOCK_REALTIME seconds, 0: never */
	bool have_psk;
	uint8_t psk[STATION_PSK_LEN];
	/* The passphrase itself (SAE's password), when the store has one. */
	bool have_passphrase;
	char passphrase[64];
	size_t n_freqs;
	uint32_t freqs[STATION_KNOWN_MAX_FREQS]; /* most recent first */
};

/* Fills *out (when want_psk, the passphrase and the PSK if the store has
 * it stretched already; no PBKDF2 runs here: see known_psk; wipe it after
 * use). false: not known. */
bool known_get(struct known_store *store, const uint8_t *ssid, size_t ssid_len,
	       enum bss_security security, bool want_psk, struct station_known *out);
/* The PSK of a known passphrase network, stretched (PBKDF2) and cached in
 * its file the first time. Returns 0, -ENOENT or a negative errno. */
int known_psk(struct known_store *store, const uint8_t *ssid, size_t ssid_len,
	      uint8_t psk[STATION_PSK_LEN]);
/* Known networks with AutoConnect set, most preferred first (store order,
 * then most recently connected). Returns how many were written. PSKs are
 * not filled in. */
size_t known_autoconnect_list(struct known_store *store, struct station_known *out, size_t max);
/* After a successful connect: creates the known network if new, stores the
 * passphrase the user gave (NULL: keep what is stored) with its PSK (NULL
 * when this connect never needed it: the store stretches it on demand),
 * LastConnected and the frequency, and marks it Hidden when it was joined
 * as a hidden network (never clears the mark). Returns 0, -ENOENT (no
 * store) or a negative errno. */
int known_connected(struct known_store *store, const uint8_t *ssid, size_t ssid_len,
		    enum bss_security security, bool hidden, const char *passphrase,
		    const uint8_t psk[STATION_PSK_LEN], uint32_t freq);
void known_wipe(struct station_known *k);
/* The AP said Transition Disable (WPA3-Personal): from now on the network
 * is joined with SAE and PMF only (AKMs=sae, ManagementFrameProtection=
 * required in its file). Returns 0, -ENOENT or a negative errno. */
int known_transition_disable(struct known_store *store, const uint8_t *ssid, size_t ssid_len);
/* The [EAP] section of the known 802.1X network (daemon/config/eap_conf.h).
 * Returns 0, -ENOENT (no such network, or no [EAP] section) or a negative
 * enum cfg_err with err filled. */
int known_get_eap(struct known_store *store, const uint8_t *ssid, size_t ssid_len,
		  struct eap_conf *out, struct cfg_error *err);

/* ---- scanning (scan.c) ---- */

enum scan_purpose {
	SCAN_FOR_USER = 1u << 0,        /* station_scan(): report scan_done */
	SCAN_FOR_CONNECT = 1u << 1,     /* a connect waits for it */
	SCAN_FOR_AUTOCONNECT = 1u << 2, /* autoconnect waits for it */
};

struct scan_request {
	uint32_t purpose;               /* enum scan_purpose bits */
	size_t n_freqs;                 /* 0: every channel */
	uint32_t freqs[STATION_KNOWN_MAX_FREQS * 2];
	size_t n_ssids;                 /* probe for these by name (hidden networks) */
	struct driver_ssid ssids[STATION_SCAN_MAX_SSIDS];
	uint32_t active_dwell_ms;       /* per active channel; 0: the driver's */
};

struct station_scan {
	bool running;
	uint32_t purpose;               /* of the running plan */
	size_t n_passes, pass;
	struct driver_scan_params passes[STATION_SCAN_MAX_PASSES];
	bool plan_full;                 /* every channel */
	size_t plan_n_ssids;            /* probed for by name */
	struct driver_ssid plan_ssids[STATION_SCAN_MAX_SSIDS];
	bool have_pending;
	struct scan_request pending;    /* queued behind the running plan */
	uint64_t plan_started_us;       /* the running plan's start */
	uint64_t last_started_us;       /* start of the last finished plan: a BSS
					 * heard since then was in its results, not
					 * only in the driver's memory */
};

/* Starts a scan plan, or merges the purpose into the running one when it
 * covers the request, or queues it behind. Returns 0 or a negative errno. */
int scan_request(struct station *st, const struct scan_request *req);
void scan_handle_done(struct station *st, bool aborted);
/* Stops the running plan; its purposes get their callbacks (aborted). */
void scan_cancel(struct station *st);

/* ---- one connect attempt (connect.c, sme.c, handshake.c) ---- */

enum connect_phase {
	CONNECT_IDLE,
	CONNECT_STARTING,         /* accepted; the kickoff idle decides next */
	CONNECT_SCAN_KNOWN_FREQS, /* scanning the remembered frequencies */
	CONNECT_SCAN_FULL,        /* scanning every channel */
	CONNECT_RUNNING,          /* on a BSS: auth/assoc/handshake */
	CONNECT_SCAN_OWE,         /* probing for an open BSS's OWE twin by name */
};

struct station_connect {
	enum connect_phase phase;
	bool kickoff_pending;      /* the attempt starts from st->kickoff */
	bool autoconnect;         /* started by autoconnect, not the user */
	uint8_t ssid[BSS_SSID_MAX];
	uint8_t ssid_len;
	enum bss_security security;
	bool security_set;        /* else: whatever the network turns out to be */
	bool hidden;
	bool have_psk;
	/* The request gave the passphrase (save it to the store on success).
	 * Its PBKDF2, like a stored passphrase's, waits until a PSK AKM is
	 * negotiated: SAE uses the passphrase itself (connect.c, derive_psk). */
	bool psk_from_user;
	char passphrase[65];      /* the user's, to store on success */
	uint8_t psk[STATION_PSK_LEN];
	uint32_t known_freqs[STATION_KNOWN_MAX_FREQS];
	size_t n_known_freqs;
	uint64_t started_us;
	uint64_t min_seen_us;     /* only BSSes heard since then are tried */
	unsigned full_scans;      /* of every channel, for this connect */

	/* The BSS being tried (a copy: the list may change under us). */
	struct station_bss bss;
	size_t n_tried;
	uint8_t tried[STATION_MAX_BSS_TRIES][DRIVER_ADDR_LEN];
	unsigned auth_tries;
	unsigned assoc_tries;
	bool radio_held;          /* AUTHENTICATING waits for radio_move's answer */
	/* The protocol's retransmission period waits for our last frame's
	 * TX status (DRIVER_EV_AUTH_TX_STATUS), not yet started. */
	bool auth_tx_wait;
	struct wpad_error last_err; /* the most telling failure so far */
	bool have_err;
	struct rsn_policy policy;  /* the network's (known-network file) or the default */
	struct rsn_negotiated neg; /* the suites chosen for the BSS being tried */
	char refusal[256];         /* why the last BSS refused by negotiation was */
	uint16_t refusal_status;   /* its IEEE status code */
	uint8_t sta_rsne[BSS_RSNE_MAX]; /* what we put in the association request */
	size_t sta_rsne_len;
	uint8_t sta_rsnxe[8];      /* our RSNXE there (SAE H2E), 0: none */
	size_t sta_rsnxe_len;
	bool use_mfp;
	/* An EAPOL frame that overtook the association event. */
	uint8_t early_eapol[512];
	size_t early_eapol_len;
	/* The authentication exchange with bss (daemon/rsn/auth_proto.h):
	 * owned here, freed by connect_reset() and sme_start(). */
	struct auth_sess *auth;
	/* The PMKSA offered in our RSNE (its PMKID), for AKMs that cache. */
	bool pmksa_offered;
	uint8_t offered_pmkid[16];
	/* SAE's view of the network for auth (daemon/rsn/auth_sae.h): the
	 * password is c->passphrase; wiped with the attempt. */
	struct auth_sae_conf sae;
	/* The known network's SAEPWE ("" : the station's setting). */
	char sae_pwe[16];
	/* Transition Disable bits (KDE_TD_*) from the AP's message 3. */
	uint8_t transition_disable;
	/* OWE transition: bss is the OWE twin of the open network's BSS; its
	 * SSID (bss.ssid) is the one authentication and association use. */
	bool via_owe;
	bool owe_probed;          /* the twin was probed for once already */
	bool owe_retried;         /* a failed OWE handshake was tried again */
};

/* connect.c */
void connect_kickoff(struct loop_idle *idle, void *data); /* st->kickoff's callback */
int connect_start(struct station *st, const uint8_t *ssid, size_t ssid_len,
		  const char *passphrase, bool hidden, bool autoconnect,
		  struct wpad_error *err);
/* A scan the connect waited for has finished. */
void connect_scan_done(struct station *st);
/* The network being connected was heard since `since` (loop_now_us). */
bool connect_target_heard(struct station *st, uint64_t since);
/* Tries the next BSS of the network, or fails the connect. */
void connect_next_bss(struct station *st);
/* Ends the attempt: err NULL means connected. */
void connect_finish(struct station *st, const struct wpad_error *err);
void connect_reset(struct station *st);

/* sme.c */
void sme_start(struct station *st);
void sme_handle_auth(struct station *st, const struct driver_event *ev);
void sme_handle_auth_tx_status(struct station *st, const struct driver_event *ev);
void sme_handle_assoc(struct station *st, const struct driver_event *ev);
void sme_watchdog(struct station *st);
/* A deauth/disassoc from the AP while connecting. */
void sme_handle_peer_leave(struct station *st, uint16_t reason, bool disassoc);
/* Records err as the failure of the current BSS and moves on. */
void sme_bss_failed(struct station *st, const struct wpad_error *err, bool try_next_bss);
/* Frees the authentication session of the attempt. */
void sme_auth_free(struct station *st);

/* handshake.c */
#define KEY_BIT_PTK (1u << 0)
#define KEY_BIT_GTK(idx) (1u << (1 + (idx)))  /* idx 0..3 */
#define KEY_BIT_IGTK(idx) (1u << (1 + (idx))) /* idx 4..5 */
#define KEY_BIT_PORT (1u << 7)                /* the port was authorized */
int handshake_start(struct station *st);
void handshake_rx_eapol(struct station *st, const struct driver_event *ev);
/* A Michael MIC failure the driver saw (TKIP): reported to the AP, and
 * the second within 60 s starts countermeasures (rsn/mic_cm.h). */
void handshake_mic_failure(struct station *st, const struct driver_event *ev);
void handshake_stop(struct station *st);
int handshake_port_init(struct station *st);
void handshake_port_free(struct station *st);
/* Removes installed keys and closes the port. */
void handshake_clear_keys(struct station *st, const uint8_t *bssid);

/* ---- autoconnect (autoconnect.c) ---- */

struct ac_ssid {
	uint8_t ssid[BSS_SSID_MAX];
	uint8_t ssid_len;
};

struct station_autoconnect {
	bool enabled;
	bool scanning;              /* our scan runs (state SCANNING) */
	bool after_scan;            /* deciding right after our scan */
	uint32_t backoff_ms;        /* delay before the next attempt */
	struct loop_timer *timer;
	bool full_scan_next;        /* alternate known-frequency and full scans */
	size_t n_tried;             /* networks tried since the last scan */
	struct ac_ssid tried[STATION_AC_MAX_CANDIDATES];
	size_t n_blocked;           /* networks whose passphrase was refused */
	struct ac_ssid blocked[STATION_AC_MAX_BLOCKED];
};

int autoconnect_init(struct station *st);
void autoconnect_free(struct station *st);
/* The station is idle and disconnected: try a known network now, or
 * schedule the next try with backoff. */
void autoconnect_kick(struct station *st);
void autoconnect_scan_done(struct station *st);
/* A known network autoconnect would try was heard since `since`. */
bool autoconnect_candidate_heard(struct station *st, uint64_t since);
void autoconnect_connected(struct station *st);
/* A connect that autoconnect started failed with err. */
void autoconnect_failed(struct station *st, const struct wpad_error *err);
void autoconnect_block(struct station *st, const uint8_t *ssid, size_t ssid_len);
void autoconnect_unblock(struct station *st, const uint8_t *ssid, size_t ssid_len);
/* Restarts the backoff (after a successful connect or a user action). */
void autoconnect_reset_backoff(struct station *st);
void autoconnect_stop(struct station *st);

/* ---- the station (station.c) ---- */

struct station {
	struct loop *loop;
	struct driver *drv;
	uint32_t ifindex;
	uint32_t radio_id;
	uint8_t addr[DRIVER_ADDR_LEN];
	struct known_store *store;     /* NULL while under external control */
	struct known_store *saved_store; /* the store, while under external control */
	bool external;
	struct station_callbacks cb;
	struct driver_capa capa;
	bool have_capa;

	enum station_state state;
	struct bss_list *bss;
	struct network_list nets;
	bool nets_dirty;
	struct station_scan scan;
	struct station_connect conn;
	struct station_autoconnect ac;
	struct loop_timer *timer;       /* MLME/handshake/deauth watchdog */
	struct loop_timer *age_timer;   /* BSS aging */
	struct loop_idle *kickoff;      /* starts a connect after the API returns */

	/* The network and BSS of the link (from AUTHENTICATING on; the SSID
	 * stays while CONNECTED). link_up: from our authentication request
	 * until the link is torn down or the AP drops us; while set, leaving
	 * means a deauthentication. */
	uint8_t ssid[BSS_SSID_MAX];
	uint8_t ssid_len;
	enum bss_security security;
	bool link_up;
	uint8_t bssid[DRIVER_ADDR_LEN];
	/* The controlled port of the link (handshake.c), for the station's
	 * lifetime; EAPOL in and out goes through it. */
	struct eapol_port *port;
	/* PMKSAs of SAE/802.1X/OWE links, per BSS (daemon/rsn/pmksa.h). */
	struct pmksa_cache *pmksa;
	/* SAE hash-to-element PTs, kept across connects (auth_sae.h). */
	struct sae_pt_cache *sae_pt;
	/* SAE: which password element method (SAE_PWE_BOTH: H2E where the AP
	 * offers it) and our password identifier ("" none); station_set_sae(). */
	enum sae_pwe_mode sae_pwe;
	char sae_pw_id[AUTH_SAE_PW_ID_MAX + 1];
	/* The handshake of the link; stays while CONNECTED for rekeys. */
	struct rsn_supp *supp;
	unsigned eapol_sent;      /* EAPOL frames we sent on this link */
	uint32_t keys_installed;  /* KEY_BIT_* */
	struct rsn_mic_cm mic_cm; /* TKIP countermeasures (handshake.c) */
	uint32_t freq_mhz;
	int32_t signal_mbm;
	uint64_t connect_time_ms;

	struct wpad_error last_err;
	bool have_last_err;

	struct sa_query *sa_query; /* pmf.c; created on first use */

	/* 802.1X (enterprise.c): the [EAP] profile of the network (loaded by
	 * the connect, kept while its link lasts: the PAE borrows eap_prof,
	 * whose strings are eap's), and the PAE with its EAP peer, from the
	 * association of an 802.1X AKM until the link goes. */
	struct eap_conf eap;
	struct eap_peer_profile eap_prof;
	bool have_eap;
	struct pae_supp *pae;
	struct loop_idle *eap_end; /* reports an EAP failure outside the PAE */
	bool pae_enabled;
	uint32_t link_akm; /* the 802.1X AKM of the link, for reauthentications */
	/* The last EAP failure needs the user (wrong password, refused or
	 * missing credentials, server certificate, method): autoconnect must
	 * not retry it (a RADIUS server may lock the account). */
	bool eap_needs_user;
	struct wpad_error eap_err;
	/* What the user may see of the last TLS-based EAP attempt. */
	struct eap_peer_tls_info eap_tls;
	bool have_eap_tls;
	/* The last connect ended with eap_needs_user (station_eap_needs_user). */
	bool eap_user_failure;
	/* An 802.1X profile given by the program in control (external
	 * control: the fi.w1.wpa_supplicant1 front), used instead of the
	 * store's for the network it names. */
	struct eap_conf eap_given;
	uint8_t eap_given_ssid[32];
	size_t eap_given_ssid_len;
};

void station_enter_state(struct station *st, enum station_state state);
/* Rebuilds the network list if the BSS list changed. */
void station_networks_refresh(struct station *st);
void station_arm_timer(struct station *st, uint32_t ms);
void station_disarm_timer(struct station *st);
/* Local teardown of the link: stop the handshake, deauthenticate (if
 * link_up), clear keys. Does not change state. Idempotent. */
void station_teardown_link(struct station *st, uint16_t reason);
/* The link ended while CONNECTED (AP, beacon loss, radio): report why,
 * go DISCONNECTED, let autoconnect reconnect. */
void station_link_lost(struct station *st, const struct wpad_error *why);
void station_set_error(struct station *st, const struct wpad_error *err);

/* enterprise.c */
/* The EAP profile of the 802.1X network being connected, from its known
 * network's [EAP] section. Returns 0 or fills err. */
int enterprise_load(struct station *st, struct wpad_error *err);
void enterprise_clear(struct station *st);
/* Association with an 802.1X AKM done: the PAE on the port. cached: the
 * handshake runs on a PMKSA we offered, so EAP starts only if the AP asks. */
int enterprise_start(struct station *st, bool cached);
void enterprise_stop(struct station *st);
/* The port's EAP consumer while connecting or connected. */
int enterprise_rx_eap(struct station *st, const struct eap_hdr_info *eap);
bool enterprise_active(const struct station *st);
/* The watchdog fired while 802.1X had not succeeded: fills e (Timeout,
 * naming the EAP stage) and returns true. */
bool enterprise_timed_out(struct station *st, struct wpad_error *e);

/* pmf.c: SA Query towards the AP (management frame protection). */
struct sa_query;
void station_pmf_register(struct station *st);
void station_pmf_unprot_leave(struct station *st, const struct driver_event *ev);
/* True when ev was an SA Query frame (handled). */
bool station_pmf_rx_mgmt(struct station *st, const struct driver_event *ev);
void station_pmf_stop(struct station *st);
/* Status 30 with an association comeback time: waits it out in
 * ASSOCIATING (the watchdog then retries from authentication). True when
 * the comeback is honoured. */
struct mgmt_frame;
bool station_pmf_comeback(struct station *st, const struct mgmt_frame *resp);
void station_pmf_free(struct station *st);
bool station_idle(const struct station *st);

#endif
