/* Scanning and the BSS table.
 *
 * A scan visits each channel of its list (or every enabled channel) in
 * turn: an active scan sends one Probe Request per SSID (a wildcard one
 * when none is given) and listens active_dwell (30 ms) per channel; a
 * passive scan, and any channel that is NO_IR or radar under the
 * regulatory domain, only listens passive_dwell (110 ms, more than one
 * 100 TU beacon interval). A targeted scan of at most four listed channels
 * listens passive_dwell everywhere, so it also finds an AP whose role does
 * not answer probes; dwell_ms overrides all of this. Disabled channels are
 * never visited. While scanning the interface is off its channel: data
 * waits in the queues and the beacon-loss watchdog is paused.
 *
 * The BSS table is fed by every Beacon and Probe Response the interface
 * hears, scanning or not; an entry keeps the elements of the latest Probe
 * Response, or of the latest Beacon while no probe response was heard (so
 * a hidden SSID learnt from a probe response survives the next beacon),
 * and is dropped 30 s after it was last heard.
 */
#define LOG_TAG "sim"
#include "drivers/sim/radio.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_basic.h"
#include "daemon/codec/ie_ht.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SIM_TARGETED_SCAN_MAX 4

struct sim_scan {
	bool passive;
	size_t n_ssids;
	struct driver_ssid ssids[DRIVER_MAX_SCAN_SSIDS];
	uint32_t freqs[DRIVER_MAX_CHANNELS];
	size_t n_freqs, pos;
	uint32_t active_dwell_ms, passive_dwell_ms;
	struct loop_timer *timer;
};

static void send_probe(struct sim_iface *ifc, uint32_t freq, const struct driver_ssid *ssid)
{
	uint8_t frame[512], rates[16];
	size_t n = sim_band_rates(freq, rates, sizeof(rates));
	struct wbuf w = wbuf_init(frame, sizeof(frame));
	struct mgmt_frame f;
	mgmt_init(&f, IEEE80211_STYPE_PROBE_REQ, sim_bcast, ifc->addr, sim_bcast);
	mgmt_build(&w, &f);
	ie_build_ssid(&w, ssid ? ssid->ssid : NULL, ssid ? ssid->len : 0);
	ie_build_supp_rates(&w, rates, n);
	ie_build_ext_rates(&w, rates, n);
	struct ie_ht_cap ht = { .cap_info = sim_ht_capab(), .ampdu_params = 0x03 };
	memcpy(ht.mcs_set, sim_ht_mcs(), 10);
	ie_build_ht_cap(&w, &ht);
	if (!w.bad)
		sim_tx_direct(ifc, frame, w.len);
}

static void finish(struct sim_iface *ifc, enum driver_event_type type)
{
	struct sim_scan *s = ifc->scan;
	loop_timer_free(s->timer);
	free(s);
	ifc->scan = NULL;
	sim_link_tune(ifc, ifc->up ? ifc->oper_freq : 0);
	sim_mlme_scan_pause(ifc, false);
	sim_emit_simple(ifc, type);
	sim_tx_kick(ifc); /* data held during the scan may go now */
}

/* Moves to the next channel, or ends the scan. */
static void visit(struct sim_iface *ifc)
{
	struct sim_scan *s = ifc->scan;
	if (s->pos >= s->n_freqs) {
		log_debug("%s: scan done, %zu BSSes known", ifc->name, ifc->n_bss);
		finish(ifc, DRIVER_EV_SCAN_DONE);
		return;
	}
	uint32_t freq = s->freqs[s->pos++];
	uint32_t flags = sim_chan_flags(ifc->sim, freq);
	bool passive = s->passive || (flags & (DRIVER_CHAN_NO_IR | DRIVER_CHAN_RADAR));
	sim_link_tune(ifc, freq);
	if (!passive) {
		for (size_t i = 0; i < s->n_ssids; i++)
			send_probe(ifc, freq, &s->ssids[i]);
		if (!s->n_ssids)
			send_probe(ifc, freq, NULL);
	}
	loop_timer_arm_ms(s->timer, passive ? s->passive_dwell_ms : s->active_dwell_ms);
}

static void on_dwell_end(struct loop_timer *t, void *data)
{
	visit(data);
}

/* Fills s->freqs from the request: the listed channels that are enabled,
 * or every enabled channel. -EINVAL for an unknown frequency or when
 * nothing is left to visit. */
static int plan(struct sim_iface *ifc, const struct driver_scan_params *p, struct sim_scan *s)
{
	if (!p->n_freqs) {
		s->n_freqs = sim_chan_list_enabled(ifc->sim, s->freqs, DRIVER_MAX_CHANNELS);
		return s->n_freqs ? 0 : -EINVAL;
	}
	for (size_t i = 0; i < p->n_freqs; i++) {
		int err = sim_chan_check(ifc->sim, p->freqs[i], false);
		if (err == -EINVAL)
			return err;
		if (err == 0 && s->n_freqs < DRIVER_MAX_CHANNELS)
			s->freqs[s->n_freqs++] = p->freqs[i];
	}
	return s->n_freqs ? 0 : -EINVAL;
}

static int scan_check(struct sim_iface *ifc, const struct driver_scan_params *p)
{
	if (ifc->type == DRIVER_IFTYPE_MONITOR)
		return -EOPNOTSUPP;
	if (!ifc->up)
		return -ENETDOWN;
	if (ifc->scan || ifc->ap.started || ifc->mlme.state == SIM_MLME_AUTHENTICATING ||
	    ifc->mlme.state == SIM_MLME_ASSOCIATING)
		return -EBUSY;
	if (!p || p->n_ssids > DRIVER_MAX_SCAN_SSIDS || p->n_freqs > DRIVER_MAX_SCAN_FREQS)
		return -EINVAL;
	return 0;
}

int sim_scan_trigger(void *priv, uint32_t ifindex, const struct driver_scan_params *p)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	int err = scan_check(ifc, p);
	if (err)
		return err;
	struct sim_scan *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	if ((err = plan(ifc, p, s)) < 0 ||
	    !(s->timer = loop_timer_new(sim->loop, on_dwell_end, ifc))) {
		free(s);
		return err < 0 ? err : -ENOMEM;
	}
	s->passive = p->passive;
	s->n_ssids = p->n_ssids;
	memcpy(s->ssids, p->ssids, p->n_ssids * sizeof(p->ssids[0]));
	s->passive_dwell_ms = p->dwell_ms ? p->dwell_ms : sim->opts.passive_dwell_ms;
	s->active_dwell_ms = p->dwell_ms				 ? p->dwell_ms
			     : p->n_freqs && p->n_freqs <= SIM_TARGETED_SCAN_MAX ? s->passive_dwell_ms
										 : sim->opts.active_dwell_ms;
	ifc->scan = s;
	sim_mlme_scan_pause(ifc, true);
	sim_emit_simple(ifc, DRIVER_EV_SCAN_STARTED);
	log_debug("%s: %s scan of %zu channels", ifc->name, s->passive ? "passive" : "active",
		  s->n_freqs);
	visit(ifc);
	return 0;
}

void sim_scan_cancel(struct sim_iface *ifc, bool emit)
{
	if (!ifc->scan)
		return;
	if (emit) {
		finish(ifc, DRIVER_EV_SCAN_ABORTED);
		return;
	}
	loop_timer_free(ifc->scan->timer);
	free(ifc->scan);
	ifc->scan = NULL;
}

int sim_scan_abort(void *priv, uint32_t ifindex)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	if (!ifc->scan)
		return -ENOENT;
	sim_scan_cancel(ifc, true);
	return 0;
}

/* ---- the BSS table ---- */

static void bss_free(struct sim_bss *b)
{
	free(b->ies);
	free(b);
}

static void bss_unlink(struct sim_iface *ifc, struct sim_bss **pp)
{
	struct sim_bss *b = *pp;
	*pp = b->next;
	ifc->n_bss--;
	bss_free(b);
}

void sim_bss_free_all(struct sim_iface *ifc)
{
	while (ifc->bss)
		bss_unlink(ifc, &ifc->bss);
}

static void expire(struct sim_iface *ifc, uint64_t now)
{
	for (struct sim_bss **pp = &ifc->bss; *pp;) {
		if (now - (*pp)->seen_us > (uint64_t)SIM_BSS_MAX_AGE_MS * 1000u)
			bss_unlink(ifc, pp);
		else
			pp = &(*pp)->next;
	}
}

/* The entry for bssid on freq, created (evicting the oldest when full). */
static struct sim_bss *bss_slot(struct sim_iface *ifc, const uint8_t *bssid, uint32_t freq)
{
	struct sim_bss **oldest = NULL;
	for (struct sim_bss **pp = &ifc->bss; *pp; pp = &(*pp)->next) {
		if ((*pp)->freq == freq && memcmp((*pp)->bssid, bssid, SIM_ADDR_LEN) == 0)
			return *pp;
		if (!oldest || (*pp)->seen_us < (*oldest)->seen_us)
			oldest = pp;
	}
	if (ifc->n_bss >= SIM_MAX_BSS && oldest)
		bss_unlink(ifc, oldest);
	struct sim_bss *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	memcpy(b->bssid, bssid, SIM_ADDR_LEN);
	b->freq = freq;
	b->next = ifc->bss;
	ifc->bss = b;
	ifc->n_bss++;
	return b;
}

/* Replaces the entry's elements with the frame's. */
static void bss_set_ies(struct sim_bss *b, const struct mgmt_frame *m)
{
	uint8_t *copy = m->ies_len ? malloc(m->ies_len) : NULL;
	if (m->ies_len && !copy)
		return; /* keep the old ones */
	if (m->ies_len)
		memcpy(copy, m->ies, m->ies_len);
	free(b->ies);
	b->ies = copy;
	b->ies_len = m->ies_len;
	b->from_probe_resp = m->subtype == IEEE80211_STYPE_PROBE_RESP;
}

void sim_scan_rx(struct sim_iface *ifc, const struct mgmt_frame *m, const struct sim_rx *rx)
{
	/* daemon/codec checked the fixed fields and the element framing. */
	if (sim_addr_is_group(m->bssid) || !rx->freq)
		return;
	struct sim_bss *b = bss_slot(ifc, m->bssid, rx->freq);
	if (!b)
		return;
	/* As cfg80211 does: a probe response's elements stay until the next
	 * probe response; a beacon (which may hide the SSID) replaces only
	 * elements that came from a beacon. */
	if (m->subtype == IEEE80211_STYPE_PROBE_RESP || !b->from_probe_resp)
		bss_set_ies(b, m);
	b->signal_mbm = rx->signal_mbm;
	b->tsf = m->u.beacon.timestamp;
	b->beacon_int = m->u.beacon.beacon_int;
	b->capability = m->u.beacon.capab;
	b->seen_us = loop_now_us(ifc->sim->loop);
}

int sim_get_scan_results(void *priv, uint32_t ifindex, struct driver_scan_results *res)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	if (!res)
		return -EINVAL;
	uint64_t now = loop_now_us(ifc->sim->loop);
	expire(ifc, now);
	res->n = 0;
	res->results = ifc->n_bss ? calloc(ifc->n_bss, sizeof(*res->results)) : NULL;
	if (ifc->n_bss && !res->results)
		return -ENOMEM;
	for (struct sim_bss *b = ifc->bss; b; b = b->next) {
		struct driver_scan_result *r = &res->results[res->n];
		memcpy(r->bssid, b->bssid, SIM_ADDR_LEN);
		r->freq_mhz = b->freq;
		r->signal_mbm = b->signal_mbm;
		r->beacon_interval = b->beacon_int;
		r->capability = b->capability;
		r->tsf = b->tsf;
		r->age_ms = (uint32_t)((now - b->seen_us) / 1000u);
		r->from_probe_resp = b->from_probe_resp;
		if (b->ies_len && !(r->ies = malloc(b->ies_len))) {
			driver_scan_results_free(res);
			return -ENOMEM;
		}
		if (b->ies_len)
			memcpy(r->ies, b->ies, b->ies_len);
		r->ies_len = b->ies_len;
		res->n++;
	}
	return 0;
}
