/* The sim backend: options, radios and addresses, capabilities,
 * interfaces and their events, fault injection, regulatory rules, channel
 * rules for AP+station on one radio, the shared medium, hotplug. */
#include "tests/unit/test_sim_fixture.h"
#include "daemon/codec/ieee80211.h"
#include "drivers/sim/medium.h"
#include "drivers/sim/sim.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char logged[2048];

static void capture(enum log_level level, const char *tag, const char *line, void *data)
{
	size_t used = strlen(logged);
	snprintf(logged + used, sizeof(logged) - used, "%s\n", line);
}

static int open_err(const char *options)
{
	int err = 0;
	struct loop *loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	struct driver *drv = driver_open("sim", loop, options, NULL, NULL, &err);
	driver_close(drv);
	loop_free(loop);
	return drv ? 0 : err;
}

START_TEST(unknown_and_bad_options_are_refused_by_name)
{
	logged[0] = '\0';
	log_set_sink(capture, NULL);
	ck_assert_int_eq(open_err("radios=2,frobnicate=1"), -EINVAL);
	ck_assert_ptr_nonnull(strstr(logged, "frobnicate"));
	ck_assert_int_eq(open_err("radios=0"), -EINVAL);
	ck_assert_int_eq(open_err("radios=two"), -EINVAL);
	ck_assert_int_eq(open_err("addr=01:00:00:00:00:00"), -EINVAL); /* group address */
	ck_assert_int_eq(open_err("addr=02:00:00:00:00"), -EINVAL);
	ck_assert_int_eq(open_err("queue_limit=1"), -EINVAL);
	ck_assert_int_eq(open_err("country=ZZ"), -EINVAL);
	ck_assert_int_eq(open_err("fail=everything"), -EINVAL);
	ck_assert_int_eq(open_err("radios"), -EINVAL);
	ck_assert_int_eq(open_err("medium=/nonexistent/dir"), -ENOENT);
	log_set_sink(NULL, NULL);
	ck_assert_int_eq(open_err(""), 0);
	ck_assert_int_eq(open_err("radios=4,addr=02:10:20:30:40:50,name=phy,country=DE,"
				  "queue_limit=16,active_dwell=20,passive_dwell=100,beacon_loss=3"),
			 0);
}
END_TEST

START_TEST(radios_and_interfaces_get_distinct_addresses)
{
	simt_open("radios=4,addr=02:aa:00:00:00:10,name=phy");
	ck_assert_uint_eq(T->n_radios, 4);
	for (size_t i = 0; i < 4; i++) {
		char name[16];
		snprintf(name, sizeof(name), "phy%zu", i);
		ck_assert_str_eq(T->radios[i].name, name);
		ck_assert_uint_eq(T->radios[i].perm_addr[0], 0x02);
		for (size_t j = 0; j < i; j++) {
			ck_assert(memcmp(T->radios[i].perm_addr, T->radios[j].perm_addr, 6) != 0);
			/* Tables hashing on the last octet must not collide. */
			ck_assert_uint_ne(T->radios[i].perm_addr[5], T->radios[j].perm_addr[5]);
		}
	}
	uint8_t a[4][6];
	for (int i = 0; i < 4; i++)
		simt_addr(simt_iface(1, DRIVER_IFTYPE_STATION), a[i]);
	ck_assert_mem_eq(a[0], T->radios[1].perm_addr, 6); /* the first one is the radio's */
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < i; j++)
			ck_assert_uint_ne(a[i][5], a[j][5]);
	/* An address already taken is refused. */
	uint32_t ifindex;
	ck_assert_int_eq(driver_iface_add(T->drv, T->radios[2].id, "x", DRIVER_IFTYPE_STATION,
					  a[1], &ifindex), -EADDRINUSE);
}
END_TEST

START_TEST(capabilities_are_what_the_radio_does)
{
	struct driver_capa capa;
	ck_assert_int_eq(driver_get_capa(T->drv, T->radios[0].id, &capa), 0);
	uint32_t want = DRIVER_CAPA_USER_SME | DRIVER_CAPA_AP_STA_CONCURRENT |
			DRIVER_CAPA_QOS_QUEUES | DRIVER_CAPA_HW_CRYPTO | DRIVER_CAPA_DATA_PLANE |
			DRIVER_CAPA_REGULATORY | DRIVER_CAPA_HOTPLUG | DRIVER_CAPA_POWER_SAVE;
	ck_assert_uint_eq(capa.flags & want, want);
	ck_assert(!(capa.flags & DRIVER_CAPA_FULLMAC_CONNECT));
	ck_assert_uint_eq(capa.max_scan_ssids, 16);
	ck_assert_uint_ge(capa.max_ap_stations, 256);
	const struct driver_band_info *b2 = &capa.bands[DRIVER_BAND_2GHZ];
	const struct driver_band_info *b5 = &capa.bands[DRIVER_BAND_5GHZ];
	ck_assert(b2->present && b5->present && b2->ht);
	ck_assert_uint_eq(b2->n_channels, 14);
	for (size_t i = 0; i < 13; i++)
		ck_assert(!(b2->channels[i].flags & DRIVER_CHAN_DISABLED));
	ck_assert_uint_eq(b2->channels[13].number, 14);
	ck_assert(b2->channels[13].flags & DRIVER_CHAN_DISABLED);
	for (size_t i = 0; i < b5->n_channels; i++) {
		uint16_t n = b5->channels[i].number;
		bool radar = (b5->channels[i].flags & DRIVER_CHAN_RADAR) != 0;
		ck_assert_msg(radar == (n >= 52 && n <= 144), "channel %u radar flag", n);
	}
	ck_assert_uint_eq(b5->channels[0].number, 36);
	ck_assert_uint_eq(b5->channels[b5->n_channels - 1].number, 165);
	/* Every advertised pairwise cipher installs; TKIP (not advertised) does not. */
	uint32_t sta = simt_iface(0, DRIVER_IFTYPE_STATION);
	static const struct { uint32_t c; size_t len; } ciphers[] = {
		{ DRIVER_CIPHER_CCMP_128, 16 }, { DRIVER_CIPHER_CCMP_256, 32 },
		{ DRIVER_CIPHER_GCMP_128, 16 }, { DRIVER_CIPHER_GCMP_256, 32 },
		{ DRIVER_CIPHER_TKIP, 32 },
	};
	for (size_t i = 0; i < sizeof(ciphers) / sizeof(ciphers[0]); i++) {
		struct driver_key k = { .type = DRIVER_KEY_PAIRWISE, .cipher = ciphers[i].c,
					.key_len = ciphers[i].len, .addr = { 2, 9, 9, 9, 9, 9 } };
		int err = driver_key_set(T->drv, sta, &k);
		ck_assert_int_eq(err == 0, (capa.ciphers & ciphers[i].c) != 0);
	}
	struct driver_key igtk = { .type = DRIVER_KEY_IGTK, .cipher = DRIVER_CIPHER_BIP_CMAC_128,
				   .key_idx = 4, .key_len = 16 };
	ck_assert(capa.ciphers & DRIVER_CIPHER_BIP_CMAC_128);
	ck_assert_int_eq(driver_key_set(T->drv, sta, &igtk), 0);
	uint8_t seq[6];
	ck_assert_int_eq(driver_key_get_seq(T->drv, sta, DRIVER_KEY_IGTK, 4, NULL, seq), 0);
	ck_assert_int_eq(driver_key_del(T->drv, sta, DRIVER_KEY_IGTK, 4, NULL), 0);
	ck_assert_int_eq(driver_key_del(T->drv, sta, DRIVER_KEY_IGTK, 4, NULL), -ENOENT);
}
END_TEST

START_TEST(interface_events_are_deferred_and_ordered)
{
	uint32_t ifindex = 0;
	ck_assert_int_eq(driver_iface_add(T->drv, T->radios[0].id, "deferred",
					  DRIVER_IFTYPE_STATION, NULL, &ifindex), 0);
	/* No callback from inside the op. */
	ck_assert_uint_eq(simt_count(DRIVER_EV_IFACE_NEW, 0), 0);
	ck_assert_int_eq(driver_iface_del(T->drv, ifindex), 0);
	simt_run(20);
	ck_assert_uint_eq(T->n_ev, 2);
	ck_assert_int_eq(T->ev[0]->type, DRIVER_EV_IFACE_NEW);
	ck_assert_int_eq(T->ev[1]->type, DRIVER_EV_IFACE_DEL);
	ck_assert_uint_eq(T->ev[1]->ifindex, ifindex);
	ck_assert_int_eq(driver_iface_del(T->drv, ifindex), -ENODEV);
	ck_assert_int_eq(driver_iface_add(T->drv, 4242, NULL, DRIVER_IFTYPE_STATION, NULL,
					  &ifindex), -ENODEV);
	ck_assert_int_eq(driver_iface_add(T->drv, T->radios[0].id, NULL, DRIVER_IFTYPE_MESH, NULL,
					  &ifindex), -EOPNOTSUPP);
}
END_TEST

START_TEST(firmware_fault_reports_and_refuses_to_come_up)
{
	simt_open("radios=2,fail=firmware");
	struct simt_event *ev = simt_wait(DRIVER_EV_RADIO_ERROR, 0, 500);
	ck_assert_ptr_nonnull(ev);
	ck_assert_int_eq(ev->radio_error, DRIVER_RADIO_ERR_FIRMWARE_MISSING);
	ck_assert_int_eq(ev->err, -ENOENT);
	ck_assert_ptr_nonnull(simt_wait(DRIVER_EV_RADIO_ERROR, 0, 500)); /* the second radio */
	uint32_t ifindex = 0;
	ck_assert_int_eq(driver_iface_add(T->drv, T->radios[0].id, NULL, DRIVER_IFTYPE_STATION,
					  NULL, &ifindex), 0);
	ck_assert_int_eq(driver_iface_set_up(T->drv, ifindex, true), -EIO);
	struct driver_scan_params p = { .passive = true };
	ck_assert_int_eq(driver_scan_trigger(T->drv, ifindex, &p), -ENETDOWN);
}
END_TEST

static uint32_t chan_flags(uint32_t freq)
{
	struct driver_capa capa;
	ck_assert_int_eq(driver_get_capa(T->drv, T->radios[0].id, &capa), 0);
	for (int b = 0; b < DRIVER_BAND_COUNT; b++)
		for (size_t i = 0; i < capa.bands[b].n_channels; i++)
			if (capa.bands[b].channels[i].freq_mhz == freq)
				return capa.bands[b].channels[i].flags;
	ck_abort_msg("no channel %u", freq);
	return 0;
}

static int start_ap_on(uint32_t ap, uint32_t freq)
{
	uint8_t bssid[6], head[128];
	simt_addr(ap, bssid);
	struct driver_ap_params p = { .freq_mhz = freq, .beacon_interval = 100,
				      .dtim_period = 1, .beacon_head = head };
	p.beacon_head_len = simt_beacon_head(head, bssid, "reg", freq, 0x0080);
	p.ssid.len = 3;
	memcpy(p.ssid.ssid, "reg", 3);
	return driver_start_ap(T->drv, ap, &p);
}

START_TEST(regulatory_domains_change_the_channels)
{
	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	struct driver_regulatory reg;
	ck_assert_int_eq(driver_get_regulatory(T->drv, T->radios[0].id, &reg), 0);
	ck_assert_str_eq(reg.alpha2, "00");
	ck_assert(chan_flags(2467) & DRIVER_CHAN_NO_IR); /* world: 12/13 passive */
	ck_assert_int_eq(start_ap_on(ap, 2467), -EPERM);
	ck_assert_int_eq(start_ap_on(ap, 5260), -EPERM); /* radar: no CAC simulated */
	ck_assert_int_eq(start_ap_on(ap, 1234), -EINVAL);

	ck_assert_int_eq(driver_set_regulatory(T->drv, "US"), 0);
	for (size_t i = 0; i < T->n_radios; i++)
		ck_assert_ptr_nonnull(simt_wait(DRIVER_EV_REG_CHANGE, 0, 500));
	ck_assert(chan_flags(2472) & DRIVER_CHAN_DISABLED);
	ck_assert(!(chan_flags(5745) & DRIVER_CHAN_DISABLED));
	ck_assert_int_eq(driver_set_channel(T->drv, sta, 2472), -EPERM);
	ck_assert_int_eq(driver_set_channel(T->drv, sta, 2484), -EPERM);
	ck_assert_int_eq(driver_set_channel(T->drv, sta, 2000), -EINVAL);
	ck_assert_int_eq(start_ap_on(ap, 5745), 0);
	ck_assert_int_eq(driver_stop_ap(T->drv, ap), 0);

	ck_assert_int_eq(driver_set_regulatory(T->drv, "JP"), 0);
	ck_assert(chan_flags(5745) & DRIVER_CHAN_DISABLED);
	ck_assert(!(chan_flags(2472) & DRIVER_CHAN_DISABLED));
	ck_assert_int_eq(driver_set_regulatory(T->drv, "DE"), 0);
	ck_assert(chan_flags(5720) & DRIVER_CHAN_DISABLED); /* 144 is not ETSI */
	ck_assert(chan_flags(5180) & DRIVER_CHAN_INDOOR_ONLY);
	ck_assert_int_eq(driver_get_regulatory(T->drv, T->radios[1].id, &reg), 0);
	ck_assert_str_eq(reg.alpha2, "DE");
	ck_assert(reg.dfs_required);
	ck_assert_uint_gt(reg.n_rules, 0);
	ck_assert_int_eq(driver_set_regulatory(T->drv, "XX"), -EINVAL);
	ck_assert_int_eq(driver_set_regulatory(T->drv, "d"), -EINVAL);
	ck_assert_int_eq(driver_get_regulatory(T->drv, 999, &reg), -ENODEV);
}
END_TEST

START_TEST(ap_follows_the_station_of_its_radio)
{
	uint32_t remote_ap = simt_iface(1, DRIVER_IFTYPE_AP);
	uint32_t sta = simt_iface(0, DRIVER_IFTYPE_STATION);
	uint32_t local_ap = simt_iface(0, DRIVER_IFTYPE_AP);
	simt_start_ap(remote_ap, "uplink", SIMT_CH6);
	ck_assert_int_eq(start_ap_on(local_ap, SIMT_CH1), 0);
	simt_connect(sta, remote_ap, "uplink", SIMT_CH6);
	struct driver_iface_info info;
	ck_assert_int_eq(driver_iface_info(T->drv, local_ap, &info), 0);
	ck_assert_uint_eq(info.freq_mhz, SIMT_CH6); /* moved with the station */
	/* A second AP of the radio cannot go elsewhere. */
	uint32_t other_ap = simt_iface(0, DRIVER_IFTYPE_AP);
	ck_assert_int_eq(start_ap_on(other_ap, SIMT_CH1), -EBUSY);
	ck_assert_int_eq(start_ap_on(other_ap, SIMT_CH6), 0);
	/* Busy interfaces keep their type and channel. */
	ck_assert_int_eq(driver_iface_set_type(T->drv, other_ap, DRIVER_IFTYPE_STATION), -EBUSY);
	ck_assert_int_eq(driver_set_channel(T->drv, sta, SIMT_CH1), -EBUSY);
}
END_TEST

/* channel_switch refuses what cfg80211 refuses: no count offset, or one
 * that does not point at the count in the CSA tail. */
START_TEST(channel_switch_checks_the_count_offsets)
{
	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	ck_assert_int_eq(start_ap_on(ap, SIMT_CH1), 0);
	uint8_t bssid[6], head[128];
	static uint8_t tail[5] = { WLAN_EID_CHANNEL_SWITCH, 3, 0, 6, 5 };
	simt_addr(ap, bssid);
	struct driver_csa_params p = { .chandef = { .control_mhz = SIMT_CH6, .width_mhz = 20,
						    .center1_mhz = SIMT_CH6 },
				       .count = 5, .n_offsets = 1, .offsets_tail = { 4 } };
	p.beacon_after = (struct driver_ap_params){ .freq_mhz = SIMT_CH6, .beacon_interval = 100,
						    .dtim_period = 1, .beacon_head = head };
	p.beacon_after.beacon_head_len = simt_beacon_head(head, bssid, "reg", SIMT_CH6, 0x0080);
	p.beacon_csa = p.beacon_after;
	p.beacon_csa.beacon_tail = tail;
	p.beacon_csa.beacon_tail_len = sizeof(tail);
	p.n_offsets = 0;
	ck_assert_int_eq(driver_channel_switch(T->drv, ap, &p), -EINVAL);
	p.n_offsets = 1;
	p.offsets_tail[0] = 3; /* the channel number, not the count */
	ck_assert_int_eq(driver_channel_switch(T->drv, ap, &p), -EINVAL);
	p.offsets_tail[0] = sizeof(tail);
	ck_assert_int_eq(driver_channel_switch(T->drv, ap, &p), -EINVAL);
	p.offsets_tail[0] = 4;
	ck_assert_int_eq(driver_channel_switch(T->drv, ap, &p), 0);
}
END_TEST

START_TEST(ap_interfaces_per_radio_are_limited)
{
	struct driver_capa capa;
	ck_assert_int_eq(driver_get_capa(T->drv, T->radios[2].id, &capa), 0);
	uint32_t ifindex;
	for (unsigned i = 0; i < capa.max_ap_interfaces; i++)
		ck_assert_int_eq(driver_iface_add(T->drv, T->radios[2].id, NULL, DRIVER_IFTYPE_AP,
						  NULL, &ifindex), 0);
	ck_assert_int_eq(driver_iface_add(T->drv, T->radios[2].id, NULL, DRIVER_IFTYPE_AP, NULL,
					  &ifindex), -EBUSY);
	ck_assert_int_eq(driver_iface_add(T->drv, T->radios[2].id, NULL, DRIVER_IFTYPE_STATION,
					  NULL, &ifindex), 0);
}
END_TEST

static int other_scans_done;

static void other_events(void *ctx, const struct driver_event *ev)
{
	if (ev->type == DRIVER_EV_SCAN_DONE)
		other_scans_done++;
}

START_TEST(shared_medium_connects_instances)
{
	simt_open("radios=1,medium=shared");
	int err = 0;
	struct driver *other = driver_open("sim", T->loop, "radios=1,medium=shared", other_events,
					   NULL, &err);
	ck_assert_ptr_nonnull(other);
	ck_assert_ptr_eq(sim_driver_medium(other), sim_driver_medium(T->drv));
	struct driver_radio_info r;
	size_t n = 0;
	ck_assert_int_eq(driver_list_radios(other, &r, 1, &n), 0);
	ck_assert(memcmp(r.perm_addr, T->radios[0].perm_addr, 6) != 0);

	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	uint8_t bssid[6];
	simt_addr(ap, bssid);
	simt_start_ap(ap, "across", SIMT_CH1);
	uint32_t sta = 0;
	ck_assert_int_eq(driver_iface_add(other, r.id, NULL, DRIVER_IFTYPE_STATION, NULL, &sta), 0);
	ck_assert_int_eq(driver_iface_set_up(other, sta, true), 0);
	struct driver_scan_params p = { .passive = true, .n_freqs = 1, .freqs = { SIMT_CH1 } };
	ck_assert_int_eq(driver_scan_trigger(other, sta, &p), 0);
	for (int i = 0; i < 100 && !other_scans_done; i++)
		simt_run(10);
	ck_assert_int_eq(other_scans_done, 1);
	struct driver_scan_results res = { 0 };
	ck_assert_int_eq(driver_get_scan_results(other, sta, &res), 0);
	bool found = false;
	for (size_t i = 0; i < res.n; i++)
		found |= memcmp(res.results[i].bssid, bssid, 6) == 0;
	driver_scan_results_free(&res);
	ck_assert_msg(found, "the other instance did not hear the AP");
	driver_close(other);
	/* The medium survives the other instance. */
	ck_assert_ptr_nonnull(sim_driver_medium(T->drv));
}
END_TEST

START_TEST(medium_in_a_folder_is_reached_by_path)
{
	char dir[] = "/tmp/wpad-sim-medium-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	struct loop *loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	int err = 0;
	struct medium *m = medium_new(loop, dir, &err);
	ck_assert_msg(m != NULL, "medium_new(%s): %d", dir, err);
	char opts[128];
	snprintf(opts, sizeof(opts), "radios=2,medium=%s", dir);
	/* The fixture's own loop is replaced by the medium's. */
	T = calloc(1, sizeof(*T));
	T->loop = loop;
	T->drv = driver_open("sim", loop, opts, NULL, NULL, &err);
	ck_assert_msg(T->drv != NULL, "driver_open(%s): %d", opts, err);
	ck_assert_ptr_null(sim_driver_medium(T->drv));
	ck_assert_int_eq(driver_list_radios(T->drv, T->radios, 16, &T->n_radios), 0);
	uint32_t ap = simt_iface(0, DRIVER_IFTYPE_AP);
	uint32_t sta = simt_iface(1, DRIVER_IFTYPE_STATION);
	uint8_t bssid[6];
	simt_addr(ap, bssid);
	simt_start_ap(ap, "folder", SIMT_CH1);
	struct driver_scan_params p = { .passive = true, .n_freqs = 1, .freqs = { SIMT_CH1 } };
	ck_assert_int_eq(driver_scan_trigger(T->drv, sta, &p), 0);
	simt_run(200);
	struct driver_scan_results res = { 0 };
	ck_assert_int_eq(driver_get_scan_results(T->drv, sta, &res), 0);
	bool found = false;
	for (size_t i = 0; i < res.n; i++)
		found |= memcmp(res.results[i].bssid, bssid, 6) == 0;
	driver_scan_results_free(&res);
	ck_assert_msg(found, "no beacon through the medium at %s", dir);
	struct medium_stats st;
	medium_get_stats(m, &st);
	ck_assert_uint_eq(st.radios, 2);
	driver_close(T->drv);
	T->drv = NULL;
	medium_free(m);
	loop_free(loop);
	free(T);
	T = NULL;
	rmdir(dir);
}
END_TEST

START_TEST(radios_can_be_hotplugged)
{
	uint32_t id = 0;
	ck_assert_int_eq(sim_driver_radio_add(T->drv, &id), 0);
	struct simt_event *ev = simt_wait(DRIVER_EV_RADIO_NEW, 0, 500);
	ck_assert_ptr_nonnull(ev);
	ck_assert_uint_eq(ev->radio_id, id);
	struct driver_radio_info radios[8];
	size_t n = 0;
	ck_assert_int_eq(driver_list_radios(T->drv, radios, 8, &n), 0);
	ck_assert_uint_eq(n, 4);
	uint32_t ifindex = 0;
	ck_assert_int_eq(driver_iface_add(T->drv, id, NULL, DRIVER_IFTYPE_STATION, NULL, &ifindex),
			 0);
	ck_assert_int_eq(sim_driver_radio_remove(T->drv, id), 0);
	ck_assert_ptr_nonnull(simt_wait(DRIVER_EV_IFACE_DEL, ifindex, 500));
	ck_assert_ptr_nonnull(simt_wait(DRIVER_EV_RADIO_DEL, 0, 500));
	struct driver_iface_info info;
	ck_assert_int_eq(driver_iface_info(T->drv, ifindex, &info), -ENODEV);
	struct driver_capa capa;
	ck_assert_int_lt(driver_get_capa(T->drv, id, &capa), 0);
	ck_assert_int_eq(sim_driver_radio_remove(T->drv, id), -ENODEV);
}
END_TEST

static struct loop *closing_loop;
static struct driver *closing_drv;
static int closing_events;

static void close_on_first_event(void *ctx, const struct driver_event *ev)
{
	closing_events++;
	if (closing_drv) {
		driver_close(closing_drv);
		closing_drv = NULL;
	}
}

START_TEST(driver_may_be_closed_from_an_event_callback)
{
	int err = 0;
	closing_loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	closing_drv = driver_open("sim", closing_loop, "radios=1", close_on_first_event, NULL, &err);
	ck_assert_ptr_nonnull(closing_drv);
	struct driver_radio_info r;
	size_t n;
	ck_assert_int_eq(driver_list_radios(closing_drv, &r, 1, &n), 0);
	uint32_t a, b;
	ck_assert_int_eq(driver_iface_add(closing_drv, r.id, NULL, DRIVER_IFTYPE_STATION, NULL, &a),
			 0);
	ck_assert_int_eq(driver_iface_add(closing_drv, r.id, NULL, DRIVER_IFTYPE_AP, NULL, &b), 0);
	for (int i = 0; i < 5; i++)
		loop_iterate(closing_loop, 5);
	ck_assert_int_eq(closing_events, 1); /* the rest went with the instance */
	ck_assert_ptr_null(closing_drv);
	loop_free(closing_loop);
}
END_TEST

START_TEST(unknown_interface_and_wrong_role)
{
	uint32_t sta = simt_iface(0, DRIVER_IFTYPE_STATION);
	uint32_t mon = simt_iface(0, DRIVER_IFTYPE_MONITOR);
	struct driver_sta_params sp = { .addr = { 2, 1, 2, 3, 4, 5 } };
	ck_assert_int_eq(driver_sta_add(T->drv, sta, &sp), -EOPNOTSUPP);
	ck_assert_int_eq(driver_sta_add(T->drv, 777777, &sp), -ENODEV);
	ck_assert_int_eq(driver_set_power_save(T->drv, sta, true), 0);
	ck_assert_int_eq(driver_set_power_save(T->drv, mon, true), -EOPNOTSUPP);
	struct driver_scan_params p = { 0 };
	ck_assert_int_eq(driver_scan_trigger(T->drv, mon, &p), -EOPNOTSUPP);
	ck_assert_int_eq(driver_register_mgmt(T->drv, sta, 0x0008, NULL, 0), -EINVAL); /* data */
	ck_assert_int_eq(driver_register_mgmt(T->drv, sta, 0x00d0, NULL, 0), 0);
	ck_assert_int_eq(driver_register_mgmt(T->drv, sta, 0x00d0, NULL, 0), -EALREADY);
	struct driver_assoc_params ap = { .freq_mhz = SIMT_CH1 };
	ck_assert_int_eq(driver_associate(T->drv, sta, &ap), -ENOLINK); /* not authenticated */
	ck_assert_int_eq(driver_connect(T->drv, sta, &ap), -EOPNOTSUPP);
	ck_assert_int_eq(driver_deauthenticate(T->drv, sta, ap.bssid, 3), -ENOTCONN);
}
END_TEST

Suite *make_sim_core_suite(void)
{
	Suite *s = suite_create("sim_core");
	TCase *plain = tcase_create("plain");
	tcase_add_test(plain, unknown_and_bad_options_are_refused_by_name);
	tcase_add_test(plain, driver_may_be_closed_from_an_event_callback);
	suite_add_tcase(s, plain);

	TCase *own = tcase_create("own-instance");
	tcase_add_checked_fixture(own, NULL, simt_teardown);
	tcase_set_timeout(own, 20);
	tcase_add_test(own, radios_and_interfaces_get_distinct_addresses);
	tcase_add_test(own, firmware_fault_reports_and_refuses_to_come_up);
	tcase_add_test(own, shared_medium_connects_instances);
	tcase_add_test(own, medium_in_a_folder_is_reached_by_path);
	suite_add_tcase(s, own);

	TCase *tc = tcase_create("radios");
	tcase_add_checked_fixture(tc, simt_setup, simt_teardown);
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, capabilities_are_what_the_radio_does);
	tcase_add_test(tc, interface_events_are_deferred_and_ordered);
	tcase_add_test(tc, regulatory_domains_change_the_channels);
	tcase_add_test(tc, ap_follows_the_station_of_its_radio);
	tcase_add_test(tc, channel_switch_checks_the_count_offsets);
	tcase_add_test(tc, ap_interfaces_per_radio_are_limited);
	tcase_add_test(tc, radios_can_be_hotplugged);
	tcase_add_test(tc, unknown_interface_and_wrong_role);
	suite_add_tcase(s, tc);
	return s;
}
