/* The access point role: one BSS on one interface.
 *
 * ap_new() binds the role to an interface of a driver; ap_start() takes an
 * AP profile (daemon/config/ap_profile.h), validates it against the radio's
 * capabilities, builds the beacon and probe-response templates, starts
 * beaconing and answers stations: probe requests, open-system
 * authentication, (re)association with the IEEE status codes listed in
 * ap_mgmt.c, the 4-way handshake through daemon/rsn for WPA2-PSK (the port
 * is opened at once on an open network), GTK rekeying, inactivity, ACLs.
 *
 * The daemon routes every driver event of the interface, and the radio-wide
 * ones, to ap_handle_event(); the role never registers its own driver
 * callback. A regulatory change that forbids the channel stops the BSS.
 *
 * AP state machine (ap_state), changed only by one enter function that
 * logs the transition and calls callbacks.state_changed:
 *
 *   STOPPED --ap_start()--> STARTING --templates, start_ap ok--> STARTED
 *   STARTING --any failure--> STOPPED (ap_start returns the error)
 *   STARTED --ap_stop(), interface gone, radio error--> STOPPING
 *   STARTING --radar channel, radar detection started--> CAC
 *   CAC --CAC finished, start_ap ok--> STARTED
 *   CAC --radar or CAC aborted--> CAC/STARTED on another channel, or STOPPED
 *   STARTED --radar on the channel, a rescan or the radio's station
 *             moving elsewhere; channel_switch ok--> SWITCHING
 *   SWITCHING --the driver switched (CSA count ran out)--> STARTED
 *   STOPPING --stations told (deauth sent and TX status back, or 200 ms),
 *              stop_ap--> STOPPED   (always from the loop, never inside
 *                                    ap_stop(): ap_stop() returns in STOPPING)
 *
 * Station state machine (ap_sta_state), per station:
 *
 *   (new) --open auth ok--> AUTHENTICATED
 *   AUTHENTICATED --assoc response acked--> ASSOCIATED     [station_added]
 *   ASSOCIATED --4-way done (or open network)--> AUTHORIZED [station_authorized]
 *   ASSOCIATED/AUTHORIZED --disassoc from station--> AUTHENTICATED
 *   any --deauth, handshake failure, inactivity, ap_disconnect_station(),
 *         auth expiry, AP stop--> NONE, and the entry is freed
 *                                         [station_removed if it was associated]
 *
 * Ownership: ap_new()'s caller owns the struct ap and frees it with
 * ap_free() (which stops the BSS without waiting). The profile passed to
 * ap_start() is copied; callbacks are copied.
 */
#ifndef WPAD_AP_AP_H
#define WPAD_AP_AP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/core/error.h"
#include "drivers/driver.h"

struct loop;
struct ap;
struct ap_profile;

enum ap_state {
	AP_STATE_STOPPED,
	AP_STATE_STARTING,
	AP_STATE_STARTED,
	AP_STATE_STOPPING,
	AP_STATE_CAC,       /* radar channel: the channel availability check runs */
	AP_STATE_SWITCHING, /* beaconing a channel switch announcement */
};

enum ap_sta_state {
	AP_STA_NONE,          /* leaving: the entry is freed right after */
	AP_STA_AUTHENTICATED, /* open-system authentication done */
	AP_STA_ASSOCIATED,    /* association acked; 4-way handshake running */
	AP_STA_AUTHORIZED,    /* controlled port open */
};

const char *ap_state_to_string(enum ap_state state);
const char *ap_sta_state_to_string(enum ap_sta_state state);

/* Set by the daemon; the D-Bus layer hooks in later. Any may be NULL.
 * They run from inside the event loop; they may call ap_* functions
 * except ap_free(). */
struct ap_callbacks {
	void (*state_changed)(void *ctx, enum ap_state old_state, enum ap_state new_state);
	void (*station_added)(void *ctx, const uint8_t addr[6]);      /* associated */
	void (*station_authorized)(void *ctx, const uint8_t addr[6]); /* handshake done */
	void (*station_removed)(void *ctx, const uint8_t addr[6], uint16_t reason);
	/* The 4-way handshake message 2 of this station failed its MIC check:
	 * almost always a wrong passphrase on the station. count: failures
	 * of this station since it associated. */
	void (*mic_failure)(void *ctx, const uint8_t addr[6], unsigned count);
	void *ctx;
};

/* Returns NULL on allocation failure. loop, drv must outlive the ap. */
struct ap *ap_new(struct loop *loop, struct driver *drv, uint32_t ifindex,
		  const struct ap_callbacks *cb);
void ap_free(struct ap *ap);

uint32_t ap_ifindex(const struct ap *ap);
enum ap_state ap_get_state(const struct ap *ap);

/* Every driver event for this interface (others are ignored), and the
 * radio-wide events that carry no interface (REG_CHANGE, RADIO_ERROR): the
 * AP checks whether they concern its radio. */
void ap_handle_event(struct ap *ap, const struct driver_event *ev);

/* Validates the profile and starts the BSS. Returns 0 (state STARTED, or
 * CAC on a channel that needs radar detection first) or a
 * negative errno with *err filled (err may be NULL):
 *   InvalidArguments   bad SSID, interval, DTIM, station limit, ...
 *   InvalidFormat      passphrase not 8..63 printable ASCII, PSK not 64 hex,
 *                      an unreadable per-station PSK file line
 *   NotSupported       no AP mode, no such band, no CCMP, channel unknown
 *   RegulatoryForbidden channel disabled/no-IR/radar, or the driver said -EPERM
 *   Busy               not STOPPED
 *   DriverError, ...   as wpad_error_code_from_errno() maps the driver's errno */
int ap_start(struct ap *ap, const struct ap_profile *profile, struct wpad_error *err);
/* Starts STOPPING (0), or -EALREADY when already stopped/stopping. */
int ap_stop(struct ap *ap);

/* Deauthenticates one station with the reason code. -ENOENT if unknown. */
int ap_disconnect_station(struct ap *ap, const uint8_t addr[6], uint16_t reason);

/* Moves the BSS to another channel (AP+STA on one radio: the AP follows the
 * station where it could not announce the move, ap_announce_move). Rebuilds
 * the templates (DS Parameter Set, HT Operation), retunes and updates the
 * beacon. No channel switch announcement is sent: stations find the BSS
 * again by scanning. -EINVAL if the radio has no such
 * channel, -EPERM if it may not beacon there, -ENOTCONN unless STARTED. */
int ap_set_channel(struct ap *ap, uint32_t freq_mhz);

/* The station of this AP's radio is about to join a BSS on freq_mhz (the
 * radio goes with it): the BSS announces its move there with a channel
 * switch announcement (state SWITCHING) where the driver has one. Returns
 * the milliseconds until the switch, for the station to wait (or until
 * the AP is STARTED again); 0 when nothing was announced (not STARTED,
 * already there, a channel the AP may not use, no CSA in the driver, the
 * driver refused): the AP then follows the radio unannounced
 * (ap_set_channel), as before. */
uint32_t ap_announce_move(struct ap *ap, uint32_t freq_mhz);

/* Channel=auto: why the channel was chosen ("channel 44 (80 MHz): busy 3%,
 * noise -95 dBm, 0 BSSs: 3; lowest of 9 candidates (next: ...)"), "" when
 * the channel was configured. */
const char *ap_channel_choice(const struct ap *ap);
/* The operating channel width in MHz, 0 when stopped. */
unsigned ap_channel_width(const struct ap *ap);
/* Channel=auto again, from a fresh survey and the last scan; moves the BSS
 * when another channel wins: with a channel switch announcement where the
 * driver has one (state SWITCHING until it is done), else as
 * ap_set_channel(). -ENOTCONN unless STARTED, -EOPNOTSUPP when
 * the channel was configured, ap_set_channel()'s errors. */
int ap_rescan_channel(struct ap *ap);

/* Starts a GTK rekey now (WPA2 only; -EOPNOTSUPP on an open BSS,
 * -EINPROGRESS if one is running, -ENOTCONN unless STARTED). The new GTK
 * goes to every station in a group key handshake while the driver keeps
 * transmitting with the old one; it becomes the transmit key once every
 * station confirmed (or failed and was removed, reason 16) or after 10 s,
 * so broadcast traffic is never sent under a key a station lacks. */
int ap_rekey_gtk(struct ap *ap);

/* ---- access control (ap_acl.c) ----
 *
 * The allow and deny lists start from MacAllowFile/MacDenyFile. A deny
 * list refuses its addresses; an allow list, once there is one (a file
 * configured, or an address added), refuses everyone else. Refused
 * stations get IEEE status 12 at authentication and association (as
 * before; hostapd answers 1 there); associated stations a change refuses
 * are deauthenticated at once with reason 1. Changes over D-Bus live in
 * memory until the next ap_acl_reload() or restart. */

enum ap_acl_list {
	AP_ACL_ALLOW,
	AP_ACL_DENY,
};

/* Adds addr to / removes it from a list. -EALREADY when already there,
 * -ENOENT when not there, -ENOTCONN unless STARTED, -ENOMEM/-ENOSPC. */
int ap_acl_add(struct ap *ap, enum ap_acl_list list, const uint8_t addr[6]);
int ap_acl_remove(struct ap *ap, enum ap_acl_list list, const uint8_t addr[6]);
/* Re-reads both files (a missing path leaves that list as it is). On a
 * bad file nothing changes and *err says why (NotFound, InvalidFormat). */
int ap_acl_reload(struct ap *ap, struct wpad_error *err);
/* The list's addresses in sorted order; returns how many there are
 * (copies at most max). has_list: whether the list is in force. */
size_t ap_acl_get(const struct ap *ap, enum ap_acl_list list, uint8_t (*out)[6], size_t max,
		  bool *has_list);
/* The file a list is read from (MacAllowFile/MacDenyFile of the running
 * profile), NULL when none: the daemon watches it for changes. */
const char *ap_acl_file(const struct ap *ap, enum ap_acl_list list);
/* Counts changes of the lists (starts, edits, reloads), so observers
 * can tell when to announce them. */
unsigned ap_acl_generation(const struct ap *ap);

/* ---- stations ---- */

struct ap_station_info {
	uint8_t addr[6];
	enum ap_sta_state state;
	uint16_t aid;               /* 0 until associated */
	int32_t signal_mbm;         /* driver's figure, else the last frame's */
	uint32_t connected_s;       /* since association, 0 if not associated */
	unsigned mic_failures;      /* handshake MIC failures (wrong passphrase) */
	uint32_t pairwise_cipher;   /* suite selector, 0 on an open BSS */
	uint32_t akm;               /* suite selector, 0 on an open BSS */
	unsigned handshakes;        /* completed 4-way handshakes, rekeys included */
};

/* Stations in the table (authenticated or further). */
size_t ap_station_count(const struct ap *ap);
/* Stations associated (ASSOCIATED or AUTHORIZED). */
size_t ap_associated_count(const struct ap *ap);
/* Calls fn for each station in arrival order until it returns false.
 * fn must not remove stations. Returns how many were visited. The
 * signal is the last frame's (no driver query per station); use
 * ap_get_station for the driver's. */
typedef bool (*ap_station_fn)(void *data, const struct ap_station_info *info);
size_t ap_foreach_station(struct ap *ap, ap_station_fn fn, void *data);
/* -ENOENT if unknown. The signal is the driver's (nl80211: a GET_STATION
 * round trip). */
int ap_get_station(struct ap *ap, const uint8_t addr[6], struct ap_station_info *info);
/* The same without asking the driver: the signal is the last frame's. */
int ap_peek_station(struct ap *ap, const uint8_t addr[6], struct ap_station_info *info);

/* SAE, before ap_start(): the pending commits from which anti-clogging
 * tokens are demanded (0: AUTH_SAE_CLOG_THRESHOLD) and a password
 * identifier accepted besides none (NULL: none). */
void ap_set_sae_for_test(struct ap *ap, unsigned clog_threshold, const char *password_id);
/* The anti-clogging state of a running SAE BSS (daemon/rsn/auth_sae.h),
 * NULL otherwise. */
struct sae_clog;
const struct sae_clog *ap_sae_clog(const struct ap *ap);

#endif
