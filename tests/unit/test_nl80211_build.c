/* nl80211 backend: what the builders put into requests. */
#include "drivers/nl80211/nl80211-parse.h"

#include <check.h>
#include <errno.h>
#include <linux/nl80211.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <string.h>

#define FAMILY 0x1c

static struct nlattr *tb[NL80211_ATTR_MAX + 1];

static void attrs_of(struct nl_msg *msg)
{
	ck_assert_int_eq(genlmsg_parse(nlmsg_hdr(msg), 0, tb, NL80211_ATTR_MAX, NULL), 0);
}

static uint8_t beacon_head[40] = { 0x80, 0x00 };

static struct driver_ap_params ap_params(void)
{
	struct driver_ap_params p = { .freq_mhz = 2437, .beacon_interval = 100,
				      .dtim_period = 2, .hidden_ssid = true,
				      .beacon_head = beacon_head, .beacon_head_len = 40 };
	static const uint8_t tail[] = { 0x30, 0x02, 0x01, 0x00 };
	static const uint8_t presp[30] = { 0x50 };
	beacon_head[34] = 0x11; /* capability: ESS | Privacy */
	p.beacon_tail = tail;
	p.beacon_tail_len = sizeof(tail);
	p.probe_resp = presp;
	p.probe_resp_len = sizeof(presp);
	p.ssid.len = 4;
	memcpy(p.ssid.ssid, "wpad", 4);
	p.inactivity_timeout_s = 300;
	return p;
}

START_TEST(start_ap_carries_every_parameter)
{
	struct driver_ap_params p = ap_params();
	struct nl80211_ap_opts o = { .control_port_nl80211 = true, .ht = true,
				     .inactivity_timer = true };
	struct nl_msg *msg = nl80211_msg_new(FAMILY, NL80211_CMD_START_AP, 0);
	ck_assert_int_eq(nl80211_build_start_ap(msg, 5, &p, &o), 0);
	attrs_of(msg);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_IFINDEX]), 5);
	ck_assert_int_eq(nla_len(tb[NL80211_ATTR_BEACON_HEAD]), 40);
	ck_assert_int_eq(nla_len(tb[NL80211_ATTR_BEACON_TAIL]), 4);
	ck_assert_int_eq(nla_len(tb[NL80211_ATTR_PROBE_RESP]), 30);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_BEACON_INTERVAL]), 100);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_DTIM_PERIOD]), 2);
	ck_assert_int_eq(nla_len(tb[NL80211_ATTR_SSID]), 4);
	ck_assert_mem_eq(nla_data(tb[NL80211_ATTR_SSID]), "wpad", 4);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_HIDDEN_SSID]), NL80211_HIDDEN_SSID_ZERO_LEN);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_WIPHY_FREQ]), 2437);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_WIPHY_CHANNEL_TYPE]), NL80211_CHAN_HT20);
	ck_assert_ptr_nonnull(tb[NL80211_ATTR_PRIVACY]);
	ck_assert_uint_eq(nla_get_u16(tb[NL80211_ATTR_INACTIVITY_TIMEOUT]), 300);
	ck_assert_uint_eq(nla_get_u16(tb[NL80211_ATTR_CONTROL_PORT_ETHERTYPE]), 0x888e);
	ck_assert_ptr_nonnull(tb[NL80211_ATTR_CONTROL_PORT_OVER_NL80211]);
	ck_assert_ptr_nonnull(tb[NL80211_ATTR_SOCKET_OWNER]);
	nlmsg_free(msg);
}
END_TEST

START_TEST(start_ap_minimal_and_invalid)
{
	struct driver_ap_params p = ap_params();
	p.hidden_ssid = false;
	p.beacon_tail_len = 0;
	p.probe_resp = NULL;
	beacon_head[34] = 0x01;
	struct nl80211_ap_opts o = { 0 };
	struct nl_msg *msg = nl80211_msg_new(FAMILY, NL80211_CMD_START_AP, 0);
	ck_assert_int_eq(nl80211_build_start_ap(msg, 5, &p, &o), 0);
	attrs_of(msg);
	ck_assert_ptr_null(tb[NL80211_ATTR_BEACON_TAIL]);
	ck_assert_ptr_null(tb[NL80211_ATTR_PROBE_RESP]);
	ck_assert_ptr_null(tb[NL80211_ATTR_PRIVACY]);
	ck_assert_ptr_null(tb[NL80211_ATTR_INACTIVITY_TIMEOUT]);
	ck_assert_ptr_null(tb[NL80211_ATTR_CONTROL_PORT_OVER_NL80211]);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_HIDDEN_SSID]), NL80211_HIDDEN_SSID_NOT_IN_USE);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_WIPHY_CHANNEL_TYPE]), NL80211_CHAN_NO_HT);
	nlmsg_free(msg);

	p.beacon_head_len = 20; /* shorter than a beacon's fixed part */
	msg = nl80211_msg_new(FAMILY, NL80211_CMD_START_AP, 0);
	ck_assert_int_eq(nl80211_build_start_ap(msg, 5, &p, &o), -EINVAL);
	nlmsg_free(msg);
	p = ap_params();
	p.dtim_period = 0;
	msg = nl80211_msg_new(FAMILY, NL80211_CMD_START_AP, 0);
	ck_assert_int_eq(nl80211_build_start_ap(msg, 5, &p, &o), -EINVAL);
	nlmsg_free(msg);
}
END_TEST

START_TEST(scan_ssids_and_frequencies)
{
	struct driver_scan_params p = { .n_ssids = 2, .n_freqs = 2, .freqs = { 2412, 5180 } };
	p.ssids[0].len = 3;
	memcpy(p.ssids[0].ssid, "abc", 3);
	struct nl_msg *msg = nl80211_msg_new(FAMILY, NL80211_CMD_TRIGGER_SCAN, 0);
	ck_assert_int_eq(nl80211_build_scan(msg, 9, &p), 0);
	attrs_of(msg);
	struct nlattr *a;
	int rem, n = 0;
	nla_for_each_nested(a, tb[NL80211_ATTR_SCAN_SSIDS], rem)
		ck_assert_int_eq(nla_len(a), n++ == 0 ? 3 : 0);
	ck_assert_int_eq(n, 2);
	n = 0;
	nla_for_each_nested(a, tb[NL80211_ATTR_SCAN_FREQUENCIES], rem)
		ck_assert_uint_eq(nla_get_u32(a), p.freqs[n++]);
	ck_assert_int_eq(n, 2);
	nlmsg_free(msg);

	/* Passive: no SSID list at all; active without SSIDs: one wildcard. */
	struct driver_scan_params passive = { .passive = true };
	msg = nl80211_msg_new(FAMILY, NL80211_CMD_TRIGGER_SCAN, 0);
	ck_assert_int_eq(nl80211_build_scan(msg, 9, &passive), 0);
	attrs_of(msg);
	ck_assert_ptr_null(tb[NL80211_ATTR_SCAN_SSIDS]);
	ck_assert_ptr_null(tb[NL80211_ATTR_SCAN_FREQUENCIES]);
	nlmsg_free(msg);
	struct driver_scan_params wild = { 0 };
	msg = nl80211_msg_new(FAMILY, NL80211_CMD_TRIGGER_SCAN, 0);
	ck_assert_int_eq(nl80211_build_scan(msg, 9, &wild), 0);
	attrs_of(msg);
	ck_assert_int_eq(nla_len(nla_data(tb[NL80211_ATTR_SCAN_SSIDS])), 0);
	nlmsg_free(msg);
}
END_TEST

START_TEST(sae_authentication)
{
	static const uint8_t commit[8] = { 1, 0, 0, 0, 19, 0, 0xaa, 0xbb };
	struct driver_auth_params p = { .bssid = { 2, 0, 0, 0, 0, 1 }, .freq_mhz = 5180,
					.alg = DRIVER_AUTH_SAE, .auth_data = commit,
					.auth_data_len = sizeof(commit) };
	p.ssid.len = 1;
	p.ssid.ssid[0] = 'x';
	struct nl_msg *msg = nl80211_msg_new(FAMILY, NL80211_CMD_AUTHENTICATE, 0);
	ck_assert_int_eq(nl80211_build_auth(msg, 4, &p), 0);
	attrs_of(msg);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_AUTH_TYPE]), NL80211_AUTHTYPE_SAE);
	ck_assert_int_eq(nla_len(tb[NL80211_ATTR_AUTH_DATA]), 8);
	ck_assert_mem_eq(nla_data(tb[NL80211_ATTR_MAC]), p.bssid, 6);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_WIPHY_FREQ]), 5180);
	nlmsg_free(msg);

	p.auth_data_len = 2; /* no room for the status code */
	msg = nl80211_msg_new(FAMILY, NL80211_CMD_AUTHENTICATE, 0);
	ck_assert_int_eq(nl80211_build_auth(msg, 4, &p), -EINVAL);
	nlmsg_free(msg);
}
END_TEST

START_TEST(association_with_control_port)
{
	static const uint8_t prev[6] = { 2, 0, 0, 0, 0, 9 };
	static const uint8_t rsn[] = { 48, 20, 1, 0, 0, 0x0f, 0xac, 4, 1, 0, 0, 0x0f, 0xac, 4,
				       1,  0,  0, 0x0f, 0xac, 2, 0x80, 0 };
	struct driver_assoc_params p = { .bssid = { 2, 0, 0, 0, 0, 1 }, .freq_mhz = 2412,
					 .prev_bssid = prev, .ies = rsn, .ies_len = sizeof(rsn),
					 .use_mfp = true };
	struct nl_msg *msg = nl80211_msg_new(FAMILY, NL80211_CMD_ASSOCIATE, 0);
	ck_assert_int_eq(nl80211_build_assoc(msg, 4, &p, true), 0);
	attrs_of(msg);
	ck_assert_mem_eq(nla_data(tb[NL80211_ATTR_PREV_BSSID]), prev, 6);
	ck_assert_int_eq(nla_len(tb[NL80211_ATTR_IE]), sizeof(rsn));
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_USE_MFP]), NL80211_MFP_REQUIRED);
	ck_assert_ptr_nonnull(tb[NL80211_ATTR_CONTROL_PORT]);
	ck_assert_ptr_nonnull(tb[NL80211_ATTR_CONTROL_PORT_OVER_NL80211]);
	ck_assert_ptr_nonnull(tb[NL80211_ATTR_SOCKET_OWNER]);
	nlmsg_free(msg);

	/* CONNECT tells a full-MAC device the suites of the RSN element. */
	msg = nl80211_msg_new(FAMILY, NL80211_CMD_CONNECT, 0);
	ck_assert_int_eq(nl80211_build_connect(msg, 4, &p, false), 0);
	attrs_of(msg);
	ck_assert_ptr_nonnull(tb[NL80211_ATTR_PRIVACY]);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_CIPHER_SUITE_GROUP]), 0x000fac04);
	ck_assert_int_eq(nla_len(tb[NL80211_ATTR_AKM_SUITES]), 4);
	uint32_t akm;
	memcpy(&akm, nla_data(tb[NL80211_ATTR_AKM_SUITES]), 4);
	ck_assert_uint_eq(akm, 0x000fac02);
	ck_assert_ptr_null(tb[NL80211_ATTR_CONTROL_PORT_OVER_NL80211]);
	nlmsg_free(msg);
}
END_TEST

START_TEST(new_station_flags_and_aid)
{
	struct driver_sta_params p = { .addr = { 2, 0, 0, 0, 1, 0 }, .aid = 0,
				       .listen_interval = 10, .n_rates = 2,
				       .rates = { 0x82, 0x84 }, .capability = 0x0401,
				       .flags = DRIVER_STA_ASSOCIATED | DRIVER_STA_WMM, .ht = true,
				       .ht_capab = 0x012c };
	struct nl_msg *msg = nl80211_msg_new(FAMILY, NL80211_CMD_NEW_STATION, 0);
	ck_assert_int_eq(nl80211_build_station(msg, 4, &p, false), 0);
	attrs_of(msg);
	ck_assert_uint_eq(nla_get_u16(tb[NL80211_ATTR_STA_AID]), 1);
	ck_assert_uint_eq(nla_get_u16(tb[NL80211_ATTR_STA_LISTEN_INTERVAL]), 10);
	ck_assert_int_eq(nla_len(tb[NL80211_ATTR_STA_SUPPORTED_RATES]), 2);
	ck_assert_int_eq(nla_len(tb[NL80211_ATTR_HT_CAPABILITY]), 26);
	ck_assert_uint_eq(((uint8_t *)nla_data(tb[NL80211_ATTR_HT_CAPABILITY]))[0], 0x2c);
	struct nl80211_sta_flag_update u;
	memcpy(&u, nla_data(tb[NL80211_ATTR_STA_FLAGS2]), sizeof(u));
	ck_assert(u.mask & 1u << NL80211_STA_FLAG_AUTHORIZED);
	ck_assert(u.set & 1u << NL80211_STA_FLAG_AUTHENTICATED); /* implied by associated */
	ck_assert(u.set & 1u << NL80211_STA_FLAG_ASSOCIATED);
	ck_assert(u.set & 1u << NL80211_STA_FLAG_WME);
	ck_assert(!(u.set & 1u << NL80211_STA_FLAG_AUTHORIZED));
	nlmsg_free(msg);

	msg = nl80211_msg_new(FAMILY, NL80211_CMD_SET_STATION, 0);
	ck_assert_int_eq(nl80211_build_sta_flags(msg, 4, p.addr, DRIVER_STA_AUTHORIZED,
						 DRIVER_STA_MFP), 0);
	attrs_of(msg);
	memcpy(&u, nla_data(tb[NL80211_ATTR_STA_FLAGS2]), sizeof(u));
	ck_assert_uint_eq(u.mask, 1u << NL80211_STA_FLAG_AUTHORIZED | 1u << NL80211_STA_FLAG_MFP);
	ck_assert_uint_eq(u.set, 1u << NL80211_STA_FLAG_AUTHORIZED);
	nlmsg_free(msg);
}
END_TEST

START_TEST(keys)
{
	struct driver_key k = { .type = DRIVER_KEY_PAIRWISE, .cipher = DRIVER_CIPHER_CCMP_128,
				.key_idx = 0, .addr = { 2, 0, 0, 0, 0, 1 }, .key_len = 16 };
	memset(k.key, 0x5a, 16);
	struct nl_msg *msg = nl80211_msg_new(FAMILY, NL80211_CMD_NEW_KEY, 0);
	ck_assert_int_eq(nl80211_build_new_key(msg, 4, &k), 0);
	attrs_of(msg);
	ck_assert_mem_eq(nla_data(tb[NL80211_ATTR_MAC]), k.addr, 6);
	struct nlattr *kb[NL80211_KEY_MAX + 1];
	ck_assert_int_eq(nla_parse_nested(kb, NL80211_KEY_MAX, tb[NL80211_ATTR_KEY], NULL), 0);
	ck_assert_uint_eq(nla_get_u32(kb[NL80211_KEY_CIPHER]), 0x000fac04);
	ck_assert_uint_eq(nla_get_u32(kb[NL80211_KEY_TYPE]), NL80211_KEYTYPE_PAIRWISE);
	ck_assert_int_eq(nla_len(kb[NL80211_KEY_DATA]), 16);
	ck_assert_ptr_null(kb[NL80211_KEY_SEQ]);
	nlmsg_free(msg);

	struct driver_key g = { .type = DRIVER_KEY_GROUP, .cipher = DRIVER_CIPHER_GCMP_256,
				.key_idx = 2, .key_len = 32, .seq = { 7 } };
	msg = nl80211_msg_new(FAMILY, NL80211_CMD_NEW_KEY, 0);
	ck_assert_int_eq(nl80211_build_new_key(msg, 4, &g), 0);
	attrs_of(msg);
	ck_assert_ptr_null(tb[NL80211_ATTR_MAC]);
	ck_assert_int_eq(nla_parse_nested(kb, NL80211_KEY_MAX, tb[NL80211_ATTR_KEY], NULL), 0);
	ck_assert_int_eq(nla_len(kb[NL80211_KEY_SEQ]), 6);
	ck_assert_uint_eq(nla_get_u8(kb[NL80211_KEY_IDX]), 2);
	nlmsg_free(msg);

	struct driver_key bad = k;
	bad.key_idx = 2; /* pairwise keys use id 0 or 1 */
	msg = nl80211_msg_new(FAMILY, NL80211_CMD_NEW_KEY, 0);
	ck_assert_int_eq(nl80211_build_new_key(msg, 4, &bad), -EINVAL);
	nlmsg_free(msg);
	bad = g;
	bad.cipher = 0;
	msg = nl80211_msg_new(FAMILY, NL80211_CMD_NEW_KEY, 0);
	ck_assert_int_eq(nl80211_build_new_key(msg, 4, &bad), -EINVAL);
	nlmsg_free(msg);
}
END_TEST

START_TEST(key_references_and_defaults)
{
	static const uint8_t peer[6] = { 2, 0, 0, 0, 0, 1 };
	struct nl_msg *msg = nl80211_msg_new(FAMILY, NL80211_CMD_GET_KEY, 0);
	ck_assert_int_eq(nl80211_build_key_ref(msg, 4, DRIVER_KEY_PAIRWISE, 0, peer), 0);
	attrs_of(msg);
	ck_assert_uint_eq(nla_get_u32(tb[NL80211_ATTR_KEY_TYPE]), NL80211_KEYTYPE_PAIRWISE);
	ck_assert_mem_eq(nla_data(tb[NL80211_ATTR_MAC]), peer, 6);
	nlmsg_free(msg);
	msg = nl80211_msg_new(FAMILY, NL80211_CMD_GET_KEY, 0);
	ck_assert_int_eq(nl80211_build_key_ref(msg, 4, DRIVER_KEY_PAIRWISE, 0, NULL), -EINVAL);
	nlmsg_free(msg);

	msg = nl80211_msg_new(FAMILY, NL80211_CMD_SET_KEY, 0);
	ck_assert_int_eq(nl80211_build_default_key(msg, 4, DRIVER_KEY_GROUP, 1), 0);
	attrs_of(msg);
	struct nlattr *kb[NL80211_KEY_MAX + 1];
	ck_assert_int_eq(nla_parse_nested(kb, NL80211_KEY_MAX, tb[NL80211_ATTR_KEY], NULL), 0);
	ck_assert_ptr_nonnull(kb[NL80211_KEY_DEFAULT]);
	ck_assert_ptr_nonnull(kb[NL80211_KEY_DEFAULT_TYPES]);
	nlmsg_free(msg);
	msg = nl80211_msg_new(FAMILY, NL80211_CMD_SET_KEY, 0);
	ck_assert_int_eq(nl80211_build_default_key(msg, 4, DRIVER_KEY_IGTK, 4), 0);
	attrs_of(msg);
	ck_assert_int_eq(nla_parse_nested(kb, NL80211_KEY_MAX, tb[NL80211_ATTR_KEY], NULL), 0);
	ck_assert_ptr_nonnull(kb[NL80211_KEY_DEFAULT_MGMT]);
	ck_assert_ptr_null(kb[NL80211_KEY_DEFAULT]);
	nlmsg_free(msg);
}
END_TEST

Suite *make_nl80211_build_suite(void)
{
	Suite *s = suite_create("nl80211_build");
	TCase *tc = tcase_create("builders");
	tcase_add_test(tc, start_ap_carries_every_parameter);
	tcase_add_test(tc, start_ap_minimal_and_invalid);
	tcase_add_test(tc, scan_ssids_and_frequencies);
	tcase_add_test(tc, sae_authentication);
	tcase_add_test(tc, association_with_control_port);
	tcase_add_test(tc, new_station_flags_and_aid);
	tcase_add_test(tc, keys);
	tcase_add_test(tc, key_references_and_defaults);
	suite_add_tcase(s, tc);
	return s;
}
