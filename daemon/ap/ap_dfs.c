/* DFS for the access point: the channel availability check before
 * beaconing on a radar channel, leaving a channel where radar shows up with
 * a channel switch announcement (IEEE 802.11-2020 11.8.8 and 11.9), and
 * the switch's end. The non-occupancy period is the driver's (the kernel
 * keeps the DFS state; our channel flags come from it): a channel marked
 * DFS_UNAVAILABLE is never chosen (ap_chan.c). */
#define LOG_TAG "ap"
#include "daemon/ap/ap_internal.h"

#include "daemon/ap/ap_acs.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_csa.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ap_dfs_start_cac(struct ap *ap, struct wpad_error *err)
{
	struct driver_chandef cd;
	ap_chan_to_driver(&ap->conf.chandef, &cd);
	int r = driver_start_radar_detection(ap->drv, ap->ifindex, &cd);
	if (r < 0) {
		wpad_error_set(err, r == -EPERM ? WPAD_ERR_REGULATORY_FORBIDDEN
						: wpad_error_code_from_errno(r),
			       r, -1, -1, "channel %u needs radar detection, which the driver "
			       "refused: %s", ap->conf.channel, strerror(-r));
		log_warn("access point %u: radar detection on channel %u refused: %d", ap->ifindex,
			 ap->conf.channel, r);
		return r;
	}
	log_info("access point %u: channel %u (%s) needs radar detection: CAC before beaconing",
		 ap->ifindex, ap->conf.channel, ap_chan_width_name(ap->conf.chandef.width_mhz));
	ap->csa.cac_running = true;
	ap_enter_state(ap, AP_STATE_CAC);
	return 0;
}

/* The channel to go to after radar: Channel=auto's scoring over the
 * channels usable without a CAC (the BSS must not fall silent), at the
 * configured width, else 20 MHz. 0 when there is none. */
static uint32_t escape_channel(struct ap *ap, struct ap_chandef *cd)
{
	struct ap_acs_result *res = calloc(1, sizeof(*res));
	uint32_t freq = 0;
	if (!res)
		return 0;
	static const unsigned widths[2] = { 0, 20 };
	for (size_t i = 0; i < 2 && !freq; i++) {
		struct ap_acs_input in = { .capa = &ap->capa, .band = ap->conf.band,
					   .width_mhz = i ? widths[i] : ap->conf.want_width };
		if (ap_acs_choose(&in, res) == 0) {
			freq = res->freq_mhz;
			*cd = res->cand[res->chosen].chandef;
		}
	}
	free(res);
	return freq;
}

static void refresh_capa(struct ap *ap)
{
	struct driver_iface_info info;
	if (driver_iface_info(ap->drv, ap->ifindex, &info) == 0)
		driver_get_capa(ap->drv, info.radio_id, &ap->capa);
}

static void radar_during_cac(struct ap *ap, const struct driver_event *ev)
{
	struct wpad_error err;
	struct ap_chandef cd;
	log_warn("access point %u: %s on %u MHz during the CAC of channel %u", ap->ifindex,
		 driver_radar_kind_name(ev->u.radar.kind), ev->u.radar.freq_mhz, ap->conf.channel);
	refresh_capa(ap);
	uint32_t freq = escape_channel(ap, &cd);
	if (!freq) {
		log_warn("access point %u: no other channel to use; stopping", ap->ifindex);
		ap_stop(ap);
		return;
	}
	ap->conf.freq_mhz = freq;
	ap->conf.channel = ap_freq_to_channel(freq);
	ap->conf.chandef = cd;
	log_info("access point %u: starting on channel %u instead", ap->ifindex, ap->conf.channel);
	if (ap_start_beaconing(ap, &err) < 0) {
		ap_stop(ap);
		return;
	}
	ap_started_log(ap);
	ap_enter_state(ap, AP_STATE_STARTED);
}

static void cac_finished(struct ap *ap, const struct driver_event *ev)
{
	struct wpad_error err;
	log_info("access point %u: CAC on channel %u passed", ap->ifindex, ap->conf.channel);
	if (ap_start_beaconing(ap, &err) < 0) {
		log_warn("access point %u: %s", ap->ifindex, err.text);
		ap_stop(ap);
		return;
	}
	ap_started_log(ap);
	ap_enter_state(ap, AP_STATE_STARTED);
}

static void radar_while_running(struct ap *ap, const struct driver_event *ev)
{
	struct ap_chandef cd;
	log_warn("access point %u: radar on %u MHz, inside channel %u (%s): leaving", ap->ifindex,
		 ev->u.radar.freq_mhz, ap->conf.channel,
		 ap_chan_width_name(ap->conf.chandef.width_mhz));
	refresh_capa(ap);
	uint32_t freq = escape_channel(ap, &cd);
	if (!freq || ap_move(ap, freq, &cd, AP_MOVE_RADAR) < 0) {
		log_warn("access point %u: no channel switch possible; stopping", ap->ifindex);
		ap_stop(ap);
	}
}

void ap_dfs_radar(struct ap *ap, const struct driver_event *ev)
{
	if (ap->state == AP_STATE_CAC && ev->u.radar.kind != DRIVER_RADAR_NOP_FINISHED)
		ap->csa.cac_running = false; /* any result ends the CAC */
	switch (ev->u.radar.kind) {
	case DRIVER_RADAR_CAC_FINISHED:
		if (ap->state == AP_STATE_CAC)
			cac_finished(ap, ev);
		return;
	case DRIVER_RADAR_CAC_ABORTED:
	case DRIVER_RADAR_DETECTED:
		if (ap->state == AP_STATE_CAC)
			radar_during_cac(ap, ev);
		else if (ap->state == AP_STATE_STARTED &&
			 ev->u.radar.kind == DRIVER_RADAR_DETECTED)
			radar_while_running(ap, ev);
		return;
	case DRIVER_RADAR_NOP_FINISHED:
		log_info("access point %u: %u MHz usable again (non-occupancy period over)",
			 ap->ifindex, ev->u.radar.freq_mhz);
		refresh_capa(ap);
		return;
	}
}

/* The CSA element's count octet in the beacon tail. */
static int count_offset(const uint8_t *tail, size_t len, uint16_t *off)
{
	struct ie_elem e;
	if (!ie_find(tail, len, WLAN_EID_CHANNEL_SWITCH, &e))
		return -EINVAL;
	*off = (uint16_t)(e.data - tail + 2);
	return 0;
}

/* How the BSS leaves its channel, by why: the one place that decides
 * whether a move is announced, with which count and mode, and what
 * happens without a channel switch in the driver. */
static const struct move_rule {
	uint8_t count;   /* beacons before the switch */
	bool block_tx;   /* CSA mode 1: the BSS's stations stop transmitting */
	bool retune;     /* no CSA possible: move unannounced (ap_set_channel) */
} move_rules[] = {
	/* Radar: silence at once, and a BSS that cannot announce stops. */
	[AP_MOVE_RADAR] = { AP_CSA_COUNT, true, false },
	[AP_MOVE_RESCAN] = { AP_CSA_COUNT, false, true },
	/* The station of the radio waits for the switch before it joins its
	 * BSS (ap_announce_move): a short count keeps its connect quick. No
	 * retune: the station's connect takes the radio, the AP follows. */
	[AP_MOVE_STATION] = { AP_CSA_COUNT_STATION, false, false },
};

static int csa_move(struct ap *ap, uint32_t freq, const struct ap_chandef *cd,
		    const struct move_rule *rule)
{
	struct driver_csa_params *p = calloc(1, sizeof(*p));
	uint8_t *buf = malloc(4 * AP_TEMPLATE_MAX);
	int r = -ENOMEM;
	if (!p || !buf)
		goto out;
	/* After: the templates of the new channel. */
	struct ap_conf saved = ap->conf;
	ap->conf.freq_mhz = freq;
	ap->conf.channel = ap_freq_to_channel(freq);
	ap->conf.band = ap_freq_to_band(freq);
	ap->conf.chandef = *cd;
	r = ap_fill_params(ap, &p->beacon_after, buf, buf + AP_TEMPLATE_MAX);
	ap->conf = saved;
	if (r < 0)
		goto out;
	/* Now: ours with the announcement. */
	ap->csa.in_beacon = true;
	ap->csa.count = rule->count;
	ap->csa.mode = rule->block_tx ? 1 : 0;
	ap->csa.freq_mhz = freq;
	ap->csa.chandef = *cd;
	r = ap_fill_params(ap, &p->beacon_csa, buf + 2 * AP_TEMPLATE_MAX, buf + 3 * AP_TEMPLATE_MAX);
	if (r == 0)
		r = count_offset(p->beacon_csa.beacon_tail, p->beacon_csa.beacon_tail_len,
				 &p->offsets_tail[0]);
	if (r < 0)
		goto out;
	p->n_offsets = 1;
	p->count = rule->count;
	p->block_tx = rule->block_tx;
	ap_chan_to_driver(cd, &p->chandef);
	r = driver_channel_switch(ap->drv, ap->ifindex, p);
	if (r < 0) {
		log_warn("access point %u: the driver refused the channel switch: %d", ap->ifindex, r);
		goto out;
	}
	log_info("access point %u: channel switch to %u (%s) announced, count %u, mode %u",
		 ap->ifindex, ap_freq_to_channel(freq), ap_chan_width_name(cd->width_mhz),
		 rule->count, ap->csa.mode);
	ap_enter_state(ap, AP_STATE_SWITCHING);
out:
	if (r < 0)
		ap->csa.in_beacon = false;
	free(p);
	free(buf);
	return r;
}

int ap_move(struct ap *ap, uint32_t freq, const struct ap_chandef *cd, enum ap_move_why why)
{
	const struct move_rule *rule = &move_rules[why];
	int r = -EOPNOTSUPP;
	if (ap->state != AP_STATE_STARTED)
		return -ENOTCONN;
	/* The CSA element names a channel of the current band only (another
	 * band would need the ECSA's operating class). */
	if (ap->capa.flags & DRIVER_CAPA_DFS && ap_freq_to_band(freq) == ap->conf.band &&
	    (r = csa_move(ap, freq, cd, rule)) == 0)
		return 0;
	return rule->retune ? ap_set_channel(ap, freq) : r;
}

uint32_t ap_announce_move(struct ap *ap, uint32_t freq_mhz)
{
	struct ap_chandef cd;
	if (ap->state != AP_STATE_STARTED || freq_mhz == ap->conf.freq_mhz ||
	    ap_chan_target(ap, freq_mhz, &cd) < 0 || ap_move(ap, freq_mhz, &cd, AP_MOVE_STATION) < 0)
		return 0;
	/* The count's beacons, and one more for the switch itself. */
	return (uint32_t)(AP_CSA_COUNT_STATION + 1) * ap->conf.beacon_int * 1024u / 1000u;
}

void ap_dfs_switched(struct ap *ap, const struct driver_event *ev)
{
	if (ap->state != AP_STATE_SWITCHING) {
		/* The radio moved under us (its station followed a CSA): the
		 * operating channel is what the driver says now. */
		if (ap->state == AP_STATE_STARTED &&
		    ev->u.ch_switch.chandef.control_mhz != ap->conf.freq_mhz)
			ap_set_channel(ap, ev->u.ch_switch.chandef.control_mhz);
		return;
	}
	uint32_t freq = ap->csa.freq_mhz;
	ap->csa.in_beacon = false;
	ap->conf.freq_mhz = freq;
	ap->conf.channel = ap_freq_to_channel(freq);
	ap->conf.band = ap_freq_to_band(freq);
	ap->conf.chandef = ap->csa.chandef;
	log_info("access point %u: now on channel %u (%u MHz, %s)", ap->ifindex, ap->conf.channel,
		 freq, ap_chan_width_name(ap->conf.chandef.width_mhz));
	ap_enter_state(ap, AP_STATE_STARTED);
}
