/* Access point: beaconing from the role's templates, probe-response
 * offload, station inactivity, and forwarding between stations.
 *
 * A beacon is head + TIM + tail, sent every beacon_interval TUs (1 TU =
 * 1024 us) with the Timestamp field set to the AP's TSF (microseconds since
 * start_ap) and a TIM element whose DTIM count runs down from dtim_period-1.
 * The TIM never announces buffered traffic: power-save buffering is not
 * simulated (stations are always awake as far as the AP is concerned).
 */
#define LOG_TAG "sim"
#include "drivers/sim/radio.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_basic.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SIM_BEACON_FIXED_LEN (IEEE80211_MGMT_HDR_LEN + 12)
#define SIM_INACTIVITY_CHECK_MS 1000
#define SIM_FIRST_BEACON_US 2000

static void put_tsf(struct sim_iface *ifc, uint8_t *frame, size_t len)
{
	uint64_t tsf = loop_now_us(ifc->sim->loop) - ifc->ap.start_us;
	if (len < IEEE80211_MGMT_HDR_LEN + 8)
		return;
	for (int i = 0; i < 8; i++)
		frame[IEEE80211_MGMT_HDR_LEN + i] = (uint8_t)(tsf >> (8 * i));
}

static int apply_params(struct sim_iface *ifc, const struct driver_ap_params *p);

void sim_ap_csa_clear(struct sim_iface *ifc)
{
	struct sim_ap *ap = &ifc->ap;
	free((void *)ap->after.beacon_head);
	free((void *)ap->after.beacon_tail);
	free((void *)ap->after.probe_resp);
	memset(&ap->after, 0, sizeof(ap->after));
	ap->csa_active = false;
}

/* The count ran out: onto the new channel with the templates for after. */
static void csa_finish(struct sim_iface *ifc)
{
	struct sim_ap *ap = &ifc->ap;
	struct driver_chandef cd = ap->csa_chandef;
	int r = apply_params(ifc, &ap->after);
	sim_ap_csa_clear(ifc);
	if (r < 0) {
		log_warn("%s: channel switch: the new templates were refused: %d", ifc->name, r);
		return;
	}
	log_info("%s: AP switched from %u to %u MHz", ifc->name, ifc->oper_freq, cd.control_mhz);
	ap->chandef = cd;
	ifc->oper_freq = cd.control_mhz;
	sim_link_tune(ifc, cd.control_mhz);
	sim_tx_kick(ifc);
	struct driver_event ev = { .type = DRIVER_EV_CH_SWITCHED, .radio_id = ifc->radio->id,
				   .ifindex = ifc->ifindex, .u.ch_switch.chandef = cd };
	sim_emit(ifc->sim, &ev);
}

static void on_beacon(struct loop_timer *t, void *data)
{
	struct sim_iface *ifc = data;
	struct sim_ap *ap = &ifc->ap;
	uint8_t frame[SIM_MAX_FRAME];
	static const uint8_t pvb[1] = { 0 };

	if (!ap->started)
		return;
	loop_timer_arm_us(ap->beacon_timer, (uint64_t)ap->beacon_int * SIM_TU_US);
	struct wbuf w = wbuf_init(frame, sizeof(frame));
	wbuf_put(&w, ap->head, ap->head_len);
	struct ie_tim tim = { .dtim_count = ap->dtim_count, .dtim_period = ap->dtim_period,
			      .pvb = pvb, .pvb_len = 1 };
	ie_build_tim(&w, &tim);
	size_t tail_at = w.len;
	wbuf_put(&w, ap->tail, ap->tail_len);
	if (w.bad)
		return; /* templates were checked against this size at start_ap */
	for (size_t i = 0; ap->csa_active && i < ap->csa_n_off; i++)
		frame[tail_at + ap->csa_off[i]] = ap->csa_count;
	ap->dtim_count = ap->dtim_count ? ap->dtim_count - 1 : ap->dtim_period - 1;
	put_tsf(ifc, frame, w.len);
	sim_tx_direct(ifc, frame, w.len);
	if (ap->csa_active && (ap->csa_count <= 1 || --ap->csa_count == 0))
		csa_finish(ifc);
}

struct inactivity_scan {
	uint64_t now_us;
	uint64_t next_us; /* earliest deadline still ahead */
};

static void check_inactive(struct sim_iface *ifc, struct sim_peer *p, void *data)
{
	struct inactivity_scan *s = data;
	uint64_t limit_us = (uint64_t)ifc->ap.inactivity_s * 1000000u;
	if (!(p->flags & DRIVER_STA_ASSOCIATED) || p->inactive_reported)
		return;
	if (s->now_us - p->last_rx_us < limit_us) {
		if (p->last_rx_us + limit_us < s->next_us)
			s->next_us = p->last_rx_us + limit_us;
		return;
	}
	p->inactive_reported = true;
	struct driver_event ev = { .type = DRIVER_EV_STA_INACTIVE, .radio_id = ifc->radio->id,
				   .ifindex = ifc->ifindex, .u.peer.addr = p->addr };
	sim_emit(ifc->sim, &ev);
}

static void on_inactivity(struct loop_timer *t, void *data)
{
	struct sim_iface *ifc = data;
	if (!ifc->ap.started || !ifc->ap.inactivity_s)
		return;
	/* Wake at the first peer's deadline, not on a tick: an idle AP with
	 * quiet stations sleeps for the whole inactivity limit. A peer heard
	 * or associating later has a deadline past now + limit, the latest
	 * this arms for. */
	struct inactivity_scan s = { .now_us = loop_now_us(ifc->sim->loop) };
	s.next_us = s.now_us + (uint64_t)ifc->ap.inactivity_s * 1000000u;
	sim_peers_each(ifc, check_inactive, &s);
	loop_timer_arm_us(ifc->ap.inact_timer, s.next_us - s.now_us);
}

int sim_ap_init(struct sim_iface *ifc)
{
	ifc->ap.beacon_timer = loop_timer_new(ifc->sim->loop, on_beacon, ifc);
	ifc->ap.inact_timer = loop_timer_new(ifc->sim->loop, on_inactivity, ifc);
	return ifc->ap.beacon_timer && ifc->ap.inact_timer ? 0 : -ENOMEM;
}

static void free_templates(struct sim_ap *ap)
{
	free(ap->head);
	free(ap->tail);
	free(ap->probe_resp);
	ap->head = ap->tail = ap->probe_resp = NULL;
	ap->head_len = ap->tail_len = ap->probe_resp_len = 0;
}

void sim_ap_stop(struct sim_iface *ifc)
{
	struct sim_ap *ap = &ifc->ap;
	if (!ap->started)
		return;
	ap->started = false;
	sim_ap_csa_clear(ifc);
	loop_timer_disarm(ap->beacon_timer);
	loop_timer_disarm(ap->inact_timer);
	free_templates(ap);
	sim_peers_flush(ifc);
	sim_keys_wipe_group(ifc);
	log_info("%s: AP stopped", ifc->name);
}

void sim_ap_free(struct sim_iface *ifc)
{
	sim_dfs_iface_stop(ifc);
	sim_ap_stop(ifc);
	loop_timer_free(ifc->ap.beacon_timer);
	loop_timer_free(ifc->ap.inact_timer);
	ifc->ap.beacon_timer = ifc->ap.inact_timer = NULL;
}

void sim_ap_follow(struct sim_iface *ifc, uint32_t freq)
{
	if (!ifc->ap.started || ifc->oper_freq == freq)
		return;
	log_info("%s: AP follows its radio's station from %u to %u MHz", ifc->name,
		 ifc->oper_freq, freq);
	ifc->oper_freq = freq;
	sim_link_tune(ifc, freq);
	sim_tx_kick(ifc);
}

static uint8_t *dup_bytes(const uint8_t *p, size_t len, bool *fail)
{
	if (!p || !len)
		return NULL;
	uint8_t *d = malloc(len);
	if (!d)
		*fail = true;
	else
		memcpy(d, p, len);
	return d;
}

/* Checks and copies the parameters shared by start_ap and set_beacon. */
static int apply_params(struct sim_iface *ifc, const struct driver_ap_params *p)
{
	struct sim_ap *ap = &ifc->ap;
	if (!p->beacon_head || p->beacon_head_len < SIM_BEACON_FIXED_LEN ||
	    p->beacon_head_len + 6 + p->beacon_tail_len > SIM_MAX_FRAME ||
	    p->probe_resp_len > SIM_MAX_FRAME || (p->beacon_tail_len && !p->beacon_tail) ||
	    p->ssid.len > 32 || (p->probe_resp_len && p->probe_resp_len < SIM_BEACON_FIXED_LEN))
		return -EINVAL;
	bool fail = false;
	uint8_t *head = dup_bytes(p->beacon_head, p->beacon_head_len, &fail);
	uint8_t *tail = dup_bytes(p->beacon_tail, p->beacon_tail_len, &fail);
	uint8_t *pr = dup_bytes(p->probe_resp, p->probe_resp_len, &fail);
	if (fail) {
		free(head);
		free(tail);
		free(pr);
		return -ENOMEM;
	}
	free_templates(ap);
	ap->head = head;
	ap->head_len = p->beacon_head_len;
	ap->tail = tail;
	ap->tail_len = tail ? p->beacon_tail_len : 0;
	ap->probe_resp = pr;
	ap->probe_resp_len = pr ? p->probe_resp_len : 0;
	ap->ssid = p->ssid;
	ap->hidden = p->hidden_ssid;
	ap->beacon_int = p->beacon_interval ? p->beacon_interval : 100;
	ap->dtim_period = p->dtim_period ? p->dtim_period : 1;
	if (ap->dtim_count >= ap->dtim_period)
		ap->dtim_count = 0;
	ap->isolate = p->ap_isolate;
	ap->inactivity_s = p->inactivity_timeout_s;
	return 0;
}

int sim_start_ap(void *priv, uint32_t ifindex, const struct driver_ap_params *p)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	if (ifc->type != DRIVER_IFTYPE_AP)
		return -EOPNOTSUPP;
	if (!ifc->up)
		return -ENETDOWN;
	if (!p)
		return -EINVAL;
	if (ifc->ap.started)
		return -EALREADY;
	int err = sim_chan_check(sim, p->freq_mhz, true);
	if (err) {
		log_warn("%s: AP on %u MHz refused: %s", ifc->name, p->freq_mhz,
			 err == -EPERM ? "not allowed by the regulatory domain" : "no such channel");
		return err;
	}
	if ((err = sim_chandef_check(sim, p->freq_mhz, &p->chandef)) < 0) {
		log_warn("%s: AP channel definition (%u MHz wide, center %u MHz) refused", ifc->name,
			 p->chandef.width_mhz, p->chandef.center1_mhz);
		return err;
	}
	uint32_t busy = sim_radio_busy_freq(ifc, DRIVER_IFTYPE_AP);
	if (busy && busy != p->freq_mhz)
		return -EBUSY; /* the radio works on another channel */
	if ((err = apply_params(ifc, p)) < 0)
		return err;
	struct sim_ap *ap = &ifc->ap;
	ap->started = true;
	ap->chandef = p->chandef;
	ap->start_us = loop_now_us(ifc->sim->loop);
	ap->dtim_count = 0;
	sim_iface_set_home(ifc, p->freq_mhz);
	loop_timer_arm_us(ap->beacon_timer, SIM_FIRST_BEACON_US);
	if (ap->inactivity_s)
		loop_timer_arm_ms(ap->inact_timer, SIM_INACTIVITY_CHECK_MS);
	log_info("%s: AP '%.*s' on %u MHz (%u MHz wide), beacon interval %u TU", ifc->name,
		 (int)ap->ssid.len, (const char *)ap->ssid.ssid, p->freq_mhz,
		 p->chandef.width_mhz ? p->chandef.width_mhz : 20, ap->beacon_int);
	return 0;
}

int sim_set_beacon(void *priv, uint32_t ifindex, const struct driver_ap_params *p)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	if (!ifc->ap.started)
		return -ENOTCONN;
	if (!p)
		return -EINVAL;
	int err = apply_params(ifc, p);
	if (err)
		return err;
	if (ifc->ap.inactivity_s && !loop_timer_armed(ifc->ap.inact_timer))
		loop_timer_arm_ms(ifc->ap.inact_timer, SIM_INACTIVITY_CHECK_MS);
	return 0;
}

int sim_stop_ap(void *priv, uint32_t ifindex)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	if (ifc->ap.cac_active) { /* stopping during the CAC ends it */
		ifc->ap.cac_active = false;
		loop_timer_disarm(ifc->ap.cac_timer);
		sim_iface_set_home(ifc, 0);
		return 0;
	}
	if (!ifc->ap.started)
		return -ENOTCONN;
	sim_ap_stop(ifc);
	sim_iface_set_home(ifc, 0);
	return 0;
}

bool sim_ap_probe_offload(struct sim_iface *ifc, const struct mgmt_frame *m)
{
	struct sim_ap *ap = &ifc->ap;
	struct ie_elem ssid;
	uint8_t frame[SIM_MAX_FRAME];
	if (!ap->probe_resp)
		return false;
	if (!ie_find(m->ies, m->ies_len, WLAN_EID_SSID, &ssid))
		return true; /* not a valid probe request: nothing to answer */
	bool wildcard = ssid.len == 0;
	bool match = ssid.len == ap->ssid.len && memcmp(ssid.data, ap->ssid.ssid, ssid.len) == 0;
	if (!(match || (wildcard && !ap->hidden)))
		return true;
	memcpy(frame, ap->probe_resp, ap->probe_resp_len);
	memcpy(frame + 4, m->sa, SIM_ADDR_LEN); /* DA: whoever asked */
	put_tsf(ifc, frame, ap->probe_resp_len);
	sim_tx_enqueue(ifc, SIM_TXQ_MGMT, SIM_TXF_QUIET, frame, ap->probe_resp_len,
		       ifc->oper_freq, false, false, 0, 0);
	return true;
}

bool sim_ap_forward(struct sim_iface *ifc, const uint8_t *da, const uint8_t *sa,
		    uint16_t ethertype, const uint8_t *payload, size_t len, uint8_t tid)
{
	if (ethertype == SIM_ETH_P_EAPOL || ifc->ap.isolate)
		return false; /* EAPOL is for the authenticator; isolation sends all up */
	if (sim_addr_is_group(da)) {
		/* The BSS hears it too (and the sender drops its own echo). */
		sim_data_send(ifc, da, sa, ethertype, payload, len, tid, SIM_TXF_DATA, false, 0);
		return false;
	}
	if (memcmp(da, ifc->addr, SIM_ADDR_LEN) == 0)
		return false;
	struct sim_peer *dst = sim_peer_find(ifc, da);
	if (!dst || !(dst->flags & DRIVER_STA_ASSOCIATED))
		return false; /* not in the BSS: the host (or its bridge) decides */
	int err = sim_data_send(ifc, da, sa, ethertype, payload, len, tid, SIM_TXF_DATA, false, 0);
	if (err)
		log_verbose("%s: forwarding dropped: %d", ifc->name, err);
	return true;
}

/* A channel switch with announcement: the CSA templates now, the count
 * written into each beacon, the switch when it runs out (on_beacon). */
int sim_channel_switch(void *priv, uint32_t ifindex, const struct driver_csa_params *p)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	if (ifc->type != DRIVER_IFTYPE_AP || !p)
		return -EOPNOTSUPP;
	if (!ifc->ap.started)
		return -ENOTCONN;
	if (ifc->ap.csa_active)
		return -EBUSY;
	/* As cfg80211 checks: the count offsets are given and each points at
	 * an octet of the CSA tail that holds the count. */
	if (!p->n_offsets || p->n_offsets > DRIVER_CSA_MAX_OFFSETS)
		return -EINVAL;
	for (size_t i = 0; i < p->n_offsets; i++)
		if (p->offsets_tail[i] >= p->beacon_csa.beacon_tail_len ||
		    p->beacon_csa.beacon_tail[p->offsets_tail[i]] != p->count)
			return -EINVAL;
	int err = sim_chandef_check(sim, p->chandef.control_mhz, &p->chandef);
	if (err < 0)
		return err;
	bool fail = false;
	struct driver_ap_params after = p->beacon_after;
	after.beacon_head = dup_bytes(p->beacon_after.beacon_head, after.beacon_head_len, &fail);
	after.beacon_tail = dup_bytes(p->beacon_after.beacon_tail, after.beacon_tail_len, &fail);
	after.probe_resp = dup_bytes(p->beacon_after.probe_resp, after.probe_resp_len, &fail);
	if (fail || (err = apply_params(ifc, &p->beacon_csa)) < 0) {
		free((void *)after.beacon_head);
		free((void *)after.beacon_tail);
		free((void *)after.probe_resp);
		return fail ? -ENOMEM : err;
	}
	struct sim_ap *ap = &ifc->ap;
	ap->after = after;
	ap->csa_chandef = p->chandef;
	ap->csa_count = p->count;
	ap->csa_n_off = p->n_offsets;
	memcpy(ap->csa_off, p->offsets_tail, sizeof(ap->csa_off));
	ap->csa_active = true;
	log_info("%s: channel switch to %u MHz announced, count %u", ifc->name,
		 p->chandef.control_mhz, p->count);
	if (!p->count)
		csa_finish(ifc);
	return 0;
}
