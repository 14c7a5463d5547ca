/* The wired 802.1X supplicant role: one per wired interface. It owns the
 * interface's EAPOL port (daemon/rsn/eapol_port.h) and the supplicant PAE
 * that runs on it (daemon/rsn/pae_supp.h, the one IEEE 802.1X-2010 8.5
 * machine the Wi-Fi station uses too, with its timers on the loop's
 * clock). The PAE's states are shown as five (the D-Bus State property):
 *
 *   DISABLED        no carrier (DISCONNECTED) or logged off (LOGOFF):
 *                   the port unauthorized
 *   CONNECTING      EAPOL-Start sent, every start_period, up to max_start
 *   AUTHENTICATING  an EAP exchange runs (RESTART, AUTHENTICATING);
 *                   authWhile restarts on every Request and its expiry
 *                   ends the attempt (no response) and goes to CONNECTING
 *   AUTHENTICATED   EAP-Success: the port is authorized
 *   HELD            the attempt failed, or nobody answered max_start
 *                   Starts (last_error says which stage); after
 *                   held_period a new EAPOL-Start
 *
 * A Request in CONNECTING, HELD or AUTHENTICATED starts a new attempt (an
 * authenticator restarting, or reauthenticating us); the EAP peer is kept
 * across attempts, so a TLS method offers its session again.
 *
 * Ownership: wired_port_new() returns a role the caller frees with
 * wired_port_free() (which sends an EAPOL-Logoff while the link is up).
 * The profile is borrowed and must outlive the role or be replaced with
 * wired_port_set_profile() first.
 */
#ifndef WPAD_WIRED_WIRED_PORT_H
#define WPAD_WIRED_WIRED_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/config/eap_conf.h"
#include "daemon/core/error.h"
#include "eap/eap_peer.h"

struct loop;
struct driver;
struct driver_event;
struct wired_port;

enum wired_state {
	WIRED_S_DISABLED,
	WIRED_S_CONNECTING,
	WIRED_S_AUTHENTICATING,
	WIRED_S_AUTHENTICATED,
	WIRED_S_HELD,
};
const char *wired_state_to_string(enum wired_state s);

struct wired_timers {
	uint32_t start_period_ms; /* 802.1X-2010 startPeriod: 30 s */
	uint32_t max_start;	  /* maxStart: 3 */
	uint32_t auth_period_ms;  /* authPeriod: 30 s */
	uint32_t held_period_ms;  /* heldPeriod: 60 s */
};

struct wired_port_callbacks {
	void (*state_changed)(void *ctx, enum wired_state old_state, enum wired_state new_state);
	/* A secret is missing from the profile: answer with
	 * wired_port_set_secret() (NULL: refused, the attempt fails). */
	void (*need_secret)(void *ctx, enum eap_peer_secret which);
	void *ctx;
};

struct wired_port_stats {
	unsigned starts_sent, logoffs_sent, attempts, successes, failures;
	uint64_t last_auth_us; /* first Request to the outcome, on the loop clock */
};

/* timers NULL: the 802.1X-2010 defaults. Returns NULL on bad arguments or
 * allocation failure. */
struct wired_port *wired_port_new(struct loop *loop, struct driver *drv, uint32_t ifindex,
				  const char *name, const struct eap_conf *profile,
				  const struct wired_timers *timers,
				  const struct wired_port_callbacks *cb);
/* The same with EAPOL sent through tx(ctx, frame, len) instead of a
 * driver (unit tests: a scripted authenticator on the virtual clock). */
typedef int (*wired_tx_fn)(void *ctx, const uint8_t *frame, size_t len);
struct wired_port *wired_port_new_io(struct loop *loop, const char *name,
				     const struct eap_conf *profile,
				     const struct wired_timers *timers,
				     const struct wired_port_callbacks *cb, wired_tx_fn tx,
				     void *tx_ctx);
/* One received EAPOL frame (what the driver's RX_EAPOL event carries). */
void wired_port_rx(struct wired_port *port, const uint8_t *frame, size_t len);
void wired_port_free(struct wired_port *port);

/* The driver events of the port's interface (the daemon routes them). */
void wired_port_handle_event(struct wired_port *port, const struct driver_event *ev);
/* Tells the role the link state it has not seen as an event yet (at start). */
void wired_port_set_link(struct wired_port *port, bool carrier);

/* A new profile (borrowed); a running attempt is ended and a new one
 * started if the link is up. */
void wired_port_set_profile(struct wired_port *port, const struct eap_conf *profile);
const struct eap_conf *wired_port_profile(const struct wired_port *port);
/* Starts over: the port unauthorized and a new EAPOL-Start (when the
 * link is up); the TLS session is offered again. */
void wired_port_reconnect(struct wired_port *port);
int wired_port_set_secret(struct wired_port *port, enum eap_peer_secret which,
			  const char *value);

enum wired_state wired_port_state(const struct wired_port *port);
bool wired_port_authorized(const struct wired_port *port);
/* The error that ended the last failed attempt (NONE after a success), and
 * its detail (never NULL). */
enum eap_peer_err wired_port_last_error(const struct wired_port *port, const char **detail);
/* The same in the daemon's catalogue (WPAD_OK when none). */
enum wpad_error_code wired_port_last_error_code(const struct wired_port *port);
/* The method of the last or running attempt ("" when none yet). */
const char *wired_port_method(const struct wired_port *port);
/* TLS of the last TLS-based attempt, or NULL. */
const struct eap_peer_tls_info *wired_port_tls_info(const struct wired_port *port);
const struct wired_port_stats *wired_port_stats(const struct wired_port *port);

#endif
