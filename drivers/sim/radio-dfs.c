/* DFS on the simulated radio: the channel availability check (CAC) on the
 * loop's clock, radar injected by tests (sim_driver_radar), the 30-minute
 * non-occupancy period after radar, and the station side of a channel
 * switch announcement (as mac80211's station MLME: follow the AP when the
 * count runs out, report DRIVER_EV_CH_SWITCHED).
 *
 * The DFS state is per instance (all its radios share one regulatory
 * view): a radar channel is usable after a CAC, available once one passed,
 * unavailable for SIM_NOP_MS after radar. */
#define LOG_TAG "sim"
#include "drivers/sim/radio.h"

#include "daemon/codec/codec_err.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_csa.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <errno.h>
#include <string.h>

static struct sim_dfs_entry *dfs_entry(struct sim *sim, uint32_t freq, bool create)
{
	for (size_t i = 0; i < sim->n_dfs; i++)
		if (sim->dfs[i].freq == freq)
			return &sim->dfs[i];
	if (!create || sim->n_dfs == SIM_MAX_DFS)
		return NULL;
	struct sim_dfs_entry *e = &sim->dfs[sim->n_dfs++];
	*e = (struct sim_dfs_entry){ .freq = freq };
	return e;
}

/* A regulatory change re-runs the rules on every channel, and cfg80211
 * sets each channel's DFS state back to usable as it does (net/wireless
 * reg.c, handle_channel_single_rule): a passed CAC is forgotten, a
 * non-occupancy period is not (its timer is ours). Mirrored here so the
 * roles meet the kernel's behaviour. */
void sim_dfs_reg_reset(struct sim *sim)
{
	for (size_t i = 0; i < sim->n_dfs; i++)
		sim->dfs[i].available = false;
}

uint32_t sim_dfs_flags(const struct sim *sim, uint32_t freq)
{
	uint64_t now = loop_now_us(sim->loop);
	for (size_t i = 0; i < sim->n_dfs; i++) {
		const struct sim_dfs_entry *e = &sim->dfs[i];
		if (e->freq != freq)
			continue;
		if (e->nop_until_us > now)
			return DRIVER_CHAN_DFS_UNAVAILABLE;
		return e->available ? DRIVER_CHAN_DFS_AVAILABLE : 0;
	}
	return 0;
}

/* The 20 MHz channels of a definition, as a loop over frequencies. */
#define FOR_EACH_20(cd, f)                                                                        \
	for (uint32_t f = chan_lo(cd) + 10; f < chan_hi(cd); f += 20)

static uint32_t chan_lo(const struct driver_chandef *cd)
{
	unsigned w = cd->width_mhz ? cd->width_mhz : 20;
	return (cd->center1_mhz ? cd->center1_mhz : cd->control_mhz) - w / 2;
}

static uint32_t chan_hi(const struct driver_chandef *cd)
{
	unsigned w = cd->width_mhz ? cd->width_mhz : 20;
	return (cd->center1_mhz ? cd->center1_mhz : cd->control_mhz) + w / 2;
}

static bool covers(const struct driver_chandef *cd, uint32_t freq)
{
	return freq > chan_lo(cd) && freq < chan_hi(cd);
}

static void emit_radar(struct sim *sim, struct sim_iface *ifc, enum driver_radar_kind kind,
		       uint32_t freq)
{
	struct driver_event ev = { .type = DRIVER_EV_RADAR,
				   .radio_id = ifc ? ifc->radio->id : 0,
				   .ifindex = ifc ? ifc->ifindex : 0,
				   .u.radar = { .kind = kind, .freq_mhz = freq } };
	sim_emit(sim, &ev);
}

static void cac_done(struct loop_timer *t, void *data)
{
	struct sim_iface *ifc = data;
	struct sim_ap *ap = &ifc->ap;
	if (!ap->cac_active)
		return;
	ap->cac_active = false;
	FOR_EACH_20(&ap->cac_chandef, f)
	{
		struct sim_dfs_entry *e = dfs_entry(ifc->sim, f, true);
		if (e)
			e->available = true;
	}
	log_info("%s: CAC on %u MHz passed", ifc->name, ap->cac_chandef.control_mhz);
	emit_radar(ifc->sim, ifc, DRIVER_RADAR_CAC_FINISHED, ap->cac_chandef.control_mhz);
}

int sim_start_radar_detection(void *priv, uint32_t ifindex, const struct driver_chandef *cd)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	if (ifc->type != DRIVER_IFTYPE_AP || !cd)
		return -EOPNOTSUPP;
	if (!ifc->up)
		return -ENETDOWN;
	if (ifc->ap.started || ifc->ap.cac_active)
		return -EBUSY;
	bool radar = false;
	FOR_EACH_20(cd, f)
	{
		uint32_t flags = sim_chan_flags(sim, f);
		if (flags & (DRIVER_CHAN_DISABLED | DRIVER_CHAN_DFS_UNAVAILABLE))
			return -EPERM;
		radar |= (flags & DRIVER_CHAN_RADAR) != 0;
	}
	if (!radar)
		return -EINVAL; /* nothing to check */
	if (!ifc->ap.cac_timer &&
	    !(ifc->ap.cac_timer = loop_timer_new(sim->loop, cac_done, ifc)))
		return -ENOMEM;
	ifc->ap.cac_active = true;
	ifc->ap.cac_chandef = *cd;
	sim_iface_set_home(ifc, cd->control_mhz);
	loop_timer_arm_ms(ifc->ap.cac_timer, SIM_CAC_MS);
	log_info("%s: CAC on %u MHz (%u MHz wide) for %u s", ifc->name, cd->control_mhz,
		 cd->width_mhz ? cd->width_mhz : 20, SIM_CAC_MS / 1000);
	return 0;
}

void sim_dfs_iface_stop(struct sim_iface *ifc)
{
	if (ifc->type != DRIVER_IFTYPE_AP)
		return;
	if (ifc->ap.cac_active) {
		ifc->ap.cac_active = false;
		loop_timer_disarm(ifc->ap.cac_timer);
		emit_radar(ifc->sim, ifc, DRIVER_RADAR_CAC_ABORTED, ifc->ap.cac_chandef.control_mhz);
	}
	loop_timer_free(ifc->ap.cac_timer);
	ifc->ap.cac_timer = NULL;
}

/* The earliest end of a non-occupancy period, rearmed after each. */
static void nop_tick(struct loop_timer *t, void *data)
{
	struct sim *sim = data;
	uint64_t now = loop_now_us(sim->loop), next = 0;
	for (size_t i = 0; i < sim->n_dfs; i++) {
		struct sim_dfs_entry *e = &sim->dfs[i];
		if (!e->nop_until_us)
			continue;
		if (e->nop_until_us <= now) {
			e->nop_until_us = 0;
			log_info("sim: non-occupancy period of %u MHz over", e->freq);
			emit_radar(sim, NULL, DRIVER_RADAR_NOP_FINISHED, e->freq);
		} else if (!next || e->nop_until_us < next) {
			next = e->nop_until_us;
		}
	}
	if (next)
		loop_timer_arm_us(sim->nop_timer, next - now);
}

int sim_dfs_radar(struct sim *sim, uint32_t freq)
{
	if (!(sim_chan_flags(sim, freq) & DRIVER_CHAN_RADAR))
		return -EINVAL; /* radar is only looked for on DFS channels */
	struct sim_dfs_entry *e = dfs_entry(sim, freq, true);
	if (!e)
		return -ENOSPC;
	if (!sim->nop_timer && !(sim->nop_timer = loop_timer_new(sim->loop, nop_tick, sim)))
		return -ENOMEM;
	e->available = false;
	e->nop_until_us = loop_now_us(sim->loop) + (uint64_t)SIM_NOP_MS * 1000;
	nop_tick(sim->nop_timer, sim);
	log_info("sim: radar on %u MHz", freq);
	for (struct sim_iface *ifc = sim->ifaces; ifc; ifc = ifc->next) {
		if (ifc->type != DRIVER_IFTYPE_AP)
			continue;
		if (ifc->ap.cac_active && covers(&ifc->ap.cac_chandef, freq)) {
			ifc->ap.cac_active = false;
			loop_timer_disarm(ifc->ap.cac_timer);
			emit_radar(sim, ifc, DRIVER_RADAR_DETECTED, freq);
		} else if (ifc->ap.started) {
			struct driver_chandef cd = ifc->ap.chandef;
			if (!cd.control_mhz)
				cd.control_mhz = ifc->oper_freq;
			if (covers(&cd, freq))
				emit_radar(sim, ifc, DRIVER_RADAR_DETECTED, freq);
		}
	}
	return 0;
}

void sim_dfs_free(struct sim *sim)
{
	loop_timer_free(sim->nop_timer);
	sim->nop_timer = NULL;
}

/* ---- station: following the AP ---- */

void sim_mlme_csa(struct sim_iface *ifc, const struct mgmt_frame *f)
{
	struct ie_elem e;
	struct ie_csa csa;
	bool ok = false;
	if (ie_find(f->ies, f->ies_len, WLAN_EID_EXT_CHANNEL_SWITCH, &e))
		ok = ie_parse_ecsa(e.data, e.len, &csa) == CODEC_OK;
	if (!ok && ie_find(f->ies, f->ies_len, WLAN_EID_CHANNEL_SWITCH, &e))
		ok = ie_parse_csa(e.data, e.len, &csa) == CODEC_OK;
	if (!ok || csa.count > 1)
		return; /* not yet: the AP moves after the beacon with count 1 */
	uint32_t freq = ifc->oper_freq >= 5000 ? 5000 + 5u * csa.new_channel
						: 2407 + 5u * csa.new_channel;
	if (freq == ifc->oper_freq || sim_chan_check(ifc->sim, freq, false) < 0)
		return;
	log_info("%s: following the AP's channel switch from %u to %u MHz", ifc->name,
		 ifc->oper_freq, freq);
	ifc->mlme.freq = freq;
	sim_iface_set_home(ifc, freq);
	struct driver_event ev = { .type = DRIVER_EV_CH_SWITCHED, .radio_id = ifc->radio->id,
				   .ifindex = ifc->ifindex,
				   .u.ch_switch.chandef = { .control_mhz = freq, .width_mhz = 20,
							    .center1_mhz = freq } };
	sim_emit(ifc->sim, &ev);
}
