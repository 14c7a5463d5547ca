/* Autoconnect: while disconnected and idle, join the most preferred known
 * network (AutoConnect=true) that is in view; when none is, scan again after
 * a delay that doubles from STATION_BACKOFF_MIN_MS to STATION_BACKOFF_MAX_MS
 * and starts over after a successful connect. Scans alternate between the
 * frequencies the known networks were last seen on and every channel.
 *
 * Every known network is tried at most once between two scans, so a
 * network that keeps failing costs one attempt per backoff period, and a
 * network whose passphrase was refused is not tried again at all until the
 * user connects to it with a passphrase: retrying a wrong key helps nobody
 * and can get the station blacklisted by the AP. */
#define LOG_TAG "autoconnect"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/station/station_i.h"

#include <errno.h>
#include <string.h>


/* The network in view for a known one; an open entry also fits its OWE
 * form (the store keeps OWE networks as open), which is preferred. */
static bool ssid_in(const struct ac_ssid *set, size_t n, const uint8_t *ssid, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (set[i].ssid_len == len && memcmp(set[i].ssid, ssid, len) == 0)
			return true;
	return false;
}

static void ssid_add(struct ac_ssid *set, size_t *n, size_t max, const uint8_t *ssid,
		     size_t len)
{
	if (ssid_in(set, *n, ssid, len))
		return;
	if (*n == max) { /* forget the oldest */
		memmove(&set[0], &set[1], (max - 1) * sizeof(set[0]));
		(*n)--;
	}
	memcpy(set[*n].ssid, ssid, len);
	set[*n].ssid_len = (uint8_t)len;
	(*n)++;
}

void autoconnect_block(struct station *st, const uint8_t *ssid, size_t ssid_len)
{
	struct station_autoconnect *ac = &st->ac;
	char s[BSS_SSID_STR_MAX];
	ssid_add(ac->blocked, &ac->n_blocked, STATION_AC_MAX_BLOCKED, ssid, ssid_len);
	log_info("'%s' will not be autoconnected until a new passphrase is given",
		 bss_ssid_str(ssid, ssid_len, s, sizeof(s)));
}

void autoconnect_unblock(struct station *st, const uint8_t *ssid, size_t ssid_len)
{
	struct station_autoconnect *ac = &st->ac;
	for (size_t i = 0; i < ac->n_blocked; i++) {
		if (ac->blocked[i].ssid_len != ssid_len ||
		    memcmp(ac->blocked[i].ssid, ssid, ssid_len) != 0)
			continue;
		ac->blocked[i] = ac->blocked[--ac->n_blocked];
		return;
	}
}

/* Known networks we may try now, most preferred first. */
static size_t candidates(struct station *st, struct station_known *out, size_t max)
{
	struct station_autoconnect *ac = &st->ac;
	size_t n = known_autoconnect_list(st->store, out, max), kept = 0;

	for (size_t i = 0; i < n; i++) {
		if (ssid_in(ac->blocked, ac->n_blocked, out[i].ssid, out[i].ssid_len))
			continue;
		out[kept++] = out[i];
	}
	return kept;
}

/* The first candidate in view and not tried since the last scan, or NULL.
 * In view: heard in our last scan if we just scanned, else recently. */
static const struct station_known *pick(struct station *st, const struct station_known *c,
					size_t n, uint64_t *min_seen_out)
{
	uint64_t fresh_us = (uint64_t)STATION_FRESH_SCAN_MS * 1000u;
	uint64_t now = loop_now_us(st->loop);
	uint64_t min_seen = now > fresh_us ? now - fresh_us : 0;

	if (st->ac.after_scan && st->scan.last_started_us > min_seen)
		min_seen = st->scan.last_started_us;
	*min_seen_out = min_seen;
	station_networks_refresh(st);
	for (size_t i = 0; i < n; i++) {
		if (ssid_in(st->ac.tried, st->ac.n_tried, c[i].ssid, c[i].ssid_len))
			continue;
		const struct station_network *net =
			network_list_find_known(&st->nets, c[i].ssid, c[i].ssid_len, c[i].security);
		if (net && net->support == BSS_OK && net->last_seen_us >= min_seen)
			return &c[i];
	}
	return NULL;
}

static void schedule(struct station *st)
{
	struct station_autoconnect *ac = &st->ac;
	log_debug("next autoconnect attempt in %u ms", ac->backoff_ms);
	loop_timer_arm_ms(ac->timer, ac->backoff_ms);
	ac->backoff_ms = ac->backoff_ms * 2 > STATION_BACKOFF_MAX_MS ? STATION_BACKOFF_MAX_MS
								  : ac->backoff_ms * 2;
}

static bool try_connect(struct station *st, const struct station_known *k, uint64_t min_seen)
{
	struct wpad_error err;
	char s[BSS_SSID_STR_MAX];

	ssid_add(st->ac.tried, &st->ac.n_tried, STATION_AC_MAX_CANDIDATES, k->ssid, k->ssid_len);
	log_info("autoconnecting to known network '%s'",
		 bss_ssid_str(k->ssid, k->ssid_len, s, sizeof(s)));
	wpad_error_clear(&err);
	if (connect_start(st, k->ssid, k->ssid_len, NULL, k->hidden, true, &err) == 0) {
		st->conn.min_seen_us = min_seen; /* the BSSes pick() saw, no staler */
		return true;
	}
	log_info("autoconnect to '%s' not started: %s", s, err.text);
	return false;
}

static bool usable(const struct station *st)
{
	return st->ac.enabled && st->store && station_idle(st) && !st->ac.scanning;
}

void autoconnect_kick(struct station *st)
{
	struct station_known c[STATION_AC_MAX_CANDIDATES];

	if (!usable(st))
		return;
	size_t n = candidates(st, c, STATION_AC_MAX_CANDIDATES);
	if (n == 0)
		return; /* nothing to connect to: no background scanning */
	uint64_t min_seen;
	for (const struct station_known *k = pick(st, c, n, &min_seen); k;
	     k = pick(st, c, n, &min_seen))
		if (try_connect(st, k, min_seen))
			return;
	if (!loop_timer_armed(st->ac.timer))
		schedule(st);
}

/* Directed probes for the hidden candidates (the most preferred first, as
 * many as a plan takes), and either the union of the candidates' known
 * frequencies or every channel. */
static void scan_now(struct station *st, const struct station_known *c, size_t n)
{
	struct station_autoconnect *ac = &st->ac;
	struct scan_request req = { .purpose = SCAN_FOR_AUTOCONNECT };

	for (size_t i = 0; i < n && !ac->full_scan_next; i++)
		for (size_t f = 0; f < c[i].n_freqs; f++) {
			bool dup = false;
			for (size_t j = 0; j < req.n_freqs; j++)
				dup = dup || req.freqs[j] == c[i].freqs[f];
			if (!dup && req.n_freqs < sizeof(req.freqs) / sizeof(req.freqs[0]))
				req.freqs[req.n_freqs++] = c[i].freqs[f];
		}
	for (size_t i = 0; i < n && req.n_ssids < STATION_SCAN_MAX_SSIDS; i++) {
		if (!c[i].hidden)
			continue;
		struct driver_ssid *s = &req.ssids[req.n_ssids++];
		s->len = c[i].ssid_len;
		memcpy(s->ssid, c[i].ssid, c[i].ssid_len);
	}
	ac->full_scan_next = req.n_freqs != 0; /* a partial scan is followed by a full one */
	ac->n_tried = 0;
	if (scan_request(st, &req) < 0) {
		schedule(st);
		return;
	}
	ac->scanning = true;
	station_enter_state(st, STATION_SCANNING);
}

static void timer_fired(struct loop_timer *t, void *data)
{
	struct station *st = data;
	struct station_known c[STATION_AC_MAX_CANDIDATES];

	(void)t;
	if (!usable(st))
		return;
	/* The list had nothing when the timer was armed; whatever it holds
	 * now is the driver's memory, not the air: look again. */
	size_t n = candidates(st, c, STATION_AC_MAX_CANDIDATES);
	if (n)
		scan_now(st, c, n);
}

bool autoconnect_candidate_heard(struct station *st, uint64_t since)
{
	struct station_known c[STATION_AC_MAX_CANDIDATES];

	if (!st->ac.scanning)
		return false;
	size_t n = candidates(st, c, STATION_AC_MAX_CANDIDATES);
	for (size_t i = 0; i < n; i++) {
		const struct station_network *net =
			network_list_find_known(&st->nets, c[i].ssid, c[i].ssid_len, c[i].security);
		if (net && net->support == BSS_OK && net->last_seen_us >= since)
			return true;
	}
	return false;
}

void autoconnect_scan_done(struct station *st)
{
	if (!st->ac.scanning)
		return;
	st->ac.scanning = false;
	if (st->state == STATION_SCANNING && st->conn.phase == CONNECT_IDLE)
		station_enter_state(st, STATION_DISCONNECTED);
	st->ac.after_scan = true;
	autoconnect_kick(st);
	st->ac.after_scan = false;
}

void autoconnect_connected(struct station *st)
{
	autoconnect_reset_backoff(st);
	st->ac.n_tried = 0;
	st->ac.full_scan_next = false;
}

void autoconnect_failed(struct station *st, const struct wpad_error *err)
{
	if (err->code == WPAD_ERR_ABORTED)
		return;
	autoconnect_kick(st); /* the next candidate in view, or a later scan */
}

void autoconnect_reset_backoff(struct station *st)
{
	st->ac.backoff_ms = STATION_BACKOFF_MIN_MS;
	loop_timer_disarm(st->ac.timer);
}

void autoconnect_stop(struct station *st)
{
	loop_timer_disarm(st->ac.timer);
	if (st->ac.scanning) {
		st->ac.scanning = false;
		if (st->state == STATION_SCANNING && st->conn.phase == CONNECT_IDLE)
			station_enter_state(st, STATION_DISCONNECTED);
	}
}

int autoconnect_init(struct station *st)
{
	st->ac.timer = loop_timer_new(st->loop, timer_fired, st);
	if (!st->ac.timer)
		return -ENOMEM;
	st->ac.enabled = st->store != NULL;
	st->ac.backoff_ms = STATION_BACKOFF_MIN_MS;
	if (st->ac.enabled)
		loop_timer_arm_ms(st->ac.timer, 0); /* first look once the daemon runs */
	return 0;
}

void autoconnect_free(struct station *st)
{
	loop_timer_free(st->ac.timer);
	st->ac.timer = NULL;
}
