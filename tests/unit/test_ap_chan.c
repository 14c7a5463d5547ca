/* Channel definitions of the BSS (daemon/ap/ap_chan.c): 5 GHz blocks per
 * IEEE 802.11-2020 Annex E Table E-4 (40 MHz: 36-40 ... ; 80 MHz: 36-48,
 * 52-64, 100-112, 116-128, 132-144, 149-161; 160 MHz: 36-64, 100-128), the
 * 2.4 GHz secondary channel, the radio's and the regulatory limits, the
 * VHT Operation encoding (Table 9-274) and the 20/40 coexistence rule. */
#include "daemon/ap/ap_chan.h"

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
		.max_power_dbm = 20,
	};
}

static struct driver_channel *chan(enum driver_band band, unsigned number)
{
	struct driver_band_info *b = &capa.bands[band];
	for (size_t i = 0; i < b->n_channels; i++)
		if (b->channels[i].number == number)
			return &b->channels[i];
	return NULL;
}

/* A radio like mac80211_hwsim's: HT40, VHT with 160 MHz; 52-144 radar. */
static void setup(void)
{
	static const unsigned five[] = { 36,  40,  44,  48,  52,  56,  60,  64,  100, 104,
					 108, 112, 116, 120, 124, 128, 132, 136, 140, 144,
					 149, 153, 157, 161, 165 };
	memset(&capa, 0, sizeof(capa));
	for (unsigned c = 1; c <= 13; c++)
		add_chan(DRIVER_BAND_2GHZ, c, 0);
	for (size_t i = 0; i < sizeof(five) / sizeof(five[0]); i++)
		add_chan(DRIVER_BAND_5GHZ, five[i],
			 five[i] >= 52 && five[i] <= 144 ? DRIVER_CHAN_RADAR : 0);
	for (int b = 0; b < 2; b++) {
		capa.bands[b].ht = true;
		capa.bands[b].ht_capab = 0x0002; /* 20/40 */
	}
	capa.bands[DRIVER_BAND_5GHZ].vht = true;
	capa.bands[DRIVER_BAND_5GHZ].vht_capab = 1u << 2; /* 160 MHz */
}

static int pick5(unsigned ch, unsigned width, bool radar, struct ap_chandef *cd)
{
	const char *why = NULL;
	int r = ap_chan_pick(&capa, DRIVER_BAND_5GHZ, 5000 + 5 * ch, width, radar, cd, &why);
	ck_assert(r == 0 ? why == NULL : why != NULL);
	return r;
}

START_TEST(five_ghz_blocks)
{
	/* control channel, width, expected center (MHz), secondary offset */
	static const struct {
		unsigned ch, width;
		uint32_t center;
		int sec;
	} rows[] = {
		{ 36, 20, 5180, 0 },   { 36, 40, 5190, 1 },   { 40, 40, 5190, -1 },
		{ 44, 40, 5230, 1 },   { 48, 40, 5230, -1 },  { 36, 80, 5210, 1 },
		{ 40, 80, 5210, -1 },  { 44, 80, 5210, 1 },   { 48, 80, 5210, -1 },
		{ 149, 40, 5755, 1 },  { 153, 40, 5755, -1 }, { 157, 80, 5775, 1 },
		{ 161, 80, 5775, -1 }, { 36, 160, 5250, 1 },  { 64, 160, 5250, -1 },
		{ 100, 80, 5530, 1 },  { 132, 80, 5690, 1 },  { 116, 160, 5570, 1 },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct ap_chandef cd;
		ck_assert_msg(pick5(rows[i].ch, rows[i].width, true, &cd) == 0, "row %zu", i);
		ck_assert_uint_eq(cd.control_mhz, 5000 + 5 * rows[i].ch);
		ck_assert_uint_eq(cd.width_mhz, rows[i].width);
		ck_assert_msg(cd.center1_mhz == rows[i].center, "row %zu: center %u", i,
			      cd.center1_mhz);
		ck_assert_int_eq(cd.sec_offset, rows[i].sec);
	}
}
END_TEST

START_TEST(radar_blocks_need_allow_radar)
{
	struct ap_chandef cd;
	/* 36-64 includes the radar channels 52-64. */
	ck_assert_int_eq(pick5(36, 160, false, &cd), -EPERM);
	ck_assert_int_eq(pick5(36, 160, true, &cd), 0);
	ck_assert(cd.radar);
	ck_assert_int_eq(pick5(36, 80, false, &cd), 0);
	ck_assert(!cd.radar);
	ck_assert_int_eq(pick5(100, 20, false, &cd), -EPERM);
	ck_assert_int_eq(pick5(100, 20, true, &cd), 0);
	ck_assert(cd.radar);
	/* 149-165: 165 has no 40 MHz partner (169 missing). */
	ck_assert_int_eq(pick5(165, 40, false, &cd), -EPERM);
}
END_TEST

START_TEST(auto_takes_the_widest_allowed)
{
	struct ap_chandef cd;
	ck_assert_int_eq(pick5(36, 0, false, &cd), 0);
	ck_assert_uint_eq(cd.width_mhz, 80); /* 160 would need radar detection */
	ck_assert_int_eq(pick5(36, 0, true, &cd), 0);
	ck_assert_uint_eq(cd.width_mhz, 160);
	ck_assert_int_eq(pick5(165, 0, false, &cd), 0);
	ck_assert_uint_eq(cd.width_mhz, 20);
	/* The regulatory domain forbids 80 MHz on 44: auto falls to 40. */
	chan(DRIVER_BAND_5GHZ, 44)->flags |= DRIVER_CHAN_NO_80MHZ;
	ck_assert_int_eq(pick5(36, 0, false, &cd), 0);
	ck_assert_uint_eq(cd.width_mhz, 40);
	ck_assert_int_eq(pick5(36, 80, false, &cd), -EPERM);
	/* NO_HT40_PLUS on 36: no secondary above, so not even 40. */
	chan(DRIVER_BAND_5GHZ, 36)->flags |= DRIVER_CHAN_NO_HT40_PLUS;
	ck_assert_int_eq(pick5(36, 0, false, &cd), 0);
	ck_assert_uint_eq(cd.width_mhz, 20);
	ck_assert_uint_eq(cd.center1_mhz, 5180);
	/* 2.4 GHz: auto stays at 20 MHz. */
	ck_assert_int_eq(ap_chan_pick(&capa, DRIVER_BAND_2GHZ, 2437, 0, false, &cd, NULL), 0);
	ck_assert_uint_eq(cd.width_mhz, 20);
	ck_assert_int_eq(cd.sec_offset, 0);
}
END_TEST

START_TEST(radio_limits)
{
	struct ap_chandef cd;
	capa.bands[DRIVER_BAND_5GHZ].vht_capab = 0; /* no 160 */
	ck_assert_int_eq(pick5(36, 160, true, &cd), -EOPNOTSUPP);
	ck_assert_int_eq(pick5(36, 0, true, &cd), 0);
	ck_assert_uint_eq(cd.width_mhz, 80);
	capa.bands[DRIVER_BAND_5GHZ].vht = false;
	ck_assert_int_eq(pick5(36, 80, false, &cd), -EOPNOTSUPP);
	ck_assert_int_eq(pick5(36, 0, false, &cd), 0);
	ck_assert_uint_eq(cd.width_mhz, 40);
	capa.bands[DRIVER_BAND_5GHZ].ht_capab = 0; /* HT20 only */
	ck_assert_int_eq(pick5(36, 40, false, &cd), -EOPNOTSUPP);
	ck_assert_int_eq(pick5(36, 0, false, &cd), 0);
	ck_assert_uint_eq(cd.width_mhz, 20);
	ck_assert_int_eq(pick5(36, 60, false, &cd), -EINVAL);
	ck_assert_int_eq(pick5(34, 20, false, &cd), -EINVAL); /* no such channel */
}
END_TEST

START_TEST(two_ghz_secondary)
{
	struct ap_chandef cd;
	const char *why;
	/* IEEE 802.11-2020 11.16.2: secondary 4 channels above or below. */
	ck_assert_int_eq(ap_chan_pick(&capa, DRIVER_BAND_2GHZ, 2412, 40, false, &cd, &why), 0);
	ck_assert_int_eq(cd.sec_offset, 1);
	ck_assert_uint_eq(cd.center1_mhz, 2422);
	ck_assert_int_eq(ap_chan_pick(&capa, DRIVER_BAND_2GHZ, 2472, 40, false, &cd, &why), 0);
	ck_assert_int_eq(cd.sec_offset, -1);
	ck_assert_uint_eq(cd.center1_mhz, 2462);
	/* Channel 6: above (10) unless the regulatory domain forbids it. */
	ck_assert_int_eq(ap_chan_pick(&capa, DRIVER_BAND_2GHZ, 2437, 40, false, &cd, &why), 0);
	ck_assert_int_eq(cd.sec_offset, 1);
	chan(DRIVER_BAND_2GHZ, 6)->flags |= DRIVER_CHAN_NO_HT40_PLUS;
	ck_assert_int_eq(ap_chan_pick(&capa, DRIVER_BAND_2GHZ, 2437, 40, false, &cd, &why), 0);
	ck_assert_int_eq(cd.sec_offset, -1);
	chan(DRIVER_BAND_2GHZ, 6)->flags |= DRIVER_CHAN_NO_HT40_MINUS;
	ck_assert_int_eq(ap_chan_pick(&capa, DRIVER_BAND_2GHZ, 2437, 40, false, &cd, &why),
			 -EPERM);
	ck_assert_ptr_nonnull(why);
	ck_assert_int_eq(ap_chan_pick(&capa, DRIVER_BAND_2GHZ, 2437, 80, false, &cd, &why),
			 -EOPNOTSUPP);
}
END_TEST

START_TEST(vht_operation_fields)
{
	/* Table 9-274: 80 MHz seg0 = center; 160 MHz seg0 = the 80 MHz half
	 * with the primary, seg1 = the 160 MHz center; 20/40 width 0. */
	static const struct {
		unsigned ch, width;
		uint8_t w, s0, s1;
	} rows[] = {
		{ 36, 20, 0, 0, 0 },	{ 36, 40, 0, 38, 0 },	 { 36, 80, 1, 42, 0 },
		{ 48, 80, 1, 42, 0 },	{ 36, 160, 1, 42, 50 },	 { 60, 160, 1, 58, 50 },
		{ 157, 80, 1, 155, 0 }, { 128, 160, 1, 122, 114 },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct ap_chandef cd;
		uint8_t w, s0, s1;
		ck_assert_int_eq(pick5(rows[i].ch, rows[i].width, true, &cd), 0);
		ap_chan_vht_op(&cd, &w, &s0, &s1);
		ck_assert_msg(w == rows[i].w && s0 == rows[i].s0 && s1 == rows[i].s1,
			      "row %zu: %u %u %u", i, w, s0, s1);
		struct driver_chandef d;
		ap_chan_to_driver(&cd, &d);
		ck_assert_uint_eq(d.width_mhz, rows[i].width);
		ck_assert_uint_eq(d.center1_mhz, cd.center1_mhz);
		ck_assert_uint_eq(d.center2_mhz, 0);
	}
}
END_TEST

START_TEST(coexistence_20_40)
{
	struct ap_chandef cd;
	const char *why;
	ck_assert_int_eq(ap_chan_pick(&capa, DRIVER_BAND_2GHZ, 2412, 40, false, &cd, NULL), 0);
	/* channel 1 + 5, center 2422, affected 2397..2447 */
	struct ap_obss same_primary = { .pri_mhz = 2412 };
	struct ap_obss same_40 = { .pri_mhz = 2412, .sec_mhz = 2432 };
	struct ap_obss far = { .pri_mhz = 2462 };
	struct ap_obss on_secondary = { .pri_mhz = 2432 };
	struct ap_obss on_6 = { .pri_mhz = 2437 };
	struct ap_obss flipped = { .pri_mhz = 2412, .sec_mhz = 2392 };
	struct ap_obss intolerant = { .pri_mhz = 2462, .intolerant = true };
	ck_assert(ap_chan_2g4_40_allowed(&cd, NULL, 0, &why));
	ck_assert(ap_chan_2g4_40_allowed(&cd, &same_primary, 1, &why));
	ck_assert(ap_chan_2g4_40_allowed(&cd, &same_40, 1, &why));
	ck_assert(ap_chan_2g4_40_allowed(&cd, &far, 1, &why));
	ck_assert(!ap_chan_2g4_40_allowed(&cd, &on_secondary, 1, &why));
	ck_assert_ptr_nonnull(why);
	ck_assert(!ap_chan_2g4_40_allowed(&cd, &on_6, 1, &why));
	ck_assert(!ap_chan_2g4_40_allowed(&cd, &flipped, 1, &why));
	ck_assert(!ap_chan_2g4_40_allowed(&cd, &intolerant, 1, &why));
	/* A 20 MHz definition is never refused. */
	ck_assert_int_eq(ap_chan_pick(&capa, DRIVER_BAND_2GHZ, 2412, 20, false, &cd, NULL), 0);
	ck_assert(ap_chan_2g4_40_allowed(&cd, &on_secondary, 1, &why));
}
END_TEST

Suite *make_ap_chan_suite(void)
{
	Suite *s = suite_create("ap_chan");
	TCase *tc = tcase_create("chandef");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, five_ghz_blocks);
	tcase_add_test(tc, radar_blocks_need_allow_radar);
	tcase_add_test(tc, auto_takes_the_widest_allowed);
	tcase_add_test(tc, radio_limits);
	tcase_add_test(tc, two_ghz_secondary);
	tcase_add_test(tc, vht_operation_fields);
	tcase_add_test(tc, coexistence_20_40);
	suite_add_tcase(s, tc);
	return s;
}
