/* Station MLME: what mac80211 does for a user-space SME. authenticate()
 * tunes to the BSS's channel and sends the Authentication frame,
 * associate() the (Re)Association Request with our rates, HT capabilities,
 * the caller's elements and WMM; each is retried a few times (sooner when
 * the medium reports no ACK) and answered by DRIVER_EV_AUTH/ASSOC with the
 * peer's frame, or with timed_out. An authentication frame's TX status
 * goes up too (DRIVER_EV_AUTH_TX_STATUS): the SME times SAE from it.
 * Once associated the MLME watches the BSS's beacons and raises
 * DRIVER_EV_BEACON_LOSS after beacon_loss (7) missed intervals, and turns
 * a Deauthentication/Disassociation from the BSS into
 * DRIVER_EV_DEAUTH/DISASSOC.
 *
 * SAE: auth_data starts with the Authentication transaction sequence number
 * and status code, as nl80211's SAE_DATA does; the MLME reports each SAE
 * frame from the AP and is authenticated after a successful confirm.
 */
#define LOG_TAG "sim"
#include "drivers/sim/radio.h"
#include "daemon/codec/codec_err.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_basic.h"
#include "daemon/codec/ie_ht.h"
#include "daemon/codec/ie_wmm.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SIM_AUTH_TIMEOUT_MS 200
/* SAE: the SME resends from our DRIVER_EV_AUTH_TX_STATUS (1-2 s after
 * the ACK, auth_sae.h); our own resend is a backstop that must not come
 * first, or each period would put two copies on the air. */
#define SIM_SAE_TIMEOUT_MS 3000
#define SIM_ASSOC_TIMEOUT_MS 200
#define SIM_NOACK_RETRY_MS 20
/* As mac80211 on hardware that reports TX status: a request's timeout
 * runs from its acknowledgement. A frame still waiting for the channel
 * gets its status in the end (the transmit watchdog reports one at the
 * latest 5 s after it left the queue), so this only guards against a
 * status that never comes: a copy queued behind a frame still waiting
 * its turn would only lengthen the wait of both. */
#define SIM_MLME_TX_WAIT_MS 6000
#define SIM_MLME_TRIES 3
#define SIM_LISTEN_INTERVAL 10

const char *sim_mlme_state_name(enum sim_mlme_state s)
{
	switch (s) {
	case SIM_MLME_IDLE: return "idle";
	case SIM_MLME_AUTHENTICATING: return "authenticating";
	case SIM_MLME_AUTHENTICATED: return "authenticated";
	case SIM_MLME_ASSOCIATING: return "associating";
	case SIM_MLME_ASSOCIATED: return "associated";
	}
	return "unknown";
}

static void drop_request(struct sim_mlme *m)
{
	free(m->req);
	m->req = NULL;
	m->req_len = 0;
	loop_timer_disarm(m->timer);
}

static void forget_auth_sent(struct sim_mlme *m)
{
	free(m->auth_sent);
	m->auth_sent = NULL;
	m->auth_sent_len = 0;
}

static void enter_state(struct sim_iface *ifc, enum sim_mlme_state s)
{
	struct sim_mlme *m = &ifc->mlme;
	if (m->state != s)
		log_debug("%s: MLME %s -> %s", ifc->name, sim_mlme_state_name(m->state),
			  sim_mlme_state_name(s));
	m->state = s;
	switch (s) {
	case SIM_MLME_IDLE:
		drop_request(m);
		forget_auth_sent(m);
		loop_timer_disarm(m->bl_timer);
		break;
	case SIM_MLME_AUTHENTICATING:
	case SIM_MLME_ASSOCIATING:
		m->tries = 0;
		break;
	case SIM_MLME_AUTHENTICATED:
		drop_request(m);
		forget_auth_sent(m);
		break;
	case SIM_MLME_ASSOCIATED:
		drop_request(m);
		m->last_beacon_us = loop_now_us(ifc->sim->loop);
		m->loss_reported = false;
		loop_timer_arm_us(m->bl_timer, (uint64_t)m->beacon_int * SIM_TU_US);
		break;
	}
}

static void emit_mlme(struct sim_iface *ifc, enum driver_event_type type, const uint8_t *frame,
		      size_t len, bool timed_out, bool local)
{
	struct driver_event ev = {
		.type = type,
		.radio_id = ifc->radio->id,
		.ifindex = ifc->ifindex,
		.u.mgmt = { .frame = frame, .len = len, .freq_mhz = ifc->mlme.freq,
			    .timed_out = timed_out, .locally_generated = local },
	};
	sim_emit(ifc->sim, &ev);
}

/* Forgets the BSS: its peer entry (and pairwise keys) and the group keys. */
static void forget_bss(struct sim_iface *ifc)
{
	sim_peer_del(ifc, ifc->mlme.bssid);
	sim_keys_wipe_group(ifc);
}

static void send_request(struct sim_iface *ifc)
{
	struct sim_mlme *m = &ifc->mlme;
	m->tries++;
	loop_timer_arm_ms(m->timer, SIM_MLME_TX_WAIT_MS);
	if (sim_tx_enqueue(ifc, SIM_TXQ_MGMT, SIM_TXF_MLME, m->req, m->req_len, m->freq, false,
			   false, 0, 0) < 0)
		loop_timer_arm_ms(m->timer, SIM_NOACK_RETRY_MS);
}

static void on_timeout(struct loop_timer *t, void *data)
{
	struct sim_iface *ifc = data;
	struct sim_mlme *m = &ifc->mlme;
	bool auth = m->state == SIM_MLME_AUTHENTICATING;
	if (!auth && m->state != SIM_MLME_ASSOCIATING)
		return;
	if (!m->req)
		return; /* SAE: waiting for the SME's next authenticate() */
	if (m->tries < SIM_MLME_TRIES) {
		send_request(ifc);
		return;
	}
	log_info("%s: %s timed out after %u tries", ifc->name,
		 auth ? "authentication" : "association", m->tries);
	emit_mlme(ifc, auth ? DRIVER_EV_AUTH : DRIVER_EV_ASSOC, NULL, 0, true, false);
	forget_bss(ifc);
	enter_state(ifc, SIM_MLME_IDLE);
}

/* Whether frame (as it went out, with its sequence number) is a copy of
 * want: not a copy of an earlier request still in the queue. */
static bool same_frame(const uint8_t *want, size_t want_len, const uint8_t *frame, size_t len)
{
	return want && frame && len == want_len && len >= IEEE80211_MGMT_HDR_LEN &&
	       memcmp(frame, want, 22) == 0 &&
	       memcmp(frame + IEEE80211_MGMT_HDR_LEN, want + IEEE80211_MGMT_HDR_LEN,
		      len - IEEE80211_MGMT_HDR_LEN) == 0;
}

void sim_mlme_tx_status(struct sim_iface *ifc, bool acked, const uint8_t *frame, size_t len)
{
	struct sim_mlme *m = &ifc->mlme;
	if (m->state == SIM_MLME_AUTHENTICATING &&
	    same_frame(m->auth_sent, m->auth_sent_len, frame, len)) {
		/* The SME times its own retransmissions (SAE) from the air. */
		struct driver_event ev = {
			.type = DRIVER_EV_AUTH_TX_STATUS, .radio_id = ifc->radio->id,
			.ifindex = ifc->ifindex,
			.u.tx_status = { .acked = acked, .frame = frame, .len = len } };
		sim_emit(ifc->sim, &ev);
	}
	bool waiting = m->state == SIM_MLME_AUTHENTICATING || m->state == SIM_MLME_ASSOCIATING;
	if (!waiting || !same_frame(m->req, m->req_len, frame, len))
		return;
	/* Nobody acknowledged: no answer is coming, try again soon.
	 * Acknowledged: the peer has it; now its answer is timed. */
	loop_timer_arm_ms(m->timer, acked ? m->timeout_ms : SIM_NOACK_RETRY_MS);
}

static void on_beacon_watch(struct loop_timer *t, void *data)
{
	struct sim_iface *ifc = data;
	struct sim_mlme *m = &ifc->mlme;
	uint64_t interval_us = (uint64_t)m->beacon_int * SIM_TU_US;
	uint64_t loss_us = interval_us * ifc->sim->opts.beacon_loss_count;
	uint64_t now = loop_now_us(ifc->sim->loop);
	if (m->state != SIM_MLME_ASSOCIATED)
		return;
	/* Wake when the loss would be due, not every beacon interval: while
	 * beacons arrive this timer fires once per beacon_loss intervals. */
	if (ifc->scan || m->loss_reported) {
		loop_timer_arm_us(m->bl_timer, loss_us);
		return;
	}
	if (now - m->last_beacon_us < loss_us) {
		loop_timer_arm_us(m->bl_timer, m->last_beacon_us + loss_us - now);
		return;
	}
	loop_timer_arm_us(m->bl_timer, loss_us);
	uint64_t missed = (now - m->last_beacon_us) / interval_us;
	log_info("%s: %llu beacon intervals without a beacon from the BSS", ifc->name,
		 (unsigned long long)missed);
	m->loss_reported = true;
	struct driver_event ev = { .type = DRIVER_EV_BEACON_LOSS, .radio_id = ifc->radio->id,
				   .ifindex = ifc->ifindex, .u.peer.addr = m->bssid };
	sim_emit(ifc->sim, &ev);
}

void sim_mlme_scan_pause(struct sim_iface *ifc, bool paused)
{
	if (!paused)
		ifc->mlme.last_beacon_us = loop_now_us(ifc->sim->loop);
}

int sim_mlme_init(struct sim_iface *ifc)
{
	ifc->mlme.beacon_int = 100;
	ifc->mlme.timer = loop_timer_new(ifc->sim->loop, on_timeout, ifc);
	ifc->mlme.bl_timer = loop_timer_new(ifc->sim->loop, on_beacon_watch, ifc);
	return ifc->mlme.timer && ifc->mlme.bl_timer ? 0 : -ENOMEM;
}

void sim_mlme_stop(struct sim_iface *ifc, bool emit)
{
	struct sim_mlme *m = &ifc->mlme;
	switch (m->state) {
	case SIM_MLME_IDLE:
		return;
	case SIM_MLME_AUTHENTICATING:
		if (emit)
			emit_mlme(ifc, DRIVER_EV_AUTH, NULL, 0, true, true);
		break;
	case SIM_MLME_ASSOCIATING:
		if (emit)
			emit_mlme(ifc, DRIVER_EV_ASSOC, NULL, 0, true, true);
		break;
	case SIM_MLME_AUTHENTICATED:
	case SIM_MLME_ASSOCIATED:
		if (emit)
			emit_mlme(ifc, DRIVER_EV_DEAUTH, NULL, 0, false, true);
		break;
	}
	forget_bss(ifc);
	enter_state(ifc, SIM_MLME_IDLE);
}

void sim_mlme_free(struct sim_iface *ifc)
{
	drop_request(&ifc->mlme);
	forget_auth_sent(&ifc->mlme);
	loop_timer_free(ifc->mlme.timer);
	loop_timer_free(ifc->mlme.bl_timer);
	ifc->mlme.timer = ifc->mlme.bl_timer = NULL;
}

bool sim_mlme_connected(const struct sim_iface *ifc)
{
	return ifc->type == DRIVER_IFTYPE_STATION && ifc->mlme.state != SIM_MLME_IDLE;
}

/* ---- frames from the BSS ---- */

static void rx_auth(struct sim_iface *ifc, const struct mgmt_frame *f, const uint8_t *frame,
		    size_t len)
{
	struct sim_mlme *m = &ifc->mlme;
	const struct mgmt_auth *a = &f->u.auth;
	if (m->state != SIM_MLME_AUTHENTICATING || f->protected_frame || a->alg != m->alg)
		return;
	emit_mlme(ifc, DRIVER_EV_AUTH, frame, len, false, false);
	if (m->alg == WLAN_AUTH_SAE && !(a->seq == 2 && a->status == WLAN_STATUS_SUCCESS)) {
		/* A commit, or a refusal the SME may answer (anti-clogging
		 * token, another group): it calls authenticate() again. */
		drop_request(m);
	} else if (a->status == WLAN_STATUS_SUCCESS) {
		struct sim_peer *p = sim_peer_get(ifc, m->bssid);
		if (p)
			p->flags |= DRIVER_STA_AUTHENTICATED;
		enter_state(ifc, SIM_MLME_AUTHENTICATED);
	} else {
		forget_bss(ifc);
		enter_state(ifc, SIM_MLME_IDLE);
	}
}

static void rx_assoc_resp(struct sim_iface *ifc, const struct mgmt_frame *f,
			  const uint8_t *frame, size_t len)
{
	struct sim_mlme *m = &ifc->mlme;
	if (m->state != SIM_MLME_ASSOCIATING)
		return;
	emit_mlme(ifc, DRIVER_EV_ASSOC, frame, len, false, false);
	if (f->u.assoc_resp.status != WLAN_STATUS_SUCCESS) {
		enter_state(ifc, SIM_MLME_AUTHENTICATED);
		return;
	}
	m->aid = f->u.assoc_resp.aid;
	struct sim_peer *p = sim_peer_get(ifc, m->bssid);
	if (p)
		p->flags = DRIVER_STA_AUTHENTICATED | DRIVER_STA_ASSOCIATED |
			   (m->mfp ? DRIVER_STA_MFP : 0);
	enter_state(ifc, SIM_MLME_ASSOCIATED);
}

static void rx_leave(struct sim_iface *ifc, const struct mgmt_frame *f, const uint8_t *frame,
		     size_t len)
{
	bool deauth = f->subtype == IEEE80211_STYPE_DEAUTH;
	if (ifc->mlme.state == SIM_MLME_IDLE || (!deauth && ifc->mlme.state != SIM_MLME_ASSOCIATED))
		return;
	log_info("%s: %s by the BSS (reason %u)", ifc->name,
		 deauth ? "deauthenticated" : "disassociated", f->u.reason);
	emit_mlme(ifc, deauth ? DRIVER_EV_DEAUTH : DRIVER_EV_DISASSOC, frame, len, false, false);
	forget_bss(ifc);
	enter_state(ifc, SIM_MLME_IDLE);
}

void sim_mlme_rx(struct sim_iface *ifc, const struct mgmt_frame *f, const uint8_t *frame,
		 size_t len, const struct sim_rx *rx)
{
	struct sim_mlme *m = &ifc->mlme;
	bool from_bss = m->state != SIM_MLME_IDLE &&
			memcmp(f->sa, m->bssid, SIM_ADDR_LEN) == 0 &&
			memcmp(f->bssid, m->bssid, SIM_ADDR_LEN) == 0;
	if (!from_bss) {
		if (f->subtype != IEEE80211_STYPE_BEACON && f->subtype != IEEE80211_STYPE_PROBE_RESP)
			sim_rx_mgmt_up(ifc, f, frame, len, rx);
		return;
	}
	switch (f->subtype) {
	case IEEE80211_STYPE_BEACON:
		m->last_beacon_us = loop_now_us(ifc->sim->loop);
		m->loss_reported = false;
		if (f->u.beacon.beacon_int >= 1)
			m->beacon_int = f->u.beacon.beacon_int;
		if (m->state == SIM_MLME_ASSOCIATED)
			sim_mlme_csa(ifc, f);
		return;
	case IEEE80211_STYPE_AUTH:
		rx_auth(ifc, f, frame, len);
		return;
	case IEEE80211_STYPE_ASSOC_RESP:
	case IEEE80211_STYPE_REASSOC_RESP:
		rx_assoc_resp(ifc, f, frame, len);
		return;
	case IEEE80211_STYPE_DEAUTH:
	case IEEE80211_STYPE_DISASSOC:
		rx_leave(ifc, f, frame, len);
		return;
	default:
		sim_rx_mgmt_up(ifc, f, frame, len, rx);
		return;
	}
}

/* ---- requests ---- */

/* *dst becomes a copy of frame (the old one freed). */
static int keep_copy(uint8_t **dst, size_t *dst_len, const uint8_t *frame, size_t len)
{
	uint8_t *copy = malloc(len);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, frame, len);
	free(*dst);
	*dst = copy;
	*dst_len = len;
	return 0;
}

static int set_request(struct sim_mlme *m, const uint8_t *frame, size_t len)
{
	return keep_copy(&m->req, &m->req_len, frame, len);
}

static int build_auth(struct sim_iface *ifc, const struct driver_auth_params *p, struct wbuf *w)
{
	struct mgmt_frame f;
	mgmt_init(&f, IEEE80211_STYPE_AUTH, p->bssid, ifc->addr, p->bssid);
	f.u.auth.alg = (uint16_t)p->alg;
	switch (p->alg) {
	case DRIVER_AUTH_SAE:
		if (!p->auth_data || p->auth_data_len < 4)
			return -EINVAL; /* transaction sequence and status come first */
		f.u.auth.seq = get_le16(p->auth_data);
		f.u.auth.status = get_le16(p->auth_data + 2);
		f.u.auth.sae_body = p->auth_data + 4;
		f.u.auth.sae_len = p->auth_data_len - 4;
		break;
	case DRIVER_AUTH_OPEN:
	case DRIVER_AUTH_FT:
		f.u.auth.seq = 1;
		f.ies = p->auth_data_len ? p->auth_data : NULL; /* FT elements */
		f.ies_len = f.ies ? p->auth_data_len : 0;
		break;
	case DRIVER_AUTH_SHARED_KEY:
	default:
		return -EOPNOTSUPP; /* WEP is not simulated */
	}
	if (mgmt_build(w, &f) != CODEC_OK)
		return -EMSGSIZE;
	if (p->ies_len && p->ies)
		wbuf_put(w, p->ies, p->ies_len);
	return w->bad ? -EMSGSIZE : 0;
}

/* Refuses what a station cannot do now. */
static int auth_check(struct sim_iface *ifc, const struct driver_auth_params *p)
{
	if (ifc->type != DRIVER_IFTYPE_STATION)
		return -EOPNOTSUPP;
	if (!ifc->up)
		return -ENETDOWN;
	if (ifc->scan)
		return -EBUSY;
	if (sim_addr_is_group(p->bssid))
		return -EINVAL;
	int err = sim_chan_check(ifc->sim, p->freq_mhz, false);
	if (err)
		return err;
	uint32_t busy = sim_radio_busy_freq(ifc, DRIVER_IFTYPE_STATION);
	if (busy && busy != p->freq_mhz)
		return -EBUSY; /* another station of this radio holds a channel */
	return 0;
}

int sim_authenticate(void *priv, uint32_t ifindex, const struct driver_auth_params *p)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	uint8_t frame[SIM_MAX_FRAME];
	if (!ifc)
		return -ENODEV;
	if (!p)
		return -EINVAL;
	struct wbuf w = wbuf_init(frame, sizeof(frame));
	int err = auth_check(ifc, p);
	if (err || (err = build_auth(ifc, p, &w)) < 0)
		return err;
	/* Only now, with a frame to send, leave whatever we were doing
	 * (unless this is the next step with the same BSS, e.g. SAE). */
	struct sim_mlme *m = &ifc->mlme;
	if (m->state != SIM_MLME_AUTHENTICATING || memcmp(m->bssid, p->bssid, SIM_ADDR_LEN) != 0)
		sim_mlme_stop(ifc, true);
	if ((err = set_request(m, frame, w.len)) < 0 ||
	    (err = keep_copy(&m->auth_sent, &m->auth_sent_len, frame, w.len)) < 0)
		return err;
	if (!sim_peer_get(ifc, p->bssid))
		return -ENOMEM;
	memcpy(m->bssid, p->bssid, SIM_ADDR_LEN);
	m->freq = p->freq_mhz;
	m->alg = (uint16_t)p->alg;
	m->timeout_ms = p->alg == DRIVER_AUTH_SAE ? SIM_SAE_TIMEOUT_MS : SIM_AUTH_TIMEOUT_MS;
	sim_iface_set_home(ifc, p->freq_mhz);
	enter_state(ifc, SIM_MLME_AUTHENTICATING);
	send_request(ifc);
	return 0;
}

/* Elements mac80211 puts before HT Capabilities in a request (9.3.3.6). */
static bool before_ht(uint8_t id)
{
	static const uint8_t ids[] = { WLAN_EID_PWR_CAPABILITY, WLAN_EID_SUPPORTED_CHANNELS,
				       WLAN_EID_RSN, 46 /* QoS Capability */,
				       WLAN_EID_RRM_ENABLED_CAPAB, WLAN_EID_MOBILITY_DOMAIN,
				       WLAN_EID_SUPPORTED_OP_CLASSES };
	return memchr(ids, id, sizeof(ids)) != NULL;
}

static int copy_ies(struct wbuf *w, const uint8_t *ies, size_t len, bool first_part)
{
	struct ie_iter it;
	struct ie_elem e;
	ie_iter_init(&it, ies, len);
	while (ie_iter_next(&it, &e))
		if (before_ht(e.id) == first_part)
			wbuf_put(w, e.start, IE_HDR_LEN + e.len);
	return it.err ? -EINVAL : 0;
}

static int build_assoc(struct sim_iface *ifc, const struct driver_assoc_params *p,
		       struct wbuf *w)
{
	uint8_t rates[16];
	size_t n = sim_band_rates(p->freq_mhz, rates, sizeof(rates));
	uint16_t capab = WLAN_CAPAB_ESS;
	struct ie_elem rsn;
	if (p->ies && ie_find(p->ies, p->ies_len, WLAN_EID_RSN, &rsn))
		capab |= WLAN_CAPAB_PRIVACY;
	if (p->freq_mhz < 5000)
		capab |= WLAN_CAPAB_SHORT_SLOT_TIME;
	struct mgmt_frame f;
	mgmt_init(&f, p->prev_bssid ? IEEE80211_STYPE_REASSOC_REQ : IEEE80211_STYPE_ASSOC_REQ,
		  p->bssid, ifc->addr, p->bssid);
	f.u.assoc_req.capab = capab;
	f.u.assoc_req.listen_interval = SIM_LISTEN_INTERVAL;
	f.u.assoc_req.current_ap = p->prev_bssid;
	if (mgmt_build(w, &f) != CODEC_OK)
		return -EMSGSIZE;
	ie_build_ssid(w, p->ssid.ssid, p->ssid.len > 32 ? 32 : p->ssid.len);
	ie_build_supp_rates(w, rates, n);
	ie_build_ext_rates(w, rates, n);
	if (p->ies && copy_ies(w, p->ies, p->ies_len, true) < 0)
		return -EINVAL;
	struct ie_ht_cap ht = { .cap_info = sim_ht_capab(), .ampdu_params = 0x03 };
	memcpy(ht.mcs_set, sim_ht_mcs(), 10);
	ie_build_ht_cap(w, &ht);
	if (p->ies)
		copy_ies(w, p->ies, p->ies_len, false);
	if (p->wmm) {
		struct ie_wmm wmm = { .subtype = WMM_SUBTYPE_INFO, .version = WMM_VERSION };
		ie_build_wmm(w, &wmm);
	}
	return w->bad ? -EMSGSIZE : 0;
}

int sim_associate(void *priv, uint32_t ifindex, const struct driver_assoc_params *p)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	uint8_t frame[SIM_MAX_FRAME];
	if (!ifc)
		return -ENODEV;
	if (!p)
		return -EINVAL;
	if (ifc->type != DRIVER_IFTYPE_STATION)
		return -EOPNOTSUPP;
	if (!ifc->up)
		return -ENETDOWN;
	struct sim_mlme *m = &ifc->mlme;
	if ((m->state != SIM_MLME_AUTHENTICATED && m->state != SIM_MLME_ASSOCIATED) ||
	    memcmp(m->bssid, p->bssid, SIM_ADDR_LEN) != 0)
		return -ENOLINK; /* authenticate with this BSS first */
	if (p->freq_mhz && p->freq_mhz != m->freq)
		return -EINVAL;
	struct wbuf w = wbuf_init(frame, sizeof(frame));
	struct driver_assoc_params q = *p;
	q.freq_mhz = m->freq;
	int err = build_assoc(ifc, &q, &w);
	if (err || (err = set_request(m, frame, w.len)))
		return err;
	m->mfp = p->use_mfp;
	m->timeout_ms = SIM_ASSOC_TIMEOUT_MS;
	enter_state(ifc, SIM_MLME_ASSOCIATING);
	send_request(ifc);
	return 0;
}

int sim_deauthenticate(void *priv, uint32_t ifindex, const uint8_t *bssid,
		       uint16_t reason)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	uint8_t frame[IEEE80211_MGMT_HDR_LEN + 2];
	if (!ifc)
		return -ENODEV;
	if (ifc->type != DRIVER_IFTYPE_STATION)
		return -EOPNOTSUPP;
	struct sim_mlme *m = &ifc->mlme;
	if (m->state == SIM_MLME_IDLE || (bssid && memcmp(bssid, m->bssid, SIM_ADDR_LEN) != 0))
		return -ENOTCONN;
	struct wbuf w = wbuf_init(frame, sizeof(frame));
	struct mgmt_frame f;
	mgmt_init(&f, IEEE80211_STYPE_DEAUTH, m->bssid, ifc->addr, m->bssid);
	f.u.reason = reason;
	mgmt_build(&w, &f);
	if (ifc->up)
		sim_tx_enqueue(ifc, SIM_TXQ_MGMT, SIM_TXF_QUIET, frame, w.len, m->freq, false,
			       false, 0, 0);
	log_info("%s: deauthenticating (reason %u)", ifc->name, reason);
	emit_mlme(ifc, DRIVER_EV_DEAUTH, frame, w.len, false, true);
	forget_bss(ifc);
	enter_state(ifc, SIM_MLME_IDLE);
	return 0;
}
