#define _GNU_SOURCE
/* An access point whose radio's station joins a BSS on another channel
 * (issue 17, item 4): the AP announces its move with a Channel Switch
 * Announcement before the station takes the radio there, and a station
 * associated to the AP follows without disconnecting. The whole daemon
 * (wpad.c's composition) on simulated radios and the virtual clock:
 *
 *   r0: AccessPoint "hot" (channel 6) and Station "up", one radio
 *   r1: AccessPoint "uplink" (channel 11), where "up" goes
 *   r2: Station "guest", associated to "hot"
 *   a fourth sim instance on the medium: a monitor that records hot's
 *   beacons. */
#include "daemon/ap/ap.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ie_set.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/config/wpad_conf.h"
#include "daemon/core/loop.h"
#include "daemon/station/station.h"
#include "daemon/wpad.h"
#include "drivers/driver.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FOLLOW_CONF_FMT                                                                            \
	"[General]\nStateDirectory=%s\n"                                                           \
	"[Radio r0]\nDriver=sim\nOptions=medium=shared,radios=1\n"                                 \
	"[Radio r1]\nDriver=sim\nOptions=medium=shared,radios=1,addr=02:c1:00:00:00:00\n"          \
	"[Radio r2]\nDriver=sim\nOptions=medium=shared,radios=1,addr=02:c2:00:00:00:00\n"          \
	"[AccessPoint hot]\nRadio=r0\nSSID=hot\nPassphrase=correct horse battery\nChannel=6\n"    \
	"[Station up]\nRadio=r0\nAutoConnect=false\n"                                              \
	"[AccessPoint uplink]\nRadio=r1\nSSID=uplink\nSecurity=open\nChannel=11\n"                 \
	"[Station guest]\nRadio=r2\nAutoConnect=false\n"

/* What the monitor heard from hot's BSSID. */
struct heard {
	uint8_t bssid[6];
	unsigned beacons, csa_beacons;
	struct ie_csa first_csa, last_csa;
};

static void monitor_event(void *ctx, const struct driver_event *ev)
{
	struct heard *h = ctx;
	struct mgmt_frame f;
	struct ie_set s;
	if (ev->type != DRIVER_EV_RX_MGMT ||
	    mgmt_parse(ev->u.mgmt.frame, ev->u.mgmt.len, &f) != 0 ||
	    f.subtype != IEEE80211_STYPE_BEACON || memcmp(f.bssid, h->bssid, 6) != 0 ||
	    ie_parse(f.ies, f.ies_len, &s) != 0)
		return;
	h->beacons++;
	if (!s.has_csa)
		return;
	if (!h->csa_beacons++)
		h->first_csa = s.csa;
	h->last_csa = s.csa;
}

static uint32_t iface_freq(struct wpad_device *dev)
{
	struct driver_iface_info info;
	ck_assert_int_eq(driver_iface_info(wpad_radio_driver(dev->radio), dev->ifindex, &info), 0);
	return info.freq_mhz;
}

START_TEST(station_move_is_announced_and_followed)
{
	char dir[64], text[2048];
	struct cfg_error ce;
	struct wpad_error err;
	struct wpad_conf *conf;
	snprintf(dir, sizeof(dir), "/tmp/wpad-ap-follow-%d-XXXXXX", (int)getpid());
	ck_assert_ptr_nonnull(mkdtemp(dir));
	int n = snprintf(text, sizeof(text), FOLLOW_CONF_FMT, dir);
	ck_assert_int_eq(wpad_conf_load_buffer(text, (size_t)n, "follow.conf", dir, &conf, &ce), 0);
	struct loop *loop = loop_new_with_clock(LOOP_CLOCK_VIRTUAL);
	struct wpad *w = wpad_new(loop, conf, NULL, &err);
	ck_assert_msg(w != NULL, "wpad_new: %s", err.text);
	struct wpad_device *hot = wpad_device_find(w, "hot"), *up = wpad_device_find(w, "up");
	struct wpad_device *guest = wpad_device_find(w, "guest");
	ck_assert(hot && up && guest);
	ck_assert_ptr_eq(hot->radio, up->radio);

	/* The monitor, on hot's channel. */
	struct heard h = { 0 };
	struct driver_iface_info info;
	ck_assert_int_eq(driver_iface_info(wpad_radio_driver(hot->radio), hot->ifindex, &info), 0);
	memcpy(h.bssid, info.addr, 6);
	int derr = 0;
	struct driver *mon = driver_open("sim", loop, "medium=shared,radios=1,addr=02:c3:00:00:00:00",
					 monitor_event, &h, &derr);
	ck_assert_ptr_nonnull(mon);
	struct driver_radio_info r;
	size_t nr = 0;
	uint32_t mon_if = 0;
	ck_assert_int_eq(driver_list_radios(mon, &r, 1, &nr), 0);
	ck_assert_int_eq(driver_iface_add(mon, r.id, NULL, DRIVER_IFTYPE_MONITOR, NULL, &mon_if), 0);
	ck_assert_int_eq(driver_iface_set_up(mon, mon_if, true), 0);
	ck_assert_int_eq(driver_set_channel(mon, mon_if, 2437), 0);

	/* guest joins hot on channel 6. */
	ck_assert_int_eq(station_connect(guest->station, (const uint8_t *)"hot", 3,
					 "correct horse battery", false),
			 0);
	uint64_t end = loop_now_us(loop) + 20000000u;
	while (station_state(guest->station) != STATION_CONNECTED && loop_now_us(loop) < end)
		loop_iterate(loop, 5);
	ck_assert_int_eq(station_state(guest->station), STATION_CONNECTED);
	ck_assert_uint_eq(iface_freq(hot), 2437);
	ck_assert_uint_eq(h.csa_beacons, 0);

	/* up joins uplink on channel 11: hot announces before the radio goes. */
	ck_assert_int_eq(station_connect(up->station, (const uint8_t *)"uplink", 6, NULL, false),
			 0);
	bool switching_seen = false, left_early = false;
	end = loop_now_us(loop) + 20000000u;
	while (station_state(up->station) != STATION_CONNECTED && loop_now_us(loop) < end) {
		loop_iterate(loop, 5);
		switching_seen |= ap_get_state(hot->ap) == AP_STATE_SWITCHING;
		/* hot leaves 6 only when its count ran out. */
		left_early |= iface_freq(hot) != 2437 && h.csa_beacons < 3;
		ck_assert_int_eq(station_state(guest->station), STATION_CONNECTED);
	}
	ck_assert_int_eq(station_state(up->station), STATION_CONNECTED);
	ck_assert_msg(switching_seen, "hot never announced a channel switch");
	ck_assert_msg(!left_early, "hot left channel 6 before announcing it for long");

	/* The CSA element, as the monitor heard it on channel 6: channel 11,
	 * mode 0 (no radar: the BSS may go on transmitting), the count
	 * going down. */
	ck_assert_uint_ge(h.csa_beacons, 3);
	ck_assert_uint_eq(h.first_csa.new_channel, 11);
	ck_assert_uint_eq(h.first_csa.mode, 0);
	ck_assert_uint_le(h.first_csa.count, 5);
	ck_assert_uint_lt(h.last_csa.count, h.first_csa.count);

	/* Everyone on 11; guest still associated, never having left. */
	loop_iterate(loop, 5);
	end = loop_now_us(loop) + 2000000u;
	while (loop_now_us(loop) < end) {
		loop_iterate(loop, 5);
		ck_assert_int_eq(station_state(guest->station), STATION_CONNECTED);
	}
	ck_assert_int_eq(ap_get_state(hot->ap), AP_STATE_STARTED);
	ck_assert_uint_eq(iface_freq(hot), 2462);
	ck_assert_uint_eq(iface_freq(up), 2462);
	ck_assert_uint_eq(iface_freq(guest), 2462);
	ck_assert_uint_eq(ap_associated_count(hot->ap), 1);
	uint8_t guest_addr[6];
	struct ap_station_info si;
	ck_assert_int_eq(driver_iface_info(wpad_radio_driver(guest->radio), guest->ifindex, &info),
			 0);
	memcpy(guest_addr, info.addr, 6);
	ck_assert_int_eq(ap_get_station(hot->ap, guest_addr, &si), 0);
	ck_assert_int_eq(si.state, AP_STA_AUTHORIZED);
	/* hot beacons on 11 now, without the announcement. */
	unsigned before = h.beacons, csa_before = h.csa_beacons;
	ck_assert_int_eq(driver_set_channel(mon, mon_if, 2462), 0);
	end = loop_now_us(loop) + 1000000u;
	while (loop_now_us(loop) < end)
		loop_iterate(loop, 5);
	ck_assert_uint_ge(h.beacons - before, 8);
	ck_assert_uint_eq(h.csa_beacons, csa_before);

	driver_close(mon);
	wpad_free(w);
	wpad_conf_free(conf);
	loop_free(loop);
	char cmd[96];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *make_ap_csa_follow_suite(void)
{
	Suite *s = suite_create("ap_csa_follow");
	TCase *tc = tcase_create("wpad");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, station_move_is_announced_and_followed);
	suite_add_tcase(s, tc);
	return s;
}
