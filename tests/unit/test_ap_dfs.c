/* DFS on the simulated radio: an AP on a radar channel waits out the CAC
 * (60 s of loop time) before its first beacon; radar on its channel moves
 * the BSS with a Channel Switch Announcement that the wpad station on the
 * medium follows without disconnecting; the radar channel stays unusable
 * for the 30-minute non-occupancy period. */
#include "tests/unit/test_ap_fixture.h"

#include "daemon/ap/ap_internal.h"
#include "daemon/codec/frame.h"
#include "daemon/codec/ie_set.h"
#include "daemon/codec/ieee80211.h"
#include "daemon/core/loop.h"
#include "daemon/station/station.h"
#include "drivers/sim/sim.h"

#include <check.h>
#include <errno.h>
#include <string.h>

struct dfs_sta {
	struct station *st;
	uint32_t ifindex;
	uint8_t addr[6];
	unsigned connect_done, disconnects;
	bool connect_ok;
};

static struct dfs_sta S;

static void on_connect_done(void *ctx, const struct wpad_error *err)
{
	S.connect_done++;
	S.connect_ok = err == NULL;
}

static void route(const struct driver_event *ev)
{
	if (S.st && ev->ifindex == S.ifindex)
		station_handle_event(S.st, ev);
}

static void setup(void)
{
	apt_setup();
	/* US: 36-48 and 149-165 free, 52-144 DFS (the world domain lets an
	 * AP beacon on none of 5 GHz). */
	ck_assert_int_eq(driver_set_regulatory(APT->drv, "US"), 0);
	apt_run(10);
	memset(&S, 0, sizeof(S));
	struct apt_sta *s = apt_sta_add();
	S.ifindex = s->ifindex;
	memcpy(S.addr, s->addr, 6);
	static const struct station_callbacks cb = { .connect_done = on_connect_done };
	S.st = station_new(APT->loop, APT->drv, S.ifindex, NULL, &cb);
	ck_assert_ptr_nonnull(S.st);
	APT->hook = route;
}

static void teardown(void)
{
	APT->hook = NULL;
	station_free(S.st);
	S.st = NULL;
	apt_teardown();
}

static void dfs_profile(struct ap_profile *p, uint8_t channel, uint16_t width)
{
	apt_profile(p, true);
	p->band = AP_BAND_5GHZ;
	p->channel = channel;
	p->width_mhz = width;
}

static uint32_t iface_freq(uint32_t ifindex)
{
	struct driver_iface_info info;
	ck_assert_int_eq(driver_iface_info(APT->drv, ifindex, &info), 0);
	return info.freq_mhz;
}

static const struct driver_channel *chan(uint32_t freq)
{
	static struct driver_capa capa;
	ck_assert_int_eq(driver_get_capa(APT->drv, APT->radios[0].id, &capa), 0);
	for (size_t i = 0; i < capa.bands[DRIVER_BAND_5GHZ].n_channels; i++)
		if (capa.bands[DRIVER_BAND_5GHZ].channels[i].freq_mhz == freq)
			return &capa.bands[DRIVER_BAND_5GHZ].channels[i];
	ck_abort_msg("no channel %u", freq);
	return NULL;
}

/* The number of beacons the monitor on freq heard in ms. */
static unsigned beacons_heard(uint32_t freq, int ms)
{
	unsigned n = 0;
	apt_monitor(freq);
	uint64_t end = loop_now_us(APT->loop) + (uint64_t)ms * 1000;
	while (loop_now_us(APT->loop) < end) {
		struct apt_event *e = apt_wait_mgmt(IEEE80211_STYPE_BEACON, APT->mon_if, 50);
		if (e && memcmp(e->frame + 16, APT->ap_addr, 6) == 0)
			n++;
	}
	return n;
}

START_TEST(cac_before_the_first_beacon)
{
	struct ap_profile p;
	struct wpad_error err;
	dfs_profile(&p, 52, 80);
	ck_assert_int_eq(ap_start(APT->ap, &p, &err), 0);
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_CAC);
	ck_assert_str_eq(ap_state_to_string(AP_STATE_CAC), "cac");
	ck_assert_uint_eq(ap_channel_width(APT->ap), 80);
	/* Silent during the CAC: 52-64 at 80 MHz, 60 s. */
	ck_assert_uint_eq(beacons_heard(5260, 2000), 0);
	apt_run(56000);
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_CAC);
	apt_run(3000);
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_STARTED);
	ck_assert_uint_eq(iface_freq(APT->ap_if), 5260);
	ck_assert_uint_ge(beacons_heard(5260, 1000), 8);
	ck_assert(chan(5300)->flags & DRIVER_CHAN_DFS_AVAILABLE);
	ap_profile_clear(&p);
}
END_TEST

START_TEST(radar_during_cac_starts_elsewhere)
{
	struct ap_profile p;
	struct wpad_error err;
	dfs_profile(&p, 52, 20);
	ck_assert_int_eq(ap_start(APT->ap, &p, &err), 0);
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_CAC);
	apt_run(10000);
	ck_assert_int_eq(sim_driver_radar(APT->drv, 5260), 0);
	apt_run(500);
	/* A channel needing no CAC, at once. */
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_STARTED);
	ck_assert_uint_eq(iface_freq(APT->ap_if), 5180);
	ck_assert(chan(5260)->flags & DRIVER_CHAN_DFS_UNAVAILABLE);
	ck_assert_int_eq(sim_driver_radar(APT->drv, 5180), -EINVAL); /* not a DFS channel */
	ap_profile_clear(&p);
}
END_TEST

static bool connect_finished(void *arg)
{
	return S.connect_done > 0;
}

static bool ap_state_is(void *arg)
{
	return ap_get_state(APT->ap) == *(enum ap_state *)arg;
}

/* A beacon carrying a CSA, heard by the monitor on freq: its elements. */
static bool csa_beacon(uint32_t freq, struct ie_set *out)
{
	apt_monitor(freq);
	for (int i = 0; i < 20; i++) {
		struct apt_event *e = apt_wait_mgmt(IEEE80211_STYPE_BEACON, APT->mon_if, 200);
		struct mgmt_frame f;
		struct ie_set s;
		if (!e || mgmt_parse(e->frame, e->len, &f) != 0 ||
		    memcmp(f.bssid, APT->ap_addr, 6) != 0 || ie_parse(f.ies, f.ies_len, &s) != 0)
			continue;
		if (s.has_csa) {
			*out = s;
			return true;
		}
	}
	return false;
}

START_TEST(radar_moves_the_bss_and_the_station_follows)
{
	struct ap_profile p;
	struct wpad_error err;
	dfs_profile(&p, 52, 80);
	ck_assert_int_eq(ap_start(APT->ap, &p, &err), 0);
	enum ap_state started = AP_STATE_STARTED, switching = AP_STATE_SWITCHING;
	ck_assert(apt_wait_for(ap_state_is, &started, 65000));
	ck_assert_int_eq(station_connect(S.st, (const uint8_t *)APT_SSID, strlen(APT_SSID),
					 APT_PASSPHRASE, false),
			 0);
	ck_assert(apt_wait_for(connect_finished, NULL, 15000));
	ck_assert(S.connect_ok);
	ck_assert_int_eq(station_state(S.st), STATION_CONNECTED);
	ck_assert_uint_eq(iface_freq(S.ifindex), 5260);
	unsigned removed = APT->removed;

	/* Radar on 60, inside 52-64: a CSA to a channel without CAC. */
	ck_assert_int_eq(sim_driver_radar(APT->drv, 5300), 0);
	ck_assert(apt_wait_for(ap_state_is, &switching, 500));
	struct ie_set b;
	ck_assert(csa_beacon(5260, &b));
	ck_assert_uint_eq(b.csa.new_channel, 36);
	ck_assert_uint_eq(b.csa.mode, 1);
	ck_assert_uint_le(b.csa.count, AP_CSA_COUNT);
	/* The new width too (36-48 at 80 MHz, centre channel 42). */
	ck_assert(b.has_wide_bw_cs);
	ck_assert_uint_eq(b.wide_bw_cs.width, 1);
	ck_assert_uint_eq(b.wide_bw_cs.seg0, 42);
	ck_assert_uint_eq(b.wide_bw_cs.seg1, 0);
	ck_assert(apt_wait_for(ap_state_is, &started, 3000));
	ck_assert_uint_eq(iface_freq(APT->ap_if), 5180);
	ck_assert_uint_eq(ap_channel_width(APT->ap), 80);

	/* The station followed: same link, new channel, never disconnected. */
	apt_run(2000);
	ck_assert_int_eq(station_state(S.st), STATION_CONNECTED);
	ck_assert_uint_eq(iface_freq(S.ifindex), 5180);
	ck_assert_uint_eq(S.connect_done, 1);
	ck_assert_uint_eq(APT->removed, removed);
	ck_assert_int_eq(apt_ap_sta_state(S.addr), AP_STA_AUTHORIZED);
	ck_assert_uint_ge(beacons_heard(5180, 1000), 8);
	ck_assert_uint_eq(beacons_heard(5260, 1000), 0);

	/* Non-occupancy: 60 is out for 30 minutes, then usable after a CAC. */
	ck_assert(chan(5300)->flags & DRIVER_CHAN_DFS_UNAVAILABLE);
	ck_assert_int_eq(ap_set_channel(APT->ap, 5300), -EPERM);
	apt_run(29 * 60 * 1000);
	ck_assert(chan(5300)->flags & DRIVER_CHAN_DFS_UNAVAILABLE);
	apt_run(2 * 60 * 1000);
	ck_assert(!(chan(5300)->flags & DRIVER_CHAN_DFS_UNAVAILABLE));
	ck_assert(!(chan(5300)->flags & DRIVER_CHAN_DFS_AVAILABLE));
	ap_profile_clear(&p);
}
END_TEST

/* The radio's station going elsewhere (ap_announce_move): announced only
 * where a CSA can say it (same band, a channel the AP may use), with mode
 * 0 and the short count; the wait covers the count's beacons. */
START_TEST(station_move_announced_where_possible)
{
	struct ap_profile p;
	struct wpad_error err;
	dfs_profile(&p, 36, 20);
	ck_assert_int_eq(ap_start(APT->ap, &p, &err), 0);
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_STARTED);
	ck_assert_uint_eq(ap_announce_move(APT->ap, 5180), 0); /* already there */
	ck_assert_uint_eq(ap_announce_move(APT->ap, 2437), 0); /* another band */
	ck_assert_uint_eq(ap_announce_move(APT->ap, 5260), 0); /* radar channel, no CAC done */
	ck_assert_uint_eq(ap_announce_move(APT->ap, 5170), 0); /* no such channel */
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_STARTED);
	uint32_t wait_ms = ap_announce_move(APT->ap, 5745);
	ck_assert_uint_ge(wait_ms, AP_CSA_COUNT_STATION * 100u);
	ck_assert_uint_le(wait_ms, STATION_RADIO_HOLD_MAX_MS);
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_SWITCHING);
	struct ie_set b;
	ck_assert(csa_beacon(5180, &b));
	ck_assert_uint_eq(b.csa.new_channel, 149);
	ck_assert_uint_eq(b.csa.mode, 0);
	ck_assert_uint_le(b.csa.count, AP_CSA_COUNT_STATION);
	ck_assert(!b.has_csw); /* 20 MHz: no new width to announce */
	ck_assert_uint_eq(ap_announce_move(APT->ap, 5200), 0); /* one switch at a time */
	enum ap_state started = AP_STATE_STARTED;
	ck_assert(apt_wait_for(ap_state_is, &started, wait_ms + 200));
	ck_assert_uint_eq(iface_freq(APT->ap_if), 5745);
	ap_profile_clear(&p);
}
END_TEST

/* hwsim wpad-ap-wpas-dfs: a regulatory hint after the CAC (the kernel
 * re-runs its rules when a station's Country element arrives) sets the
 * radar channel's DFS state back to usable, as cfg80211 does; the BSS
 * beaconing there must stay up, its station connected. */
START_TEST(regulatory_hint_after_cac_keeps_the_bss)
{
	struct ap_profile p;
	struct wpad_error err;
	dfs_profile(&p, 52, 80);
	ck_assert_int_eq(ap_start(APT->ap, &p, &err), 0);
	enum ap_state started = AP_STATE_STARTED;
	ck_assert(apt_wait_for(ap_state_is, &started, 65000));
	ck_assert_int_eq(station_connect(S.st, (const uint8_t *)APT_SSID, strlen(APT_SSID),
					 APT_PASSPHRASE, false),
			 0);
	ck_assert(apt_wait_for(connect_finished, NULL, 15000));
	ck_assert(S.connect_ok);
	unsigned removed = APT->removed;
	ck_assert(chan(5260)->flags & DRIVER_CHAN_DFS_AVAILABLE);

	ck_assert_int_eq(driver_set_regulatory(APT->drv, "US"), 0);
	apt_run(2000);
	ck_assert(!(chan(5260)->flags & DRIVER_CHAN_DFS_AVAILABLE)); /* as cfg80211 */
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_STARTED);
	ck_assert_int_eq(station_state(S.st), STATION_CONNECTED);
	ck_assert_uint_eq(APT->removed, removed);
	ck_assert_uint_ge(beacons_heard(5260, 1000), 8);

	/* A country whose rules disable the channel still stops it. */
	ck_assert(!ap_chan_still_allowed(DRIVER_CHAN_DISABLED));
	ck_assert(!ap_chan_still_allowed(DRIVER_CHAN_RADAR | DRIVER_CHAN_DFS_UNAVAILABLE));
	ck_assert(!ap_chan_still_allowed(DRIVER_CHAN_NO_IR));
	ck_assert(ap_chan_still_allowed(DRIVER_CHAN_RADAR | DRIVER_CHAN_NO_IR));
	ck_assert(ap_chan_still_allowed(0));
	ap_profile_clear(&p);
}
END_TEST

Suite *make_ap_dfs_suite(void)
{
	Suite *s = suite_create("ap_dfs");
	TCase *tc = tcase_create("sim");
	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, cac_before_the_first_beacon);
	tcase_add_test(tc, radar_during_cac_starts_elsewhere);
	tcase_add_test(tc, radar_moves_the_bss_and_the_station_follows);
	tcase_add_test(tc, regulatory_hint_after_cac_keeps_the_bss);
	tcase_add_test(tc, station_move_announced_where_possible);
	suite_add_tcase(s, tc);
	return s;
}
