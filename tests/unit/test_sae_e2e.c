/* WPA3-Personal (SAE) end to end on the simulated radio (issue 15's
 * acceptance): wpad's AP role (radio 0) and wpad's station role (radio 1)
 * in one process, on the virtual clock. Both roles run SAE themselves
 * (daemon/rsn/auth_sae.c); what the tests assert about the exchange is
 * read from the frames a monitor on radio 2 hears. */
#include "tests/unit/test_ap_fixture.h"

#include "daemon/ap/ap_internal.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/codec/sae.h"
#include "daemon/core/loop.h"
#include "daemon/crypto/sae.h"
#include "daemon/rsn/auth_sae.h"
#include "daemon/rsn/suites.h"
#include "daemon/station/station.h"
#include "daemon/station/station_i.h"
#include "daemon/store/known_store.h"
#include "drivers/sim/medium.h"
#include "drivers/sim/sim.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ETHERTYPE_TEST 0x88b5

struct e2e {
	struct station *st;
	uint32_t ifindex;
	uint8_t addr[6];
	unsigned connect_done;
	bool connect_ok;
	struct wpad_error err;
	unsigned disconnected;
};

static struct e2e E;
static struct ap_profile P;
static struct known_store *store;
static char store_dir[64];

static void on_connect_done(void *ctx, const struct wpad_error *err)
{
	(void)ctx;
	E.connect_done++;
	E.connect_ok = err == NULL;
	if (err)
		E.err = *err;
}

static void on_disconnected(void *ctx, const struct wpad_error *why)
{
	(void)ctx;
	(void)why;
	E.disconnected++;
}

static void route(const struct driver_event *ev)
{
	if (E.st && ev->ifindex == E.ifindex)
		station_handle_event(E.st, ev);
}

static const struct station_callbacks station_cb = { .connect_done = on_connect_done,
						     .disconnected = on_disconnected };

static void setup(void)
{
	apt_setup();
	memset(&E, 0, sizeof(E));
	struct apt_sta *s = apt_sta_add();
	E.ifindex = s->ifindex;
	memcpy(E.addr, s->addr, 6);
	E.st = station_new(APT->loop, APT->drv, E.ifindex, NULL, &station_cb);
	ck_assert_ptr_nonnull(E.st);
	APT->hook = route;
	apt_monitor(APT_FREQ);
}

static void remove_store(void)
{
	if (!store)
		return;
	known_store_free(store);
	store = NULL;
	DIR *d = opendir(store_dir);
	struct dirent *e;
	char path[384];
	while (d && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", store_dir, e->d_name);
			unlink(path);
		}
	}
	if (d)
		closedir(d);
	rmdir(store_dir);
}

/* The station again, with a known-network store (the passphrase is
 * remembered, so a reconnect needs none and flushes no PMKSA). */
static void station_with_store(void)
{
	station_free(E.st);
	snprintf(store_dir, sizeof(store_dir), "/tmp/wpad-sae-e2e-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(store_dir));
	ck_assert_int_eq(known_store_open(store_dir, &store), 0);
	ck_assert_int_ge(known_store_load(store), 0);
	E.st = station_new(APT->loop, APT->drv, E.ifindex, store, &station_cb);
	ck_assert_ptr_nonnull(E.st);
}

static void teardown(void)
{
	APT->hook = NULL;
	station_free(E.st);
	E.st = NULL;
	remove_store();
	apt_teardown();
	ap_profile_clear(&P);
}

static bool connect_finished(void *arg)
{
	(void)arg;
	return E.connect_done > 0;
}

static bool ap_authorized(void *arg)
{
	unsigned want = *(const unsigned *)arg;
	return APT->authorized >= want;
}

/* The SAE AP: AKMs=sae (PMF then required), SAEPWE as given. */
static void start_sae_ap(const char *akms, const char *pwe)
{
	apt_profile(&P, true);
	snprintf(P.akms, sizeof(P.akms), "%s", akms);
	if (pwe)
		snprintf(P.sae_pwe, sizeof(P.sae_pwe), "%s", pwe);
	apt_start(&P);
}

static void connect_with(const char *passphrase)
{
	E.connect_done = 0;
	ck_assert_int_eq(station_connect(E.st, (const uint8_t *)APT_SSID, strlen(APT_SSID),
					 passphrase, false),
			 0);
	ck_assert_msg(apt_wait_for(connect_finished, NULL, 15000), "connect never finished");
}

static void connect_ok(void)
{
	connect_with(APT_PASSPHRASE);
	ck_assert_msg(E.connect_ok, "connect failed: %s", E.err.text);
	unsigned one = 1;
	ck_assert(apt_wait_for(ap_authorized, &one, 1000));
}

/* Authentication frames of algorithm alg the monitor heard since from;
 * n_status126 counts those with status 126 (H2E commits). */
struct auth_count {
	size_t all, commits, confirms, status126, token_reqs;
};

static struct auth_count auth_frames(uint16_t alg, size_t from)
{
	struct auth_count c = { 0 };
	for (size_t i = from; i < APT->n_ev; i++) {
		struct apt_event *e = &APT->ev[i];
		struct mgmt_frame f;
		if (e->ifindex != APT->mon_if || e->type != DRIVER_EV_RX_MGMT ||
		    mgmt_parse(e->frame, e->len, &f) < 0 || f.subtype != IEEE80211_STYPE_AUTH ||
		    f.u.auth.alg != alg)
			continue;
		c.all++;
		c.commits += f.u.auth.seq == 1;
		c.confirms += f.u.auth.seq == 2;
		c.status126 += f.u.auth.status == WLAN_STATUS_SAE_HASH_TO_ELEMENT;
		c.token_reqs += f.u.auth.status == WLAN_STATUS_ANTI_CLOGGING_TOKEN_REQ;
	}
	return c;
}

/* Data from the AP reaches the station: the keys of both sides agree. */
static bool reaches_station(uint8_t tag)
{
	uint8_t payload[48];
	memset(payload, tag, sizeof(payload));
	ck_assert_int_eq(driver_tx_data(APT->drv, APT->ap_if, E.addr, ETHERTYPE_TEST, payload,
					sizeof(payload), 0),
			 0);
	for (;;) {
		struct apt_event *e = apt_wait(DRIVER_EV_RX_DATA, E.ifindex, 500);
		if (!e)
			return false;
		if (e->ethertype == ETHERTYPE_TEST && e->len == sizeof(payload) &&
		    e->frame[0] == tag)
			return true;
	}
}

static void assert_sae_link(void)
{
	ck_assert_int_eq(station_state(E.st), STATION_CONNECTED);
	struct ap_station_info info;
	ck_assert_int_eq(ap_get_station(APT->ap, E.addr, &info), 0);
	ck_assert_int_eq(info.state, AP_STA_AUTHORIZED);
	ck_assert_uint_eq(info.akm, RSN_AKM_SAE);
	struct ap_sta *sta = ap_sta_find(APT->ap, E.addr);
	ck_assert_ptr_nonnull(sta);
	ck_assert(sta->pmf.mfp); /* PMF with SAE */
	ck_assert(reaches_station(0x5a));
}

/* SAE with hunting-and-pecking: an AP that takes only H&P advertises no
 * RSNXE H2E, the station commits with status 0; two commits, two
 * confirms, then the 4-way handshake on SAE's PMK. */
START_TEST(sae_hunt_and_peck_both_roles)
{
	start_sae_ap("sae", "hunt-and-peck");
	ck_assert_uint_eq(APT->ap->rsnxe_len, 0);
	size_t mark = APT->n_ev;
	connect_ok();
	assert_sae_link();
	struct auth_count c = auth_frames(WLAN_AUTH_SAE, mark);
	ck_assert_uint_eq(c.commits, 2);
	ck_assert_uint_eq(c.confirms, 2);
	ck_assert_uint_eq(c.status126, 0);
	ck_assert_uint_eq(auth_frames(WLAN_AUTH_OPEN, mark).all, 0);
}
END_TEST

/* SAE with hash-to-element: the AP's default (both) advertises SAE H2E in
 * its RSNXE and the station uses it: its commit and the AP's carry status
 * 126. The station derived the PT once; a second connection reuses it. */
START_TEST(sae_h2e_both_roles)
{
	start_sae_ap("sae", NULL);
	ck_assert_uint_eq(APT->ap->rsnxe_len, 3);
	size_t mark = APT->n_ev;
	connect_ok();
	assert_sae_link();
	struct auth_count c = auth_frames(WLAN_AUTH_SAE, mark);
	ck_assert_uint_eq(c.commits, 2);
	ck_assert_uint_eq(c.status126, 2);
	ck_assert_uint_eq(sae_pt_cache_derivations(E.st->sae_pt), 1);
	/* The station said H2E in its RSNXE (association and message 2). */
	struct ap_sta *sta = ap_sta_find(APT->ap, E.addr);
	ck_assert_uint_eq(sta->rsnxe_len, 3);
	ck_assert_uint_eq(sta->rsnxe[2], 1u << RSNX_CAPAB_SAE_H2E);
}
END_TEST

/* A wrong password: the AP's confirm check fails and it says so; the
 * station ends with InvalidPassphrase, not a timeout, within a second of
 * virtual time. */
START_TEST(sae_wrong_password_is_invalid_passphrase)
{
	start_sae_ap("sae", NULL);
	uint64_t t0 = loop_now_us(APT->loop);
	connect_with("not the password");
	ck_assert(!E.connect_ok);
	ck_assert_msg(E.err.code == WPAD_ERR_INVALID_PASSPHRASE, "got %s: %s",
		      wpad_error_name(E.err.code), E.err.text);
	uint64_t took_ms = (loop_now_us(APT->loop) - t0) / 1000;
	ck_assert_msg(took_ms < 1000, "took %llu ms", (unsigned long long)took_ms);
	ck_assert_uint_eq(APT->authorized, 0);
}
END_TEST

/* PMKSA caching: after a disconnect, the reconnect associates with the
 * PMKID after Open System authentication; no SAE frame is on the air. */
START_TEST(sae_pmksa_reconnect_skips_sae)
{
	start_sae_ap("sae", NULL);
	station_with_store();
	connect_ok();
	ck_assert_int_eq(station_disconnect(E.st), 0);
	apt_run(300);
	ck_assert_int_ne(station_state(E.st), STATION_CONNECTED);
	size_t mark = APT->n_ev;
	unsigned before = APT->authorized;
	E.connect_done = 0;
	ck_assert_int_eq(station_connect(E.st, (const uint8_t *)APT_SSID, strlen(APT_SSID), NULL,
					 false),
			 0);
	ck_assert(apt_wait_for(connect_finished, NULL, 15000));
	ck_assert_msg(E.connect_ok, "reconnect failed: %s", E.err.text);
	unsigned want = before + 1;
	ck_assert(apt_wait_for(ap_authorized, &want, 1000));
	ck_assert_uint_eq(auth_frames(WLAN_AUTH_SAE, mark).all, 0);
	ck_assert_uint_eq(auth_frames(WLAN_AUTH_OPEN, mark).all, 2);
	assert_sae_link();
}
END_TEST

/* The reconnect after station_flush_pmksa (Station.FlushPMKSA) runs SAE
 * in full again; the flush keeps the link in use. An SAE connect never
 * stretches the passphrase (PBKDF2): the store holds it with no PSK, both
 * after the connect that gave it and after one that read it back. */
START_TEST(sae_flush_pmksa_then_full_sae_without_pbkdf2)
{
	start_sae_ap("sae", NULL);
	station_with_store();
	connect_ok();
	const struct known_network *net =
		known_store_get(store, (const uint8_t *)APT_SSID, strlen(APT_SSID), KNOWN_SEC_PSK);
	ck_assert_ptr_nonnull(net);
	ck_assert(net->has_passphrase);
	ck_assert(!net->psk_valid);
	ck_assert_uint_eq(station_flush_pmksa(E.st, (const uint8_t *)"other", 5, NULL), 0);
	ck_assert_uint_eq(station_flush_pmksa(E.st, (const uint8_t *)APT_SSID, strlen(APT_SSID),
					      NULL),
			  1);
	ck_assert_int_eq(station_state(E.st), STATION_CONNECTED);
	ck_assert_int_eq(station_disconnect(E.st), 0);
	apt_run(300);
	size_t mark = APT->n_ev;
	unsigned want = APT->authorized + 1;
	connect_with(NULL);
	ck_assert_msg(E.connect_ok, "reconnect failed: %s", E.err.text);
	ck_assert(apt_wait_for(ap_authorized, &want, 1000));
	struct auth_count c = auth_frames(WLAN_AUTH_SAE, mark);
	ck_assert_uint_eq(c.commits, 2);
	ck_assert_uint_eq(c.confirms, 2);
	assert_sae_link();
	net = known_store_get(store, (const uint8_t *)APT_SSID, strlen(APT_SSID), KNOWN_SEC_PSK);
	ck_assert(net && !net->psk_valid);
}
END_TEST

/* The stretch happens when a PSK AKM needs it: the passphrase stored by an
 * SAE connect serves a PSK-only connect to the same transition network,
 * and the store keeps the PSK it derived then. */
START_TEST(sae_stored_passphrase_stretched_for_psk)
{
	start_sae_ap("psk sae", NULL);
	station_with_store();
	connect_ok();
	assert_sae_link();
	ck_assert_int_eq(station_disconnect(E.st), 0);
	apt_run(300);
	unsigned want = APT->authorized + 1;
	E.connect_done = 0;
	ck_assert_int_eq(station_connect(E.st, (const uint8_t *)APT_SSID, strlen(APT_SSID), NULL,
					 false),
			 0);
	struct rsn_policy psk_only = { .akms = RSN_SUITE_BIT(RSN_AKM_PSK) };
	ck_assert_int_eq(station_connect_restrict(E.st, &psk_only, NULL), 0);
	ck_assert(apt_wait_for(connect_finished, NULL, 15000));
	ck_assert_msg(E.connect_ok, "PSK connect failed: %s", E.err.text);
	ck_assert(apt_wait_for(ap_authorized, &want, 1000));
	struct ap_station_info info;
	ck_assert_int_eq(ap_get_station(APT->ap, E.addr, &info), 0);
	ck_assert_uint_eq(info.akm, RSN_AKM_PSK);
	const struct known_network *net =
		known_store_get(store, (const uint8_t *)APT_SSID, strlen(APT_SSID), KNOWN_SEC_PSK);
	ck_assert(net && net->psk_valid);
}
END_TEST

static bool station_connected(void *arg)
{
	(void)arg;
	return station_state(E.st) == STATION_CONNECTED;
}

/* A WPA3-only network known by its passphrase (stored as a .psk network)
 * is joined by autoconnect after a restart of the station. */
START_TEST(sae_autoconnect_known_network)
{
	start_sae_ap("sae", NULL);
	station_with_store();
	connect_ok();
	station_free(E.st);
	known_store_free(store);
	ck_assert_int_eq(known_store_open(store_dir, &store), 0);
	ck_assert_int_ge(known_store_load(store), 0);
	E.st = station_new(APT->loop, APT->drv, E.ifindex, store, &station_cb);
	ck_assert_ptr_nonnull(E.st);
	ck_assert_msg(apt_wait_for(station_connected, NULL, 20000), "autoconnect did not join");
	unsigned two = 2;
	ck_assert(apt_wait_for(ap_authorized, &two, 1000));
	assert_sae_link();
}
END_TEST

/* A known network's SAEPWE=hunt-and-peck beats the default (H2E where the
 * AP's RSNXE offers it): the commits carry status 0. */
START_TEST(sae_known_network_pwe)
{
	start_sae_ap("sae", NULL);
	snprintf(store_dir, sizeof(store_dir), "/tmp/wpad-sae-e2e-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(store_dir));
	char path[128];
	snprintf(path, sizeof(path), "%s/%s.psk", store_dir, APT_SSID);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "[Security]\nPassphrase=%s\n\n[Settings]\nAutoConnect=false\nSAEPWE=hunt-and-peck\n",
		APT_PASSPHRASE);
	fclose(f);
	station_free(E.st);
	ck_assert_int_eq(known_store_open(store_dir, &store), 0);
	ck_assert_int_ge(known_store_load(store), 1);
	E.st = station_new(APT->loop, APT->drv, E.ifindex, store, &station_cb);
	size_t mark = APT->n_ev;
	connect_with(NULL);
	ck_assert_msg(E.connect_ok, "connect failed: %s", E.err.text);
	unsigned one = 1;
	ck_assert(apt_wait_for(ap_authorized, &one, 1000));
	struct auth_count c = auth_frames(WLAN_AUTH_SAE, mark);
	ck_assert_uint_eq(c.commits, 2);
	ck_assert_uint_eq(c.status126, 0);
	assert_sae_link();
}
END_TEST

/* An SAE commit of an attacker: valid (scalar, element) for group 19,
 * which the AP cannot tell from a real one without the password. */
static size_t commit_from(const uint8_t a[6], uint8_t *out, size_t cap)
{
	uint8_t scalar[32], element[64], body[128];
	int err = 0;
	struct sae_crypto *c = sae_crypto_new(19, &err);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(sae_crypto_pwe_hnp(c, a, APT->ap_addr, (const uint8_t *)"attacker", 8,
					    NULL, 0),
			 0);
	ck_assert_int_ge(sae_crypto_commit(c, scalar, sizeof(scalar), element, sizeof(element)), 0);
	sae_crypto_free(c);
	struct sae_commit_msg m = { .group = 19, .scalar = scalar, .scalar_len = 32,
				    .element = element, .element_len = 64 };
	struct wbuf b = wbuf_init(body, sizeof(body));
	ck_assert_int_eq(sae_commit_build(&b, &m), 0);
	struct mgmt_frame f;
	mgmt_init(&f, IEEE80211_STYPE_AUTH, APT->ap_addr, a, APT->ap_addr);
	f.u.auth.alg = WLAN_AUTH_SAE;
	f.u.auth.seq = 1;
	f.u.auth.status = 0;
	f.u.auth.sae_body = body;
	f.u.auth.sae_len = b.len;
	struct wbuf w = wbuf_init(out, cap);
	ck_assert_int_eq(mgmt_build(&w, &f), 0);
	return w.len;
}

static size_t flood_commit(uint8_t *out, size_t cap)
{
	static const uint8_t a[6] = { 2, 0xf1, 0, 0, 0, 1 };
	return commit_from(a, out, cap);
}

/* A flood of commits from spoofed addresses (the medium injects them)
 * pushes the AP past its anti-clogging threshold: it answers with tokens
 * (status 76) instead of keeping state, and a real station, sent a token
 * too, still connects. */
START_TEST(sae_commit_flood_demands_tokens)
{
	start_sae_ap("sae", "hunt-and-peck");
	uint8_t frame[256];
	size_t len = flood_commit(frame, sizeof(frame));
	ck_assert_int_eq(medium_inject_flood(sim_driver_medium(APT->drv), APT_FREQ, -3000, frame,
					     len, 12),
			 0);
	apt_run(200);
	const struct sae_clog *clog = ap_sae_clog(APT->ap);
	ck_assert_ptr_nonnull(clog);
	ck_assert_uint_eq(clog->pending, clog->threshold);
	ck_assert_uint_eq(clog->tokens_demanded, 12 - clog->threshold);
	size_t mark = APT->n_ev;
	connect_ok();
	assert_sae_link();
	ck_assert_uint_ge(clog->tokens_accepted, 1);
	ck_assert_uint_ge(auth_frames(WLAN_AUTH_SAE, mark).token_reqs, 1);
}
END_TEST

/* The station's commit waits 1.5 s for the air (a fault holds it, as a
 * channel busy with 100 stations would), longer than SAE's 1 s
 * retransmission period: the period runs from the acknowledgement, so no
 * copy joins the queue meanwhile and the exchange takes one commit each
 * way. Timed from the send, a copy went out behind the first. */
START_TEST(sae_commit_held_for_the_air_is_not_resent)
{
	start_sae_ap("sae", "hunt-and-peck");
	struct medium_fault_spec hold = {
		.frame_type = IEEE80211_FC(IEEE80211_FTYPE_MGMT, IEEE80211_STYPE_AUTH),
		.source = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
		.nth = 1, /* the first Authentication frame: the station's commit */
		.action = MEDIUM_FAULT_DELAY,
		.param = 1500,
	};
	ck_assert_int_eq(medium_add_fault(sim_driver_medium(APT->drv), &hold), 0);
	size_t mark = APT->n_ev;
	connect_ok();
	assert_sae_link();
	struct auth_count c = auth_frames(WLAN_AUTH_SAE, mark);
	ck_assert_uint_eq(c.commits, 2);
	ck_assert_uint_eq(c.confirms, 2);
}
END_TEST

/* Commits from the AP to the flood's first address the monitor heard
 * since from. */
static size_t ap_commits_to_flooder(size_t from)
{
	static const uint8_t a[6] = { 2, 0xf1, 0, 0, 0, 1 };
	size_t n = 0;
	for (size_t i = from; i < APT->n_ev; i++) {
		struct apt_event *e = &APT->ev[i];
		struct mgmt_frame f;
		if (e->ifindex == APT->mon_if && e->type == DRIVER_EV_RX_MGMT &&
		    mgmt_parse(e->frame, e->len, &f) == 0 && f.subtype == IEEE80211_STYPE_AUTH &&
		    f.u.auth.alg == WLAN_AUTH_SAE && f.u.auth.seq == 1 &&
		    !memcmp(f.da, a, 6) && !memcmp(f.sa, APT->ap_addr, 6))
			n++;
	}
	return n;
}

/* A station's commit and its retransmission reach the AP before the AP's
 * answer to the first went out (its queue is long: 100 stations at once).
 * One answer serves both: a second would only lengthen the queue and
 * count toward the sync limit, which under load ended exchanges that were
 * only slow. Once the answer is out, a further copy is answered again. */
START_TEST(sae_commit_copy_crossing_our_answer_is_not_answered_twice)
{
	start_sae_ap("sae", "hunt-and-peck");
	uint8_t frame[256];
	size_t len = flood_commit(frame, sizeof(frame));
	struct medium *m = sim_driver_medium(APT->drv);
	size_t mark = APT->n_ev;
	ck_assert_int_eq(medium_inject(m, APT_FREQ, -3000, frame, len), 0);
	ck_assert_int_eq(medium_inject(m, APT_FREQ, -3000, frame, len), 0);
	apt_run(300);
	ck_assert_uint_eq(ap_commits_to_flooder(mark), 1);
	/* Our answer has gone: the next copy is a retransmission to answer. */
	ck_assert_int_eq(medium_inject(m, APT_FREQ, -3000, frame, len), 0);
	apt_run(300);
	ck_assert_uint_eq(ap_commits_to_flooder(mark), 2);
}
END_TEST

/* A station associated whose 4-way handshake has not begun on its side
 * (its driver gave up waiting for our association response) starts SAE
 * anew: the AP ends that association at the new commit, with the 4-way
 * handshake queued for it (the driver drops a removed station's EAPOL),
 * not only once the new exchange completes. */
START_TEST(sae_new_commit_ends_pending_association)
{
	static const uint8_t rates[] = { 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24 };
	uint8_t buf[512], rsne[64];
	struct apt_event *e;
	start_sae_ap("psk sae", "hunt-and-peck");
	struct apt_sta *s = apt_sta_add();
	size_t rsne_len = apt_sta_rsne(rsne, sizeof(rsne));
	apt_tx(s, buf, apt_auth_frame(s, WLAN_AUTH_OPEN, 1, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(e = apt_wait_mgmt(IEEE80211_STYPE_AUTH, s->ifindex, 1000));
	apt_tx(s, buf, apt_assoc_frame(s, (const uint8_t *)rates, 8, rsne, rsne_len, buf,
				       sizeof(buf)));
	ck_assert_ptr_nonnull(e = apt_wait_mgmt(IEEE80211_STYPE_ASSOC_RESP, s->ifindex, 1000));
	ck_assert_uint_eq(apt_resp_status(e), WLAN_STATUS_SUCCESS);
	for (int i = 0; i < 100 && apt_ap_sta_state(s->addr) < AP_STA_ASSOCIATED; i++)
		apt_run(5);
	ck_assert_int_eq(apt_ap_sta_state(s->addr), AP_STA_ASSOCIATED); /* 4-way pending */

	size_t len = commit_from(s->addr, buf, sizeof(buf));
	apt_tx(s, buf, len);
	ck_assert_ptr_nonnull(apt_wait_mgmt(IEEE80211_STYPE_AUTH, s->ifindex, 1000));
	ck_assert_int_lt(apt_ap_sta_state(s->addr), AP_STA_ASSOCIATED);
	struct driver_sta_info info;
	ck_assert_int_eq(driver_sta_info(APT->drv, APT->ap_if, s->addr, &info), -ENOENT);
}
END_TEST

/* A station played by hand on a fixture radio, with the SAE protocol
 * machine of wpad's station (auth_sae.c) and frames the test sends in the
 * order it likes: late copies are frames sent again. */
struct hand_sae {
	struct apt_sta *s;
	struct auth_sae_conf conf;
	struct auth_sess *sess;
};

/* A new station on the fixture, hunting-and-pecking with the right
 * password. */
static void hand_init(struct hand_sae *h)
{
	memset(h, 0, sizeof(*h));
	h->s = apt_sta_add();
	auth_sae_conf_init(&h->conf);
	memcpy(h->conf.ssid, APT_SSID, strlen(APT_SSID));
	h->conf.ssid_len = strlen(APT_SSID);
	h->conf.pwe = SAE_PWE_HUNT_AND_PECK;
	ck_assert_int_eq(auth_sae_conf_add_password(&h->conf, APT_PASSPHRASE, NULL), 0);
}

static void hand_start(struct hand_sae *h, struct auth_out *commit)
{
	auth_sess_free(h->sess);
	h->sess = auth_sess_new(&auth_sae, AUTH_ROLE_STA, h->s->addr, APT->ap_addr);
	ck_assert_ptr_nonnull(h->sess);
	h->sess->ctx = &h->conf;
	ck_assert_int_eq(auth_sta_start(h->sess, commit), AUTH_STEP_SEND);
}

static void hand_tx(struct hand_sae *h, const struct auth_out *o)
{
	uint8_t buf[APT_FRAME_MAX];
	struct mgmt_frame f;
	struct wbuf w = wbuf_init(buf, sizeof(buf));
	mgmt_init(&f, IEEE80211_STYPE_AUTH, APT->ap_addr, h->s->addr, APT->ap_addr);
	f.u.auth.alg = WLAN_AUTH_SAE;
	f.u.auth.seq = o->seq;
	f.u.auth.status = o->status;
	f.u.auth.sae_body = o->body;
	f.u.auth.sae_len = o->body_len;
	ck_assert_int_eq(mgmt_build(&w, &f), 0);
	apt_tx(h->s, buf, w.len);
}

/* Feeds the AP's Authentication frames to the machine in their order,
 * sending what it answers, until it is done or fails or the AP is silent
 * for a second; counts the refusals with status 15 heard meanwhile. */
static enum auth_step hand_run(struct hand_sae *h, unsigned *refused15)
{
	struct apt_event *e;
	while ((e = apt_wait_mgmt(IEEE80211_STYPE_AUTH, h->s->ifindex, 1000))) {
		struct mgmt_frame f;
		struct auth_out out;
		ck_assert_int_eq(mgmt_parse(e->frame, e->len, &f), 0);
		*refused15 += f.u.auth.status == WLAN_STATUS_CHALLENGE_FAIL;
		struct auth_msg m = { .alg = f.u.auth.alg, .seq = f.u.auth.seq,
				      .status = f.u.auth.status, .body = f.u.auth.sae_body,
				      .body_len = f.u.auth.sae_len };
		enum auth_step step = auth_sta_rx_auth(h->sess, &m, &out);
		if (step == AUTH_STEP_SEND)
			hand_tx(h, &out);
		else if (step != AUTH_STEP_IGNORE)
			return step;
	}
	return AUTH_STEP_IGNORE;
}

/* Waits for the AP's commit, keeps a copy of its body when asked (ap_commit
 * of AP_COMMIT_MAX bytes, *len), and has the station's machine answer it:
 * the confirm lands in *confirm, not sent. */
#define AP_COMMIT_MAX 256
static void hand_take_ap_commit(struct hand_sae *h, struct auth_out *confirm,
				uint8_t *ap_commit, size_t *len)
{
	struct apt_event *e = apt_wait_mgmt(IEEE80211_STYPE_AUTH, h->s->ifindex, 1000);
	ck_assert_ptr_nonnull(e);
	struct mgmt_frame f;
	ck_assert_int_eq(mgmt_parse(e->frame, e->len, &f), 0);
	ck_assert_uint_eq(f.u.auth.seq, 1);
	if (ap_commit) {
		ck_assert_uint_le(f.u.auth.sae_len, AP_COMMIT_MAX);
		memcpy(ap_commit, f.u.auth.sae_body, f.u.auth.sae_len);
		*len = f.u.auth.sae_len;
	}
	struct auth_msg m = { .alg = WLAN_AUTH_SAE, .seq = f.u.auth.seq, .status = f.u.auth.status,
			      .body = f.u.auth.sae_body, .body_len = f.u.auth.sae_len };
	ck_assert_int_eq(auth_sta_rx_auth(h->sess, &m, confirm), AUTH_STEP_SEND);
}

/* Runs the exchange to its end: accepted, no status 15 on the way and no
 * wrong-password verdict, the station authenticated at the AP. */
static void hand_finish_accepted(struct hand_sae *h)
{
	unsigned refused = 0;
	enum auth_step step = hand_run(h, &refused);
	ck_assert_msg(!h->sess->bad_credential && refused == 0,
		      "the right password read as a wrong one (%u refusals with status 15)",
		      refused);
	ck_assert_int_eq(step, AUTH_STEP_DONE);
	ck_assert_int_eq(apt_ap_sta_state(h->s->addr), AP_STA_AUTHENTICATED);
	auth_sess_free(h->sess);
	auth_sae_conf_clear(&h->conf);
}

/* The AP removed a station that authenticated and did not associate
 * (its association response came too late for the station's driver,
 * which forgot the BSS), and the station is on its next exchange: its new
 * commit follows late copies of its old commit and confirm (its queue, a
 * busy channel). The AP must not make a new exchange of the old commit's
 * copy: the station takes the AP's commit to it for the answer to its new
 * one, and the old confirm's copy fails against it, status 15, a wrong
 * password to the station (issue 15, 100 stations under load: "authenticated
 * but did not associate", then a refused confirm). The removed station's
 * accepted instance is kept a while and drops those copies; the new
 * commit starts a fresh exchange, which completes. */
START_TEST(sae_late_copies_after_removal_are_dropped)
{
	start_sae_ap("sae", "hunt-and-peck");
	struct hand_sae h;
	hand_init(&h);
	unsigned refused = 0;

	struct auth_out c1, k1, c2;
	hand_start(&h, &c1);
	hand_tx(&h, &c1);
	hand_take_ap_commit(&h, &k1, NULL, NULL);
	hand_tx(&h, &k1);
	ck_assert_int_eq(hand_run(&h, &refused), AUTH_STEP_DONE);
	ck_assert_int_eq(apt_ap_sta_state(h.s->addr), AP_STA_AUTHENTICATED);
	apt_run(AP_AUTH_EXPIRY_MS + 500); /* no association: removed */
	ck_assert_ptr_null(ap_sta_find(APT->ap, h.s->addr));

	hand_start(&h, &c2);
	hand_tx(&h, &c1); /* late copies of the old exchange first */
	hand_tx(&h, &k1);
	hand_tx(&h, &c2);
	hand_finish_accepted(&h);
}
END_TEST

/* The station's exchange did not finish within AP_AUTH_EXPIRY_MS (our
 * commit reached it late) and the AP removed it; then the station's copy
 * of its commit and its confirm, keyed to our commit, arrive. The kept
 * instance resumes: the same commit again, and the confirm verifies.
 * Before, the copy made a new instance with a new commit, and the confirm
 * was refused with status 15. */
START_TEST(sae_exchange_resumes_after_removal)
{
	start_sae_ap("sae", "hunt-and-peck");
	struct hand_sae h;
	hand_init(&h);

	struct auth_out c1, k1;
	hand_start(&h, &c1);
	hand_tx(&h, &c1);
	uint8_t ap_commit[AP_COMMIT_MAX];
	size_t ap_commit_len;
	hand_take_ap_commit(&h, &k1, ap_commit, &ap_commit_len);
	apt_run(AP_AUTH_EXPIRY_MS + 500); /* our confirm held back: removed */
	ck_assert_ptr_null(ap_sta_find(APT->ap, h.s->addr));

	hand_tx(&h, &c1);
	struct apt_event *e = apt_wait_mgmt(IEEE80211_STYPE_AUTH, h.s->ifindex, 1000);
	ck_assert_ptr_nonnull(e);
	struct mgmt_frame f;
	ck_assert_int_eq(mgmt_parse(e->frame, e->len, &f), 0);
	ck_assert_uint_eq(f.u.auth.seq, 1);
	ck_assert_uint_eq(f.u.auth.sae_len, ap_commit_len); /* the same commit */
	ck_assert_mem_eq(f.u.auth.sae_body, ap_commit, ap_commit_len);
	hand_tx(&h, &k1);
	hand_finish_accepted(&h);
}
END_TEST

/* The AP's message 3 never reaches the station (dropped on the air; under
 * load it waited in the AP's queue past the station's patience). SAE's
 * confirm had proved the password, so the failed 4-way handshake is not
 * InvalidPassphrase (issue 15: "no message 3 after our message 2: the
 * passphrase is most likely wrong" for stations whose password was right). */
START_TEST(sae_lost_message_3_is_not_a_wrong_password)
{
	start_sae_ap("sae", "hunt-and-peck");
	struct medium_fault_spec drop = {
		.frame_type = IEEE80211_FC(IEEE80211_FTYPE_DATA, IEEE80211_STYPE_QOS_DATA),
		.nth = 2, /* the AP's second data frame: message 3, and all after */
		.count = 100000,
		.action = MEDIUM_FAULT_DROP,
	};
	memcpy(drop.source, APT->ap_addr, 6);
	ck_assert_int_eq(medium_add_fault(sim_driver_medium(APT->drv), &drop), 0);
	connect_with(APT_PASSPHRASE);
	ck_assert(!E.connect_ok);
	ck_assert_msg(E.err.code == WPAD_ERR_AUTHENTICATION_FAILED, "got %s: %s",
		      wpad_error_name(E.err.code), E.err.text);
}
END_TEST

/* A transition AP (psk sae, PMF optional): a WPA2-only station (the
 * fixture's hand-played PSK supplicant) and wpad's station (SAE chosen
 * over PSK) at once. */
START_TEST(sae_transition_ap_psk_and_sae_stations)
{
	start_sae_ap("psk sae", NULL);
	ck_assert_uint_ne(APT->ap->offer.akms & RSN_SUITE_BIT(RSN_AKM_PSK), 0);
	struct apt_sta *old = apt_sta_add();
	uint8_t rsne[64];
	size_t rl = apt_sta_rsne(rsne, sizeof(rsne));
	apt_supp_start(old, APT_PASSPHRASE);
	uint16_t aid = 0;
	ck_assert_int_eq(apt_connect(old, rsne, rl, true, &aid), 0);
	unsigned one = 1, two = 2;
	ck_assert(apt_wait_for(ap_authorized, &one, 2000));
	connect_ok();
	ck_assert(apt_wait_for(ap_authorized, &two, 2000));
	assert_sae_link();
	struct ap_station_info info;
	ck_assert_int_eq(ap_get_station(APT->ap, old->addr, &info), 0);
	ck_assert_int_eq(info.state, AP_STA_AUTHORIZED);
	ck_assert_uint_eq(info.akm, RSN_AKM_PSK);
	ck_assert(old->supp_done);
}
END_TEST

/* A transition AP (psk sae) with TransitionDisable=wpa3-personal: wpad's
 * station joins with SAE, reads the KDE from message 3 and remembers the
 * network as WPA3-only (AKMs=sae, PMF required). The AP refuses the bit
 * without SAE, and SAE-PK and WPA3-Enterprise, which it does not run. */
START_TEST(sae_transition_disable_is_remembered)
{
	struct cfg_error ce = { 0 };
	struct wpad_error err;

	apt_profile(&P, true);
	ck_assert_int_eq(ap_profile_set(&P, "TransitionDisable", "wpa3-enterprise", NULL, &ce),
			 0);
	ck_assert_int_eq(ap_start(APT->ap, &P, &err), -EINVAL);
	ck_assert_int_eq(err.code, WPAD_ERR_INVALID_ARGUMENTS);
	ck_assert_int_eq(ap_profile_set(&P, "TransitionDisable", "sae-pk", NULL, &ce), 0);
	ck_assert_int_eq(ap_start(APT->ap, &P, &err), -EINVAL);
	ck_assert_int_eq(ap_profile_set(&P, "TransitionDisable", "wpa3-personal", NULL, &ce), 0);
	ck_assert_int_eq(ap_start(APT->ap, &P, &err), -EINVAL); /* PSK only */
	ck_assert_ptr_nonnull(strstr(err.text, "needs SAE"));
	ck_assert_int_eq(ap_profile_set(&P, "TransitionDisable", "wpa3-personal,bogus", NULL, &ce),
			 AP_E_TRANSITION_DISABLE);
	ck_assert_int_eq(ap_err_to_wpad(AP_E_TRANSITION_DISABLE), WPAD_ERR_INVALID_ARGUMENTS);

	snprintf(P.akms, sizeof(P.akms), "psk sae");
	ck_assert_int_eq(ap_profile_set(&P, "TransitionDisable", "wpa3-personal", NULL, &ce), 0);
	apt_start(&P);
	station_with_store();
	const struct known_network *net;
	connect_ok();
	assert_sae_link();
	net = known_store_get(store, (const uint8_t *)APT_SSID, strlen(APT_SSID), KNOWN_SEC_PSK);
	ck_assert_ptr_nonnull(net);
	ck_assert_str_eq(net->akms, "sae");
	ck_assert_str_eq(net->pmf, "required");
}
END_TEST

/* The station set to hunting-and-pecking against an AP that takes only
 * H2E (SAEPWE=h2e: the H2E-only selector in its rates): NotSupported with
 * status 126 in LastError, no password doubt. */
START_TEST(sae_h2e_only_ap_refuses_hunt_and_peck)
{
	start_sae_ap("sae", "h2e");
	ck_assert_int_eq(station_set_sae(E.st, "hunt-and-peck", NULL), 0);
	connect_with(APT_PASSPHRASE);
	ck_assert(!E.connect_ok);
	/* The AP lists the H2E-only selector: refused before any frame. */
	ck_assert_msg(E.err.code == WPAD_ERR_NOT_SUPPORTED, "%s", E.err.text);
	ck_assert_int_eq(E.err.ieee_status, WLAN_STATUS_SAE_HASH_TO_ELEMENT);
	ck_assert_uint_eq(APT->authorized, 0);
}
END_TEST

/* Password identifiers: the AP knows "psk4internet"; a station using it
 * connects, one using an unknown identifier gets status 123 in LastError. */
START_TEST(sae_password_identifier)
{
	apt_profile(&P, true);
	snprintf(P.akms, sizeof(P.akms), "sae");
	ap_set_sae_for_test(APT->ap, 0, "psk4internet");
	apt_start(&P);
	ck_assert_int_eq(station_set_sae(E.st, NULL, "unknown-id"), 0);
	connect_with(APT_PASSPHRASE);
	ck_assert(!E.connect_ok);
	ck_assert_int_eq(E.err.code, WPAD_ERR_AUTHENTICATION_FAILED);
	ck_assert_int_eq(E.err.ieee_status, WLAN_STATUS_UNKNOWN_PASSWORD_IDENTIFIER);
	ck_assert_int_eq(station_set_sae(E.st, NULL, "psk4internet"), 0);
	connect_ok();
	assert_sae_link();
}
END_TEST

Suite *make_sae_e2e_suite(void)
{
	Suite *s = suite_create("sae_e2e");
	TCase *tc = tcase_create("sim");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, sae_hunt_and_peck_both_roles);
	tcase_add_test(tc, sae_h2e_both_roles);
	tcase_add_test(tc, sae_wrong_password_is_invalid_passphrase);
	tcase_add_test(tc, sae_pmksa_reconnect_skips_sae);
	tcase_add_test(tc, sae_commit_flood_demands_tokens);
	tcase_add_test(tc, sae_commit_copy_crossing_our_answer_is_not_answered_twice);
	tcase_add_test(tc, sae_commit_held_for_the_air_is_not_resent);
	tcase_add_test(tc, sae_transition_ap_psk_and_sae_stations);
	tcase_add_test(tc, sae_transition_disable_is_remembered);
	tcase_add_test(tc, sae_new_commit_ends_pending_association);
	tcase_add_test(tc, sae_late_copies_after_removal_are_dropped);
	tcase_add_test(tc, sae_exchange_resumes_after_removal);
	tcase_add_test(tc, sae_lost_message_3_is_not_a_wrong_password);
	tcase_add_test(tc, sae_h2e_only_ap_refuses_hunt_and_peck);
	tcase_add_test(tc, sae_password_identifier);
	tcase_add_test(tc, sae_autoconnect_known_network);
	tcase_add_test(tc, sae_known_network_pwe);
	tcase_add_test(tc, sae_flush_pmksa_then_full_sae_without_pbkdf2);
	tcase_add_test(tc, sae_stored_passphrase_stretched_for_psk);
	suite_add_tcase(s, tc);
	return s;
}
