/* nl80211 backend: capabilities from a split NEW_WIPHY dump. */
#include "drivers/nl80211/nl80211-parse.h"
#include "tests/unit/test_nl80211_samples.h"

#include <check.h>
#include <errno.h>
#include <linux/nl80211.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <string.h>

static void merge(struct nl80211_wiphy *w, int part, int user_sme)
{
	struct nl_msg *msg = sample_wiphy_part(part, user_sme);
	ck_assert_int_eq(nl80211_wiphy_parse(w, nlmsg_hdr(msg)), 0);
	nlmsg_free(msg);
}

static void parse_all(struct nl80211_wiphy *w, int user_sme, bool reverse)
{
	nl80211_wiphy_init(w);
	for (int i = 0; i < SAMPLE_WIPHY_PARTS; i++)
		merge(w, reverse ? SAMPLE_WIPHY_PARTS - 1 - i : i, user_sme);
	nl80211_wiphy_finish(w);
}

START_TEST(split_dump_gives_bands_and_channels)
{
	struct nl80211_wiphy w;
	parse_all(&w, 1, false);
	ck_assert(w.have_id);
	ck_assert_uint_eq(w.id, SAMPLE_WIPHY);
	ck_assert_str_eq(w.name, "phy3");
	const struct driver_band_info *b2 = &w.capa.bands[DRIVER_BAND_2GHZ];
	const struct driver_band_info *b5 = &w.capa.bands[DRIVER_BAND_5GHZ];
	ck_assert(b2->present && b5->present && !w.capa.bands[DRIVER_BAND_6GHZ].present);
	ck_assert_uint_eq(b2->n_channels, 3);
	ck_assert_uint_eq(b2->channels[0].freq_mhz, 2412);
	ck_assert_uint_eq(b2->channels[0].number, 1);
	ck_assert_uint_eq(b2->channels[1].number, 6);
	ck_assert_int_eq(b2->channels[1].max_power_dbm, 20);
	ck_assert_uint_eq(b2->channels[2].flags, DRIVER_CHAN_NO_IR);
	ck_assert_uint_eq(b5->n_channels, 3);
	ck_assert_uint_eq(b5->channels[0].number, 36);
	ck_assert_uint_eq(b5->channels[1].flags, DRIVER_CHAN_NO_IR | DRIVER_CHAN_RADAR);
	ck_assert_uint_eq(b5->channels[2].flags, DRIVER_CHAN_DISABLED);
	ck_assert_uint_eq(b5->channels[2].number, 169);
}
END_TEST

START_TEST(rates_and_ht_vht)
{
	struct nl80211_wiphy w;
	parse_all(&w, 1, false);
	const struct driver_band_info *b2 = &w.capa.bands[DRIVER_BAND_2GHZ];
	const struct driver_band_info *b5 = &w.capa.bands[DRIVER_BAND_5GHZ];
	ck_assert_uint_eq(b2->n_rates, 12);
	ck_assert_uint_eq(b2->rates_100kbps[0], 10);
	ck_assert_uint_eq(b2->rates_100kbps[2], 55);
	ck_assert(b2->ht);
	ck_assert_uint_eq(b2->ht_capab, 0x116e);
	ck_assert_uint_eq(b2->ht_mcs_rx[0], 0xff);
	ck_assert_uint_eq(b2->ht_mcs_rx[2], 0);
	ck_assert(!b2->vht);
	ck_assert_uint_eq(b5->n_rates, 8);
	ck_assert(b5->vht);
	ck_assert_uint_eq(b5->vht_capab, 0x03800032);
}
END_TEST

START_TEST(parts_merge_in_any_order)
{
	struct nl80211_wiphy a, b;
	parse_all(&a, 1, false);
	parse_all(&b, 1, true);
	ck_assert_int_eq(memcmp(&a.capa, &b.capa, sizeof(a.capa)), 0);
}
END_TEST

START_TEST(iftypes_ciphers_and_limits)
{
	struct nl80211_wiphy w;
	parse_all(&w, 1, false);
	ck_assert_uint_eq(w.capa.iftypes,
			  DRIVER_IFTYPE_STATION | DRIVER_IFTYPE_AP | DRIVER_IFTYPE_MONITOR);
	ck_assert_uint_eq(w.capa.ciphers, DRIVER_CIPHER_WEP40 | DRIVER_CIPHER_TKIP |
						  DRIVER_CIPHER_CCMP_128 | DRIVER_CIPHER_BIP_CMAC_128 |
						  DRIVER_CIPHER_GCMP_128 | DRIVER_CIPHER_GCMP_256 |
						  DRIVER_CIPHER_CCMP_256);
	ck_assert_uint_eq(w.capa.max_scan_ssids, 4);
	ck_assert_uint_eq(w.capa.max_interfaces, 4);
	ck_assert_uint_eq(w.capa.max_ap_interfaces, 3);
	ck_assert_uint_eq(w.features, NL80211_FEATURE_SK_TX_STATUS);
}
END_TEST

START_TEST(flags_follow_commands_and_features)
{
	struct nl80211_wiphy w;
	parse_all(&w, 1, false);
	uint32_t f = w.capa.flags;
	ck_assert(f & DRIVER_CAPA_USER_SME);
	ck_assert(!(f & DRIVER_CAPA_FULLMAC_CONNECT));
	ck_assert(f & DRIVER_CAPA_CONTROL_PORT);
	ck_assert(f & DRIVER_CAPA_MONITOR);
	ck_assert(f & DRIVER_CAPA_AP_STA_CONCURRENT);
	ck_assert(f & DRIVER_CAPA_HW_CRYPTO);
	ck_assert(!(f & DRIVER_CAPA_AP_PROBE_RESP_OFFLOAD));
	ck_assert(!(f & DRIVER_CAPA_QOS_QUEUES));
	ck_assert(nl80211_wiphy_ext_feature(&w, NL80211_EXT_FEATURE_CONTROL_PORT_OVER_NL80211));
	ck_assert(!nl80211_wiphy_ext_feature(&w, NL80211_EXT_FEATURE_VHT_IBSS));
	ck_assert(!nl80211_wiphy_ext_feature(&w, 100000));

	parse_all(&w, 0, false); /* CONNECT only: a full-MAC device */
	ck_assert(!(w.capa.flags & DRIVER_CAPA_USER_SME));
	ck_assert(w.capa.flags & DRIVER_CAPA_FULLMAC_CONNECT);
}
END_TEST

START_TEST(part_of_another_wiphy_is_refused)
{
	struct nl80211_wiphy w;
	nl80211_wiphy_init(&w);
	merge(&w, 0, 1);
	struct nl_msg *msg = nlmsg_alloc();
	genlmsg_put(msg, 0, 1, SAMPLE_FAMILY, 0, 0, NL80211_CMD_NEW_WIPHY, 1);
	nla_put_u32(msg, NL80211_ATTR_WIPHY, SAMPLE_WIPHY + 1);
	ck_assert_int_eq(nl80211_wiphy_parse(&w, nlmsg_hdr(msg)), -ESRCH);
	uint32_t id = 0;
	ck_assert_int_eq(nl80211_wiphy_index(nlmsg_hdr(msg), &id), 0);
	ck_assert_uint_eq(id, SAMPLE_WIPHY + 1);
	nlmsg_free(msg);
}
END_TEST

START_TEST(malformed_attributes_are_refused)
{
	struct nl80211_wiphy w;
	nl80211_wiphy_init(&w);
	struct nl_msg *msg = nlmsg_alloc();
	genlmsg_put(msg, 0, 1, SAMPLE_FAMILY, 0, 0, NL80211_CMD_NEW_WIPHY, 1);
	/* A 1-octet WIPHY where a u32 belongs. */
	uint8_t one = 1;
	nla_put(msg, NL80211_ATTR_WIPHY, 1, &one);
	ck_assert_int_eq(nl80211_wiphy_parse(&w, nlmsg_hdr(msg)), -EINVAL);
	nlmsg_free(msg);

	/* No WIPHY at all. */
	msg = nlmsg_alloc();
	genlmsg_put(msg, 0, 1, SAMPLE_FAMILY, 0, 0, NL80211_CMD_NEW_WIPHY, 1);
	ck_assert_int_eq(nl80211_wiphy_parse(&w, nlmsg_hdr(msg)), -EINVAL);
	nlmsg_free(msg);
	ck_assert(!w.have_id);
}
END_TEST

START_TEST(channel_numbers_and_lookup)
{
	ck_assert_uint_eq(nl80211_freq_to_channel(2412), 1);
	ck_assert_uint_eq(nl80211_freq_to_channel(2484), 14);
	ck_assert_uint_eq(nl80211_freq_to_channel(5180), 36);
	ck_assert_uint_eq(nl80211_freq_to_channel(5925), 185);
	ck_assert_uint_eq(nl80211_freq_to_channel(5935), 2);
	ck_assert_uint_eq(nl80211_freq_to_channel(5955), 1);
	ck_assert_uint_eq(nl80211_freq_to_channel(1234), 0);
	struct nl80211_wiphy w;
	parse_all(&w, 1, false);
	ck_assert_ptr_nonnull(nl80211_wiphy_channel(&w.capa, 5260));
	ck_assert_ptr_null(nl80211_wiphy_channel(&w.capa, 2467));
}
END_TEST

START_TEST(cipher_and_iftype_maps_round_trip)
{
	for (uint32_t bit = 1; bit <= DRIVER_CIPHER_BIP_CMAC_256; bit <<= 1)
		ck_assert_uint_eq(nl80211_cipher_from_suite(nl80211_cipher_to_suite(bit)), bit);
	ck_assert_uint_eq(nl80211_cipher_from_suite(0x000fac07), 0);
	static const enum driver_iftype types[] = { DRIVER_IFTYPE_STATION, DRIVER_IFTYPE_AP,
						    DRIVER_IFTYPE_MONITOR, DRIVER_IFTYPE_MESH };
	for (size_t i = 0; i < 4; i++) {
		uint32_t nl;
		ck_assert_int_eq(nl80211_iftype_to_nl(types[i], &nl), 0);
		ck_assert_int_eq(nl80211_iftype_from_nl(nl), types[i]);
	}
	uint32_t nl;
	ck_assert_int_eq(nl80211_iftype_to_nl(DRIVER_IFTYPE_UNSPEC, &nl), -EINVAL);
	ck_assert_int_eq(nl80211_iftype_from_nl(NL80211_IFTYPE_P2P_DEVICE), DRIVER_IFTYPE_UNSPEC);
}
END_TEST

Suite *make_nl80211_capa_suite(void)
{
	Suite *s = suite_create("nl80211_capa");
	TCase *tc = tcase_create("wiphy");
	tcase_add_test(tc, split_dump_gives_bands_and_channels);
	tcase_add_test(tc, rates_and_ht_vht);
	tcase_add_test(tc, parts_merge_in_any_order);
	tcase_add_test(tc, iftypes_ciphers_and_limits);
	tcase_add_test(tc, flags_follow_commands_and_features);
	tcase_add_test(tc, part_of_another_wiphy_is_refused);
	tcase_add_test(tc, malformed_attributes_are_refused);
	tcase_add_test(tc, channel_numbers_and_lookup);
	tcase_add_test(tc, cipher_and_iftype_maps_round_trip);
	suite_add_tcase(s, tc);
	return s;
}
