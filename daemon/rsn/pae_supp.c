/* The 802.1X supplicant PAE (pae_supp.h). pae_enter() is the one place a
 * state is entered; the events (link, logoff, EAP, timer, the EAP peer's
 * end) each pick the next state as 802.1X-2010's supplicant PAE diagram
 * says. One timer serves startWhen, authWhile and heldWhile: each state
 * uses at most one of them. */
#define LOG_TAG "pae"
#include "daemon/rsn/pae_supp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/codec/eapol.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/crypto/secure.h"
#include "daemon/rsn/suites.h"

#define DEF_START_MS 30000
#define DEF_HELD_MS 60000
#define DEF_AUTH_MS 30000
#define DEF_MAX_START 3

struct pae_supp {
	struct loop *loop;
	struct eapol_port *port;
	struct pae_supp_config cfg;
	const struct eap_peer_profile *profile;
	struct pae_supp_ops ops;
	void *ctx;

	enum pae_supp_state state;
	struct loop_timer *timer;
	struct eap_peer *peer;
	bool port_enabled, user_logoff, quiet_first, in_timeout;
	unsigned start_count;

	enum eap_peer_err err;
	char detail[256];
	struct pae_supp_stats stats;
};

static const char *const state_names[] = {
	[PAE_SUPP_DISCONNECTED] = "DISCONNECTED", [PAE_SUPP_LOGOFF] = "LOGOFF",
	[PAE_SUPP_CONNECTING] = "CONNECTING",	  [PAE_SUPP_AUTHENTICATING] = "AUTHENTICATING",
	[PAE_SUPP_HELD] = "HELD",		  [PAE_SUPP_AUTHENTICATED] = "AUTHENTICATED",
	[PAE_SUPP_RESTART] = "RESTART",
};

const char *pae_supp_state_to_string(enum pae_supp_state s)
{
	if ((unsigned)s < sizeof(state_names) / sizeof(state_names[0]) && state_names[s])
		return state_names[s];
	return "?";
}

static int tx_eapol(struct pae_supp *pae, uint8_t type, const uint8_t *body, size_t len)
{
	if (len > 0xffff)
		return -EMSGSIZE;
	uint8_t *f = malloc(EAPOL_HDR_LEN + len);
	if (!f)
		return -ENOMEM;
	f[0] = pae->cfg.eapol_version;
	f[1] = type;
	f[2] = (uint8_t)(len >> 8);
	f[3] = (uint8_t)len;
	if (len)
		memcpy(f + EAPOL_HDR_LEN, body, len);
	int r = eapol_port_tx(pae->port, f, EAPOL_HDR_LEN + len);
	crypto_zero(f, EAPOL_HDR_LEN + len); /* a Response may carry a password (GTC) */
	free(f);
	return r;
}

static void set_error(struct pae_supp *pae, enum eap_peer_err err, const char *detail)
{
	pae->err = err;
	snprintf(pae->detail, sizeof(pae->detail), "%s", detail ? detail : "");
}

static void authorize(struct pae_supp *pae, bool on)
{
	if (pae->cfg.authorize_port)
		eapol_port_set_authorized(pae->port, on);
}

static void restart_eap(struct pae_supp *pae);

/* The one transition function: entry actions of 802.1X-2010's supplicant
 * PAE states, then the owner is told. */
static void pae_enter(struct pae_supp *pae, enum pae_supp_state s)
{
	enum pae_supp_state from = pae->state;
	log_debug("%s -> %s", pae_supp_state_to_string(from), pae_supp_state_to_string(s));
	pae->state = s;
	loop_timer_disarm(pae->timer);
	switch (s) {
	case PAE_SUPP_DISCONNECTED:
		pae->start_count = 0;
		pae->quiet_first = pae->cfg.first_start_delay_ms != 0;
		authorize(pae, false);
		break;
	case PAE_SUPP_LOGOFF:
		pae->stats.tx_logoff++;
		tx_eapol(pae, EAPOL_TYPE_LOGOFF, NULL, 0);
		authorize(pae, false);
		break;
	case PAE_SUPP_CONNECTING:
		if (pae->quiet_first) {
			/* Give the authenticator the first word (Wi-Fi). */
			pae->quiet_first = false;
			loop_timer_arm_ms(pae->timer, pae->cfg.first_start_delay_ms);
			break;
		}
		pae->start_count++;
		pae->stats.tx_start++;
		tx_eapol(pae, EAPOL_TYPE_START, NULL, 0);
		loop_timer_arm_ms(pae->timer, pae->cfg.start_period_ms);
		break;
	case PAE_SUPP_RESTART:
		restart_eap(pae);
		break;
	case PAE_SUPP_AUTHENTICATING:
		pae->start_count = 0;
		loop_timer_arm_ms(pae->timer, pae->cfg.auth_period_ms);
		break;
	case PAE_SUPP_HELD:
		loop_timer_arm_ms(pae->timer, pae->cfg.held_period_ms);
		authorize(pae, false);
		break;
	case PAE_SUPP_AUTHENTICATED:
		authorize(pae, true);
		break;
	}
	if (pae->ops.state_changed)
		pae->ops.state_changed(pae->ctx, from, s);
}

/* ---- the EAP peer's side ---------------------------------------------- */

static int peer_tx(void *ctx, const uint8_t *pkt, size_t len)
{
	struct pae_supp *pae = ctx;
	pae->stats.tx_eap++;
	if (pae->state == PAE_SUPP_AUTHENTICATING)
		loop_timer_arm_ms(pae->timer, pae->cfg.auth_period_ms);
	return tx_eapol(pae, EAPOL_TYPE_EAP, pkt, len);
}

static void peer_done(void *ctx, enum eap_peer_result result)
{
	struct pae_supp *pae = ctx;
	const char *detail;
	if (result == EAP_PEER_SUCCESS) {
		pae->stats.successes++;
		set_error(pae, EAP_PEER_ERR_NONE, NULL);
		pae_enter(pae, PAE_SUPP_AUTHENTICATED);
	} else {
		pae->stats.failures++;
		enum eap_peer_err err = eap_peer_error(pae->peer, &detail);
		/* A bare EAP-Failure names no stage: it is the failure itself. */
		set_error(pae, err == EAP_PEER_ERR_NONE ? EAP_PEER_ERR_FAILURE : err, detail);
		if (pae->in_timeout)
			return; /* the timer goes to CONNECTING itself */
		pae_enter(pae, PAE_SUPP_HELD);
	}
	if (pae->ops.eap_result)
		pae->ops.eap_result(pae->ctx, result);
}

static void peer_need_secret(void *ctx, enum eap_peer_secret which)
{
	struct pae_supp *pae = ctx;
	/* A person may take their time: authWhile waits for the answer. */
	if (pae->state == PAE_SUPP_AUTHENTICATING)
		loop_timer_disarm(pae->timer);
	if (pae->ops.need_secret)
		pae->ops.need_secret(pae->ctx, which);
	else
		eap_peer_set_secret(pae->peer, which, NULL);
}

static const struct eap_peer_ops peer_ops = {
	.tx = peer_tx,
	.done = peer_done,
	.need_secret = peer_need_secret,
};

/* eapRestart: the peer starts over, keeping a method's reauthentication
 * data (TLS resumption) when it has some. */
static void restart_eap(struct pae_supp *pae)
{
	if (pae->peer) {
		eap_peer_restart(pae->peer);
		return;
	}
	pae->peer = eap_peer_new(pae->profile, &peer_ops, pae);
	if (!pae->peer)
		log_error("%s", "out of memory for the EAP peer");
}

/* ---- events --------------------------------------------------------------- */

static void on_timer(struct loop_timer *t, void *data)
{
	struct pae_supp *pae = data;
	switch (pae->state) {
	case PAE_SUPP_CONNECTING:
		/* startWhen reached 0 */
		if (pae->start_count < pae->cfg.max_start) {
			pae_enter(pae, PAE_SUPP_CONNECTING);
		} else if (pae->cfg.port_valid_without_eap) {
			log_info("no authenticator answered %u EAPOL-Start: port open",
				 pae->start_count);
			pae_enter(pae, PAE_SUPP_AUTHENTICATED);
		} else {
			char d[96];
			snprintf(d, sizeof(d), "no EAP from the authenticator after %u EAPOL-Start",
				 pae->start_count);
			set_error(pae, EAP_PEER_ERR_NO_RESPONSE, d);
			log_info("%s", d);
			pae_enter(pae, PAE_SUPP_HELD);
		}
		break;
	case PAE_SUPP_AUTHENTICATING:
		/* authWhile reached 0: suppTimeout */
		pae->stats.auth_timeouts++;
		pae->in_timeout = true;
		eap_peer_timeout(pae->peer);
		pae->in_timeout = false;
		pae_enter(pae, PAE_SUPP_CONNECTING);
		if (pae->ops.eap_result)
			pae->ops.eap_result(pae->ctx, EAP_PEER_FAILURE);
		break;
	case PAE_SUPP_HELD:
		pae_enter(pae, PAE_SUPP_CONNECTING);
		break;
	case PAE_SUPP_DISCONNECTED:
	case PAE_SUPP_LOGOFF:
	case PAE_SUPP_RESTART:
	case PAE_SUPP_AUTHENTICATED:
		break;
	}
}

void pae_supp_port_enabled(struct pae_supp *pae, bool enabled)
{
	if (!pae || pae->port_enabled == enabled)
		return;
	pae->port_enabled = enabled;
	if (!enabled) {
		pae_enter(pae, PAE_SUPP_DISCONNECTED);
		return;
	}
	if (pae->user_logoff) {
		pae_enter(pae, PAE_SUPP_LOGOFF);
		return;
	}
	pae_enter(pae, PAE_SUPP_DISCONNECTED);
	pae_enter(pae, PAE_SUPP_CONNECTING); /* DISCONNECTED's UCT */
}

void pae_supp_logoff(struct pae_supp *pae, bool logoff)
{
	if (!pae || pae->user_logoff == logoff)
		return;
	pae->user_logoff = logoff;
	if (!pae->port_enabled)
		return;
	if (logoff) {
		pae_enter(pae, PAE_SUPP_LOGOFF);
	} else {
		pae_enter(pae, PAE_SUPP_DISCONNECTED);
		pae_enter(pae, PAE_SUPP_CONNECTING);
	}
}

int pae_supp_rx_eap(struct pae_supp *pae, const struct eap_hdr_info *eap)
{
	if (!pae || !eap)
		return -EINVAL;
	switch (pae->state) {
	case PAE_SUPP_DISCONNECTED:
	case PAE_SUPP_LOGOFF:
	case PAE_SUPP_RESTART:
		return -ENOTCONN;
	case PAE_SUPP_CONNECTING:
	case PAE_SUPP_HELD:
	case PAE_SUPP_AUTHENTICATED:
		/* eapolEap: a new authentication (or reauthentication). Only a
		 * Request starts one: a retransmitted Success after the end
		 * would otherwise leave a new attempt waiting for nothing. */
		if (eap->code != EAP_CODE_REQUEST)
			return -ENOTCONN;
		pae_enter(pae, PAE_SUPP_RESTART);
		pae_enter(pae, PAE_SUPP_AUTHENTICATING); /* RESTART's exit: !eapRestart */
		break;
	case PAE_SUPP_AUTHENTICATING:
		break;
	}
	if (!pae->peer)
		return -ENOMEM;
	pae->stats.rx_eap++;
	loop_timer_arm_ms(pae->timer, pae->cfg.auth_period_ms);
	return eap_peer_rx(pae->peer, eap->packet, eap->length);
}

int pae_supp_set_secret(struct pae_supp *pae, enum eap_peer_secret which, const char *value)
{
	if (!pae || !pae->peer)
		return -EINVAL;
	/* authWhile runs again from the answer (before it: the answer may
	 * end the attempt at once). */
	if (pae->state == PAE_SUPP_AUTHENTICATING)
		loop_timer_arm_ms(pae->timer, pae->cfg.auth_period_ms);
	return eap_peer_set_secret(pae->peer, which, value);
}

void pae_supp_reconnect(struct pae_supp *pae)
{
	if (!pae || !pae->port_enabled || pae->user_logoff)
		return;
	authorize(pae, false);
	pae->start_count = 0;
	pae_enter(pae, PAE_SUPP_CONNECTING);
}

void pae_supp_set_profile(struct pae_supp *pae, const struct eap_peer_profile *profile)
{
	if (!pae || !profile)
		return;
	/* The peer and its TLS session belong to the old profile. */
	eap_peer_free(pae->peer);
	pae->peer = NULL;
	pae->profile = profile;
	set_error(pae, EAP_PEER_ERR_NONE, NULL);
	if (!pae->port_enabled || pae->user_logoff)
		return;
	pae->start_count = 0;
	pae_enter(pae, PAE_SUPP_CONNECTING);
}

/* ---- life ------------------------------------------------------------------ */

struct pae_supp *pae_supp_new(struct loop *loop, struct eapol_port *port,
			      const struct pae_supp_config *cfg,
			      const struct eap_peer_profile *profile,
			      const struct pae_supp_ops *ops, void *ctx)
{
	if (!loop || !port || !profile)
		return NULL;
	struct pae_supp *pae = calloc(1, sizeof(*pae));
	if (!pae)
		return NULL;
	pae->timer = loop_timer_new(loop, on_timer, pae);
	if (!pae->timer) {
		free(pae);
		return NULL;
	}
	pae->loop = loop;
	pae->port = port;
	if (cfg)
		pae->cfg = *cfg;
	if (!pae->cfg.start_period_ms)
		pae->cfg.start_period_ms = DEF_START_MS;
	if (!pae->cfg.held_period_ms)
		pae->cfg.held_period_ms = DEF_HELD_MS;
	if (!pae->cfg.auth_period_ms)
		pae->cfg.auth_period_ms = DEF_AUTH_MS;
	if (!pae->cfg.max_start)
		pae->cfg.max_start = DEF_MAX_START;
	if (!pae->cfg.eapol_version)
		pae->cfg.eapol_version = EAPOL_VERSION_2004;
	pae->profile = profile;
	if (ops)
		pae->ops = *ops;
	pae->ctx = ctx;
	pae->state = PAE_SUPP_DISCONNECTED;
	pae->quiet_first = pae->cfg.first_start_delay_ms != 0;
	return pae;
}

void pae_supp_free(struct pae_supp *pae)
{
	if (!pae)
		return;
	loop_timer_free(pae->timer);
	eap_peer_free(pae->peer);
	free(pae);
}

enum pae_supp_state pae_supp_state(const struct pae_supp *pae)
{
	return pae ? pae->state : PAE_SUPP_DISCONNECTED;
}

const struct eap_peer *pae_supp_peer(const struct pae_supp *pae)
{
	return pae ? pae->peer : NULL;
}

enum eap_peer_err pae_supp_error(const struct pae_supp *pae, const char **detail)
{
	if (detail)
		*detail = pae ? pae->detail : "";
	return pae ? pae->err : EAP_PEER_ERR_NONE;
}

int pae_supp_pmk(const struct pae_supp *pae, uint32_t akm, uint8_t *pmk, size_t max)
{
	const struct rsn_akm_info *a = rsn_akm_info(akm);
	if (!pae || !pmk || !a || a->family != RSN_AKM_FAMILY_8021X)
		return -EINVAL;
	size_t want = a->kdf == RSN_KDF_SHA384 ? 48 : 32;
	uint8_t msk[EAP_MSK_LEN];
	if (!pae->peer || eap_peer_result(pae->peer) != EAP_PEER_SUCCESS)
		return -ENOENT;
	int n = eap_peer_msk(pae->peer, msk, sizeof(msk));
	if (n < 0 || (size_t)n < want) {
		crypto_zero(msk, sizeof(msk));
		return -ENOENT;
	}
	if (max < want) {
		crypto_zero(msk, sizeof(msk));
		return -ENOSPC;
	}
	memcpy(pmk, msk, want);
	crypto_zero(msk, sizeof(msk));
	return (int)want;
}

const struct pae_supp_stats *pae_supp_stats(const struct pae_supp *pae)
{
	return pae ? &pae->stats : NULL;
}
