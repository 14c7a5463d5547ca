/* Scan plans of the station: one request becomes a few driver scans run one
 * after another (active on channels where we may transmit, band by band,
 * then passive on no-IR and radar channels, each no longer than the driver
 * accepts), results merged into the BSS list after each, and the waiting
 * parties told at the end. A plan for a connect or autoconnect alone ends
 * early once what it looks for was heard. */
#define LOG_TAG "scan"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/station/station_i.h"

#include <errno.h>
#include <string.h>

static size_t max_freqs_per_pass(const struct station *st)
{
	size_t m = DRIVER_MAX_SCAN_FREQS;
	if (st->have_capa && st->capa.max_scan_freqs && st->capa.max_scan_freqs < m)
		m = st->capa.max_scan_freqs;
	return m;
}

/* The flags and band of freq on our radio; false when it has no such
 * channel. */
static bool chan_lookup(const struct station *st, uint32_t freq, uint32_t *flags,
			enum driver_band *band)
{
	for (int b = 0; b < DRIVER_BAND_COUNT; b++) {
		const struct driver_band_info *bi = &st->capa.bands[b];
		for (size_t i = 0; bi->present && i < bi->n_channels; i++) {
			if (bi->channels[i].freq_mhz != freq)
				continue;
			*flags = bi->channels[i].flags;
			*band = (enum driver_band)b;
			return true;
		}
	}
	return false;
}

struct freq_set {
	size_t n;
	uint32_t f[DRIVER_BAND_COUNT * DRIVER_MAX_CHANNELS];
};

/* Active sets per band (2.4 GHz first: most networks are there, and a
 * connect may stop after the first pass that found its network), one
 * passive set. */
struct freq_plan {
	struct freq_set active[DRIVER_BAND_COUNT];
	struct freq_set passive;
};

static void classify_freq(const struct station *st, uint32_t freq, struct freq_plan *fp)
{
	uint32_t flags;
	enum driver_band band;
	if (!chan_lookup(st, freq, &flags, &band) || (flags & DRIVER_CHAN_DISABLED))
		return;
	/* No probes where we may not initiate transmission, nor on radar
	 * channels before anyone has checked them. */
	bool listen_only = flags & (DRIVER_CHAN_NO_IR | DRIVER_CHAN_RADAR);
	struct freq_set *set = listen_only ? &fp->passive : &fp->active[band];
	if (set->n < sizeof(set->f) / sizeof(set->f[0]))
		set->f[set->n++] = freq;
}

static void collect_freqs(const struct station *st, const struct scan_request *req,
			  struct freq_plan *fp)
{
	memset(fp, 0, sizeof(*fp));
	if (req->n_freqs) {
		for (size_t i = 0; i < req->n_freqs; i++)
			classify_freq(st, req->freqs[i], fp);
		return;
	}
	for (int b = 0; b < DRIVER_BAND_COUNT; b++) {
		const struct driver_band_info *bi = &st->capa.bands[b];
		for (size_t i = 0; bi->present && i < bi->n_channels; i++)
			classify_freq(st, bi->channels[i].freq_mhz, fp);
	}
}

static void add_passes(struct station_scan *sc, const struct freq_set *set, bool passive,
		       const struct scan_request *req, size_t per_pass, size_t max_ssids)
{
	for (size_t off = 0; off < set->n && sc->n_passes < STATION_SCAN_MAX_PASSES;
	     off += per_pass) {
		struct driver_scan_params *p = &sc->passes[sc->n_passes++];
		memset(p, 0, sizeof(*p));
		p->passive = passive;
		p->n_freqs = set->n - off < per_pass ? set->n - off : per_pass;
		memcpy(p->freqs, &set->f[off], p->n_freqs * sizeof(p->freqs[0]));
		if (passive) /* beacons set the pace: the driver's dwell */
			continue;
		p->dwell_ms = req->active_dwell_ms;
		if (!req->n_ssids)
			continue;
		/* One slot is kept for a wildcard probe, to see the others too. */
		size_t named = max_ssids > 1 ? max_ssids - 1 : 1;
		for (size_t i = 0; i < req->n_ssids && i < named; i++)
			p->ssids[p->n_ssids++] = req->ssids[i];
		if (max_ssids > p->n_ssids)
			p->ssids[p->n_ssids++].len = 0;
	}
}

static void plan_build(struct station *st, const struct scan_request *req)
{
	struct station_scan *sc = &st->scan;
	struct freq_plan fp;

	sc->n_passes = sc->pass = 0;
	if (!st->have_capa) {
		struct driver_scan_params *p = &sc->passes[sc->n_passes++];
		memset(p, 0, sizeof(*p));
		p->n_freqs = req->n_freqs < DRIVER_MAX_SCAN_FREQS ? req->n_freqs
								  : DRIVER_MAX_SCAN_FREQS;
		memcpy(p->freqs, req->freqs, p->n_freqs * sizeof(p->freqs[0]));
		for (size_t i = 0; i < req->n_ssids; i++)
			p->ssids[p->n_ssids++] = req->ssids[i];
		return;
	}
	size_t max_ssids = st->capa.max_scan_ssids ? st->capa.max_scan_ssids : 1;
	size_t per_pass = max_freqs_per_pass(st);
	collect_freqs(st, req, &fp);
	for (int b = 0; b < DRIVER_BAND_COUNT; b++)
		add_passes(sc, &fp.active[b], false, req, per_pass, max_ssids);
	add_passes(sc, &fp.passive, true, req, per_pass, max_ssids);
}

static int trigger_pass(struct station *st)
{
	const struct driver_scan_params *p = &st->scan.passes[st->scan.pass];
	int err = driver_scan_trigger(st->drv, st->ifindex, p);

	if (err)
		log_warn("ifindex %u: scan trigger failed: %s", st->ifindex, strerror(-err));
	else
		log_debug("ifindex %u: scan pass %zu/%zu: %s, %zu channels%s", st->ifindex,
			  st->scan.pass + 1, st->scan.n_passes, p->passive ? "passive" : "active",
			  p->n_freqs, p->n_ssids && p->ssids[0].len ? ", directed" : "");
	return err;
}

static int plan_start(struct station *st, const struct scan_request *req)
{
	struct station_scan *sc = &st->scan;

	plan_build(st, req);
	if (sc->n_passes == 0)
		return -EINVAL; /* none of the frequencies is usable here */
	sc->purpose = req->purpose;
	sc->plan_full = req->n_freqs == 0;
	sc->plan_n_ssids = req->n_ssids;
	memcpy(sc->plan_ssids, req->ssids, sizeof(sc->plan_ssids));
	int err = trigger_pass(st);
	if (err)
		return err;
	sc->running = true;
	sc->plan_started_us = loop_now_us(st->loop);
	log_info("ifindex %u: scanning %s%s", st->ifindex,
		 sc->plan_full ? "all channels" : "known frequencies",
		 req->n_ssids == 1  ? " with a directed probe"
		 : req->n_ssids > 1 ? " with a directed probe for each hidden network"
				    : "");
	return 0;
}

static bool ssid_in(const struct driver_ssid *set, size_t n, const struct driver_ssid *s)
{
	for (size_t i = 0; i < n; i++)
		if (set[i].len == s->len && memcmp(set[i].ssid, s->ssid, s->len) == 0)
			return true;
	return false;
}

static bool covers(const struct station_scan *sc, const struct scan_request *req)
{
	if (!sc->plan_full)
		return false;
	for (size_t i = 0; i < req->n_ssids; i++)
		if (!ssid_in(sc->plan_ssids, sc->plan_n_ssids, &req->ssids[i]))
			return false;
	return true;
}

/* Two queued requests become one: a full scan unless both name the same
 * frequencies, probing for the networks of both (as many as fit). */
static void merge_pending(struct scan_request *p, const struct scan_request *req)
{
	p->purpose |= req->purpose;
	if (p->n_freqs != req->n_freqs ||
	    memcmp(p->freqs, req->freqs, p->n_freqs * sizeof(p->freqs[0])) != 0)
		p->n_freqs = 0;
	/* The longer listen serves both; a full scan keeps the driver's. */
	if (p->n_freqs == 0 || !req->active_dwell_ms)
		p->active_dwell_ms = 0;
	else if (p->active_dwell_ms && req->active_dwell_ms > p->active_dwell_ms)
		p->active_dwell_ms = req->active_dwell_ms;
	/* The newer request's names first: when not all fit, a connect asked
	 * now beats what autoconnect queued before. */
	struct driver_ssid merged[STATION_SCAN_MAX_SSIDS];
	size_t n = req->n_ssids;
	memcpy(merged, req->ssids, n * sizeof(merged[0]));
	for (size_t i = 0; i < p->n_ssids && n < STATION_SCAN_MAX_SSIDS; i++)
		if (!ssid_in(merged, n, &p->ssids[i]))
			merged[n++] = p->ssids[i];
	memcpy(p->ssids, merged, n * sizeof(merged[0]));
	p->n_ssids = n;
}

int scan_request(struct station *st, const struct scan_request *req)
{
	struct station_scan *sc = &st->scan;

	if (!sc->running)
		return plan_start(st, req);
	if (covers(sc, req)) {
		sc->purpose |= req->purpose;
		return 0;
	}
	if (sc->have_pending) {
		merge_pending(&sc->pending, req);
	} else {
		sc->pending = *req;
		sc->have_pending = true;
	}
	return 0;
}

static void merge_results(struct station *st)
{
	struct driver_scan_results res = { 0 };
	int err = driver_get_scan_results(st->drv, st->ifindex, &res);

	if (err) {
		log_warn("ifindex %u: reading scan results failed: %s", st->ifindex,
			 strerror(-err));
		return;
	}
	size_t n = bss_list_merge_scan(st->bss, &res, loop_now_us(st->loop));
	log_debug("ifindex %u: %zu scan results, %zu taken", st->ifindex, res.n, n);
	driver_scan_results_free(&res);
	st->nets_dirty = true;
}

static void finish(struct station *st, uint32_t purpose)
{
	const uint8_t *keep = st->state != STATION_DISCONNECTED ? st->bssid : NULL;

	bss_list_expire(st->bss, loop_now_us(st->loop), (uint64_t)STATION_BSS_MAX_AGE_MS * 1000u, keep);
	st->nets_dirty = true;
	station_networks_refresh(st);
	log_info("ifindex %u: scan done: %zu BSSes, %zu networks", st->ifindex,
		 bss_list_count(st->bss), st->nets.n);
	if (st->scan.have_pending) {
		struct scan_request next = st->scan.pending;
		st->scan.have_pending = false;
		if (plan_start(st, &next) < 0)
			purpose |= next.purpose; /* tell them it ended */
	}
	if (purpose & SCAN_FOR_CONNECT)
		connect_scan_done(st);
	if (purpose & SCAN_FOR_AUTOCONNECT)
		autoconnect_scan_done(st);
	if ((purpose & SCAN_FOR_USER) && st->cb.scan_done)
		st->cb.scan_done(st->cb.ctx);
}

/* After a pass: may the plan stop here? Only when nobody asked for the
 * whole picture (an on-demand scan) and the connect or autoconnect waiting
 * for it already heard what it looks for in this plan. */
static bool enough(struct station *st)
{
	uint32_t purpose = st->scan.purpose;
	uint64_t since = st->scan.plan_started_us;

	if (purpose & SCAN_FOR_USER)
		return false;
	station_networks_refresh(st);
	if ((purpose & SCAN_FOR_CONNECT) && connect_target_heard(st, since))
		return true;
	return (purpose & SCAN_FOR_AUTOCONNECT) && autoconnect_candidate_heard(st, since);
}

void scan_handle_done(struct station *st, bool aborted)
{
	struct station_scan *sc = &st->scan;

	if (!sc->running)
		return;
	merge_results(st);
	if (!aborted && sc->pass + 1 < sc->n_passes && !enough(st)) {
		sc->pass++;
		if (trigger_pass(st) == 0)
			return;
	}
	if (sc->pass + 1 < sc->n_passes && !aborted)
		log_debug("ifindex %u: scan plan ends after pass %zu/%zu: found", st->ifindex,
			  sc->pass + 1, sc->n_passes);
	sc->last_started_us = sc->plan_started_us;
	sc->running = false;
	finish(st, sc->purpose);
}

void scan_cancel(struct station *st)
{
	if (!st->scan.running)
		return;
	driver_scan_abort(st->drv, st->ifindex);
	/* The driver's SCAN_ABORTED finds nothing running and is ignored. */
	st->scan.running = false;
	st->scan.have_pending = false;
	finish(st, st->scan.purpose & SCAN_FOR_USER);
}
