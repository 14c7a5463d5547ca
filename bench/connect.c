/* Benchmark: connect latency and association throughput on the simulated
 * radio, with wpad's AP and station roles in this process on one
 * in-process medium (the sim's airtime model, real timers). Prints tables;
 * asserts nothing.
 *
 *   connect [RUNS] [STATIONS]      defaults: 20 runs, 100 stations
 *
 * Latency: from station_connect() to CONNECTED, split by the station's
 * state changes into scan (request to AUTHENTICATING), authentication +
 * association (to HANDSHAKING) and the 4-way handshake (to CONNECTED):
 *   warm, recent scan:   the network is in a scan result of the last 10 s
 *                        (no scan at all)
 *   warm, known freq:    a fresh interface, the network known with its
 *                        frequency (a 30 ms directed probe on that
 *                        channel only)
 *   cold:                a fresh interface that has never seen the network
 *                        and no known networks (full scan)
 * Throughput: STATIONS stations, in waves of WAVE that each scan and then
 * ask to connect at once; stations that completed association + 4-way per
 * second at the AP (sum of the waves' connect times).
 *
 *   connect sae [STATIONS] [THRESHOLD]   defaults: 100 stations, threshold 5
 *
 * SAE at once (issue 15): the AP is WPA3-Personal (AKMs=sae, both password
 * element methods) with anti-clogging from THRESHOLD pending commits;
 * STATIONS stations scan (in waves of WAVE), then all ask to connect in
 * the same loop turn. Prints the stations authorized, the anti-clogging
 * tokens the AP demanded and took back, and every retry or failure either
 * role logged (SAE resends, authentication/association retries, attempts
 * after the first, failed connects); exits 1 unless every station was
 * authorized with no failed connect. BENCH_PCAP=FILE captures the air
 * (pcap with radiotap, loop time). BENCH_TRACE=FILE writes every line
 * both roles logged during the run to FILE, with its loop time (what the
 * causes in docs/performance.md were read from).
 *
 *   connect sae-sta [RUNS] [hnp|h2e]     defaults: 20 runs, h2e
 *
 * The station side of a full SAE connect, as bench/hwsim-sae.sh's "full"
 * rows do it: one station joins the SAE AP once (untimed: the PT derived,
 * the PSK cached in the store), then RUNS times disconnects, drops its
 * PMKSA (station_flush_pmksa, as Station.FlushPMKSA) and connects again
 * with the stored passphrase. Prints the process CPU per connect (both
 * roles: the AP is in this process) and the connect time. For the
 * station's own instructions, run it under callgrind with collection on
 * the station's entry points only:
 *   valgrind --tool=callgrind --collect-atstart=no \
 *     --toggle-collect=station_connect --toggle-collect=station_handle_event \
 *     --toggle-collect=connect_kickoff --toggle-collect=watchdog_fired \
 *     build/bench/connect sae-sta 10 h2e
 *
 *   connect sae-pmksa-sta [RUNS]         default: 20 runs
 *
 * A PMKSA-cached reconnect (issue 16's hwsim row, without EAP): as sae-sta,
 * but the PMKSA the first connect cached is kept, so each reconnect offers
 * its PMKID (Open System authentication, association, 4-way handshake; no
 * SAE). The same callgrind command gives the station's instructions.
 *
 *   connect psk-sta [RUNS]               default: 20 runs
 *
 * A warm WPA2-PSK reconnect (issue 21's hwsim row): one station joins the
 * WPA2-PSK AP once (untimed: the network saved with its channel, the PSK
 * cached in the store), then RUNS times disconnects and connects again to
 * the known network. Prints the process CPU per connect (AP + station) and
 * the connect time. The same callgrind command as sae-sta gives the
 * station's instructions; for the AP's, toggle ap_handle_event instead.
 */
#include "daemon/ap/ap.h"
#include "daemon/rsn/auth_sae.h"
#include "daemon/config/ap_profile.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "daemon/station/station.h"
#include "daemon/store/known_store.h"
#include "drivers/driver.h"
#include "drivers/sim/medium.h"
#include "drivers/sim/sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SSID "bench-net"
#define PASSPHRASE "bench passphrase 1"
#define MAX_STA 128
#define PER_DRIVER 50 /* station interfaces per sim driver instance */
#define MAX_RUNS 200
/* Stations that scan, then connect, together (more simultaneous full scans
 * than this in one process starve some scanners; see the report). */
#define WAVE 20

struct sta {
	struct driver *drv;
	uint32_t ifindex;
	struct station *st;
	uint64_t t_state[STATION_DISCONNECTING + 1];
	unsigned scans_done, connects_done;
	bool ok;
};

static struct {
	struct loop *loop;
	struct driver *ap_drv, *sta_drv[MAX_STA / PER_DRIVER + 2];
	size_t n_sta_drv;
	uint32_t ap_if;
	struct ap *ap;
	struct known_store *store;
	struct sta sta[MAX_STA];
	size_t n_sta;
	unsigned authorized, removed;
	/* Stations authorized at least once: a station that reconnects is
	 * authorized again, and must not count as another. */
	uint8_t seen[MAX_STA + 8][6];
	unsigned distinct;
	unsigned connect_failed;
} B;

static void die(const char *what)
{
	fprintf(stderr, "bench: %s\n", what);
	exit(1);
}

/* ---- events ---- */

static void on_ap_event(void *ctx, const struct driver_event *ev)
{
	if (ev->ifindex == B.ap_if || ev->ifindex == 0)
		ap_handle_event(B.ap, ev);
}

static void on_sta_event(void *ctx, const struct driver_event *ev)
{
	struct driver *drv = *(struct driver **)ctx; /* its slot in B.sta_drv */
	for (size_t i = 0; i < B.n_sta; i++) {
		struct sta *s = &B.sta[i];
		if (s->st && s->drv == drv && (ev->ifindex == s->ifindex || ev->ifindex == 0))
			station_handle_event(s->st, ev);
	}
}

static void on_state(void *ctx, enum station_state old_state, enum station_state new_state)
{
	struct sta *s = ctx;
	s->t_state[new_state] = loop_now_us(B.loop);
}

static void on_scan_done(void *ctx)
{
	((struct sta *)ctx)->scans_done++;
}

static void on_connect_done(void *ctx, const struct wpad_error *err)
{
	struct sta *s = ctx;
	s->connects_done++;
	s->ok = !err;
	if (err) {
		B.connect_failed++;
		fprintf(stderr, "bench: connect failed: %s\n", err->text);
	}
}

static void on_authorized(void *ctx, const uint8_t addr[6])
{
	B.authorized++;
	for (unsigned i = 0; i < B.distinct; i++)
		if (!memcmp(B.seen[i], addr, 6))
			return;
	if (B.distinct < MAX_STA + 8)
		memcpy(B.seen[B.distinct++], addr, 6);
}

static void on_removed(void *ctx, const uint8_t addr[6], uint16_t reason)
{
	B.removed++;
}

/* ---- loop helpers ---- */

static bool run_until(bool (*done)(void *), void *arg, int timeout_ms)
{
	uint64_t deadline = loop_now_us(B.loop) + (uint64_t)timeout_ms * 1000u;
	while (!done(arg)) {
		if (loop_now_us(B.loop) >= deadline)
			return false;
		loop_iterate(B.loop, 5);
	}
	return true;
}

static void run_for(int ms)
{
	uint64_t deadline = loop_now_us(B.loop) + (uint64_t)ms * 1000u;
	while (loop_now_us(B.loop) < deadline)
		loop_iterate(B.loop, 5);
}

static bool connect_finished(void *arg)
{
	return ((struct sta *)arg)->connects_done > 0;
}

static bool scan_finished(void *arg)
{
	return ((struct sta *)arg)->scans_done > 0;
}

static bool idle(void *arg)
{
	return station_state(((struct sta *)arg)->st) == STATION_DISCONNECTED;
}

static bool removed_at_least(void *arg)
{
	return B.removed >= *(unsigned *)arg;
}

static bool authorized_at_least(void *arg)
{
	return B.authorized >= *(unsigned *)arg;
}

static bool distinct_at_least(void *arg)
{
	return B.distinct >= *(unsigned *)arg;
}

/* ---- set-up ---- */

static struct driver *open_sta_driver(const char *addr)
{
	char options[96];
	int err = 0;
	snprintf(options, sizeof(options), "medium=shared,addr=%s", addr);
	/* The context is the driver's slot: events come from the loop, after
	 * the slot is filled. */
	struct driver **slot = &B.sta_drv[B.n_sta_drv];
	*slot = driver_open("sim", B.loop, options, on_sta_event, slot, &err);
	if (!*slot)
		die("cannot open the sim driver");
	B.n_sta_drv++;
	return *slot;
}

static uint32_t add_iface(struct driver *drv, enum driver_iftype type)
{
	struct driver_radio_info radio;
	size_t n = 0;
	uint32_t ifindex = 0;
	if (driver_list_radios(drv, &radio, 1, &n) < 0 || n != 1 ||
	    driver_iface_add(drv, radio.id, NULL, type, NULL, &ifindex) < 0 ||
	    driver_iface_set_up(drv, ifindex, true) < 0)
		die("cannot add an interface");
	return ifindex;
}

static struct sta *sta_new(struct driver *drv, struct known_store *store)
{
	static const struct station_callbacks proto = { .state_changed = on_state,
							.scan_done = on_scan_done,
							.connect_done = on_connect_done };
	if (B.n_sta == MAX_STA)
		die("too many stations");
	struct sta *s = &B.sta[B.n_sta++];
	memset(s, 0, sizeof(*s));
	s->drv = drv;
	s->ifindex = add_iface(drv, DRIVER_IFTYPE_STATION);
	struct station_callbacks cb = proto;
	cb.ctx = s;
	s->st = station_new(B.loop, drv, s->ifindex, store, &cb);
	if (!s->st)
		die("station_new failed");
	station_set_autoconnect(s->st, false);
	return s;
}

/* Disconnects (the AP hears the deauthentication) and frees the station
 * and its interface. Only the last station may be dropped. */
static void sta_drop(struct sta *s)
{
	unsigned want = B.removed + 1;
	if (station_state(s->st) == STATION_CONNECTED) {
		station_disconnect(s->st);
		if (!run_until(removed_at_least, &want, 3000))
			die("the AP did not notice the disconnect");
	}
	station_free(s->st);
	driver_iface_del(s->drv, s->ifindex);
	s->st = NULL;
	B.n_sta--;
	run_for(20);
}

static void start_ap(bool sae, unsigned clog_threshold)
{
	static const struct ap_callbacks cb = { .station_authorized = on_authorized,
						.station_removed = on_removed };
	struct ap_profile p;
	struct wpad_error err;
	int e = 0;
	B.ap_drv = driver_open("sim", B.loop, "medium=shared,addr=02:0a:00:00:00:00", on_ap_event,
			       NULL, &e);
	if (!B.ap_drv)
		die("cannot open the sim driver");
	B.ap_if = add_iface(B.ap_drv, DRIVER_IFTYPE_AP);
	B.ap = ap_new(B.loop, B.ap_drv, B.ap_if, &cb);
	ap_profile_init(&p);
	memcpy(p.ssid, SSID, strlen(SSID));
	p.ssid_len = strlen(SSID);
	p.channel = 6;
	p.group_rekey_s = 0;
	p.inactivity_s = 0;
	p.max_stations = MAX_STA + 8;
	p.security = AP_SECURITY_WPA2_PSK;
	p.has_passphrase = true;
	strcpy(p.passphrase, PASSPHRASE);
	if (sae && B.ap) {
		snprintf(p.akms, sizeof(p.akms), "sae");
		ap_set_sae_for_test(B.ap, clog_threshold, NULL);
	}
	if (!B.ap || ap_start(B.ap, &p, &err) < 0)
		die("the AP did not start");
	ap_profile_clear(&p);
}

/* ---- latency ---- */

struct sample {
	double total, scan, auth_assoc, handshake; /* ms */
};

static struct sample measure_connect(struct sta *s, const char *passphrase)
{
	struct sample out;
	memset(s->t_state, 0, sizeof(s->t_state));
	s->connects_done = 0;
	uint64_t t0 = loop_now_us(B.loop);
	if (station_connect(s->st, (const uint8_t *)SSID, strlen(SSID), passphrase, false) < 0)
		die("station_connect refused");
	if (!run_until(connect_finished, s, 20000) || !s->ok)
		die("connect did not succeed");
	uint64_t t_auth = s->t_state[STATION_AUTHENTICATING];
	uint64_t t_hs = s->t_state[STATION_HANDSHAKING];
	uint64_t t_conn = s->t_state[STATION_CONNECTED];
	out.total = (double)(t_conn - t0) / 1000;
	out.scan = (double)(t_auth - t0) / 1000;
	out.auth_assoc = (double)(t_hs - t_auth) / 1000;
	out.handshake = (double)(t_conn - t_hs) / 1000;
	return out;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The q-quantile (0..1) of n values, nearest rank. */
static double quantile(const double *v, size_t n, double q)
{
	double sorted[MAX_RUNS];
	memcpy(sorted, v, n * sizeof(*v));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	size_t i = (size_t)(q * (double)(n - 1) + 0.5);
	return sorted[i];
}

static void print_row(const char *mode, const struct sample *s, size_t n)
{
	double tot[MAX_RUNS], scan[MAX_RUNS], aa[MAX_RUNS], hs[MAX_RUNS];
	for (size_t i = 0; i < n; i++) {
		tot[i] = s[i].total;
		scan[i] = s[i].scan;
		aa[i] = s[i].auth_assoc;
		hs[i] = s[i].handshake;
	}
	printf("| %-20s | %4zu | %8.1f | %8.1f | %8.1f | %8.1f | %8.1f | %8.1f | %8.1f |\n", mode, n,
	       quantile(tot, n, 0.5), quantile(tot, n, 0.1), quantile(tot, n, 0.9),
	       quantile(tot, n, 1.0), quantile(scan, n, 0.5), quantile(aa, n, 0.5),
	       quantile(hs, n, 0.5));
}

static void latency(size_t runs)
{
	static struct sample warm_scan[MAX_RUNS], warm_freq[MAX_RUNS], cold[MAX_RUNS];
	struct driver *drv = open_sta_driver("02:5a:00:00:00:00");

	/* Cold: every run a new interface, no known networks. */
	for (size_t i = 0; i < runs; i++) {
		struct sta *s = sta_new(drv, NULL);
		cold[i] = measure_connect(s, PASSPHRASE);
		sta_drop(s);
	}

	/* Known with its frequency: the first connect saves it. */
	struct sta *s = sta_new(drv, B.store);
	measure_connect(s, PASSPHRASE);
	sta_drop(s);
	for (size_t i = 0; i < runs; i++) {
		s = sta_new(drv, B.store);
		warm_freq[i] = measure_connect(s, NULL);
		sta_drop(s);
	}

	/* A scan result of the last few seconds: no scan at all. */
	s = sta_new(drv, B.store);
	for (size_t i = 0; i < runs; i++) {
		unsigned want = B.removed + 1;
		if (i > 0) {
			station_disconnect(s->st);
			if (!run_until(removed_at_least, &want, 3000) || !run_until(idle, s, 3000))
				die("disconnect did not finish");
		}
		s->scans_done = 0;
		if (station_scan(s->st) < 0 || !run_until(scan_finished, s, 10000))
			die("scan failed");
		warm_scan[i] = measure_connect(s, NULL);
	}
	sta_drop(s);

	printf("\nConnect latency, request -> connected (ms), WPA2-PSK, %zu runs each\n\n", runs);
	printf("| %-20s | %4s | %8s | %8s | %8s | %8s | %8s | %8s | %8s |\n", "mode", "runs",
	       "median", "p10", "p90", "max", "scan", "auth+asc", "4-way");
	printf("|----------------------|------|----------|----------|----------|----------|"
	       "----------|----------|----------|\n");
	print_row("warm (recent scan)", warm_scan, runs);
	print_row("warm (known freq)", warm_freq, runs);
	print_row("cold (never seen)", cold, runs);
	printf("\n(scan, auth+asc, 4-way: medians of each phase; target warm < 50 ms)\n");
}

/* ---- throughput ---- */

/* Stations [range[0], range[1]) have all finished a scan. */
static bool all_scanned(void *arg)
{
	const size_t *range = arg;
	for (size_t i = range[0]; i < range[1]; i++)
		if (!B.sta[i].scans_done)
			return false;
	return true;
}

/* n new stations, PER_DRIVER to a sim driver, a new driver (MAC 02:<hi><driver
 * number>:...) opened when the last is full or fewer than min_drivers exist. */
static void add_stations(size_t n, char hi, size_t min_drivers, struct known_store *store)
{
	for (size_t i = 0; i < n; i++) {
		if (B.n_sta % PER_DRIVER == 0 || B.n_sta_drv < min_drivers) {
			char addr[32];
			snprintf(addr, sizeof(addr), "02:%c%x:00:00:00:00", hi, (unsigned)B.n_sta_drv);
			open_sta_driver(addr);
		}
		sta_new(B.sta_drv[B.n_sta_drv - 1], store);
	}
}

/* One wave: WAVE new stations scan (all channels, ~3 s), then all ask to
 * connect at once; returns the ms from the requests to the last
 * authorization at the AP, or a negative number when some never made it. */
static double wave(size_t n)
{
	size_t range[2] = { B.n_sta, B.n_sta + n };
	add_stations(n, '6', 2, NULL);
	for (size_t i = range[0]; i < range[1]; i++)
		if (station_scan(B.sta[i].st) < 0)
			die("scan refused");
	if (!run_until(all_scanned, range, 60000))
		die("scans did not finish");
	unsigned want = B.authorized + (unsigned)n;
	uint64_t t0 = loop_now_us(B.loop);
	for (size_t i = range[0]; i < range[1]; i++)
		if (station_connect(B.sta[i].st, (const uint8_t *)SSID, strlen(SSID), PASSPHRASE,
				    false) < 0)
			die("station_connect refused");
	bool all = run_until(authorized_at_least, &want, 60000);
	double ms = (double)(loop_now_us(B.loop) - t0) / 1000;
	return all ? ms : -ms;
}

static void throughput(size_t n)
{
	double times[MAX_STA];
	size_t waves = 0, done = 0, failed_waves = 0;
	double total = 0;
	unsigned before = B.authorized;
	while (done < n) {
		size_t k = n - done < WAVE ? n - done : WAVE;
		double ms = wave(k);
		if (ms < 0) {
			failed_waves++;
			ms = -ms;
		}
		times[waves++] = ms;
		total += ms;
		done += k;
	}
	unsigned authorized = B.authorized - before;
	printf("\nAP association throughput: %zu stations in waves of %d; in each wave every "
	       "station\nhas scanned, then all ask to connect at once (association + 4-way "
	       "handshake)\n\n",
	       n, WAVE);
	printf("| %-36s | %10s |\n", "figure", "value");
	printf("|--------------------------------------|------------|\n");
	printf("| %-36s | %10u |\n", "authorized at the AP", authorized);
	printf("| %-36s | %10zu |\n", "associated at once (at the end)", ap_associated_count(B.ap));
	printf("| %-36s | %10.1f |\n", "wave time, median (ms)", quantile(times, waves, 0.5));
	printf("| %-36s | %10.1f |\n", "wave time, max (ms)", quantile(times, waves, 1.0));
	printf("| %-36s | %10.1f |\n", "assoc + 4-way per second", authorized / (total / 1000));
	if (failed_waves)
		printf("(%zu wave(s) did not finish within 60 s)\n", failed_waves);
}

/* ---- SAE at once ---- */

/* What both roles logged that is a retry or a failure (the log sink sees
 * every line at INFO and above; nothing else is printed). */
static struct {
	unsigned sae_resends, auth_retries, assoc_retries, later_attempts, sae_failed,
		token_requests, warnings;
	char first_bad[160];
	FILE *trace; /* BENCH_TRACE=FILE: every line the sink saw, timed */
} L;

static void count_line(enum log_level level, const char *tag, const char *line, void *data)
{
	const char *at;
	unsigned attempt;
	bool bad = true;
	(void)data;
	if (L.trace)
		fprintf(L.trace, "%.3f %s %s\n", (double)loop_now_us(B.loop) / 1e6, tag, line);
	if (strstr(line, "no answer to SAE; resending"))
		L.sae_resends++;
	else if (strstr(line, "no authentication response; retrying"))
		L.auth_retries++;
	else if (strstr(line, "no association response"))
		L.assoc_retries++;
	else if (strstr(line, "SAE failed"))
		L.sae_failed++;
	else if (strstr(line, "refused, status 76"))
		bad = false, L.token_requests++; /* anti-clogging: expected */
	else if ((at = strstr(line, "(attempt ")) && sscanf(at, "(attempt %u", &attempt) == 1 &&
		 attempt > 1)
		L.later_attempts++;
	else if (level <= WLOG_WARN)
		L.warnings++;
	else
		bad = false;
	if (bad && !L.first_bad[0])
		snprintf(L.first_bad, sizeof(L.first_bad), "%s", line);
}

static bool all_done(void *arg)
{
	const size_t *range = arg;
	for (size_t i = range[0]; i < range[1]; i++)
		if (!B.sta[i].connects_done)
			return false;
	return true;
}

/* The stations know the network with its channel (one station joined
 * first and is gone): each connect is a directed probe on that channel,
 * then SAE. Full scans would not do: more than WAVE at once starve, and in
 * waves the first waves' results are stale (STATION_FRESH_SCAN_MS) by the
 * time the last wave has scanned. */
static int sae_at_once(size_t n, unsigned threshold)
{
	open_sta_driver("02:70:00:00:00:00");
	struct sta *first = sta_new(B.sta_drv[0], B.store);
	measure_connect(first, PASSPHRASE);
	sta_drop(first);
	size_t range[2] = { B.n_sta, B.n_sta + n };
	add_stations(n, '7', 0, B.store);
	unsigned authorized0 = B.authorized, distinct0 = B.distinct;
	unsigned want = B.distinct + (unsigned)n;
	memset(&L, 0, sizeof(L));
	if (getenv("BENCH_TRACE") && !(L.trace = fopen(getenv("BENCH_TRACE"), "w")))
		die("cannot open BENCH_TRACE");
	if (getenv("BENCH_PCAP") &&
	    medium_capture_start(sim_driver_medium(B.ap_drv), getenv("BENCH_PCAP")) < 0)
		die("cannot open BENCH_PCAP");
	log_set_level(getenv("BENCH_DEBUG") ? WLOG_DEBUG : WLOG_INFO);
	log_set_sink(count_line, NULL);
	uint64_t t0 = loop_now_us(B.loop);
	for (size_t i = range[0]; i < range[1]; i++)
		if (station_connect(B.sta[i].st, (const uint8_t *)SSID, strlen(SSID), NULL, false) <
		    0)
			die("station_connect refused");
	bool all = run_until(distinct_at_least, &want, 120000);
	double ms = (double)(loop_now_us(B.loop) - t0) / 1000;
	run_until(all_done, range, 5000);
	run_for(1500); /* past a retransmission period: late resends show */
	log_set_sink(NULL, NULL);
	log_set_level(getenv("BENCH_DEBUG") ? WLOG_DEBUG : WLOG_ERROR);
	if (L.trace)
		fclose(L.trace);

	const struct sae_clog *clog = ap_sae_clog(B.ap);
	size_t connected = 0;
	for (size_t i = range[0]; i < range[1]; i++)
		connected += station_state(B.sta[i].st) == STATION_CONNECTED;
	printf("\nSAE at once: %zu stations (group 19, real timers, one process) ask to connect\n"
	       "in the same loop turn to a WPA3-Personal AP with anti-clogging from %u pending\n"
	       "commits\n\n",
	       n, clog ? clog->threshold : threshold);
	printf("| %-44s | %10s |\n", "figure", "value");
	printf("|----------------------------------------------|------------|\n");
	printf("| %-44s | %10u |\n", "stations authorized at the AP", B.distinct - distinct0);
	printf("| %-44s | %10u |\n", "authorizations (a reconnect counts again)",
	       B.authorized - authorized0);
	printf("| %-44s | %10zu |\n", "stations connected", connected);
	printf("| %-44s | %10.1f |\n", "time to the last authorization (ms)", ms);
	printf("| %-44s | %10u |\n", "anti-clogging tokens demanded (AP)",
	       clog ? clog->tokens_demanded : 0);
	printf("| %-44s | %10u |\n", "commits with a valid token taken (AP)",
	       clog ? clog->tokens_accepted : 0);
	printf("| %-44s | %10u |\n", "token requests logged (status 76)", L.token_requests);
	printf("| %-44s | %10u |\n", "SAE resends (station retransmission timer)", L.sae_resends);
	printf("| %-44s | %10u |\n", "authentication retries", L.auth_retries);
	printf("| %-44s | %10u |\n", "association retries", L.assoc_retries);
	printf("| %-44s | %10u |\n", "connect attempts after the first", L.later_attempts);
	printf("| %-44s | %10u |\n", "SAE failures (either role)", L.sae_failed);
	printf("| %-44s | %10u |\n", "failed connects", B.connect_failed);
	printf("| %-44s | %10u |\n", "other warnings and errors", L.warnings);
	if (L.first_bad[0])
		printf("(first such line: %s)\n", L.first_bad);
	bool ok = all && connected == n && B.connect_failed == 0 && clog &&
		  clog->tokens_demanded > 0;
	printf("%s: %s\n", ok ? "PASS" : "FAIL",
	       ok ? "every station authorized, tokens demanded, no failed connect"
		  : "not every station authorized, a connect failed, or no token was demanded");
	return ok ? 0 : 1;
}

static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* RUNS reconnects of one station to the known network; pwe NULL: WPA2-PSK,
 * else SAE with that password element method: in full (PMKSA flushed)
 * unless cached, then with the first connect's PMKSA. */
static int reconnects(size_t runs, const char *pwe, bool cached)
{
	struct sta *s = sta_new(open_sta_driver("02:0b:00:00:00:00"), B.store);
	if (pwe &&
	    station_set_sae(s->st, strcmp(pwe, "hnp") == 0 ? "hunt-and-peck" : "h2e", NULL) < 0)
		die("station_set_sae refused");
	measure_connect(s, PASSPHRASE); /* untimed: the PT, the PSK in the store */
	double cpu[MAX_RUNS], wall[MAX_RUNS];
	for (size_t r = 0; r < runs; r++) {
		station_disconnect(s->st);
		if (!run_until(idle, s, 3000))
			die("the station did not disconnect");
		run_for(50); /* the AP's side of the leave */
		if (pwe && !cached && station_flush_pmksa(s->st, NULL, 0, NULL) != 1)
			die("no PMKSA to flush: the last connect did not cache one");
		double c0 = cpu_ms();
		wall[r] = measure_connect(s, NULL).total;
		cpu[r] = cpu_ms() - c0;
	}
	qsort(cpu, runs, sizeof(cpu[0]), cmp_double);
	qsort(wall, runs, sizeof(wall[0]), cmp_double);
	printf("%s%s%s reconnect%s, %zu runs: process CPU (AP + station) "
	       "median %.2f ms (min %.2f, max %.2f); connect time median %.1f ms\n",
	       !pwe ? "warm WPA2-PSK" : cached ? "PMKSA-cached SAE (" : "full SAE (",
	       pwe ? pwe : "", pwe ? ")" : "", pwe && !cached ? ", PMKSA flushed" : "", runs,
	       quantile(cpu, runs, 0.5), cpu[0], cpu[runs - 1],
	       quantile(wall, runs, 0.5));
	return 0;
}

static int sae_main(int argc, char **argv)
{
	bool psk_mode = strcmp(argv[1], "psk-sta") == 0;
	bool cached = strcmp(argv[1], "sae-pmksa-sta") == 0;
	bool sta_mode = psk_mode || cached || strcmp(argv[1], "sae-sta") == 0;
	size_t runs = sta_mode && argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 20;
	const char *pwe = psk_mode ? NULL : sta_mode && argc > 3 ? argv[3] : "h2e";
	if (sta_mode && (runs < 1 || runs > MAX_RUNS ||
			 (pwe && strcmp(pwe, "hnp") != 0 && strcmp(pwe, "h2e") != 0))) {
		fprintf(stderr,
			"usage: connect sae-sta|sae-pmksa-sta|psk-sta [RUNS 1..%d] [hnp|h2e]\n",
			MAX_RUNS);
		return 2;
	}
	size_t stations = !sta_mode && argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 100;
	unsigned threshold = !sta_mode && argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10)
						   : AUTH_SAE_CLOG_THRESHOLD;
	if (stations < 1 || stations > MAX_STA - 4 || threshold < 1) {
		fprintf(stderr, "usage: connect sae [STATIONS 1..%d] [THRESHOLD >= 1]\n",
			MAX_STA - 4);
		return 2;
	}
	char dir[] = "/tmp/wpad-bench-sae-XXXXXX";
	log_set_level(getenv("BENCH_DEBUG") ? WLOG_DEBUG : WLOG_ERROR);
	B.loop = loop_new();
	if (!B.loop || !mkdtemp(dir) || known_store_open(dir, &B.store) < 0 ||
	    known_store_load(B.store) < 0)
		die("set-up failed");
	start_ap(!psk_mode, threshold);
	run_for(300);
	int rc = sta_mode ? reconnects(runs, pwe, cached) : sae_at_once(stations, threshold);
	for (size_t i = B.n_sta; i-- > 0;)
		if (B.sta[i].st) {
			station_free(B.sta[i].st);
			driver_iface_del(B.sta[i].drv, B.sta[i].ifindex);
		}
	ap_stop(B.ap);
	ap_free(B.ap);
	for (size_t i = 0; i < B.n_sta_drv; i++)
		driver_close(B.sta_drv[i]);
	driver_close(B.ap_drv);
	known_store_free(B.store);
	loop_free(B.loop);
	char cmd[64];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? rc : 1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && (strcmp(argv[1], "sae") == 0 || strcmp(argv[1], "sae-sta") == 0 ||
			 strcmp(argv[1], "sae-pmksa-sta") == 0 || strcmp(argv[1], "psk-sta") == 0))
		return sae_main(argc, argv);
	size_t runs = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 20;
	size_t stations = argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 100;
	char dir[] = "/tmp/wpad-bench-XXXXXX";

	if (runs < 1 || runs > MAX_RUNS || stations < 1 || stations > MAX_STA - 4) {
		fprintf(stderr, "usage: connect [RUNS 1..%d] [STATIONS 1..%d]\n", MAX_RUNS,
			MAX_STA - 4);
		return 2;
	}
	log_set_level(getenv("BENCH_DEBUG") ? WLOG_DEBUG : WLOG_ERROR);
	B.loop = loop_new();
	if (!B.loop || !mkdtemp(dir) || known_store_open(dir, &B.store) < 0 ||
	    known_store_load(B.store) < 0)
		die("set-up failed");
	start_ap(false, 0);
	run_for(300); /* a few beacons */
	latency(runs);
	throughput(stations);

	for (size_t i = B.n_sta; i-- > 0;)
		if (B.sta[i].st) {
			station_free(B.sta[i].st);
			driver_iface_del(B.sta[i].drv, B.sta[i].ifindex);
		}
	ap_stop(B.ap);
	ap_free(B.ap);
	for (size_t i = 0; i < B.n_sta_drv; i++)
		driver_close(B.sta_drv[i]);
	driver_close(B.ap_drv);
	known_store_free(B.store);
	loop_free(B.loop);
	char cmd[64];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : 1;
}
