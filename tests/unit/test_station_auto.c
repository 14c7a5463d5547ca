/* Known networks and autoconnect over the simulated radio: a successful
 * connect is remembered (PSK, frequency), a known network is joined by
 * itself, beacon loss leads to reconnect attempts with a growing backoff and
 * a reconnect once the AP is heard again, and a refused passphrase is not
 * retried in a loop. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "daemon/codec/ieee80211.h"
#include "daemon/core/loop.h"
#include "daemon/station/station.h"
#include "daemon/station/station_i.h"
#include "daemon/store/known_store.h"
#include "tests/unit/test_station_air.h"

static struct air A;

static void setup(void)
{
	air_setup(&A, 3, true);
}

static void teardown(void)
{
	air_teardown(&A);
}

static struct known_network *known(const char *ssid, enum known_security sec)
{
	return known_store_get(A.store, (const uint8_t *)ssid, strlen(ssid), sec);
}

static void remember(const char *ssid, enum known_security sec, const char *passphrase,
		     uint32_t freq)
{
	struct known_network net;
	known_network_init(&net, (const uint8_t *)ssid, strlen(ssid), sec);
	if (passphrase)
		ck_assert_int_eq(known_network_set_passphrase(&net, passphrase), 0);
	if (freq)
		known_network_touch(&net, freq, 1000);
	ck_assert_int_eq(known_store_save(A.store, &net, NULL), 0);
	known_network_clear(&net);
	station_known_networks_changed(A.st);
}

static bool two_connects(struct air *a)
{
	return a->n_connect_done >= 2;
}

START_TEST(test_connect_is_remembered)
{
	air_add_ap(&A, 1, "cafe", 2437, false);
	ck_assert_int_eq(air_connect(&A, "cafe", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	struct known_network *net = known("cafe", KNOWN_SEC_OPEN);
	ck_assert_ptr_nonnull(net);
	ck_assert_uint_ge(net->n_freqs, 1);
	ck_assert_uint_eq(net->freqs[0], 2437);
	ck_assert_uint_gt(net->last_connected, 0);
	/* The list shows it as known. */
	const struct station_network *nets[4];
	ck_assert_uint_eq(station_networks(A.st, nets, 4), 1);
	ck_assert(nets[0]->known);
}
END_TEST

START_TEST(test_autoconnect_known)
{
	/* A network becomes known: the station scans and joins by itself. */
	air_add_ap(&A, 1, "home-open", 2412, false);
	remember("home-open", KNOWN_SEC_OPEN, NULL, 0);
	ck_assert(station_autoconnect(A.st));
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	ck_assert_int_eq(station_state(A.st), STATION_CONNECTED);
	ck_assert_uint_ge(air_count_state(&A, STATION_SCANNING), 1);
}
END_TEST

START_TEST(test_known_frequency_scan_first)
{
	/* A known network with a remembered frequency: the connect scans that
	 * channel only, far quicker than every channel. */
	station_set_autoconnect(A.st, false);
	air_add_ap(&A, 1, "fast", 2462, false);
	remember("fast", KNOWN_SEC_OPEN, NULL, 2462);
	uint64_t t0 = loop_now_us(A.loop);
	ck_assert_int_eq(air_connect(&A, "fast", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	uint64_t ms = (A.connect_done_us - t0) / 1000;
	ck_assert_msg(ms < KNOWN_FREQ_CONNECT_MAX_MS, "known-frequency connect took %llu ms",
		      (unsigned long long)ms);
}
END_TEST

START_TEST(test_known_frequency_stale_falls_back)
{
	/* The AP moved since: the short directed probe on the old channel
	 * hears nothing, every channel is scanned next and the connect works. */
	station_set_autoconnect(A.st, false);
	air_add_ap(&A, 1, "moved", 2412, false);
	remember("moved", KNOWN_SEC_OPEN, NULL, 2462);
	ck_assert_int_eq(air_connect(&A, "moved", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	ck_assert_uint_ge(air_count_state(&A, STATION_SCANNING), 1);
	struct known_network *net = known("moved", KNOWN_SEC_OPEN);
	ck_assert_ptr_nonnull(net);
	ck_assert_uint_eq(net->freqs[0], 2412); /* the new channel comes first now */
}
END_TEST

static bool left(struct air *a)
{
	return station_state(a->st) == STATION_DISCONNECTED;
}

START_TEST(test_reconnect_after_leaving_needs_no_scan)
{
	/* Connected long after the last scan (its results aged past the
	 * freshness window): leaving by choice and connecting back joins at
	 * once, since the BSS was alive until the moment we left. */
	station_set_autoconnect(A.st, false);
	struct air_ap *ap = air_add_ap(&A, 1, "again", 2437, false);
	ck_assert_int_eq(air_connect(&A, "again", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	struct station_bss *b = bss_list_find(A.st->bss, ap->addr);
	ck_assert_ptr_nonnull(b);
	uint64_t aged = (uint64_t)(STATION_FRESH_SCAN_MS + 5000) * 1000u;
	b->last_seen_us = b->last_seen_us > aged ? b->last_seen_us - aged : 0;
	A.st->nets_dirty = true;

	ck_assert_int_eq(station_disconnect(A.st), 0);
	ck_assert(air_run_until(&A, left, 5000));
	size_t scans = air_count_state(&A, STATION_SCANNING);
	ck_assert_int_eq(air_connect(&A, "again", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	ck_assert_uint_eq(air_count_state(&A, STATION_SCANNING), scans);
}
END_TEST

START_TEST(test_beacon_loss_reconnects_with_backoff)
{
	struct air_ap *ap = air_add_ap(&A, 1, "flaky", 2437, false);
	ck_assert_int_eq(air_connect(&A, "flaky", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	ck_assert_uint_eq(station_backoff_ms(A.st), STATION_BACKOFF_MIN_MS);

	/* The AP goes out of range: beacon loss, a local disconnect. */
	air_link(&A, ap, false);
	ck_assert(air_run_until(&A, air_disconnected, 5000));
	ck_assert_int_eq(A.disc_err.code, WPAD_ERR_TIMEOUT);

	/* Attempts keep coming with a growing delay while it is gone. */
	air_run_for(&A, 4000);
	ck_assert_int_ne(station_state(A.st), STATION_CONNECTED);
	ck_assert_uint_ge(air_count_state(&A, STATION_SCANNING), 2);
	uint32_t backoff = station_backoff_ms(A.st);
	ck_assert_uint_gt(backoff, 2 * STATION_BACKOFF_MIN_MS);
	ck_assert_uint_le(backoff, STATION_BACKOFF_MAX_MS);
	unsigned auths = ap->n_auth;

	/* Back in range: heard again, rejoined, backoff reset. */
	air_link(&A, ap, true);
	ck_assert(air_run_until(&A, two_connects, 20000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	ck_assert_int_eq(station_state(A.st), STATION_CONNECTED);
	ck_assert_uint_eq(station_backoff_ms(A.st), STATION_BACKOFF_MIN_MS);
	ck_assert_uint_eq(ap->n_auth, auths + 1);
}
END_TEST

START_TEST(test_wrong_passphrase_not_retried)
{
	/* A known PSK network whose stored passphrase the AP refuses. */
	struct air_ap *ap = air_add_ap(&A, 1, "changed", 2437, true);
	ap->send_msg1 = true;
	ap->deauth_on_msg2 = WLAN_REASON_4WAY_HANDSHAKE_TIMEOUT;
	remember("changed", KNOWN_SEC_PSK, "old passphrase", 2437);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_INVALID_PASSPHRASE);
	ck_assert_uint_eq(ap->n_auth, 1);

	/* Autoconnect stays on, but not against this network with this key. */
	air_run_for(&A, 3000);
	ck_assert_uint_eq(ap->n_auth, 1);
	ck_assert_uint_eq(A.n_connect_done, 1);
	ck_assert(station_autoconnect(A.st));

	/* The user gives the passphrase again: tried at once. */
	ck_assert_int_eq(air_connect(&A, "changed", "old passphrase", false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_int_eq(A.connect_err.code, WPAD_ERR_INVALID_PASSPHRASE);
	ck_assert_uint_eq(ap->n_auth, 2);
}
END_TEST

START_TEST(test_autoconnect_hidden_known)
{
	/* A hidden known network on a remembered channel: autoconnect probes
	 * for it there (a targeted scan that also hears its SSID-less
	 * beacons) and joins. */
	struct air_ap_conf c = { .ssid = "attic", .freq = 2462, .hidden = true };
	air_add_ap_conf(&A, 1, &c);
	struct known_network net;
	known_network_init(&net, (const uint8_t *)"attic", 5, KNOWN_SEC_OPEN);
	net.hidden = true;
	known_network_touch(&net, 2462, 1000);
	ck_assert_int_eq(known_store_save(A.store, &net, NULL), 0);
	known_network_clear(&net);
	station_known_networks_changed(A.st);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	uint8_t ssid[32];
	ck_assert_uint_eq(station_ssid(A.st, ssid), 5);
	ck_assert_mem_eq(ssid, "attic", 5);
}
END_TEST

START_TEST(test_hidden_connect_remembered_as_hidden)
{
	/* Joined with the hidden-network connect: the file says Hidden, so
	 * after a restart autoconnect probes for it by name and joins by
	 * itself (a wildcard scan never shows it). */
	struct air_ap_conf c = { .ssid = "attic", .freq = 2462, .hidden = true };
	struct air_ap *ap = air_add_ap_conf(&A, 1, &c);
	ck_assert_int_eq(air_connect(&A, "attic", NULL, true), 0);
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	struct known_network *net = known("attic", KNOWN_SEC_OPEN);
	ck_assert_ptr_nonnull(net);
	ck_assert(net->hidden);

	air_restart_station(&A);
	net = known("attic", KNOWN_SEC_OPEN); /* as read back from its file */
	ck_assert_ptr_nonnull(net);
	ck_assert(net->hidden);
	unsigned auths = ap->n_auth;
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	ck_assert_uint_gt(ap->n_auth, auths);
	uint8_t ssid[32];
	ck_assert_uint_eq(station_ssid(A.st, ssid), 5);
	ck_assert_mem_eq(ssid, "attic", 5);
}
END_TEST

START_TEST(test_autoconnect_probes_every_hidden_known)
{
	/* Two hidden known networks; the preferred one (connected last) is
	 * out of range. The autoconnect scan asks for both by name, so the
	 * other is found and joined. */
	static const char *const names[] = { "cellar", "attic" };
	for (size_t i = 0; i < 2; i++) {
		struct known_network net;
		known_network_init(&net, (const uint8_t *)names[i], strlen(names[i]),
				   KNOWN_SEC_OPEN);
		net.hidden = true;
		known_network_touch(&net, 0, 1000 + i); /* attic: the more recent */
		ck_assert_int_eq(known_store_save(A.store, &net, NULL), 0);
		known_network_clear(&net);
	}
	struct air_ap_conf c = { .ssid = "cellar", .freq = 2437, .hidden = true };
	struct air_ap *ap = air_add_ap_conf(&A, 1, &c);
	station_known_networks_changed(A.st);
	ck_assert(air_run_until(&A, air_connect_done, 20000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	uint8_t ssid[32];
	ck_assert_uint_eq(station_ssid(A.st, ssid), 6);
	ck_assert_mem_eq(ssid, "cellar", 6);
	ck_assert_uint_ge(ap->n_auth, 1);
}
END_TEST

START_TEST(test_visible_connect_keeps_hidden_mark)
{
	/* Hidden is learnt, not unlearnt: a later connect that was not asked
	 * as hidden leaves the mark (the AP may hide its name again). */
	air_add_ap(&A, 1, "porch", 2412, false);
	struct known_network n;
	known_network_init(&n, (const uint8_t *)"porch", 5, KNOWN_SEC_OPEN);
	n.hidden = true;
	n.autoconnect = false;
	ck_assert_int_eq(known_store_save(A.store, &n, NULL), 0);
	known_network_clear(&n);
	ck_assert_int_eq(air_connect(&A, "porch", NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	ck_assert(known("porch", KNOWN_SEC_OPEN)->hidden);
	ck_assert_uint_eq(known("porch", KNOWN_SEC_OPEN)->n_freqs, 1);
}
END_TEST

START_TEST(test_disconnect_stops_autoconnect)
{
	air_add_ap(&A, 1, "mine", 2412, false);
	remember("mine", KNOWN_SEC_OPEN, NULL, 2412);
	ck_assert(air_run_until(&A, air_connect_done, 10000));
	ck_assert(A.connect_ok);
	ck_assert_int_eq(station_disconnect(A.st), 0);
	ck_assert(!station_autoconnect(A.st));
	air_run_for(&A, 2000);
	ck_assert_int_eq(station_state(A.st), STATION_DISCONNECTED);
	ck_assert_uint_eq(A.n_connect_done, 1);

	station_set_autoconnect(A.st, true);
	ck_assert(air_run_until(&A, two_connects, 10000));
	ck_assert(A.connect_ok);
}
END_TEST

START_TEST(test_psk_saved_after_connect)
{
	/* Without our own AP role the handshake cannot complete here; what
	 * is checked is that a failed connect saves nothing. */
	air_add_ap(&A, 1, "new-psk", 2437, true);
	station_set_autoconnect(A.st, false);
	ck_assert_int_eq(air_connect(&A, "new-psk", "correct horse", false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	ck_assert(!A.connect_ok);
	ck_assert_ptr_null(known("new-psk", KNOWN_SEC_PSK));
}
END_TEST

Suite *make_station_auto_suite(void)
{
	Suite *s = suite_create("station_auto");
	TCase *tc = tcase_create("known");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_connect_is_remembered);
	tcase_add_test(tc, test_autoconnect_known);
	tcase_add_test(tc, test_known_frequency_scan_first);
	tcase_add_test(tc, test_known_frequency_stale_falls_back);
	tcase_add_test(tc, test_reconnect_after_leaving_needs_no_scan);
	tcase_add_test(tc, test_beacon_loss_reconnects_with_backoff);
	tcase_add_test(tc, test_wrong_passphrase_not_retried);
	tcase_add_test(tc, test_autoconnect_hidden_known);
	tcase_add_test(tc, test_hidden_connect_remembered_as_hidden);
	tcase_add_test(tc, test_visible_connect_keeps_hidden_mark);
	tcase_add_test(tc, test_autoconnect_probes_every_hidden_known);
	tcase_add_test(tc, test_disconnect_stops_autoconnect);
	tcase_add_test(tc, test_psk_saved_after_connect);
	suite_add_tcase(s, tc);
	return s;
}
