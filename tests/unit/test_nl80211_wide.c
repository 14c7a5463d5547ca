/* nl80211 backend: the channel definition in START_AP (CHANNEL_WIDTH,
 * CENTER_FREQ1 for 40/80/160 MHz; the legacy channel type at 20 MHz) and
 * a station's HT/VHT/HE capabilities in NEW_STATION. */
#include "drivers/nl80211/nl80211-parse.h"

#include <check.h>
#include <errno.h>
#include <linux/nl80211.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <string.h>

#define FAMILY 0x1c

static struct nlattr *tb[NL80211_ATTR_MAX + 1];
static uint8_t head[40] = { 0x80, 0x00 };

/* The last message built: tb points into it until the next build. */
static struct nl_msg *last;

static int build(const struct driver_ap_params *p, bool ht)
{
	struct nl80211_ap_opts o = { .ht = ht };
	nlmsg_free(last);
	last = nl80211_msg_new(FAMILY, NL80211_CMD_START_AP, 0);
	int r = nl80211_build_start_ap(last, 3, p, &o);
	if (r == 0)
		ck_assert_int_eq(genlmsg_parse(nlmsg_hdr(last), 0, tb, NL80211_ATTR_MAX, NULL), 0);
	return r;
}

static struct driver_ap_params params(uint32_t freq, uint16_t width, uint32_t center)
{
	struct driver_ap_params p = { .freq_mhz = freq, .beacon_interval = 100, .dtim_period = 2,
				      .beacon_head = head, .beacon_head_len = sizeof(head) };
	p.ssid.len = 4;
	memcpy(p.ssid.ssid, "wide", 4);
	p.chandef = (struct driver_chandef){ .control_mhz = freq, .width_mhz = width,
					     .center1_mhz = center };
	return p;
}

START_TEST(start_ap_channel_definition)
{
	static const struct {
		uint32_t freq;
		uint16_t width;
		uint32_t center, nl_width;
	} rows[] = {
		{ 5180, 40, 5190, NL80211_CHAN_WIDTH_40 },
		{ 5220, 80, 5210, NL80211_CHAN_WIDTH_80 },
		{ 5180, 160, 5250, NL80211_CHAN_WIDTH_160 },
		{ 2412, 40, 2422, NL80211_CHAN_WIDTH_40 },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct driver_ap_params p = params(rows[i].freq, rows[i].width, rows[i].center);
		ck_assert_int_eq(build(&p, true), 0);
		ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_WIPHY_FREQ]), rows[i].freq);
		ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_CHANNEL_WIDTH]), rows[i].nl_width);
		ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_CENTER_FREQ1]), rows[i].center);
		ck_assert_ptr_null(tb[NL80211_ATTR_CENTER_FREQ2]);
		ck_assert_ptr_null(tb[NL80211_ATTR_WIPHY_CHANNEL_TYPE]);
	}
	/* 20 MHz, or no definition: the channel type as before. */
	struct driver_ap_params p = params(5180, 20, 5180);
	ck_assert_int_eq(build(&p, true), 0);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_WIPHY_CHANNEL_TYPE]), NL80211_CHAN_HT20);
	ck_assert_ptr_null(tb[NL80211_ATTR_CHANNEL_WIDTH]);
	p = params(2412, 0, 0);
	ck_assert_int_eq(build(&p, false), 0);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_WIPHY_CHANNEL_TYPE]), NL80211_CHAN_NO_HT);
	/* Refused: a width nl80211 has no value for, wide without HT, no center. */
	p = params(5180, 60, 5190);
	ck_assert_int_eq(build(&p, true), -EINVAL);
	p = params(5180, 80, 5210);
	ck_assert_int_eq(build(&p, false), -EINVAL);
	p = params(5180, 80, 0);
	ck_assert_int_eq(build(&p, true), -EINVAL);
	nlmsg_free(last);
	last = NULL;
}
END_TEST

START_TEST(new_station_phy_capabilities)
{
	uint8_t ht[26] = { 0x6e, 0x01, 0x03, 0xff, 0xff };
	uint8_t vht[12] = { 0x24, 0x00, 0x00, 0x00, 0xfa, 0xff };
	uint8_t he[25] = { 0 };
	he[6] = 0x0c;
	struct driver_sta_params p = { .addr = { 2, 0, 0, 0, 0, 9 }, .aid = 3, .n_rates = 1,
				       .rates = { 0x8c }, .flags = DRIVER_STA_ASSOCIATED, .ht = true,
				       .ht_capab = 0x016e, .ht_cap = ht, .vht_cap = vht,
				       .he_cap = he, .he_cap_len = sizeof(he) };
	struct nl_msg *msg = nl80211_msg_new(FAMILY, NL80211_CMD_NEW_STATION, 0);
	ck_assert_int_eq(nl80211_build_station(msg, 4, &p, false), 0);
	ck_assert_int_eq(genlmsg_parse(nlmsg_hdr(msg), 0, tb, NL80211_ATTR_MAX, NULL), 0);
	ck_assert_int_eq(nla_len(tb[NL80211_ATTR_HT_CAPABILITY]), 26);
	ck_assert_mem_eq(nla_data(tb[NL80211_ATTR_HT_CAPABILITY]), ht, 26);
	ck_assert_int_eq(nla_len(tb[NL80211_ATTR_VHT_CAPABILITY]), 12);
	ck_assert_mem_eq(nla_data(tb[NL80211_ATTR_VHT_CAPABILITY]), vht, 12);
	ck_assert_int_eq(nla_len(tb[NL80211_ATTR_HE_CAPABILITY]), 25);
	ck_assert_mem_eq(nla_data(tb[NL80211_ATTR_HE_CAPABILITY]), he, 25);
	nlmsg_free(msg);
	/* Without the bodies: the HT Capabilities Info alone, no VHT/HE. */
	p.ht_cap = p.vht_cap = p.he_cap = NULL;
	p.he_cap_len = 0;
	msg = nl80211_msg_new(FAMILY, NL80211_CMD_NEW_STATION, 0);
	ck_assert_int_eq(nl80211_build_station(msg, 4, &p, false), 0);
	ck_assert_int_eq(genlmsg_parse(nlmsg_hdr(msg), 0, tb, NL80211_ATTR_MAX, NULL), 0);
	ck_assert_uint_eq(((uint8_t *)nla_data(tb[NL80211_ATTR_HT_CAPABILITY]))[0], 0x6e);
	ck_assert_ptr_null(tb[NL80211_ATTR_VHT_CAPABILITY]);
	ck_assert_ptr_null(tb[NL80211_ATTR_HE_CAPABILITY]);
	nlmsg_free(msg);
}
END_TEST

START_TEST(radar_detect_and_channel_switch)
{
	struct driver_chandef cd = { .control_mhz = 5260 };
	struct nl_msg *msg = nl80211_msg_new(FAMILY, NL80211_CMD_RADAR_DETECT, 0);
	ck_assert_int_eq(nl80211_build_radar_detect(msg, 7, &cd), 0);
	ck_assert_int_eq(genlmsg_parse(nlmsg_hdr(msg), 0, tb, NL80211_ATTR_MAX, NULL), 0);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_IFINDEX]), 7);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_WIPHY_FREQ]), 5260);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_CHANNEL_WIDTH]), NL80211_CHAN_WIDTH_20);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_CENTER_FREQ1]), 5260);
	nlmsg_free(msg);

	static uint8_t tail_csa[12] = { 0x25, 0x03, 0x01, 0x24, 0x0a };
	struct driver_csa_params p = { .chandef = { .control_mhz = 5180, .width_mhz = 80,
						    .center1_mhz = 5210 },
				       .count = 10, .block_tx = true, .n_offsets = 1,
				       .offsets_tail = { 4 } };
	p.beacon_after = params(5180, 80, 5210);
	p.beacon_csa = params(5260, 80, 5290);
	p.beacon_csa.beacon_tail = tail_csa;
	p.beacon_csa.beacon_tail_len = sizeof(tail_csa);
	msg = nl80211_msg_new(FAMILY, NL80211_CMD_CHANNEL_SWITCH, 0);
	ck_assert_int_eq(nl80211_build_channel_switch(msg, 7, &p), 0);
	ck_assert_int_eq(genlmsg_parse(nlmsg_hdr(msg), 0, tb, NL80211_ATTR_MAX, NULL), 0);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_WIPHY_FREQ]), 5180);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_CHANNEL_WIDTH]), NL80211_CHAN_WIDTH_80);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_CENTER_FREQ1]), 5210);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_CH_SWITCH_COUNT]), 10);
	ck_assert_ptr_nonnull(tb[NL80211_ATTR_CH_SWITCH_BLOCK_TX]);
	ck_assert_int_eq(nla_len(tb[NL80211_ATTR_BEACON_HEAD]), sizeof(head));
	/* Linux's nl80211_channel_switch reads the count offsets from the
	 * CSA_IES nest only (EINVAL without them there, seen on 6.1): none
	 * at the top level, where they were once put. */
	ck_assert_ptr_null(tb[NL80211_ATTR_CSA_C_OFF_BEACON]);
	ck_assert_ptr_null(tb[NL80211_ATTR_CSA_C_OFF_PRESP]);
	struct nlattr *csa[NL80211_ATTR_MAX + 1];
	ck_assert_int_eq(nla_parse_nested(csa, NL80211_ATTR_MAX, tb[NL80211_ATTR_CSA_IES], NULL), 0);
	ck_assert_int_eq(nla_len(csa[NL80211_ATTR_BEACON_TAIL]), sizeof(tail_csa));
	ck_assert_mem_eq(nla_data(csa[NL80211_ATTR_BEACON_TAIL]), tail_csa, sizeof(tail_csa));
	ck_assert_int_eq(nla_len(csa[NL80211_ATTR_CSA_C_OFF_BEACON]), 2);
	uint16_t off = *(uint16_t *)nla_data(csa[NL80211_ATTR_CSA_C_OFF_BEACON]);
	ck_assert_uint_eq(off, 4);
	/* ... and the octet there is the count, as the kernel checks. */
	ck_assert_uint_eq(((uint8_t *)nla_data(csa[NL80211_ATTR_BEACON_TAIL]))[off], 10);
	ck_assert_ptr_null(csa[NL80211_ATTR_CSA_C_OFF_PRESP]); /* no probe response template */
	nlmsg_free(msg);
	p.n_offsets = 0; /* the count must be somewhere */
	msg = nl80211_msg_new(FAMILY, NL80211_CMD_CHANNEL_SWITCH, 0);
	ck_assert_int_eq(nl80211_build_channel_switch(msg, 7, &p), -EINVAL);
	nlmsg_free(msg);
}
END_TEST

/* GET_SURVEY answers: one SURVEY_INFO each. */
START_TEST(survey_parse)
{
	struct nl_msg *msg = nl80211_msg_new(FAMILY, NL80211_CMD_NEW_SURVEY_RESULTS, 0);
	ck_assert_int_eq(nla_put_u32(msg, NL80211_ATTR_IFINDEX, 3), 0);
	struct nlattr *n = nla_nest_start(msg, NL80211_ATTR_SURVEY_INFO);
	ck_assert_int_eq(nla_put_u32(msg, NL80211_SURVEY_INFO_FREQUENCY, 5180), 0);
	ck_assert_int_eq(nla_put_u8(msg, NL80211_SURVEY_INFO_NOISE, (uint8_t)-92), 0);
	ck_assert_int_eq(nla_put_flag(msg, NL80211_SURVEY_INFO_IN_USE), 0);
	ck_assert_int_eq(nla_put_u64(msg, NL80211_SURVEY_INFO_TIME, 1000), 0);
	ck_assert_int_eq(nla_put_u64(msg, NL80211_SURVEY_INFO_TIME_BUSY, 1200), 0);
	nla_nest_end(msg, n);
	struct driver_survey sv;
	uint32_t ifindex;
	ck_assert_int_eq(nl80211_parse_survey(nlmsg_hdr(msg), &ifindex, &sv), 0);
	ck_assert_uint_eq(ifindex, 3);
	ck_assert_uint_eq(sv.freq_mhz, 5180);
	ck_assert(sv.in_use && sv.has_noise && sv.has_time);
	ck_assert_int_eq(sv.noise_dbm, -92);
	ck_assert_uint_eq(sv.active_ms, 1000);
	ck_assert_uint_eq(sv.busy_ms, 1000); /* capped at the active time */
	nlmsg_free(msg);
	/* Without SURVEY_INFO, or without its frequency: nothing. */
	msg = nl80211_msg_new(FAMILY, NL80211_CMD_NEW_SURVEY_RESULTS, 0);
	ck_assert_int_eq(nl80211_parse_survey(nlmsg_hdr(msg), &ifindex, &sv), -ENOENT);
	n = nla_nest_start(msg, NL80211_ATTR_SURVEY_INFO);
	ck_assert_int_eq(nla_put_u8(msg, NL80211_SURVEY_INFO_NOISE, 1), 0);
	nla_nest_end(msg, n);
	ck_assert_int_eq(nl80211_parse_survey(nlmsg_hdr(msg), &ifindex, &sv), -ENOENT);
	nlmsg_free(msg);
	/* Frequency 0 (found by fuzz_nl80211_survey): no channel. */
	msg = nl80211_msg_new(FAMILY, NL80211_CMD_NEW_SURVEY_RESULTS, 0);
	n = nla_nest_start(msg, NL80211_ATTR_SURVEY_INFO);
	ck_assert_int_eq(nla_put_u32(msg, NL80211_SURVEY_INFO_FREQUENCY, 0), 0);
	nla_nest_end(msg, n);
	ck_assert_int_eq(nl80211_parse_survey(nlmsg_hdr(msg), &ifindex, &sv), -ENOENT);
	nlmsg_free(msg);
	/* A frequency of the wrong size: malformed. */
	msg = nl80211_msg_new(FAMILY, NL80211_CMD_NEW_SURVEY_RESULTS, 0);
	n = nla_nest_start(msg, NL80211_ATTR_SURVEY_INFO);
	ck_assert_int_eq(nla_put_u8(msg, NL80211_SURVEY_INFO_FREQUENCY, 1), 0);
	nla_nest_end(msg, n);
	ck_assert_int_eq(nl80211_parse_survey(nlmsg_hdr(msg), &ifindex, &sv), -EINVAL);
	nlmsg_free(msg);
}
END_TEST

Suite *make_nl80211_wide_suite(void)
{
	Suite *s = suite_create("nl80211_wide");
	TCase *tc = tcase_create("wide");
	tcase_add_test(tc, start_ap_channel_definition);
	tcase_add_test(tc, new_station_phy_capabilities);
	tcase_add_test(tc, radar_detect_and_channel_switch);
	tcase_add_test(tc, survey_parse);
	suite_add_tcase(s, tc);
	return s;
}
