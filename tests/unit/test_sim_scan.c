/* The sim backend's scanning: probe requests, passive listening, the BSS
 * table, probe-response offload, regulatory limits on what is scanned and
 * how, abort, and removal of an interface in the middle of a scan. */
#include "tests/unit/test_sim_fixture.h"
#include "daemon/core/loop.h"

#include <check.h>
#include <errno.h>
#include <string.h>

static const struct driver_scan_result *find_bss(const struct driver_scan_results *res,
						 const uint8_t bssid[6])
{
	for (size_t i = 0; i < res->n; i++)
		if (memcmp(res->results[i].bssid, bssid, 6) == 0)
			return &res->results[i];
	return NULL;
}

static void scan(uint32_t sta, const struct driver_scan_params *p)
{
	ck_assert_int_eq(driver_scan_trigger(T->drv, sta, p), 0);
	ck_assert_ptr_nonnull(simt_wait(DRIVER_EV_SCAN_STARTED, sta, 500));
	ck_assert_msg(simt_wait(DRIVER_EV_SCAN_DONE, sta, 5000) != NULL, "scan did not finish");
}

/* The SSID element of a probe request seen by the AP, as a string. */
static bool probe_has_ssid(const struct simt_event *ev, const char *ssid)
{
	size_t len = strlen(ssid);
	return ev->len >= 26 + len && ev->data[24] == 0 && ev->data[25] == len &&
	       memcmp(ev->data + 26, ssid, len) == 0;
}

START_TEST(active_scan_probes_and_finds_the_ap)
{
	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t bssid[6], sta_addr[6];
	simt_addr(ap, bssid);
	simt_addr(sta, sta_addr);
	simt_start_ap(ap, "scanme", SIMT_CH6);
	struct driver_scan_params p = { .n_ssids = 2, .n_freqs = 2,
					.freqs = { SIMT_CH1, SIMT_CH6 } };
	p.ssids[0].len = 6;
	memcpy(p.ssids[0].ssid, "scanme", 6);
	p.ssids[1].len = 5;
	memcpy(p.ssids[1].ssid, "other", 5);
	scan(sta, &p);

	/* One probe request per SSID on the AP's channel, from the station. */
	struct simt_event *a = simt_wait(DRIVER_EV_RX_MGMT, ap, 100);
	struct simt_event *b = simt_wait(DRIVER_EV_RX_MGMT, ap, 100);
	ck_assert(a && b);
	ck_assert_uint_eq(simt_fc(a->data), 0x0040);
	ck_assert_mem_eq(a->data + 10, sta_addr, 6);
	ck_assert(probe_has_ssid(a, "scanme") || probe_has_ssid(b, "scanme"));
	ck_assert(probe_has_ssid(a, "other") || probe_has_ssid(b, "other"));

	struct driver_scan_results res = { 0 };
	ck_assert_int_eq(driver_get_scan_results(T->drv, sta, &res), 0);
	const struct driver_scan_result *r = find_bss(&res, bssid);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->freq_mhz, SIMT_CH6);
	ck_assert_uint_eq(r->beacon_interval, 100);
	ck_assert_uint_eq(r->capability & 1, 1);
	ck_assert_int_eq(r->signal_mbm, -4000); /* the medium's default pair signal */
	ck_assert(!r->from_probe_resp);
	ck_assert_uint_gt(r->ies_len, 8);
	ck_assert_uint_eq(r->ies[0], 0); /* SSID first, as the head template had it */
	ck_assert_uint_eq(r->ies[1], 6);
	/* The TIM the radio inserted is there too. */
	bool tim = false;
	for (size_t i = 0; i + 1 < r->ies_len; i += 2u + r->ies[i + 1])
		tim |= r->ies[i] == 5 && r->ies[i + 1] == 4 && r->ies[i + 3] == 2;
	ck_assert_msg(tim, "no TIM with DTIM period 2 in the beacon");
	driver_scan_results_free(&res);

	/* Results age. */
	simt_run(60);
	ck_assert_int_eq(driver_get_scan_results(T->drv, sta, &res), 0);
	ck_assert_uint_ge(find_bss(&res, bssid)->age_ms, 50);
	driver_scan_results_free(&res);
}
END_TEST

START_TEST(passive_scan_sends_nothing)
{
	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t bssid[6];
	simt_addr(ap, bssid);
	simt_start_ap(ap, "quiet", SIMT_CH1);
	struct driver_scan_params p = { .passive = true, .n_freqs = 1, .freqs = { SIMT_CH1 } };
	scan(sta, &p);
	ck_assert_uint_eq(simt_count(DRIVER_EV_RX_MGMT, ap), 0);
	struct driver_scan_results res = { 0 };
	ck_assert_int_eq(driver_get_scan_results(T->drv, sta, &res), 0);
	ck_assert_ptr_nonnull(find_bss(&res, bssid));
	driver_scan_results_free(&res);
}
END_TEST

/* Starts an AP with a long beacon interval and a probe-response template. */
static void start_offload_ap(uint32_t ap, const char *ssid, bool hidden)
{
	uint8_t bssid[6], head[128], pr[128];
	simt_addr(ap, bssid);
	struct driver_ap_params p = { .freq_mhz = SIMT_CH6, .beacon_interval = 1000,
				      .dtim_period = 1, .hidden_ssid = hidden,
				      .beacon_head = head, .probe_resp = pr };
	p.beacon_head_len = simt_beacon_head(head, bssid, hidden ? "" : ssid, SIMT_CH6, 0x0080);
	p.probe_resp_len = simt_beacon_head(pr, bssid, ssid, SIMT_CH6, 0x0050);
	p.ssid.len = (uint8_t)strlen(ssid);
	memcpy(p.ssid.ssid, ssid, p.ssid.len);
	ck_assert_int_eq(driver_start_ap(T->drv, ap, &p), 0);
	ck_assert_int_eq(driver_register_mgmt(T->drv, ap, 0x0040, NULL, 0), 0);
}

START_TEST(probe_response_offload_answers_for_the_ap)
{
	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t bssid[6];
	simt_addr(ap, bssid);
	start_offload_ap(ap, "offload", false);
	simt_run(30); /* let the first beacon go; the next is a second away */
	struct driver_scan_params p = { .n_freqs = 1, .freqs = { SIMT_CH6 }, .dwell_ms = 40 };
	scan(sta, &p);
	ck_assert_uint_eq(simt_count(DRIVER_EV_RX_MGMT, ap), 0); /* answered, not passed up */
	struct driver_scan_results res = { 0 };
	ck_assert_int_eq(driver_get_scan_results(T->drv, sta, &res), 0);
	const struct driver_scan_result *r = find_bss(&res, bssid);
	ck_assert_ptr_nonnull(r);
	ck_assert(r->from_probe_resp);
	driver_scan_results_free(&res);
}
END_TEST

START_TEST(hidden_ssid_answers_only_directed_probes)
{
	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t bssid[6];
	simt_addr(ap, bssid);
	start_offload_ap(ap, "secret", true);
	simt_run(30);
	struct driver_scan_params wild = { .n_freqs = 1, .freqs = { SIMT_CH6 }, .dwell_ms = 40 };
	scan(sta, &wild);
	struct driver_scan_results res = { 0 };
	ck_assert_int_eq(driver_get_scan_results(T->drv, sta, &res), 0);
	ck_assert_ptr_null(find_bss(&res, bssid)); /* the beacon was long gone */
	driver_scan_results_free(&res);

	struct driver_scan_params directed = wild;
	directed.n_ssids = 1;
	directed.ssids[0].len = 6;
	memcpy(directed.ssids[0].ssid, "secret", 6);
	scan(sta, &directed);
	ck_assert_int_eq(driver_get_scan_results(T->drv, sta, &res), 0);
	const struct driver_scan_result *r = find_bss(&res, bssid);
	ck_assert_ptr_nonnull(r);
	ck_assert(r->from_probe_resp);
	driver_scan_results_free(&res);

	/* The hidden beacons heard next do not take the name away again. */
	struct driver_scan_params listen = { .passive = true, .n_freqs = 1,
					     .freqs = { SIMT_CH6 }, .dwell_ms = 1100 };
	scan(sta, &listen);
	ck_assert_int_eq(driver_get_scan_results(T->drv, sta, &res), 0);
	r = find_bss(&res, bssid);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_lt(r->age_ms, 1100); /* a beacon was heard */
	ck_assert(r->from_probe_resp);
	ck_assert(r->ies_len >= 8 && r->ies[0] == 0 && r->ies[1] == 6);
	ck_assert_mem_eq(r->ies + 2, "secret", 6);
	driver_scan_results_free(&res);
}
END_TEST

START_TEST(regulatory_limits_what_and_how_we_scan)
{
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	uint32_t mon = simt_iface(2, DRIVER_IFTYPE_MONITOR);
	/* World domain: channel 36 is NO_IR, so an active scan only listens
	 * there; a monitor on the channel hears no probe request. */
	ck_assert_int_eq(driver_set_channel(T->drv, mon, SIMT_CH36), 0);
	struct driver_scan_params p = { .n_freqs = 1, .freqs = { SIMT_CH36 }, .dwell_ms = 20 };
	scan(sta, &p);
	ck_assert_uint_eq(simt_count(DRIVER_EV_RX_MGMT, mon), 0);
	/* On channel 1 it does probe. */
	ck_assert_int_eq(driver_set_channel(T->drv, mon, SIMT_CH1), 0);
	p.freqs[0] = SIMT_CH1;
	scan(sta, &p);
	struct simt_event *ev = simt_wait(DRIVER_EV_RX_MGMT, mon, 200);
	ck_assert_ptr_nonnull(ev);
	ck_assert_uint_eq(simt_fc(ev->data), 0x0040);

	/* Disabled channels are never visited. */
	ck_assert_int_eq(driver_set_regulatory(T->drv, "US"), 0);
	struct driver_scan_params off = { .n_freqs = 1, .freqs = { 2472 } };
	ck_assert_int_eq(driver_scan_trigger(T->drv, sta, &off), -EINVAL);
	off.freqs[0] = 2484;
	ck_assert_int_eq(driver_scan_trigger(T->drv, sta, &off), -EINVAL);
	off.freqs[0] = 4321;
	ck_assert_int_eq(driver_scan_trigger(T->drv, sta, &off), -EINVAL);
	struct driver_scan_params many = { .n_ssids = 17 };
	ck_assert_int_eq(driver_scan_trigger(T->drv, sta, &many), -EINVAL);
}
END_TEST

START_TEST(scan_abort_and_busy)
{
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	struct driver_scan_params p = { .passive = true };
	ck_assert_int_eq(driver_scan_trigger(T->drv, sta, &p), 0);
	ck_assert_int_eq(driver_scan_trigger(T->drv, sta, &p), -EBUSY);
	simt_run(20);
	ck_assert_int_eq(driver_scan_abort(T->drv, sta), 0);
	ck_assert_ptr_nonnull(simt_wait(DRIVER_EV_SCAN_ABORTED, sta, 500));
	ck_assert_int_eq(driver_scan_abort(T->drv, sta), -ENOENT);
	simt_run(150);
	ck_assert_uint_eq(simt_count(DRIVER_EV_SCAN_DONE, sta), 0);
	struct driver_scan_params quick = { .n_freqs = 1, .freqs = { SIMT_CH1 }, .dwell_ms = 10 };
	scan(sta, &quick);
}
END_TEST

START_TEST(interface_removed_mid_scan_yields_events)
{
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	struct driver_scan_params p = { .passive = true };
	ck_assert_int_eq(driver_scan_trigger(T->drv, sta, &p), 0);
	simt_run(30);
	ck_assert_int_eq(driver_iface_del(T->drv, sta), 0);
	ck_assert_ptr_nonnull(simt_wait(DRIVER_EV_SCAN_ABORTED, sta, 500));
	ck_assert_ptr_nonnull(simt_wait(DRIVER_EV_IFACE_DEL, sta, 500));
	/* SCAN_ABORTED came first. */
	size_t abort_at = 0, del_at = 0;
	for (size_t i = 0; i < T->n_ev; i++) {
		if (T->ev[i]->ifindex != sta)
			continue;
		if (T->ev[i]->type == DRIVER_EV_SCAN_ABORTED)
			abort_at = i;
		if (T->ev[i]->type == DRIVER_EV_IFACE_DEL)
			del_at = i;
	}
	ck_assert_uint_lt(abort_at, del_at);
	simt_run(300); /* a stale dwell timer would fire here */
	ck_assert_uint_eq(simt_count(DRIVER_EV_SCAN_DONE, sta), 0);
	struct driver_scan_results res;
	ck_assert_int_eq(driver_get_scan_results(T->drv, sta, &res), -ENODEV);
}
END_TEST

START_TEST(interface_down_aborts_the_scan)
{
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	struct driver_scan_params p = { .passive = true };
	ck_assert_int_eq(driver_scan_trigger(T->drv, sta, &p), 0);
	ck_assert_int_eq(driver_iface_set_up(T->drv, sta, false), 0);
	ck_assert_ptr_nonnull(simt_wait(DRIVER_EV_SCAN_ABORTED, sta, 500));
	ck_assert_int_eq(driver_scan_trigger(T->drv, sta, &p), -ENETDOWN);
}
END_TEST

Suite *make_sim_scan_suite(void)
{
	Suite *s = suite_create("sim_scan");
	TCase *tc = tcase_create("scan");
	tcase_add_checked_fixture(tc, simt_setup, simt_teardown);
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, active_scan_probes_and_finds_the_ap);
	tcase_add_test(tc, passive_scan_sends_nothing);
	tcase_add_test(tc, probe_response_offload_answers_for_the_ap);
	tcase_add_test(tc, hidden_ssid_answers_only_directed_probes);
	tcase_add_test(tc, regulatory_limits_what_and_how_we_scan);
	tcase_add_test(tc, scan_abort_and_busy);
	tcase_add_test(tc, interface_removed_mid_scan_yields_events);
	tcase_add_test(tc, interface_down_aborts_the_scan);
	suite_add_tcase(s, tc);
	return s;
}
