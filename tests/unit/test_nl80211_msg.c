/* nl80211 backend: parsers for scan results, events, stations, the
 * regulatory domain, key counters and the extended ACK. */
#include "drivers/nl80211/nl80211-parse.h"
#include "tests/unit/test_nl80211_samples.h"

#include <check.h>
#include <errno.h>
#include <linux/netlink.h>
#include <linux/nl80211.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t ap_addr[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x00 };
static const uint8_t sta_addr[6] = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x00 };

/* The event points into its message: the last one parsed is kept until
 * the next parse or the end of the test. */
static struct nl_msg *held;

static void release(void)
{
	if (held)
		nlmsg_free(held);
	held = NULL;
}

static struct nl80211_event parse(struct nl_msg *msg)
{
	struct nl80211_event e;
	release();
	held = msg;
	ck_assert_int_eq(nl80211_parse_event(nlmsg_hdr(msg), &e), 0);
	return e;
}

START_TEST(scan_result_becomes_driver_result)
{
	struct nl_msg *msg = sample_scan_result();
	struct driver_scan_result r;
	uint32_t ifindex = 0;
	ck_assert_int_eq(nl80211_parse_scan_result(nlmsg_hdr(msg), &ifindex, &r), 0);
	nlmsg_free(msg);
	ck_assert_uint_eq(ifindex, SAMPLE_IFINDEX);
	ck_assert_mem_eq(r.bssid, ap_addr, 6);
	ck_assert_uint_eq(r.freq_mhz, 2437);
	ck_assert_int_eq(r.signal_mbm, -4200);
	ck_assert_uint_eq(r.beacon_interval, 100);
	ck_assert_uint_eq(r.capability, 0x0411);
	ck_assert_uint_eq(r.tsf, 0x123456789ull);
	ck_assert_uint_eq(r.age_ms, 250);
	ck_assert(r.from_probe_resp);
	ck_assert_uint_eq(r.ies_len, 13); /* the probe response's, not the beacon's */
	ck_assert_mem_eq(r.ies + 2, "demo", 4);
	free(r.ies);
}
END_TEST

START_TEST(scan_message_without_bss)
{
	struct nl_msg *msg = nlmsg_alloc();
	genlmsg_put(msg, 0, 1, SAMPLE_FAMILY, 0, 0, NL80211_CMD_NEW_SCAN_RESULTS, 1);
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, 3);
	struct driver_scan_result r;
	ck_assert_int_eq(nl80211_parse_scan_result(nlmsg_hdr(msg), NULL, &r), -ENOENT);
	/* A BSS without its BSSID is malformed. */
	struct nlattr *bss = nla_nest_start(msg, NL80211_ATTR_BSS);
	nla_put_u32(msg, NL80211_BSS_FREQUENCY, 2412);
	nla_nest_end(msg, bss);
	ck_assert_int_eq(nl80211_parse_scan_result(nlmsg_hdr(msg), NULL, &r), -EINVAL);
	ck_assert_ptr_null(r.ies);
	nlmsg_free(msg);
}
END_TEST

START_TEST(frame_and_tx_status_events)
{
	struct nl80211_event e = parse(sample_frame_event());
	ck_assert_uint_eq(e.cmd, NL80211_CMD_FRAME);
	ck_assert(e.has_ifindex && e.has_wiphy);
	ck_assert_uint_eq(e.ifindex, SAMPLE_IFINDEX);
	ck_assert_uint_eq(e.frame_len, 28);
	ck_assert_uint_eq(e.frame[0], 0x40);
	ck_assert_uint_eq(e.freq, 2437);
	ck_assert(e.has_signal);
	ck_assert_int_eq(e.signal_mbm, -5500);

	e = parse(sample_tx_status_event());
	ck_assert_uint_eq(e.cmd, NL80211_CMD_FRAME_TX_STATUS);
	ck_assert(e.has_cookie && e.ack);
	ck_assert_uint_eq(e.cookie, 0x42);
}
END_TEST

START_TEST(control_port_event)
{
	struct nl80211_event e = parse(sample_control_port_event());
	ck_assert_uint_eq(e.cmd, NL80211_CMD_CONTROL_PORT_FRAME);
	ck_assert_mem_eq(e.mac, ap_addr, 6);
	ck_assert_uint_eq(e.ethertype, 0x888e);
	ck_assert(e.no_encrypt);
	ck_assert_uint_eq(e.frame_len, 9);
}
END_TEST

START_TEST(mlme_events)
{
	struct nl80211_event e = parse(sample_assoc_event());
	ck_assert_uint_eq(e.cmd, NL80211_CMD_ASSOCIATE);
	ck_assert(!e.timed_out);
	ck_assert_uint_eq(e.frame_len, 36);

	e = parse(sample_auth_timeout_event());
	ck_assert_uint_eq(e.cmd, NL80211_CMD_AUTHENTICATE);
	ck_assert(e.timed_out);
	ck_assert_ptr_null(e.frame);

	e = parse(sample_cqm_event());
	ck_assert(e.cqm_beacon_loss);
	ck_assert(!e.cqm_pkt_loss);

	e = parse(sample_reg_change_event());
	ck_assert_str_eq(e.alpha2, "DE");
	ck_assert(e.has_reg);
	ck_assert_uint_eq(e.reg_initiator, NL80211_REGDOM_SET_BY_USER);
}
END_TEST

START_TEST(short_mac_is_refused)
{
	struct nl_msg *msg = nlmsg_alloc();
	genlmsg_put(msg, 0, 1, SAMPLE_FAMILY, 0, 0, NL80211_CMD_FRAME, 1);
	nla_put(msg, NL80211_ATTR_MAC, 4, ap_addr);
	struct nl80211_event e;
	ck_assert_int_eq(nl80211_parse_event(nlmsg_hdr(msg), &e), -EINVAL);
	nlmsg_free(msg);
}
END_TEST

START_TEST(interface_message)
{
	struct nl_msg *msg = sample_new_interface();
	struct driver_iface_info info;
	ck_assert_int_eq(nl80211_parse_iface(nlmsg_hdr(msg), &info), 0);
	nlmsg_free(msg);
	ck_assert_uint_eq(info.ifindex, SAMPLE_IFINDEX);
	ck_assert_uint_eq(info.radio_id, SAMPLE_WIPHY);
	ck_assert_str_eq(info.name, "wlan7");
	ck_assert_int_eq(info.iftype, DRIVER_IFTYPE_AP);
	ck_assert_mem_eq(info.addr, ap_addr, 6);
	ck_assert_uint_eq(info.freq_mhz, 2437);
}
END_TEST

START_TEST(station_info)
{
	struct nl_msg *msg = sample_sta_info();
	struct driver_sta_info si;
	ck_assert_int_eq(nl80211_parse_sta_info(nlmsg_hdr(msg), &si), 0);
	nlmsg_free(msg);
	ck_assert_mem_eq(si.addr, sta_addr, 6);
	ck_assert_uint_eq(si.flags, DRIVER_STA_ASSOCIATED | DRIVER_STA_WMM);
	ck_assert_uint_eq(si.inactive_ms, 1500);
	ck_assert_uint_eq(si.rx_bytes, 5000000000ull);
	ck_assert_uint_eq(si.tx_bytes, 1234);
	ck_assert_uint_eq(si.rx_packets, 10);
	ck_assert_uint_eq(si.tx_packets, 11);
	ck_assert_uint_eq(si.tx_retries, 3);
	ck_assert_uint_eq(si.tx_failed, 1);
	ck_assert_int_eq(si.signal_mbm, -6100);
	ck_assert_uint_eq(si.connected_s, 42);
}
END_TEST

START_TEST(regulatory_domain)
{
	struct nl_msg *msg = sample_reg();
	struct driver_regulatory reg;
	ck_assert_int_eq(nl80211_parse_reg(nlmsg_hdr(msg), &reg), 0);
	nlmsg_free(msg);
	ck_assert_str_eq(reg.alpha2, "US");
	ck_assert(reg.dfs_required);
	ck_assert_uint_eq(reg.n_rules, 2);
	ck_assert_uint_eq(reg.rules[0].start_mhz, 2402);
	ck_assert_uint_eq(reg.rules[0].end_mhz, 2472);
	ck_assert_uint_eq(reg.rules[0].max_bw_mhz, 40);
	ck_assert_int_eq(reg.rules[0].max_eirp_dbm, 20);
	ck_assert_uint_eq(reg.rules[0].flags, 0);
	ck_assert_uint_eq(reg.rules[1].flags, DRIVER_CHAN_RADAR | DRIVER_CHAN_NO_IR);
}
END_TEST

START_TEST(key_sequence)
{
	struct nl_msg *msg = sample_key_seq();
	uint8_t seq[6];
	ck_assert_int_eq(nl80211_parse_key_seq(nlmsg_hdr(msg), seq), 0);
	nlmsg_free(msg);
	static const uint8_t want[6] = { 5, 4, 3, 2, 1, 0 };
	ck_assert_mem_eq(seq, want, 6);

	msg = nlmsg_alloc();
	genlmsg_put(msg, 0, 1, SAMPLE_FAMILY, 0, 0, NL80211_CMD_NEW_KEY, 1);
	ck_assert_int_eq(nl80211_parse_key_seq(nlmsg_hdr(msg), seq), -ENOENT);
	nlmsg_free(msg);
}
END_TEST

START_TEST(extended_ack_text)
{
	uint8_t buf[256];
	char text[64];
	for (int capped = 0; capped <= 1; capped++) {
		size_t n = sample_ext_ack(buf, sizeof(buf), capped);
		ck_assert_uint_gt(n, 0);
		ck_assert_int_eq(nl80211_parse_ext_ack((struct nlmsghdr *)buf, text, sizeof(text)), 0);
		ck_assert_str_eq(text, "sample refusal");
	}
	/* Without the TLV flag there is nothing to read. */
	size_t n = sample_ext_ack(buf, sizeof(buf), 1);
	((struct nlmsghdr *)buf)->nlmsg_flags = 0;
	ck_assert_int_eq(nl80211_parse_ext_ack((struct nlmsghdr *)buf, text, sizeof(text)), -ENOENT);
	/* An echoed request longer than the message is refused. */
	sample_ext_ack(buf, sizeof(buf), 0);
	struct nlmsgerr *e = (struct nlmsgerr *)(buf + NLMSG_HDRLEN);
	e->msg.nlmsg_len = 4000;
	ck_assert_int_eq(nl80211_parse_ext_ack((struct nlmsghdr *)buf, text, sizeof(text)), -EINVAL);
	(void)n;
}
END_TEST

Suite *make_nl80211_msg_suite(void)
{
	Suite *s = suite_create("nl80211_msg");
	TCase *tc = tcase_create("parsers");
	tcase_add_checked_fixture(tc, NULL, release);
	tcase_add_test(tc, scan_result_becomes_driver_result);
	tcase_add_test(tc, scan_message_without_bss);
	tcase_add_test(tc, frame_and_tx_status_events);
	tcase_add_test(tc, control_port_event);
	tcase_add_test(tc, mlme_events);
	tcase_add_test(tc, short_mac_is_refused);
	tcase_add_test(tc, interface_message);
	tcase_add_test(tc, station_info);
	tcase_add_test(tc, regulatory_domain);
	tcase_add_test(tc, key_sequence);
	tcase_add_test(tc, extended_ack_text);
	suite_add_tcase(s, tc);
	return s;
}
