/* Sample nl80211 messages; see test_nl80211_samples.h. */
#include "tests/unit/test_nl80211_samples.h"

#include <check.h>
#include <errno.h>
#include <linux/netlink.h>
#include <linux/nl80211.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <string.h>

static const uint8_t sta_addr[6] = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x00 };
static const uint8_t ap_addr[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x00 };

static struct nl_msg *start(uint8_t cmd)
{
	struct nl_msg *msg = nlmsg_alloc_size(8192);
	ck_assert_ptr_nonnull(msg);
	ck_assert_ptr_nonnull(genlmsg_put(msg, 0, 1, SAMPLE_FAMILY, 0, 0, cmd, 1));
	return msg;
}

#define OK(expr) ck_assert_int_ge((expr), 0)

static void put_iftypes(struct nl_msg *msg, int attr, const uint32_t *types, size_t n)
{
	struct nlattr *nest = nla_nest_start(msg, attr);
	ck_assert_ptr_nonnull(nest);
	for (size_t i = 0; i < n; i++)
		OK(nla_put_flag(msg, (int)types[i]));
	nla_nest_end(msg, nest);
}

static void put_combination(struct nl_msg *msg)
{
	static const uint32_t sta[] = { NL80211_IFTYPE_STATION };
	static const uint32_t ap[] = { NL80211_IFTYPE_AP };
	struct nlattr *combs = nla_nest_start(msg, NL80211_ATTR_INTERFACE_COMBINATIONS);
	struct nlattr *comb = nla_nest_start(msg, 1);
	struct nlattr *limits = nla_nest_start(msg, NL80211_IFACE_COMB_LIMITS);
	struct nlattr *l1 = nla_nest_start(msg, 1);
	OK(nla_put_u32(msg, NL80211_IFACE_LIMIT_MAX, 1));
	put_iftypes(msg, NL80211_IFACE_LIMIT_TYPES, sta, 1);
	nla_nest_end(msg, l1);
	struct nlattr *l2 = nla_nest_start(msg, 2);
	OK(nla_put_u32(msg, NL80211_IFACE_LIMIT_MAX, 3));
	put_iftypes(msg, NL80211_IFACE_LIMIT_TYPES, ap, 1);
	nla_nest_end(msg, l2);
	nla_nest_end(msg, limits);
	OK(nla_put_u32(msg, NL80211_IFACE_COMB_MAXNUM, 4));
	OK(nla_put_u32(msg, NL80211_IFACE_COMB_NUM_CHANNELS, 1));
	nla_nest_end(msg, comb);
	nla_nest_end(msg, combs);
}

static void put_commands(struct nl_msg *msg, int user_sme)
{
	uint32_t cmds[] = { NL80211_CMD_NEW_INTERFACE, NL80211_CMD_START_AP, NL80211_CMD_FRAME,
			    NL80211_CMD_CONNECT, NL80211_CMD_AUTHENTICATE, NL80211_CMD_ASSOCIATE };
	size_t n = user_sme ? 6 : 4;
	struct nlattr *nest = nla_nest_start(msg, NL80211_ATTR_SUPPORTED_COMMANDS);
	for (size_t i = 0; i < n; i++)
		OK(nla_put_u32(msg, (int)i + 1, cmds[i]));
	nla_nest_end(msg, nest);
}

static void wiphy_general(struct nl_msg *msg, int user_sme)
{
	static const uint32_t types[] = { NL80211_IFTYPE_STATION, NL80211_IFTYPE_AP,
					  NL80211_IFTYPE_MONITOR, NL80211_IFTYPE_P2P_GO };
	static const uint32_t ciphers[] = { 0x000fac01, 0x000fac02, 0x000fac04, 0x000fac06,
					    0x000fac08, 0x000fac09, 0x000fac0a, 0x00147201 };
	uint8_t ext[8] = { 0 };

	OK(nla_put_string(msg, NL80211_ATTR_WIPHY_NAME, "phy3"));
	put_iftypes(msg, NL80211_ATTR_SUPPORTED_IFTYPES, types, 4);
	OK(nla_put(msg, NL80211_ATTR_CIPHER_SUITES, sizeof(ciphers), ciphers));
	OK(nla_put_u8(msg, NL80211_ATTR_MAX_NUM_SCAN_SSIDS, 4));
	put_commands(msg, user_sme);
	OK(nla_put_u32(msg, NL80211_ATTR_FEATURE_FLAGS, NL80211_FEATURE_SK_TX_STATUS));
	ext[NL80211_EXT_FEATURE_CONTROL_PORT_OVER_NL80211 / 8] |=
		1u << (NL80211_EXT_FEATURE_CONTROL_PORT_OVER_NL80211 % 8);
	OK(nla_put(msg, NL80211_ATTR_EXT_FEATURES, sizeof(ext), ext));
	put_combination(msg);
	/* The flag form of this attribute, as wiphy dumps carry it. */
	OK(nla_put_flag(msg, NL80211_ATTR_CONTROL_PORT_ETHERTYPE));
}

struct sample_chan {
	int band, idx;
	uint32_t freq;
	int flags; /* 1 no-IR, 2 radar, 4 disabled */
};

static const struct sample_chan chans[] = {
	{ NL80211_BAND_2GHZ, 0, 2412, 0 }, { NL80211_BAND_2GHZ, 1, 2437, 0 },
	{ NL80211_BAND_2GHZ, 2, 2472, 1 }, { NL80211_BAND_5GHZ, 0, 5180, 0 },
	{ NL80211_BAND_5GHZ, 1, 5260, 3 }, { NL80211_BAND_5GHZ, 2, 5845, 4 },
};

static void put_rates(struct nl_msg *msg, const uint32_t *rates, size_t n)
{
	struct nlattr *nest = nla_nest_start(msg, NL80211_BAND_ATTR_RATES);
	for (size_t i = 0; i < n; i++) {
		struct nlattr *r = nla_nest_start(msg, (int)i);
		OK(nla_put_u32(msg, NL80211_BITRATE_ATTR_RATE, rates[i]));
		nla_nest_end(msg, r);
	}
	nla_nest_end(msg, nest);
}

static void put_channel(struct nl_msg *msg, const struct sample_chan *c)
{
	struct nlattr *freqs = nla_nest_start(msg, NL80211_BAND_ATTR_FREQS);
	struct nlattr *ch = nla_nest_start(msg, c->idx);
	OK(nla_put_u32(msg, NL80211_FREQUENCY_ATTR_FREQ, c->freq));
	OK(nla_put_u32(msg, NL80211_FREQUENCY_ATTR_MAX_TX_POWER, 2000));
	if (c->flags & 1)
		OK(nla_put_flag(msg, NL80211_FREQUENCY_ATTR_NO_IR));
	if (c->flags & 2)
		OK(nla_put_flag(msg, NL80211_FREQUENCY_ATTR_RADAR));
	if (c->flags & 4)
		OK(nla_put_flag(msg, NL80211_FREQUENCY_ATTR_DISABLED));
	nla_nest_end(msg, ch);
	nla_nest_end(msg, freqs);
}

static void wiphy_band_part(struct nl_msg *msg, int part)
{
	static const uint32_t rates_2g[] = { 10, 20, 55, 110, 60, 90, 120, 180, 240, 360, 480, 540 };
	static const uint32_t rates_5g[] = { 60, 90, 120, 180, 240, 360, 480, 540 };
	uint8_t mcs[16] = { 0xff, 0xff };
	int band = part <= 3 ? NL80211_BAND_2GHZ : NL80211_BAND_5GHZ;
	struct nlattr *bands = nla_nest_start(msg, NL80211_ATTR_WIPHY_BANDS);
	struct nlattr *b = nla_nest_start(msg, band);

	if (part >= 1 && part <= 6)
		put_channel(msg, &chans[part - 1]);
	if (part == 1) {
		put_rates(msg, rates_2g, 12);
		OK(nla_put_u16(msg, NL80211_BAND_ATTR_HT_CAPA, 0x116e));
		OK(nla_put(msg, NL80211_BAND_ATTR_HT_MCS_SET, sizeof(mcs), mcs));
	}
	if (part == 7) {
		put_rates(msg, rates_5g, 8);
		OK(nla_put_u32(msg, NL80211_BAND_ATTR_VHT_CAPA, 0x03800032));
	}
	nla_nest_end(msg, b);
	nla_nest_end(msg, bands);
}

struct nl_msg *sample_wiphy_part(int part, int user_sme)
{
	struct nl_msg *msg = start(NL80211_CMD_NEW_WIPHY);
	nlmsg_hdr(msg)->nlmsg_flags |= NLM_F_MULTI;
	OK(nla_put_u32(msg, NL80211_ATTR_WIPHY, SAMPLE_WIPHY));
	if (part == 0)
		wiphy_general(msg, user_sme);
	else
		wiphy_band_part(msg, part);
	return msg;
}

struct nl_msg *sample_scan_result(void)
{
	static const uint8_t ies[] = { 0, 4, 'd', 'e', 'm', 'o', 1, 2, 0x82, 0x84, 3, 1, 6 };
	static const uint8_t beacon_ies[] = { 0, 0, 3, 1, 6 };
	struct nl_msg *msg = start(NL80211_CMD_NEW_SCAN_RESULTS);
	OK(nla_put_u32(msg, NL80211_ATTR_IFINDEX, SAMPLE_IFINDEX));
	struct nlattr *bss = nla_nest_start(msg, NL80211_ATTR_BSS);
	OK(nla_put(msg, NL80211_BSS_BSSID, 6, ap_addr));
	OK(nla_put_u32(msg, NL80211_BSS_FREQUENCY, 2437));
	OK(nla_put_u64(msg, NL80211_BSS_TSF, 0x123456789ull));
	OK(nla_put_u16(msg, NL80211_BSS_BEACON_INTERVAL, 100));
	OK(nla_put_u16(msg, NL80211_BSS_CAPABILITY, 0x0411));
	OK(nla_put(msg, NL80211_BSS_INFORMATION_ELEMENTS, sizeof(ies), ies));
	OK(nla_put(msg, NL80211_BSS_BEACON_IES, sizeof(beacon_ies), beacon_ies));
	OK(nla_put_flag(msg, NL80211_BSS_PRESP_DATA));
	OK(nla_put_u32(msg, NL80211_BSS_SIGNAL_MBM, (uint32_t)-4200));
	OK(nla_put_u32(msg, NL80211_BSS_SEEN_MS_AGO, 250));
	nla_nest_end(msg, bss);
	return msg;
}

static struct nl_msg *iface_event(uint8_t cmd)
{
	struct nl_msg *msg = start(cmd);
	OK(nla_put_u32(msg, NL80211_ATTR_WIPHY, SAMPLE_WIPHY));
	OK(nla_put_u32(msg, NL80211_ATTR_IFINDEX, SAMPLE_IFINDEX));
	return msg;
}

struct nl_msg *sample_frame_event(void)
{
	uint8_t probe[28] = { 0x40, 0x00, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	memcpy(probe + 10, sta_addr, 6);
	memset(probe + 16, 0xff, 6);
	probe[24] = 0; /* wildcard SSID, then an empty rates element */
	probe[26] = 1;
	struct nl_msg *msg = iface_event(NL80211_CMD_FRAME);
	OK(nla_put(msg, NL80211_ATTR_FRAME, sizeof(probe), probe));
	OK(nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, 2437));
	OK(nla_put_u32(msg, NL80211_ATTR_RX_SIGNAL_DBM, (uint32_t)-55));
	return msg;
}

struct nl_msg *sample_tx_status_event(void)
{
	uint8_t action[29] = { 0xd0 };
	memcpy(action + 4, ap_addr, 6);
	memcpy(action + 10, sta_addr, 6);
	memcpy(action + 16, ap_addr, 6);
	action[24] = 127;
	struct nl_msg *msg = iface_event(NL80211_CMD_FRAME_TX_STATUS);
	OK(nla_put(msg, NL80211_ATTR_FRAME, sizeof(action), action));
	OK(nla_put_u64(msg, NL80211_ATTR_COOKIE, 0x42));
	OK(nla_put_flag(msg, NL80211_ATTR_ACK));
	return msg;
}

struct nl_msg *sample_control_port_event(void)
{
	static const uint8_t eapol[] = { 0x02, 0x03, 0x00, 0x05, 0x02, 0x00, 0x8a, 0x00, 0x10 };
	struct nl_msg *msg = iface_event(NL80211_CMD_CONTROL_PORT_FRAME);
	OK(nla_put(msg, NL80211_ATTR_FRAME, sizeof(eapol), eapol));
	OK(nla_put(msg, NL80211_ATTR_MAC, 6, ap_addr));
	OK(nla_put_u16(msg, NL80211_ATTR_CONTROL_PORT_ETHERTYPE, 0x888e));
	OK(nla_put_flag(msg, NL80211_ATTR_CONTROL_PORT_NO_ENCRYPT));
	return msg;
}

struct nl_msg *sample_assoc_event(void)
{
	uint8_t resp[36] = { 0x10 };
	memcpy(resp + 4, sta_addr, 6);
	memcpy(resp + 10, ap_addr, 6);
	memcpy(resp + 16, ap_addr, 6);
	resp[24] = 0x01; /* capability ESS; status 0; AID 1 | 0xc000 */
	resp[28] = 0x01;
	resp[29] = 0xc0;
	resp[30] = 1; /* Supported Rates: 6 Mb/s basic ... */
	resp[31] = 4;
	resp[32] = 0x8c;
	resp[33] = 0x12;
	resp[34] = 0x98;
	resp[35] = 0x24;
	struct nl_msg *msg = iface_event(NL80211_CMD_ASSOCIATE);
	OK(nla_put(msg, NL80211_ATTR_FRAME, sizeof(resp), resp));
	return msg;
}

struct nl_msg *sample_auth_timeout_event(void)
{
	struct nl_msg *msg = iface_event(NL80211_CMD_AUTHENTICATE);
	OK(nla_put_flag(msg, NL80211_ATTR_TIMED_OUT));
	OK(nla_put(msg, NL80211_ATTR_MAC, 6, ap_addr));
	return msg;
}

struct nl_msg *sample_cqm_event(void)
{
	struct nl_msg *msg = iface_event(NL80211_CMD_NOTIFY_CQM);
	OK(nla_put(msg, NL80211_ATTR_MAC, 6, ap_addr));
	struct nlattr *cqm = nla_nest_start(msg, NL80211_ATTR_CQM);
	OK(nla_put_flag(msg, NL80211_ATTR_CQM_BEACON_LOSS_EVENT));
	nla_nest_end(msg, cqm);
	return msg;
}

struct nl_msg *sample_reg_change_event(void)
{
	struct nl_msg *msg = start(NL80211_CMD_REG_CHANGE);
	OK(nla_put_u8(msg, NL80211_ATTR_REG_INITIATOR, NL80211_REGDOM_SET_BY_USER));
	OK(nla_put_u8(msg, NL80211_ATTR_REG_TYPE, NL80211_REGDOM_TYPE_COUNTRY));
	OK(nla_put_string(msg, NL80211_ATTR_REG_ALPHA2, "DE"));
	return msg;
}

struct nl_msg *sample_new_interface(void)
{
	struct nl_msg *msg = iface_event(NL80211_CMD_NEW_INTERFACE);
	OK(nla_put_string(msg, NL80211_ATTR_IFNAME, "wlan7"));
	OK(nla_put_u32(msg, NL80211_ATTR_IFTYPE, NL80211_IFTYPE_AP));
	OK(nla_put(msg, NL80211_ATTR_MAC, 6, ap_addr));
	OK(nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, 2437));
	OK(nla_put_u64(msg, NL80211_ATTR_WDEV, 0x300000001ull));
	return msg;
}

struct nl_msg *sample_sta_info(void)
{
	struct nl80211_sta_flag_update u = {
		.mask = 1u << NL80211_STA_FLAG_AUTHORIZED | 1u << NL80211_STA_FLAG_ASSOCIATED |
			1u << NL80211_STA_FLAG_WME | 1u << NL80211_STA_FLAG_MFP,
		.set = 1u << NL80211_STA_FLAG_ASSOCIATED | 1u << NL80211_STA_FLAG_WME,
	};
	struct nl_msg *msg = iface_event(NL80211_CMD_NEW_STATION);
	OK(nla_put(msg, NL80211_ATTR_MAC, 6, sta_addr));
	struct nlattr *si = nla_nest_start(msg, NL80211_ATTR_STA_INFO);
	OK(nla_put_u32(msg, NL80211_STA_INFO_INACTIVE_TIME, 1500));
	OK(nla_put_u64(msg, NL80211_STA_INFO_RX_BYTES64, 5000000000ull));
	OK(nla_put_u32(msg, NL80211_STA_INFO_TX_BYTES, 1234));
	OK(nla_put_u32(msg, NL80211_STA_INFO_RX_PACKETS, 10));
	OK(nla_put_u32(msg, NL80211_STA_INFO_TX_PACKETS, 11));
	OK(nla_put_u32(msg, NL80211_STA_INFO_TX_RETRIES, 3));
	OK(nla_put_u32(msg, NL80211_STA_INFO_TX_FAILED, 1));
	OK(nla_put_u8(msg, NL80211_STA_INFO_SIGNAL, (uint8_t)-61));
	OK(nla_put_u32(msg, NL80211_STA_INFO_CONNECTED_TIME, 42));
	OK(nla_put(msg, NL80211_STA_INFO_STA_FLAGS, sizeof(u), &u));
	nla_nest_end(msg, si);
	return msg;
}

static void put_rule(struct nl_msg *msg, int idx, uint32_t start_khz, uint32_t end_khz,
		     uint32_t flags)
{
	struct nlattr *r = nla_nest_start(msg, idx);
	OK(nla_put_u32(msg, NL80211_ATTR_REG_RULE_FLAGS, flags));
	OK(nla_put_u32(msg, NL80211_ATTR_FREQ_RANGE_START, start_khz));
	OK(nla_put_u32(msg, NL80211_ATTR_FREQ_RANGE_END, end_khz));
	OK(nla_put_u32(msg, NL80211_ATTR_FREQ_RANGE_MAX_BW, 40000));
	OK(nla_put_u32(msg, NL80211_ATTR_POWER_RULE_MAX_EIRP, 2000));
	nla_nest_end(msg, r);
}

struct nl_msg *sample_reg(void)
{
	struct nl_msg *msg = start(NL80211_CMD_GET_REG);
	OK(nla_put_string(msg, NL80211_ATTR_REG_ALPHA2, "US"));
	OK(nla_put_u8(msg, NL80211_ATTR_DFS_REGION, NL80211_DFS_FCC));
	struct nlattr *rules = nla_nest_start(msg, NL80211_ATTR_REG_RULES);
	put_rule(msg, 1, 2402000, 2472000, 0);
	put_rule(msg, 2, 5250000, 5330000, NL80211_RRF_DFS | NL80211_RRF_NO_IR);
	nla_nest_end(msg, rules);
	return msg;
}

struct nl_msg *sample_key_seq(void)
{
	static const uint8_t seq[6] = { 5, 4, 3, 2, 1, 0 };
	struct nl_msg *msg = iface_event(NL80211_CMD_NEW_KEY);
	struct nlattr *key = nla_nest_start(msg, NL80211_ATTR_KEY);
	OK(nla_put_u8(msg, NL80211_KEY_IDX, 1));
	OK(nla_put(msg, NL80211_KEY_SEQ, sizeof(seq), seq));
	nla_nest_end(msg, key);
	OK(nla_put(msg, NL80211_ATTR_KEY_SEQ, sizeof(seq), seq));
	return msg;
}

size_t sample_ext_ack(uint8_t *buf, size_t cap, int capped)
{
	static const char text[] = "sample refusal";
	struct nlmsghdr req = { .nlmsg_len = NLMSG_HDRLEN + 8, .nlmsg_type = SAMPLE_FAMILY,
				.nlmsg_seq = 9 };
	size_t payload = capped ? 0 : 8;
	size_t tlv = NLA_HDRLEN + NLA_ALIGN(sizeof(text));
	size_t len = NLMSG_HDRLEN + sizeof(struct nlmsgerr) + payload + tlv;

	ck_assert_uint_le(len, cap);
	memset(buf, 0, len);
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	h->nlmsg_len = (uint32_t)len;
	h->nlmsg_type = NLMSG_ERROR;
	h->nlmsg_flags = NLM_F_ACK_TLVS | (capped ? NLM_F_CAPPED : 0);
	h->nlmsg_seq = 9;
	struct nlmsgerr e = { .error = -EINVAL, .msg = req };
	memcpy(buf + NLMSG_HDRLEN, &e, sizeof(e));
	struct nlattr a = { .nla_len = (uint16_t)(NLA_HDRLEN + sizeof(text)),
			    .nla_type = NLMSGERR_ATTR_MSG };
	uint8_t *t = buf + NLMSG_HDRLEN + sizeof(e) + payload;
	memcpy(t, &a, sizeof(a));
	memcpy(t + NLA_HDRLEN, text, sizeof(text));
	return len;
}
