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

static int build(const struct driver_ap_params *p, bool ht)
{
	struct nl80211_ap_opts o = { .ht = ht };
	struct nl_msg *msg = nl80211_msg_new(FAMILY, NL80211_CMD_START_AP, 0);
	int r = nl80211_build_start_ap(msg, 3, p, &o);
	if (r == 0)
		ck_assert_int_eq(genlmsg_parse(nlmsg_hdr(msg), 0, tb, NL80211_ATTR_MAX, NULL), 0);
	nlmsg_free(msg);
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

Suite *make_nl80211_wide_suite(void)
{
	Suite *s = suite_create("nl80211_wide");
	TCase *tc = tcase_create("wide");
	tcase_add_test(tc, start_ap_channel_definition);
	tcase_add_test(tc, new_station_phy_capabilities);
	suite_add_tcase(s, tc);
	return s;
}
