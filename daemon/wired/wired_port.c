/* The wired 802.1X supplicant role; see wired_port.h. The protocol is the
 * supplicant PAE's (daemon/rsn/pae_supp.c); this file is the glue: the
 * driver and the link below it, the D-Bus view of its state above it, and
 * what a finished attempt leaves to show (method, TLS, time, error). */
#define LOG_TAG "wired"
#include "daemon/wired/wired_port.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/rsn/eapol_port.h"
#include "daemon/rsn/pae_supp.h"
#include "daemon/wired/wired_profile.h"
#include "drivers/driver.h"
#include "eap/eap_peer_catalogue.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wired_port {
	struct loop *loop;
	struct driver *drv; /* NULL with an injected tx */
	uint32_t ifindex;
	wired_tx_fn tx;
	void *tx_ctx;
	char name[32];
	const struct eap_conf *conf;
	struct eap_peer_profile profile; /* borrows from conf */
	struct wired_port_callbacks cb;
	struct eapol_port *port;
	struct pae_supp *pae;
	enum wired_state state; /* the PAE's state as shown (wired_view) */
	bool carrier;
	bool quiet;		/* Reconnect: one change shown, not each step */
	uint64_t attempt_start_us;
	char method[16];
	bool has_tls;
	struct eap_peer_tls_info tls;
	struct wired_port_stats stats;
};

const char *wired_state_to_string(enum wired_state s)
{
	switch (s) {
	case WIRED_S_DISABLED: return "disabled";
	case WIRED_S_CONNECTING: return "connecting";
	case WIRED_S_AUTHENTICATING: return "authenticating";
	case WIRED_S_AUTHENTICATED: return "authenticated";
	case WIRED_S_HELD: return "held";
	}
	return "unknown";
}

/* The PAE's seven states as the five the D-Bus State property has always
 * shown: LOGOFF is a port that does not try, as one without a link. */
static enum wired_state wired_view(enum pae_supp_state s)
{
	switch (s) {
	case PAE_SUPP_DISCONNECTED:
	case PAE_SUPP_LOGOFF:
		return WIRED_S_DISABLED;
	case PAE_SUPP_CONNECTING:
		return WIRED_S_CONNECTING;
	case PAE_SUPP_RESTART:
	case PAE_SUPP_AUTHENTICATING:
		return WIRED_S_AUTHENTICATING;
	case PAE_SUPP_HELD:
		return WIRED_S_HELD;
	case PAE_SUPP_AUTHENTICATED:
		return WIRED_S_AUTHENTICATED;
	}
	return WIRED_S_DISABLED;
}

/* ---- the port below ---- */

static int port_tx(void *ctx, const uint8_t *frame, size_t len)
{
	struct wired_port *p = ctx;
	if (p->tx)
		return p->tx(p->tx_ctx, frame, len);
	/* NULL peer: the PAE group address (IEEE 802.1X-2010 11.1.1). */
	return driver_tx_eapol(p->drv, p->ifindex, NULL, frame, len, true, NULL);
}

static void port_set_authorized(void *ctx, bool authorized)
{
	struct wired_port *p = ctx;
	if (!p->drv)
		return;
	int e = driver_port_authorize(p->drv, p->ifindex, NULL, authorized);
	if (e < 0 && e != -EOPNOTSUPP)
		log_warn("%s: port state to the driver: %s", p->name, strerror(-e));
}

static int port_rx_eap(void *ctx, const struct eap_hdr_info *eap)
{
	struct wired_port *p = ctx;
	return pae_supp_rx_eap(p->pae, eap);
}

/* ---- the PAE above it ---- */

/* An attempt ended (success, failure or silence): keep what it showed. */
static void attempt_ended(struct wired_port *p, enum pae_supp_state to)
{
	const struct eap_peer *peer = pae_supp_peer(p->pae);
	const char *m = peer ? eap_peer_method_name(peer) : NULL;
	snprintf(p->method, sizeof(p->method), "%s", m ? m : "");
	const struct eap_peer_tls_info *tls = peer ? eap_peer_tls_info(peer) : NULL;
	p->has_tls = tls && tls->version[0];
	if (p->has_tls)
		p->tls = *tls;
	p->stats.last_auth_us = loop_now_us(p->loop) - p->attempt_start_us;
	if (to == PAE_SUPP_AUTHENTICATED) {
		p->stats.successes++;
		log_info("%s: authenticated with EAP-%s in %llu ms%s", p->name, p->method,
			 (unsigned long long)(p->stats.last_auth_us / 1000),
			 p->has_tls && p->tls.resumed ? " (TLS session resumed)" : "");
	}
}

static void failed(struct wired_port *p)
{
	const char *detail;
	enum eap_peer_err err = pae_supp_error(p->pae, &detail);
	p->stats.failures++;
	log_warn("%s: 802.1X failed: %s%s%s", p->name, eap_peer_err_name(err),
		 detail[0] ? ": " : "", detail);
}

static void show_state(struct wired_port *p, enum wired_state s)
{
	enum wired_state old = p->state;
	if (old == s)
		return;
	p->state = s;
	log_info("%s: %s -> %s", p->name, wired_state_to_string(old), wired_state_to_string(s));
	if (p->cb.state_changed)
		p->cb.state_changed(p->cb.ctx, old, s);
}

static void pae_changed(void *ctx, enum pae_supp_state from, enum pae_supp_state to)
{
	struct wired_port *p = ctx;
	const struct pae_supp_stats *ps = pae_supp_stats(p->pae);
	p->stats.starts_sent = ps->tx_start;
	p->stats.logoffs_sent = ps->tx_logoff;
	if (from == PAE_SUPP_RESTART && to == PAE_SUPP_AUTHENTICATING) {
		p->stats.attempts++;
		p->attempt_start_us = loop_now_us(p->loop);
		p->method[0] = '\0';
	}
	if (from == PAE_SUPP_AUTHENTICATING && to != PAE_SUPP_AUTHENTICATING)
		attempt_ended(p, to);
	/* HELD, or authWhile ran out (back to CONNECTING with the error). */
	if (to == PAE_SUPP_HELD ||
	    (from == PAE_SUPP_AUTHENTICATING && to == PAE_SUPP_CONNECTING &&
	     pae_supp_error(p->pae, NULL) != EAP_PEER_ERR_NONE))
		failed(p);
	if (to == PAE_SUPP_DISCONNECTED)
		eapol_port_reset(p->port);
	if (!p->quiet)
		show_state(p, wired_view(to));
}

static void pae_need_secret(void *ctx, enum eap_peer_secret which)
{
	struct wired_port *p = ctx;
	if (p->cb.need_secret)
		p->cb.need_secret(p->cb.ctx, which);
	else
		pae_supp_set_secret(p->pae, which, NULL);
}

/* ---- public ---- */

static struct wired_port *port_new(struct loop *loop, struct driver *drv, uint32_t ifindex,
				   const char *name, const struct eap_conf *profile,
				   const struct wired_timers *timers,
				   const struct wired_port_callbacks *cb, wired_tx_fn tx, void *tx_ctx);

struct wired_port *wired_port_new(struct loop *loop, struct driver *drv, uint32_t ifindex,
				  const char *name, const struct eap_conf *profile,
				  const struct wired_timers *timers,
				  const struct wired_port_callbacks *cb)
{
	if (!drv)
		return NULL;
	return port_new(loop, drv, ifindex, name, profile, timers, cb, NULL, NULL);
}

struct wired_port *wired_port_new_io(struct loop *loop, const char *name,
				     const struct eap_conf *profile,
				     const struct wired_timers *timers,
				     const struct wired_port_callbacks *cb, wired_tx_fn tx,
				     void *tx_ctx)
{
	if (!tx)
		return NULL;
	return port_new(loop, NULL, 0, name, profile, timers, cb, tx, tx_ctx);
}

static struct wired_port *port_new(struct loop *loop, struct driver *drv, uint32_t ifindex,
				   const char *name, const struct eap_conf *profile,
				   const struct wired_timers *timers,
				   const struct wired_port_callbacks *cb, wired_tx_fn tx, void *tx_ctx)
{
	static const struct eapol_port_ops port_ops = {
		.tx = port_tx,
		.set_authorized = port_set_authorized,
		.rx_eap = port_rx_eap,
	};
	static const struct pae_supp_ops pae_ops = {
		.state_changed = pae_changed,
		.need_secret = pae_need_secret,
	};
	if (!loop || !name || !profile)
		return NULL;
	struct wired_port *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->loop = loop;
	p->drv = drv;
	p->tx = tx;
	p->tx_ctx = tx_ctx;
	p->ifindex = ifindex;
	snprintf(p->name, sizeof(p->name), "%s", name);
	if (cb)
		p->cb = *cb;
	p->conf = profile;
	wired_profile_map(profile, &p->profile);
	/* 0 in a timer: the PAE's 802.1X-2010 default. A wired port sends
	 * the first Start at once, authorizes the port itself, and a switch
	 * that never answers is an error to show, not an open port. */
	struct pae_supp_config cfg = { .authorize_port = true };
	if (timers) {
		cfg.start_period_ms = timers->start_period_ms;
		cfg.max_start = timers->max_start;
		cfg.auth_period_ms = timers->auth_period_ms;
		cfg.held_period_ms = timers->held_period_ms;
	}
	p->port = eapol_port_new(EAPOL_PORT_SUPPLICANT, name, &port_ops, p);
	if (p->port)
		p->pae = pae_supp_new(loop, p->port, &cfg, &p->profile, &pae_ops, p);
	if (!p->port || !p->pae) {
		wired_port_free(p);
		return NULL;
	}
	return p;
}

void wired_port_free(struct wired_port *p)
{
	if (!p)
		return;
	/* Tell the switch we leave (EAPOL-Logoff) when the link is up; the
	 * owner hears nothing more. */
	memset(&p->cb, 0, sizeof(p->cb));
	if (p->carrier)
		pae_supp_logoff(p->pae, true);
	pae_supp_free(p->pae);
	eapol_port_free(p->port);
	free(p);
}

void wired_port_set_link(struct wired_port *p, bool carrier)
{
	if (carrier == p->carrier)
		return;
	p->carrier = carrier;
	pae_supp_port_enabled(p->pae, carrier);
}

void wired_port_handle_event(struct wired_port *p, const struct driver_event *ev)
{
	if (ev->ifindex != p->ifindex)
		return;
	switch (ev->type) {
	case DRIVER_EV_RX_EAPOL:
		wired_port_rx(p, ev->u.data.body, ev->u.data.len);
		break;
	case DRIVER_EV_LINK_CHANGE:
		wired_port_set_link(p, ev->u.link.carrier);
		break;
	default: /* nothing else concerns a wired port */
		break;
	}
}

void wired_port_rx(struct wired_port *p, const uint8_t *frame, size_t len)
{
	if (p->carrier)
		(void)eapol_port_rx(p->port, frame, len);
}

void wired_port_set_profile(struct wired_port *p, const struct eap_conf *profile)
{
	p->conf = profile;
	wired_profile_map(profile, &p->profile);
	pae_supp_set_profile(p->pae, &p->profile);
}

const struct eap_conf *wired_port_profile(const struct wired_port *p)
{
	return p->conf;
}

void wired_port_reconnect(struct wired_port *p)
{
	if (!p->carrier)
		return;
	/* A new EAPOL-Start (pae_supp_reconnect says why no Logoff). The
	 * EAP peer stays, so a TLS method offers its session again. */
	p->quiet = true;
	pae_supp_reconnect(p->pae);
	p->quiet = false;
	show_state(p, wired_view(pae_supp_state(p->pae)));
}

int wired_port_set_secret(struct wired_port *p, enum eap_peer_secret which, const char *value)
{
	const struct eap_peer *peer = pae_supp_peer(p->pae);
	if (!peer || eap_peer_result(peer) != EAP_PEER_RUNNING)
		return -EALREADY;
	return pae_supp_set_secret(p->pae, which, value);
}

enum wired_state wired_port_state(const struct wired_port *p)
{
	return p->state;
}

bool wired_port_authorized(const struct wired_port *p)
{
	return eapol_port_authorized(p->port);
}

enum eap_peer_err wired_port_last_error(const struct wired_port *p, const char **detail)
{
	return pae_supp_error(p->pae, detail);
}

enum wpad_error_code wired_port_last_error_code(const struct wired_port *p)
{
	return eap_peer_err_code(pae_supp_error(p->pae, NULL));
}

const char *wired_port_method(const struct wired_port *p)
{
	return p->method;
}

const struct eap_peer_tls_info *wired_port_tls_info(const struct wired_port *p)
{
	return p->has_tls ? &p->tls : NULL;
}

const struct wired_port_stats *wired_port_stats(const struct wired_port *p)
{
	return &p->stats;
}
