/* Simulated radio acceptance: the medium's capture decoded by tshark, voice
 * never blocked by a saturated background queue (with the latency figures
 * printed), and 200 radios on one medium finding one beaconing AP.
 * Figures are printed, never asserted: speed is for benchmarks. */
#include "tests/support/frames.h"
#include "tests/support/harness.h"
#include "daemon/core/loop.h"
#include "drivers/sim/medium.h"
#include "drivers/sim/sim.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FREQ 2437

/* ---- capture ---- */

START_TEST(capture_is_decoded_by_tshark)
{
	char path[] = "/tmp/wpad-capture-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	struct medium *m = sim_driver_medium(H->drv);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(medium_capture_start(m, path), 0);
	uint32_t ap = harness_iface(0, DRIVER_IFTYPE_AP);
	harness_start_ap(ap, "capture-test", FREQ);
	harness_run_for(350); /* three or four beacons */
	medium_capture_stop(m);

	char cmd[512];
	snprintf(cmd, sizeof(cmd),
		 "tshark -r %s -Y 'wlan.fc.type_subtype == 0x0008' -T fields "
		 "-e wlan.ssid -e radiotap.channel.freq -e radiotap.dbm_antsignal 2>/dev/null",
		 path);
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	char line[256];
	int beacons = 0;
	while (fgets(line, sizeof(line), p)) {
		printf("tshark: %s", line);
		char ssid[64] = "", freq[16] = "";
		if (sscanf(line, "%63s %15s", ssid, freq) != 2)
			continue;
		/* tshark prints the SSID as text, or as hex bytes in some versions. */
		ck_assert_msg(strcmp(ssid, "capture-test") == 0 ||
				      strcmp(ssid, "636170747572652d74657374") == 0,
			      "tshark decoded SSID '%s'", ssid);
		ck_assert_str_eq(freq, "2437");
		beacons++;
	}
	int rc = pclose(p);
	ck_assert_msg(rc == 0, "tshark failed (%d): is it installed?", rc);
	ck_assert_msg(beacons >= 2, "tshark saw %d beacons", beacons);
	printf("capture: tshark decoded %d beacons, SSID and channel correct\n", beacons);
	unlink(path);
}
END_TEST

/* ---- QoS ---- */

#define VOICE_FRAMES 60

static struct {
	uint32_t ap;
	uint64_t sent_us[VOICE_FRAMES];
	uint64_t latency_us[VOICE_FRAMES];
	int voice_received;
	uint64_t background_received;
	int stopped_events;
} qos;

static bool qos_hook(const struct driver_event *ev)
{
	if (ev->type == DRIVER_EV_QUEUE_STOPPED) {
		qos.stopped_events++;
		return false;
	}
	if (ev->type != DRIVER_EV_RX_DATA || ev->ifindex != qos.ap)
		return false;
	const uint8_t *b = ev->u.data.body;
	if (ev->u.data.len >= 3 && b[0] == 'V') {
		int seq = b[1] | b[2] << 8;
		if (seq < VOICE_FRAMES && qos.latency_us[seq] == 0) {
			qos.latency_us[seq] = loop_now_us(H->loop) - qos.sent_us[seq];
			qos.voice_received++;
		}
	} else if (ev->u.data.len >= 1 && b[0] == 'B') {
		qos.background_received++;
	}
	return true;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void print_latency(const char *label, uint64_t *lat, int n)
{
	qsort(lat, (size_t)n, sizeof(*lat), cmp_u64);
	printf("%-28s %8.2f %8.2f %8.2f\n", label, lat[n / 2] / 1000.0,
	       lat[(n * 95) / 100] / 1000.0, lat[n - 1] / 1000.0);
}

/* Sends VOICE_FRAMES voice frames 5 ms apart; with load, keeps the
 * background queue full all the while. Asserts voice is never refused. */
static void send_voice(uint32_t sta, const uint8_t ap_addr[6], bool load)
{
	uint8_t voice[160] = { 'V' }, bulk[1400] = { 'B' };
	memset(&qos.sent_us, 0, sizeof(qos.sent_us));
	memset(&qos.latency_us, 0, sizeof(qos.latency_us));
	qos.voice_received = 0;
	for (int seq = 0; seq < VOICE_FRAMES; seq++) {
		while (load && driver_tx_data(H->drv, sta, ap_addr, 0x0800, bulk, sizeof(bulk), 1) == 0)
			;
		voice[1] = (uint8_t)seq;
		voice[2] = (uint8_t)(seq >> 8);
		qos.sent_us[seq] = loop_now_us(H->loop);
		int r = driver_tx_data(H->drv, sta, ap_addr, 0x0800, voice, sizeof(voice), 6);
		ck_assert_msg(r == 0, "voice frame %d refused (%d) while background is loaded", seq, r);
		harness_run_for(5);
	}
	uint64_t deadline = loop_now_us(H->loop) + 5000000;
	while (qos.voice_received < VOICE_FRAMES && loop_now_us(H->loop) < deadline)
		loop_iterate(H->loop, 10);
	ck_assert_int_eq(qos.voice_received, VOICE_FRAMES);
}

START_TEST(voice_is_never_blocked_by_background)
{
	uint32_t ap = harness_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = harness_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t ap_addr[6], sta_addr[6];
	harness_iface_addr(ap, ap_addr);
	harness_iface_addr(sta, sta_addr);
	harness_start_ap(ap, "qos", FREQ);
	harness_connect(sta, ap, "qos", FREQ);
	harness_install_pairwise(sta, ap, 0x42);
	ck_assert_int_eq(driver_sta_set_flags(H->drv, ap, sta_addr, DRIVER_STA_AUTHORIZED, 0), 0);
	memset(&qos, 0, sizeof(qos));
	qos.ap = ap;
	harness_event_hook = qos_hook;

	uint64_t idle[VOICE_FRAMES], loaded[VOICE_FRAMES];
	send_voice(sta, ap_addr, false);
	memcpy(idle, qos.latency_us, sizeof(idle));

	uint64_t bk_before = qos.background_received;
	uint64_t t0 = loop_now_us(H->loop);
	send_voice(sta, ap_addr, true);
	double secs = (double)(loop_now_us(H->loop) - t0) / 1e6;
	memcpy(loaded, qos.latency_us, sizeof(loaded));

	struct driver_queue_state q;
	ck_assert_int_eq(driver_get_queue_state(H->drv, sta, &q), 0);
	ck_assert_msg(qos.stopped_events > 0, "background never filled: the test proved nothing");
	ck_assert_msg(q.ac[DRIVER_AC_VO].dropped == 0, "voice frames were dropped");

	printf("\nQoS on the simulated radio: %d voice frames (160 B, UP 6), background "
	       "(1400 B, UP 1) kept saturated\n", VOICE_FRAMES);
	printf("%-28s %8s %8s %8s\n", "voice latency (ms)", "median", "p95", "max");
	print_latency("idle link", idle, VOICE_FRAMES);
	print_latency("background saturated", loaded, VOICE_FRAMES);
	printf("background delivered meanwhile: %llu frames (%.1f Mb/s), queue stopped %d times\n",
	       (unsigned long long)(qos.background_received - bk_before),
	       (double)(qos.background_received - bk_before) * 1400 * 8 / secs / 1e6,
	       qos.stopped_events);
	printf("voice refused: 0 of %d (asserted)\n", VOICE_FRAMES);
	harness_event_hook = NULL;
}
END_TEST

/* ---- scale ---- */

/* 200 station radios in 8 driver instances (as if 8 processes) sharing one
 * medium with the harness's AP. */
#define SCALE_DRIVERS 8
#define SCALE_PER_DRIVER 25
#define SCALE_STATIONS (SCALE_DRIVERS * SCALE_PER_DRIVER)

static int scans_done;

static void scale_event(void *ctx, const struct driver_event *ev)
{
	if (ev->type == DRIVER_EV_SCAN_DONE)
		scans_done++;
}

static bool found_crowd(struct driver *drv, uint32_t ifindex, const uint8_t bssid[6])
{
	struct driver_scan_results res = { 0 };
	bool found = false;
	ck_assert_int_eq(driver_get_scan_results(drv, ifindex, &res), 0);
	for (size_t k = 0; k < res.n && !found; k++) {
		char ssid[33];
		found = memcmp(res.results[k].bssid, bssid, 6) == 0 &&
			ies_find_ssid(res.results[k].ies, res.results[k].ies_len, ssid, sizeof(ssid)) >= 0 &&
			strcmp(ssid, "crowd") == 0;
	}
	driver_scan_results_free(&res);
	return found;
}

START_TEST(two_hundred_radios_find_the_ap)
{
	static struct driver *drivers[SCALE_DRIVERS];
	static uint32_t stations[SCALE_DRIVERS][SCALE_PER_DRIVER];
	scans_done = 0;

	uint64_t t0 = loop_now_us(H->loop);
	uint32_t ap = harness_iface(0, DRIVER_IFTYPE_AP);
	uint8_t bssid[6];
	harness_iface_addr(ap, bssid);
	harness_start_ap(ap, "crowd", FREQ);
	for (int d = 0; d < SCALE_DRIVERS; d++) {
		struct driver_radio_info radios[SCALE_PER_DRIVER];
		size_t n = 0;
		int err = 0;
		drivers[d] = driver_open("sim", H->loop, "medium=shared,radios=25", scale_event, NULL, &err);
		ck_assert_msg(drivers[d] != NULL, "driver %d: %d", d, err);
		ck_assert_int_eq(driver_list_radios(drivers[d], radios, SCALE_PER_DRIVER, &n), 0);
		ck_assert_uint_eq(n, SCALE_PER_DRIVER);
		for (int i = 0; i < SCALE_PER_DRIVER; i++) {
			ck_assert_int_eq(driver_iface_add(drivers[d], radios[i].id, NULL,
							  DRIVER_IFTYPE_STATION, NULL, &stations[d][i]), 0);
			ck_assert_int_eq(driver_iface_set_up(drivers[d], stations[d][i], true), 0);
		}
	}
	uint64_t t1 = loop_now_us(H->loop);
	struct driver_scan_params p = { .passive = true, .n_freqs = 1, .freqs = { FREQ } };
	for (int d = 0; d < SCALE_DRIVERS; d++)
		for (int i = 0; i < SCALE_PER_DRIVER; i++)
			ck_assert_int_eq(driver_scan_trigger(drivers[d], stations[d][i], &p), 0);
	uint64_t deadline = loop_now_us(H->loop) + 20000000;
	while (scans_done < SCALE_STATIONS && loop_now_us(H->loop) < deadline)
		loop_iterate(H->loop, 10);
	uint64_t t2 = loop_now_us(H->loop);
	ck_assert_int_eq(scans_done, SCALE_STATIONS);

	int found = 0;
	for (int d = 0; d < SCALE_DRIVERS; d++)
		for (int i = 0; i < SCALE_PER_DRIVER; i++)
			found += found_crowd(drivers[d], stations[d][i], bssid);
	ck_assert_int_eq(found, SCALE_STATIONS);

	struct medium_stats st;
	medium_get_stats(sim_driver_medium(H->drv), &st);
	printf("\nscale: %d simulated station radios (%d driver instances) + 1 AP on one medium\n",
	       SCALE_STATIONS, SCALE_DRIVERS);
	printf("  set-up of all interfaces:                      %8.1f ms\n",
	       (double)(t1 - t0) / 1000);
	printf("  passive scan of channel 6, all %d found the AP: %8.1f ms wall\n", found,
	       (double)(t2 - t1) / 1000);
	printf("  medium: %llu frames sent, %llu deliveries, %u radios attached\n",
	       (unsigned long long)st.frames_tx, (unsigned long long)st.frames_delivered, st.radios);
	for (int d = 0; d < SCALE_DRIVERS; d++)
		driver_close(drivers[d]);
}
END_TEST

static void scale_setup(void)
{
	conformance_options = "radios=2,medium=shared";
	harness_setup();
}

int main(void)
{
	Suite *s = suite_create("sim-air");
	TCase *tc = tcase_create("capture");
	tcase_add_checked_fixture(tc, harness_setup, harness_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, capture_is_decoded_by_tshark);
	tcase_add_test(tc, voice_is_never_blocked_by_background);
	suite_add_tcase(s, tc);
	TCase *scale = tcase_create("scale");
	tcase_add_checked_fixture(scale, scale_setup, harness_teardown);
	tcase_set_timeout(scale, 120);
	tcase_add_test(scale, two_hundred_radios_find_the_ap);
	suite_add_tcase(s, scale);

	conformance_options = "radios=2";
	SRunner *sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK); /* so the figures print in order */
	srunner_run_all(sr, CK_ENV);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
