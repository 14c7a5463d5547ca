/* The station role against wpad's own AP role (daemon/ap), both in this
 * process over the simulated medium: open and WPA2-PSK connects with data
 * flowing afterwards, the passphrase remembered and reused for a warm
 * reconnect, a wrong passphrase reported as InvalidPassphrase in bounded
 * time and not retried, and a reconnect after the AP restarts. */
#include <check.h>
#include <string.h>

#include "daemon/ap/ap.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/config/ap_profile.h"
#include "daemon/core/loop.h"
#include "daemon/station/station.h"
#include "daemon/store/known_store.h"
#include "tests/unit/test_station_air.h"

#define E2E_SSID "e2e-net"
#define E2E_PASS "correct horse battery"
#define ETHERTYPE_TEST 0x88b5
static struct air A;
static struct ap *AP;
static uint32_t ap_if;
static unsigned ap_authorized, ap_mic_failures, ap_auths;

static void on_authorized(void *ctx, const uint8_t addr[6])
{
	ap_authorized++;
}

static void on_mic_failure(void *ctx, const uint8_t addr[6], unsigned count)
{
	ap_mic_failures++;
}

static void hook(void *ctx, const struct driver_event *ev)
{
	if (!AP)
		return;
	if (ev->ifindex == ap_if && ev->type == DRIVER_EV_RX_MGMT && ev->u.mgmt.frame &&
	    ev->u.mgmt.len > 0 && (ev->u.mgmt.frame[0] & 0xfc) == 0xb0)
		ap_auths++;
	if (ev->ifindex == ap_if || ev->ifindex == 0)
		ap_handle_event(AP, ev);
}

static void start_ap(bool wpa2)
{
	struct ap_profile p;
	struct wpad_error err;

	ap_profile_init(&p);
	memcpy(p.ssid, E2E_SSID, strlen(E2E_SSID));
	p.ssid_len = strlen(E2E_SSID);
	p.channel = 6;
	p.group_rekey_s = 0;
	p.inactivity_s = 0;
	if (wpa2) {
		p.security = AP_SECURITY_WPA2_PSK;
		p.has_passphrase = true;
		strcpy(p.passphrase, E2E_PASS);
	} else {
		p.security = AP_SECURITY_OPEN;
	}
	int r = ap_start(AP, &p, &err);
	ck_assert_msg(r == 0, "ap_start: %d (%s)", r, err.text);
	ap_profile_clear(&p);
}

static void setup(void)
{
	static const struct ap_callbacks cb = { .station_authorized = on_authorized,
						.mic_failure = on_mic_failure };
	air_setup(&A, 2, true);
	ap_authorized = ap_mic_failures = ap_auths = 0;
	ap_if = air_iface(&A, 1, DRIVER_IFTYPE_AP);
	AP = ap_new(A.loop, A.drv, ap_if, &cb);
	ck_assert_ptr_nonnull(AP);
	A.hook = hook;
}

static void teardown(void)
{
	ap_free(AP);
	AP = NULL;
	A.hook = NULL;
	air_teardown(&A);
}

static bool ap_port_open(struct air *a)
{
	struct ap_station_info info;
	return ap_get_station(AP, a->sta_addr, &info) == 0 && info.state == AP_STA_AUTHORIZED;
}

static bool got_data(struct air *a)
{
	return a->n_rx_data > 0;
}

/* Unicast data from the AP reaches the station: the keys on both ends
 * agree (or the open port is open). */
static void check_data(uint8_t tag)
{
	uint8_t payload[32];
	memset(payload, tag, sizeof(payload));
	A.n_rx_data = 0;
	ck_assert_int_eq(driver_tx_data(A.drv, ap_if, A.sta_addr, ETHERTYPE_TEST, payload,
					sizeof(payload), 0),
			 0);
	ck_assert_msg(air_run_until(&A, got_data, 2000), "no data reached the station");
	ck_assert_uint_eq(A.last_rx_data[0], tag);
}

START_TEST(test_e2e_open)
{
	start_ap(false);
	ck_assert_int_eq(air_connect(&A, E2E_SSID, NULL, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	ck_assert_uint_eq(air_count_state(&A, STATION_HANDSHAKING), 0);
	ck_assert(air_run_until(&A, ap_port_open, 1000));
	check_data(0x11);
}
END_TEST

START_TEST(test_e2e_wpa2_psk)
{
	start_ap(true);
	ck_assert_int_eq(air_connect(&A, E2E_SSID, E2E_PASS, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	ck_assert_uint_eq(air_count_state(&A, STATION_HANDSHAKING), 1);
	ck_assert(air_run_until(&A, ap_port_open, 1000));
	ck_assert_uint_eq(ap_mic_failures, 0);
	check_data(0x22);

	/* Remembered: passphrase with its PSK cached, frequency 2437. */
	struct known_network *net = known_store_get(A.store, (const uint8_t *)E2E_SSID,
						    strlen(E2E_SSID), KNOWN_SEC_PSK);
	ck_assert_ptr_nonnull(net);
	ck_assert(net->has_passphrase);
	ck_assert_str_eq(net->passphrase, E2E_PASS);
	ck_assert(net->psk_valid);
	ck_assert_uint_eq(net->freqs[0], 2437);

	/* Warm reconnect with the stored key and a fresh scan: no scan, no
	 * passphrase, well under 50 ms on the simulated air. */
	ck_assert_int_eq(station_disconnect(A.st), 0);
	air_run_for(&A, 200);
	ck_assert_int_eq(station_state(A.st), STATION_DISCONNECTED);
	ck_assert_int_eq(station_scan(A.st), 0);
	ck_assert(air_run_until(&A, air_scan_done, 10000));
	uint64_t ms = air_warm_connect_ms(&A, E2E_SSID, 3);
	ck_assert_msg(ms < WARM_CONNECT_MAX_MS, "warm WPA2 connect took %llu ms",
		      (unsigned long long)ms);
	ck_assert(air_run_until(&A, ap_port_open, 1000)); /* our message 4 arrived */
	check_data(0x23);
}
END_TEST

START_TEST(test_e2e_wrong_passphrase)
{
	start_ap(true);
	uint64_t t0 = loop_now_us(A.loop);
	ck_assert_int_eq(air_connect(&A, E2E_SSID, "not the passphrase", false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	uint64_t ms = (A.connect_done_us - t0) / 1000;
	ck_assert_msg(A.connect_err.code == WPAD_ERR_INVALID_PASSPHRASE, "%s: %s",
		      wpad_error_name(A.connect_err.code), A.connect_err.text);
	ck_assert_msg(ms < 10000, "took %llu ms", (unsigned long long)ms);
	ck_assert_uint_ge(ap_mic_failures, 1);
	ck_assert_uint_eq(ap_authorized, 0);
	/* Nothing saved, nothing retried. */
	ck_assert_ptr_null(known_store_get(A.store, (const uint8_t *)E2E_SSID, strlen(E2E_SSID),
					   KNOWN_SEC_PSK));
	unsigned auths = ap_auths;
	air_run_for(&A, 3000);
	ck_assert_uint_eq(ap_auths, auths);
	ck_assert_uint_eq(A.n_connect_done, 1);

	/* The right passphrase works at once. */
	ck_assert_int_eq(air_connect(&A, E2E_SSID, E2E_PASS, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
}
END_TEST

START_TEST(test_e2e_ap_restart_reconnects)
{
	start_ap(true);
	ck_assert_int_eq(air_connect(&A, E2E_SSID, E2E_PASS, false), 0);
	ck_assert(air_run_until(&A, air_connect_done, 15000));
	ck_assert_msg(A.connect_ok, "%s", A.connect_err.text);
	unsigned before = ap_authorized;
	air_run_for(&A, 100);

	/* The AP goes away (deauthenticating us) and comes back. */
	ck_assert_int_eq(ap_stop(AP), 0);
	ck_assert(air_run_until(&A, air_disconnected, 5000));
	air_run_for(&A, 500);
	ck_assert_int_ne(station_state(A.st), STATION_CONNECTED);
	start_ap(true);
	ck_assert(air_run_until(&A, air_connected, 30000));
	air_run_for(&A, 100);
	ck_assert_uint_gt(ap_authorized, before);
	check_data(0x33);
}
END_TEST

Suite *make_station_e2e_suite(void)
{
	Suite *s = suite_create("station_e2e");
	TCase *tc = tcase_create("ap");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_e2e_open);
	tcase_add_test(tc, test_e2e_wpa2_psk);
	tcase_add_test(tc, test_e2e_wrong_passphrase);
	tcase_add_test(tc, test_e2e_ap_restart_reconnects);
	suite_add_tcase(s, tc);
	return s;
}
