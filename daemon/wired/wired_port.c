/* The wired 802.1X supplicant role; see wired_port.h. */
#define LOG_TAG "wired"
#include "daemon/wired/wired_port.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/codec/eapol.h"
#include "daemon/rsn/eapol_port.h"
#include "daemon/wired/wired_profile.h"
#include "drivers/driver.h"
#include "eap/eap_peer_catalogue.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ethernet payload minus the EAPOL header. */
#define WIRED_EAP_MAX 1496

struct wired_port {
	struct loop *loop;
	struct driver *drv; /* NULL with an injected tx */
	uint32_t ifindex;
	wired_tx_fn tx;
	void *tx_ctx;
	char name[32];
	const struct eap_conf *conf;
	struct eap_peer_profile profile; /* borrows from conf */
	struct wired_timers timers;
	struct wired_port_callbacks cb;
	struct eapol_port *port;
	struct eap_peer *peer; /* the running or last attempt */
	enum wired_state state;
	bool carrier;
	unsigned start_count;
	struct loop_timer *timer; /* startWhen, authWhile or heldWhile by state */
	uint64_t attempt_start_us;
	enum eap_peer_err last_err;
	char last_detail[256];
	char method[16];
	bool has_tls;
	struct eap_peer_tls_info tls;
	struct wired_port_stats stats;
};

static const struct wired_timers default_timers = {
	.start_period_ms = 30000,
	.max_start = 3,
	.auth_period_ms = 30000,
	.held_period_ms = 60000,
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

/* ---- EAPOL out ---- */

static int send_eapol(struct wired_port *p, uint8_t type, const uint8_t *body, size_t len)
{
	uint8_t frame[4 + WIRED_EAP_MAX];
	if (len > WIRED_EAP_MAX)
		return -EMSGSIZE;
	frame[0] = EAPOL_VERSION_2004;
	frame[1] = type;
	frame[2] = (uint8_t)(len >> 8);
	frame[3] = (uint8_t)len;
	if (len)
		memcpy(frame + 4, body, len);
	return eapol_port_tx(p->port, frame, 4 + len);
}

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

/* ---- the state machine ---- */

static void enter_state(struct wired_port *p, enum wired_state s);

static void end_attempt(struct wired_port *p)
{
	eap_peer_free(p->peer);
	p->peer = NULL;
}

static void send_start(struct wired_port *p)
{
	int e = send_eapol(p, EAPOL_TYPE_START, NULL, 0);
	if (e < 0)
		log_warn("%s: EAPOL-Start: %s", p->name, strerror(-e));
	p->stats.starts_sent++;
	p->start_count++;
	loop_timer_arm_ms(p->timer, p->timers.start_period_ms);
}

static void fail_attempt(struct wired_port *p, enum eap_peer_err err, const char *detail)
{
	p->last_err = err;
	snprintf(p->last_detail, sizeof(p->last_detail), "%s", detail ? detail : "");
	p->stats.failures++;
	log_warn("%s: 802.1X failed: %s%s%s", p->name, eap_peer_err_name(err),
		 p->last_detail[0] ? ": " : "", p->last_detail);
	enter_state(p, WIRED_S_HELD);
}

/* The one place a state is entered: logs, entry actions, then tells the
 * owner. No default: the compiler names a state left out. */
static void enter_state(struct wired_port *p, enum wired_state s)
{
	enum wired_state old = p->state;
	p->state = s;
	loop_timer_disarm(p->timer);
	if (old != s)
		log_info("%s: %s -> %s", p->name, wired_state_to_string(old),
			 wired_state_to_string(s));
	switch (s) {
	case WIRED_S_DISABLED:
		end_attempt(p);
		eapol_port_reset(p->port);
		p->start_count = 0;
		break;
	case WIRED_S_CONNECTING:
		eapol_port_set_authorized(p->port, false);
		p->start_count = 0;
		send_start(p);
		break;
	case WIRED_S_AUTHENTICATING:
		loop_timer_arm_ms(p->timer, p->timers.auth_period_ms);
		break;
	case WIRED_S_AUTHENTICATED:
		eapol_port_set_authorized(p->port, true);
		break;
	case WIRED_S_HELD:
		eapol_port_set_authorized(p->port, false);
		loop_timer_arm_ms(p->timer, p->timers.held_period_ms);
		break;
	}
	if (old != s && p->cb.state_changed)
		p->cb.state_changed(p->cb.ctx, old, s);
}

static void on_timer(struct loop_timer *t, void *data)
{
	struct wired_port *p = data;
	switch (p->state) {
	case WIRED_S_CONNECTING:
		if (p->start_count < p->timers.max_start)
			send_start(p);
		else
			fail_attempt(p, EAP_PEER_ERR_NO_RESPONSE,
				     "no authenticator answered EAPOL-Start");
		break;
	case WIRED_S_AUTHENTICATING:
		/* authWhile expired: the peer records NO_RESPONSE and ends. */
		if (p->peer)
			eap_peer_timeout(p->peer);
		if (p->state == WIRED_S_AUTHENTICATING)
			fail_attempt(p, EAP_PEER_ERR_NO_RESPONSE,
				     "the authenticator stopped answering");
		break;
	case WIRED_S_HELD:
		enter_state(p, WIRED_S_CONNECTING);
		break;
	case WIRED_S_DISABLED:
	case WIRED_S_AUTHENTICATED:
		break;
	}
}

/* ---- the EAP peer ---- */

static int peer_tx(void *ctx, const uint8_t *pkt, size_t len)
{
	return send_eapol(ctx, EAPOL_TYPE_EAP, pkt, len);
}

static void peer_done(void *ctx, enum eap_peer_result result)
{
	struct wired_port *p = ctx;
	const char *m = eap_peer_method_name(p->peer);
	snprintf(p->method, sizeof(p->method), "%s", m ? m : "");
	const struct eap_peer_tls_info *tls = eap_peer_tls_info(p->peer);
	p->has_tls = tls && tls->version[0];
	if (p->has_tls)
		p->tls = *tls;
	p->stats.last_auth_us = loop_now_us(p->loop) - p->attempt_start_us;
	if (result == EAP_PEER_SUCCESS) {
		p->last_err = EAP_PEER_ERR_NONE;
		p->last_detail[0] = '\0';
		p->stats.successes++;
		log_info("%s: authenticated with EAP-%s in %llu ms", p->name, p->method,
			 (unsigned long long)(p->stats.last_auth_us / 1000));
		enter_state(p, WIRED_S_AUTHENTICATED);
		return;
	}
	const char *detail = "";
	enum eap_peer_err err = eap_peer_error(p->peer, &detail);
	fail_attempt(p, err == EAP_PEER_ERR_NONE ? EAP_PEER_ERR_FAILURE : err, detail);
}

static void peer_need_secret(void *ctx, enum eap_peer_secret which)
{
	struct wired_port *p = ctx;
	/* The agent may take its time: authWhile does not run meanwhile. */
	loop_timer_disarm(p->timer);
	if (p->cb.need_secret)
		p->cb.need_secret(p->cb.ctx, which);
	else
		eap_peer_set_secret(p->peer, which, NULL);
}

static int new_attempt(struct wired_port *p)
{
	static const struct eap_peer_ops ops = {
		.tx = peer_tx,
		.done = peer_done,
		.need_secret = peer_need_secret,
	};
	end_attempt(p);
	p->peer = eap_peer_new(&p->profile, &ops, p);
	if (!p->peer)
		return -ENOMEM;
	p->stats.attempts++;
	p->attempt_start_us = loop_now_us(p->loop);
	p->method[0] = '\0';
	enter_state(p, WIRED_S_AUTHENTICATING);
	return 0;
}

static int port_rx_eap(void *ctx, const struct eap_hdr_info *eap)
{
	struct wired_port *p = ctx;
	if (p->state == WIRED_S_DISABLED)
		return -ENETDOWN;
	bool identity = eap->code == EAP_CODE_REQUEST && eap->type == EAP_TYPE_IDENTITY;
	bool running = p->peer && eap_peer_result(p->peer) == EAP_PEER_RUNNING;
	if (identity && !running) {
		if (new_attempt(p) < 0) {
			fail_attempt(p, EAP_PEER_ERR_FAILURE, "out of memory");
			return -ENOMEM;
		}
		running = true;
	}
	if (!running)
		return -EALREADY; /* a late Success/Failure or a stray Request */
	if (eap->code == EAP_CODE_REQUEST && p->state == WIRED_S_AUTHENTICATING)
		loop_timer_arm_ms(p->timer, p->timers.auth_period_ms);
	return eap_peer_rx(p->peer, eap->packet, eap->length);
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
	p->timers = timers ? *timers : default_timers;
	if (cb)
		p->cb = *cb;
	p->conf = profile;
	wired_profile_map(profile, &p->profile);
	p->port = eapol_port_new(EAPOL_PORT_SUPPLICANT, name, &port_ops, p);
	p->timer = loop_timer_new(loop, on_timer, p);
	if (!p->port || !p->timer) {
		wired_port_free(p);
		return NULL;
	}
	return p;
}

void wired_port_free(struct wired_port *p)
{
	if (!p)
		return;
	if (p->port && p->state != WIRED_S_DISABLED && send_eapol(p, EAPOL_TYPE_LOGOFF, NULL, 0) == 0)
		p->stats.logoffs_sent++;
	end_attempt(p);
	loop_timer_free(p->timer);
	eapol_port_free(p->port);
	free(p);
}

void wired_port_set_link(struct wired_port *p, bool carrier)
{
	if (carrier == p->carrier)
		return;
	p->carrier = carrier;
	enter_state(p, carrier ? WIRED_S_CONNECTING : WIRED_S_DISABLED);
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
	if (p->state != WIRED_S_DISABLED)
		(void)eapol_port_rx(p->port, frame, len);
}

void wired_port_set_profile(struct wired_port *p, const struct eap_conf *profile)
{
	end_attempt(p);
	p->conf = profile;
	wired_profile_map(profile, &p->profile);
	if (p->carrier)
		enter_state(p, WIRED_S_CONNECTING);
}

const struct eap_conf *wired_port_profile(const struct wired_port *p)
{
	return p->conf;
}

void wired_port_reconnect(struct wired_port *p)
{
	if (!p->carrier)
		return;
	if (send_eapol(p, EAPOL_TYPE_LOGOFF, NULL, 0) == 0)
		p->stats.logoffs_sent++;
	end_attempt(p);
	enter_state(p, WIRED_S_CONNECTING);
}

int wired_port_set_secret(struct wired_port *p, enum eap_peer_secret which, const char *value)
{
	if (!p->peer || eap_peer_result(p->peer) != EAP_PEER_RUNNING)
		return -EALREADY;
	if (p->state == WIRED_S_AUTHENTICATING)
		loop_timer_arm_ms(p->timer, p->timers.auth_period_ms);
	return eap_peer_set_secret(p->peer, which, value);
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
	if (detail)
		*detail = p->last_detail;
	return p->last_err;
}

enum wpad_error_code wired_port_last_error_code(const struct wired_port *p)
{
	return eap_peer_err_code(p->last_err);
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
