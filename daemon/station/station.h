/* The station role: scanning, the BSS and network lists, connecting with the
 * user-space SME (authenticate, associate, 4-way handshake), failure
 * classification, disconnect, reconnect and autoconnect, for one station
 * interface of one driver.
 *
 * The daemon creates one struct station per station interface and routes
 * every driver event of that ifindex to station_handle_event(). The station
 * reaches the radio only through drivers/driver.h, the handshake through
 * daemon/rsn, and known networks through daemon/store.
 *
 * States (enum station_state, changed only by the station's enter_state()):
 *
 *   DISCONNECTED   idle; autoconnect may be waiting for its next try.
 *   SCANNING       a scan that is part of connecting or autoconnecting
 *                  (an on-demand scan while connected or idle is the
 *                  station_scanning() flag, not a state).
 *   AUTHENTICATING Authentication frames with the chosen BSS.
 *   ASSOCIATING    (Re)Association with the chosen BSS.
 *   HANDSHAKING    the 4-way handshake (secured networks only).
 *   CONNECTED      keys installed, port open.
 *   ROAMING        reserved for BSS transitions (not entered yet).
 *   DISCONNECTING  a local deauthentication is under way.
 *
 *   DISCONNECTED -> [SCANNING] -> AUTHENTICATING -> ASSOCIATING
 *       -> [HANDSHAKING] -> CONNECTED -> DISCONNECTING -> DISCONNECTED
 * A failure anywhere goes back to DISCONNECTED (or on to the next BSS of
 * the network: at most STATION_AUTH_TRIES authentication and
 * STATION_ASSOC_TRIES association attempts per BSS, STATION_MAX_BSS_TRIES
 * BSSes per connect).
 *
 * Errors: every failure ends in a struct wpad_error (daemon/core/error.h)
 * given to connect_done()/disconnected() and kept for station_last_error():
 *   NotFound             no BSS of the network after scanning every
 *                        channel STATION_CONNECT_FULL_SCANS times
 *   NotSupported         the network's security is one we cannot do
 *   AuthenticationFailed the AP refused authentication (ieee_status set)
 *   AssociationRejected  the AP refused association (ieee_status set)
 *   Timeout              no answer to authentication/association, or the
 *                        handshake stopped before our passphrase was tested
 *   InvalidPassphrase    the 4-way handshake failed after message 2, or the
 *                        AP deauthenticated with reason 14/15 during it
 *   InvalidFormat        the passphrase is not 8..63 printable ASCII
 *                        characters or 64 hex digits
 *   Aborted              a disconnect or a new connect cancelled this one
 *   DriverError/...      a driver op failed (wpad_error_code_from_errno)
 *
 * Ownership: station_new() returns an object the caller frees with
 * station_free(); it borrows the loop, driver and store, which must outlive
 * it. Callbacks may call any station function except station_free().
 */
#ifndef WPAD_STATION_STATION_H
#define WPAD_STATION_STATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/error.h"
#include "daemon/station/network.h"
#include "drivers/driver.h"
#include "eap/eap_peer.h" /* struct eap_peer_tls_info */

struct loop;
struct driver;
struct known_store;
struct station;

enum station_state {
	STATION_DISCONNECTED,
	STATION_SCANNING,
	STATION_AUTHENTICATING,
	STATION_ASSOCIATING,
	STATION_HANDSHAKING,
	STATION_CONNECTED,
	STATION_ROAMING,
	STATION_DISCONNECTING,
};

/* Bounds of one connect attempt. */
#define STATION_AUTH_TRIES 2      /* per BSS, on timeouts */
#define STATION_ASSOC_TRIES 2     /* per BSS, on timeouts */
#define STATION_MAX_BSS_TRIES 3   /* BSSes of the network tried per connect */
#define STATION_CONNECT_FULL_SCANS 2 /* scans of every channel before NotFound */
/* Freshness: a connect skips scanning when the network was heard this
 * recently; BSS entries are dropped when not heard for BSS_MAX_AGE. */
#define STATION_FRESH_SCAN_MS 10000
/* A connect to a network with remembered frequencies probes for it there
 * and listens this long per channel (an AP answers a probe within a few
 * ms); when it stays silent, every channel is scanned as usual. */
#define STATION_KNOWN_FREQ_DWELL_MS 30
#define STATION_BSS_MAX_AGE_MS 60000
/* Watchdogs above the driver's own MLME timeouts. */
#define STATION_MLME_TIMEOUT_MS 3000
/* The longest an authentication frame may wait for its TX status before
 * the protocol's retransmission period starts anyway (a status the driver
 * lost): longer than the sim's transmit watchdog (5 s). */
#define STATION_AUTH_TX_WAIT_MS 6000
/* The longest a connect waits for the radio's other users (radio_move). */
#define STATION_RADIO_HOLD_MAX_MS 2000
#define STATION_HANDSHAKE_TIMEOUT_MS 4000
#define STATION_DEAUTH_TIMEOUT_MS 300
/* Autoconnect retry backoff: 500 ms doubling to 30 s, reset on connect. */
#define STATION_BACKOFF_MIN_MS 500
#define STATION_BACKOFF_MAX_MS 30000

struct station_callbacks {
	void (*state_changed)(void *ctx, enum station_state old_state,
			      enum station_state new_state);
	void (*scan_done)(void *ctx);
	/* NULL err: connected. */
	void (*connect_done)(void *ctx, const struct wpad_error *err);
	void (*disconnected)(void *ctx, const struct wpad_error *why);
	/* 802.1X: a secret the network's EAP profile lacks; which is 1 for the
	 * password, 2 for the private key's passphrase (enum eap_peer_secret).
	 * Answer with station_eap_secret(), now or later. NULL: nobody can
	 * be asked and the attempt fails with NoAgent. */
	void (*eap_secret)(void *ctx, int which);
	/* The station is about to take the radio to freq_mhz to join a BSS
	 * there. Returns how long to wait first (ms, at most
	 * STATION_RADIO_HOLD_MAX_MS) so that an access point of the same
	 * radio can announce its move; station_radio_ready() ends the wait
	 * early. 0 (or no callback): go on at once. */
	uint32_t (*radio_move)(void *ctx, uint32_t freq_mhz);
	void *ctx;
};

/* store may be NULL: no known networks, nothing remembered. Returns NULL
 * when the interface is unknown to the driver or memory is short. */
struct station *station_new(struct loop *loop, struct driver *drv, uint32_t ifindex,
			    struct known_store *store, const struct station_callbacks *cb);
void station_free(struct station *st);

void station_handle_event(struct station *st, const struct driver_event *ev);
/* The radio is free for the connect that radio_move held: it goes on now.
 * Nothing when no connect is held. */
void station_radio_ready(struct station *st);

/* Starts an on-demand scan of every channel (active where allowed, passive
 * on no-IR channels). Returns 0, -EINPROGRESS (a scan is already running:
 * its scan_done will come), -EBUSY (connecting), or a driver error. */
int station_scan(struct station *st);
/* The same, also probing by name for the n networks in ssids (hidden ones;
 * n at most STATION_SCAN_MAX_SSIDS, none of them empty: a wildcard probe
 * is always sent too). A running scan without those names keeps going and
 * this one follows it. -EINVAL: too many or an empty one. */
#define STATION_SCAN_MAX_SSIDS 4 /* networks probed for by name in one plan */
int station_scan_ssids(struct station *st, const struct driver_ssid *ssids, size_t n);
bool station_scanning(const struct station *st);

/* The ranked networks; pointers valid until the next station call or event.
 * Returns how many there are (may exceed max; out gets at most max). */
size_t station_networks(struct station *st, const struct station_network **out, size_t max);

/* Connects to the network with this SSID. passphrase: for a PSK network
 * (NULL: use the known network's stored PSK; open networks need none).
 * hidden: the network does not beacon its SSID; probe for it.
 * Returns 0 when the attempt started (connect_done reports how it ended),
 * or a negative errno with station_last_error() saying why:
 * -EINVAL (InvalidFormat / InvalidArguments), -ENOENT (NotFound: no such
 * network heard and no scan could find it), -EOPNOTSUPP (NotSupported),
 * -ENOKEY (a PSK network with no passphrase given or stored: NoAgent). */
int station_connect(struct station *st, const uint8_t *ssid, size_t ssid_len,
		    const char *passphrase, bool hidden);
/* Narrows the connect station_connect() just started (before it looks at
 * any BSS): policy's AKMs and PMF (its zero fields keep the defaults),
 * and sae_pwe ("hunt-and-peck", "h2e", "both"; NULL: the station's), as
 * a caller's own network block says (the fi.w1.wpa_supplicant1 front).
 * Returns 0, -ENOENT (no connect is starting) or -EINVAL. */
struct rsn_policy;
int station_connect_restrict(struct station *st, const struct rsn_policy *policy,
			     const char *sae_pwe);
/* The answer to eap_secret (value NULL: refused, the attempt fails). The
 * value is used for this attempt only, never stored. Returns 0, -ENOENT
 * (no 802.1X attempt waits for one) or -EINVAL. */
int station_eap_secret(struct station *st, int which, const char *value);
struct eap_conf;
/* The 802.1X profile to use for the network ssid (a copy is kept until
 * replaced; conf NULL drops it), whatever the store says: the caller in
 * external control gives it before station_connect(). Unless conf is the
 * profile already kept for ssid (eap_conf_same), ssid's cached PMKSAs are
 * dropped first. Returns 0, -EINVAL or -ENOMEM. */
int station_set_eap_profile(struct station *st, const uint8_t *ssid, size_t ssid_len,
			    const struct eap_conf *conf);
/* The 802.1X profile of the network ssid was replaced: the PMKSAs cached
 * for it (from the old identity) are dropped, so the next connect runs
 * EAP with the new one. */
void station_eap_profile_replaced(struct station *st, const uint8_t *ssid, size_t ssid_len);
/* The last 802.1X attempt failed in a way only the user can fix (wrong
 * password, untrusted or misnamed server, refused method, missing
 * secret): retrying it unchanged would only risk locking the account. */
bool station_eap_needs_user(const struct station *st);
/* The EAP method (wpad's name: MD5 GTC MSCHAPV2 TLS PEAP TTLS) runs in
 * this build. */
bool station_eap_method_runs(const char *name);
/* The TLS version and server certificate (subject, SHA-256) of the last
 * TLS-based 802.1X attempt, successful or not; NULL before one. */
const struct eap_peer_tls_info *station_eap_tls_info(const struct station *st);
/* Another program decides which networks to join (NetworkManager through
 * the fi.w1.wpa_supplicant1 front): while on, the station neither
 * autoconnects nor reads or writes known networks, and connects only with
 * the credentials it is given, as wpa_supplicant does with the networks
 * its caller adds. Off gives the store back (autoconnect stays off until
 * station_set_autoconnect). */
void station_set_external_control(struct station *st, bool on);
bool station_external_control(const struct station *st);

/* Disconnects, or cancels a connect in progress (its connect_done gets
 * Aborted). Turns autoconnect off until the next station_connect() or
 * station_set_autoconnect(true). Returns 0 or -ENOTCONN. */
int station_disconnect(struct station *st);

/* Drops cached PMKSAs (SAE, OWE, 802.1X), so the next connect to them
 * authenticates in full: those of network ssid (NULL: every network) with
 * access point bssid (NULL: every one). The link in use stays up; its PMK
 * is the handshake's own copy. Returns how many entries went. */
size_t station_flush_pmksa(struct station *st, const uint8_t *ssid, size_t ssid_len,
			   const uint8_t *bssid);

/* The daemon changed the store (a network added, forgotten, edited):
 * refreshes the networks' known flags, lifts the wrong-passphrase block of
 * every network (its key may have been fixed) and lets autoconnect look
 * again at once. */
void station_known_networks_changed(struct station *st);

/* Autoconnect to known networks (on by default when a store is given). */
void station_set_autoconnect(struct station *st, bool on);
/* SAE settings for every network: the password element method pwe
 * ("hunt-and-peck", "h2e", or "both" = the default: H2E where the AP's
 * RSNXE offers it, else hunting-and-pecking; NULL keeps the default) and
 * a password identifier (NULL: none). Returns 0 or -EINVAL. */
int station_set_sae(struct station *st, const char *pwe, const char *password_id);
bool station_autoconnect(const struct station *st);

enum station_state station_state(const struct station *st);
const char *station_state_name(enum station_state state);
/* The last failure, or NULL if the last connect succeeded / none yet. */
const struct wpad_error *station_last_error(const struct station *st);

/* The connected (or connecting) BSS; false when there is none. */
bool station_bssid(const struct station *st, uint8_t bssid[DRIVER_ADDR_LEN]);
/* SSID of the network connected or being connected; 0 if none. */
size_t station_ssid(const struct station *st, uint8_t ssid[32]);
uint32_t station_frequency(const struct station *st);
int32_t station_signal_mbm(const struct station *st);
uint32_t station_ifindex(const struct station *st);
/* Milliseconds the last successful connect took, from station_connect()
 * (or the autoconnect decision) to CONNECTED. */
uint64_t station_connect_time_ms(const struct station *st);
/* Delay of the next autoconnect attempt (ms; tests check the backoff). */
uint32_t station_backoff_ms(const struct station *st);

/* Validates a passphrase: 8..63 printable ASCII characters, or 64 hex
 * digits (a raw PSK). Returns 0 or -EINVAL. */
int station_passphrase_check(const char *passphrase);

#endif
