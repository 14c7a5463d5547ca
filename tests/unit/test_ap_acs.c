/* Automatic channel selection: the scoring (daemon/ap/ap_acs.c) on
 * hand-made surveys and neighbour lists, then Channel=auto on the sim
 * radio with a scripted survey (the least busy channel wins, the reasons
 * are readable, a rescan moves the BSS when the air changed). */
#include "daemon/ap/ap_acs.h"
#include "drivers/sim/sim.h"
#include "tests/unit/test_ap_fixture.h"

#include <check.h>
#include <errno.h>
#include <string.h>

static struct driver_capa capa;

static void add_chan(enum driver_band band, unsigned number, uint32_t flags)
{
	struct driver_band_info *b = &capa.bands[band];
	b->present = true;
	b->channels[b->n_channels++] = (struct driver_channel){
		.freq_mhz = band == DRIVER_BAND_2GHZ ? 2407 + 5 * number : 5000 + 5 * number,
		.number = (uint16_t)number,
		.flags = flags,
	};
}

static void capa_setup(void)
{
	static const unsigned five[] = { 36, 40, 44, 48, 52, 56, 60, 64, 149, 153, 157, 161 };
	memset(&capa, 0, sizeof(capa));
	for (unsigned c = 1; c <= 13; c++)
		add_chan(DRIVER_BAND_2GHZ, c, 0);
	for (size_t i = 0; i < sizeof(five) / sizeof(five[0]); i++)
		add_chan(DRIVER_BAND_5GHZ, five[i], five[i] >= 52 && five[i] <= 64 ? DRIVER_CHAN_RADAR : 0);
	for (int b = 0; b < 2; b++) {
		capa.bands[b].ht = true;
		capa.bands[b].ht_capab = 0x0002;
	}
	capa.bands[DRIVER_BAND_5GHZ].vht = true;
}

static struct driver_survey sv(uint32_t freq, unsigned busy_pct, int noise)
{
	return (struct driver_survey){ .freq_mhz = freq, .has_time = true, .active_ms = 1000,
				       .busy_ms = busy_pct * 10, .has_noise = true,
				       .noise_dbm = (int8_t)noise };
}

START_TEST(least_busy_of_1_6_11)
{
	struct driver_survey s[] = { sv(2412, 70, -95), sv(2437, 20, -95), sv(2462, 40, -95),
				     sv(2422, 0, -95) /* 3: not a candidate */ };
	struct ap_acs_input in = { .capa = &capa, .band = DRIVER_BAND_2GHZ, .width_mhz = 20,
				   .survey = s, .n_survey = 4 };
	struct ap_acs_result r;
	ck_assert_int_eq(ap_acs_choose(&in, &r), 0);
	ck_assert_uint_eq(r.n, 3);
	ck_assert_uint_eq(r.freq_mhz, 2437);
	ck_assert_int_eq(r.cand[r.chosen].score, 20);
	ck_assert_msg(strstr(r.summary, "channel 6 (20 MHz): busy 20%, noise -95 dBm, 0 BSSs: 20"),
		      "%s", r.summary);
	ck_assert_msg(strstr(r.summary, "next: channel 11"), "%s", r.summary);

	/* A strong neighbour on 6 (-40 dBm: 10 + 60/4 = 25) and one on 5,
	 * overlapping too: 11 wins at 40. Noise above -95 dBm counts. */
	struct ap_acs_bss b[] = { { 2437, -4000 }, { 2432, -10000 } };
	in.bss = b;
	in.n_bss = 2;
	ck_assert_int_eq(ap_acs_choose(&in, &r), 0);
	ck_assert_uint_eq(r.freq_mhz, 2462);
	ck_assert_uint_eq(r.cand[1].n_bss, 2);
	ck_assert_int_eq(r.cand[1].score, 20 + 25 + 10);
	s[2].noise_dbm = -70; /* 25 dB above the reference */
	ck_assert_int_eq(ap_acs_choose(&in, &r), 0);
	ck_assert_uint_eq(r.freq_mhz, 2437); /* 55 against 65 */
}
END_TEST

START_TEST(five_ghz_wide_blocks)
{
	/* 36-48 busy, 149-161 quiet: at 80 MHz every control channel of the
	 * quiet block scores the same and the lowest (149) wins; radar
	 * channels stay out unless the caller runs CAC. */
	struct driver_survey s[12];
	static const unsigned five[] = { 36, 40, 44, 48, 52, 56, 60, 64, 149, 153, 157, 161 };
	for (size_t i = 0; i < 12; i++)
		s[i] = sv(5000 + 5 * five[i], five[i] < 52 ? 50 : five[i] < 149 ? 0 : 10, -95);
	struct ap_acs_input in = { .capa = &capa, .band = DRIVER_BAND_5GHZ, .width_mhz = 80,
				   .survey = s, .n_survey = 12 };
	struct ap_acs_result r;
	ck_assert_int_eq(ap_acs_choose(&in, &r), 0);
	ck_assert_uint_eq(r.n, 8);
	ck_assert_uint_eq(r.freq_mhz, 5745);
	ck_assert_uint_eq(r.cand[r.chosen].chandef.width_mhz, 80);
	ck_assert_uint_eq(r.cand[r.chosen].chandef.center1_mhz, 5775);
	in.allow_radar = true;
	ck_assert_int_eq(ap_acs_choose(&in, &r), 0);
	ck_assert_uint_eq(r.n, 12);
	ck_assert_uint_eq(r.freq_mhz, 5260);
	/* One busy 20 MHz channel spoils its whole 80 MHz block. */
	s[9].busy_ms = 1000; /* 153 and 157 */
	s[10].busy_ms = 1000;
	in.allow_radar = false;
	ck_assert_int_eq(ap_acs_choose(&in, &r), 0);
	ck_assert_uint_eq(r.freq_mhz, 5180); /* 36-48 at 50, 149-161 at (10+100+100+10)/4 */
	ck_assert_int_eq(r.cand[4].score, 55);
}
END_TEST

START_TEST(nothing_usable)
{
	for (size_t i = 0; i < capa.bands[DRIVER_BAND_5GHZ].n_channels; i++)
		capa.bands[DRIVER_BAND_5GHZ].channels[i].flags |= DRIVER_CHAN_NO_IR;
	struct ap_acs_input in = { .capa = &capa, .band = DRIVER_BAND_5GHZ, .width_mhz = 0 };
	struct ap_acs_result r;
	ck_assert_int_eq(ap_acs_choose(&in, &r), -ENOENT);
	ck_assert_uint_eq(r.freq_mhz, 0);
	ck_assert_ptr_nonnull(strstr(r.summary, "no channel"));
	/* No survey, no scan: every candidate scores 0, the lowest wins. */
	in.band = DRIVER_BAND_2GHZ;
	ck_assert_int_eq(ap_acs_choose(&in, &r), 0);
	ck_assert_uint_eq(r.freq_mhz, 2412);
	ck_assert_ptr_nonnull(strstr(r.summary, "noise unknown"));
}
END_TEST

/* ---- Channel=auto on the sim radio ---- */

static uint32_t ap_freq(void)
{
	struct driver_iface_info info;
	ck_assert_int_eq(driver_iface_info(APT->drv, APT->ap_if, &info), 0);
	return info.freq_mhz;
}

START_TEST(sim_channel_auto_picks_least_busy)
{
	struct ap_profile p;
	ck_assert_int_eq(sim_driver_set_survey(APT->drv, 2412, 80, -92), 0);
	ck_assert_int_eq(sim_driver_set_survey(APT->drv, 2437, 60, -95), 0);
	ck_assert_int_eq(sim_driver_set_survey(APT->drv, 2462, 5, -95), 0);
	ck_assert_int_eq(sim_driver_set_survey(APT->drv, 2462, 101, -95), -EINVAL);
	apt_profile(&p, false);
	p.channel_auto = true;
	apt_start(&p);
	ck_assert_uint_eq(ap_freq(), 2462);
	const char *why = ap_channel_choice(APT->ap);
	ck_assert_msg(strstr(why, "channel 11 (20 MHz): busy 5%") && strstr(why, "next: channel 6"),
		      "%s", why);

	/* The air changes; a rescan moves the BSS. */
	ck_assert_int_eq(sim_driver_set_survey(APT->drv, 2462, 90, -95), 0);
	ck_assert_int_eq(sim_driver_set_survey(APT->drv, 2412, 0, -95), 0);
	ck_assert_int_eq(ap_rescan_channel(APT->ap), 0);
	/* Announced: ten beacons with a CSA, then the move. */
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_SWITCHING);
	ck_assert_uint_eq(ap_freq(), 2462);
	apt_run(1500);
	ck_assert_int_eq(ap_get_state(APT->ap), AP_STATE_STARTED);
	ck_assert_uint_eq(ap_freq(), 2412);
	ck_assert_ptr_nonnull(strstr(ap_channel_choice(APT->ap), "channel 1 (20 MHz): busy 0%"));
	ap_profile_clear(&p);
}
END_TEST

START_TEST(sim_rescan_needs_channel_auto)
{
	struct ap_profile p;
	apt_profile(&p, false);
	ck_assert_int_eq(ap_rescan_channel(APT->ap), -ENOTCONN);
	apt_start(&p);
	ck_assert_int_eq(ap_rescan_channel(APT->ap), -EOPNOTSUPP);
	ck_assert_str_eq(ap_channel_choice(APT->ap), "");
	ap_profile_clear(&p);
}
END_TEST

Suite *make_ap_acs_suite(void)
{
	Suite *s = suite_create("ap_acs");
	TCase *tc = tcase_create("score");
	tcase_add_checked_fixture(tc, capa_setup, NULL);
	tcase_add_test(tc, least_busy_of_1_6_11);
	tcase_add_test(tc, five_ghz_wide_blocks);
	tcase_add_test(tc, nothing_usable);
	suite_add_tcase(s, tc);
	tc = tcase_create("sim");
	tcase_add_checked_fixture(tc, apt_setup, apt_teardown);
	tcase_add_test(tc, sim_channel_auto_picks_least_busy);
	tcase_add_test(tc, sim_rescan_needs_channel_auto);
	suite_add_tcase(s, tc);
	return s;
}
