/* Parsers for the nl80211 messages wpad reads besides NEW_WIPHY: interfaces,
 * scan results, events, station information, the regulatory domain, key
 * sequence counters and the netlink extended ACK. Each is bounds-checked
 * through nla_parse() with a policy (see nl80211-parse.h). */
#include "drivers/nl80211/nl80211-parse.h"

#include <errno.h>
#include <linux/netlink.h>
#include <linux/nl80211.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <stdlib.h>
#include <string.h>

#define MAC_ATTR { .type = NLA_UNSPEC, .minlen = 6 }

static const struct nla_policy iface_policy[NL80211_ATTR_MAX + 1] = {
	[NL80211_ATTR_IFINDEX] = { .type = NLA_U32 },
	[NL80211_ATTR_WIPHY] = { .type = NLA_U32 },
	[NL80211_ATTR_IFNAME] = { .type = NLA_STRING },
	[NL80211_ATTR_IFTYPE] = { .type = NLA_U32 },
	[NL80211_ATTR_MAC] = MAC_ATTR,
	[NL80211_ATTR_WIPHY_FREQ] = { .type = NLA_U32 },
};

static void copy_name(char *dst, size_t cap, struct nlattr *a)
{
	/* NLA_STRING in the policy guarantees the terminating NUL. */
	strncpy(dst, nla_get_string(a), cap - 1);
	dst[cap - 1] = '\0';
}

int nl80211_parse_iface(const struct nlmsghdr *nlh, struct driver_iface_info *info)
{
	struct nlattr *tb[NL80211_ATTR_MAX + 1];

	memset(info, 0, sizeof(*info));
	if (genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, NL80211_ATTR_MAX, iface_policy) < 0)
		return -EINVAL;
	if (!tb[NL80211_ATTR_IFINDEX] || !tb[NL80211_ATTR_WIPHY])
		return -EINVAL; /* a wdev without a netdev (P2P device): not ours */
	info->ifindex = nla_get_u32(tb[NL80211_ATTR_IFINDEX]);
	info->radio_id = nla_get_u32(tb[NL80211_ATTR_WIPHY]);
	if (tb[NL80211_ATTR_IFNAME])
		copy_name(info->name, sizeof(info->name), tb[NL80211_ATTR_IFNAME]);
	if (tb[NL80211_ATTR_IFTYPE])
		info->iftype = nl80211_iftype_from_nl(nla_get_u32(tb[NL80211_ATTR_IFTYPE]));
	if (tb[NL80211_ATTR_MAC])
		memcpy(info->addr, nla_data(tb[NL80211_ATTR_MAC]), 6);
	if (tb[NL80211_ATTR_WIPHY_FREQ])
		info->freq_mhz = nla_get_u32(tb[NL80211_ATTR_WIPHY_FREQ]);
	return 0;
}

/* ---- scan results ---- */

static const struct nla_policy scan_policy[NL80211_ATTR_MAX + 1] = {
	[NL80211_ATTR_IFINDEX] = { .type = NLA_U32 },
	[NL80211_ATTR_BSS] = { .type = NLA_NESTED },
};

static const struct nla_policy bss_policy[NL80211_BSS_MAX + 1] = {
	[NL80211_BSS_BSSID] = MAC_ATTR,
	[NL80211_BSS_FREQUENCY] = { .type = NLA_U32 },
	[NL80211_BSS_TSF] = { .type = NLA_U64 },
	[NL80211_BSS_BEACON_INTERVAL] = { .type = NLA_U16 },
	[NL80211_BSS_CAPABILITY] = { .type = NLA_U16 },
	[NL80211_BSS_INFORMATION_ELEMENTS] = { .type = NLA_UNSPEC },
	[NL80211_BSS_SIGNAL_MBM] = { .type = NLA_U32 },
	[NL80211_BSS_SIGNAL_UNSPEC] = { .type = NLA_U8 },
	[NL80211_BSS_SEEN_MS_AGO] = { .type = NLA_U32 },
	[NL80211_BSS_BEACON_IES] = { .type = NLA_UNSPEC },
	[NL80211_BSS_PRESP_DATA] = { .type = NLA_FLAG },
};

static int copy_ies(struct driver_scan_result *r, struct nlattr *a)
{
	size_t len = (size_t)nla_len(a);
	r->ies_len = 0;
	r->ies = NULL;
	if (!len)
		return 0;
	r->ies = malloc(len);
	if (!r->ies)
		return -ENOMEM;
	memcpy(r->ies, nla_data(a), len);
	r->ies_len = len;
	return 0;
}

int nl80211_parse_scan_result(const struct nlmsghdr *nlh, uint32_t *ifindex,
			      struct driver_scan_result *r)
{
	struct nlattr *tb[NL80211_ATTR_MAX + 1], *bss[NL80211_BSS_MAX + 1];

	memset(r, 0, sizeof(*r));
	if (genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, NL80211_ATTR_MAX, scan_policy) < 0)
		return -EINVAL;
	if (!tb[NL80211_ATTR_BSS])
		return -ENOENT;
	if (nla_parse_nested(bss, NL80211_BSS_MAX, tb[NL80211_ATTR_BSS], bss_policy) < 0)
		return -EINVAL;
	if (!bss[NL80211_BSS_BSSID] || !bss[NL80211_BSS_FREQUENCY])
		return -EINVAL;
	if (ifindex)
		*ifindex = tb[NL80211_ATTR_IFINDEX] ? nla_get_u32(tb[NL80211_ATTR_IFINDEX]) : 0;
	memcpy(r->bssid, nla_data(bss[NL80211_BSS_BSSID]), 6);
	r->freq_mhz = nla_get_u32(bss[NL80211_BSS_FREQUENCY]);
	if (bss[NL80211_BSS_SIGNAL_MBM])
		r->signal_mbm = (int32_t)nla_get_u32(bss[NL80211_BSS_SIGNAL_MBM]);
	else if (bss[NL80211_BSS_SIGNAL_UNSPEC]) /* 0..100: spread over -100..-20 dBm */
		r->signal_mbm = -10000 + 80 * nla_get_u8(bss[NL80211_BSS_SIGNAL_UNSPEC]);
	if (bss[NL80211_BSS_BEACON_INTERVAL])
		r->beacon_interval = nla_get_u16(bss[NL80211_BSS_BEACON_INTERVAL]);
	if (bss[NL80211_BSS_CAPABILITY])
		r->capability = nla_get_u16(bss[NL80211_BSS_CAPABILITY]);
	if (bss[NL80211_BSS_TSF])
		r->tsf = nla_get_u64(bss[NL80211_BSS_TSF]);
	if (bss[NL80211_BSS_SEEN_MS_AGO])
		r->age_ms = nla_get_u32(bss[NL80211_BSS_SEEN_MS_AGO]);
	/* INFORMATION_ELEMENTS are the latest frame's; PRESP_DATA says that
	 * frame was a probe response. Without them, the beacon's. */
	struct nlattr *ies = bss[NL80211_BSS_INFORMATION_ELEMENTS];
	if (ies)
		r->from_probe_resp = bss[NL80211_BSS_PRESP_DATA] != NULL;
	else
		ies = bss[NL80211_BSS_BEACON_IES];
	return ies ? copy_ies(r, ies) : 0;
}

/* ---- events ---- */

static const struct nla_policy event_policy[NL80211_ATTR_MAX + 1] = {
	[NL80211_ATTR_WIPHY] = { .type = NLA_U32 },
	[NL80211_ATTR_IFINDEX] = { .type = NLA_U32 },
	[NL80211_ATTR_FRAME] = { .type = NLA_UNSPEC },
	[NL80211_ATTR_MAC] = MAC_ATTR,
	[NL80211_ATTR_WIPHY_FREQ] = { .type = NLA_U32 },
	[NL80211_ATTR_RX_SIGNAL_DBM] = { .type = NLA_U32 },
	[NL80211_ATTR_TIMED_OUT] = { .type = NLA_FLAG },
	[NL80211_ATTR_COOKIE] = { .type = NLA_U64 },
	[NL80211_ATTR_ACK] = { .type = NLA_FLAG },
	/* A u16 in frames, a flag in wiphy dumps: length checked by hand. */
	[NL80211_ATTR_CONTROL_PORT_ETHERTYPE] = { .type = NLA_UNSPEC },
	[NL80211_ATTR_CONTROL_PORT_NO_ENCRYPT] = { .type = NLA_FLAG },
	[NL80211_ATTR_REASON_CODE] = { .type = NLA_U16 },
	[NL80211_ATTR_STATUS_CODE] = { .type = NLA_U16 },
	[NL80211_ATTR_DISCONNECTED_BY_AP] = { .type = NLA_FLAG },
	[NL80211_ATTR_REQ_IE] = { .type = NLA_UNSPEC },
	[NL80211_ATTR_RESP_IE] = { .type = NLA_UNSPEC },
	[NL80211_ATTR_CQM] = { .type = NLA_NESTED },
	[NL80211_ATTR_KEY_TYPE] = { .type = NLA_U32 },
	[NL80211_ATTR_REG_ALPHA2] = { .type = NLA_STRING },
	[NL80211_ATTR_REG_INITIATOR] = { .type = NLA_U8 },
	[NL80211_ATTR_REG_TYPE] = { .type = NLA_U8 },
	[NL80211_ATTR_RADAR_EVENT] = { .type = NLA_U32 },
	[NL80211_ATTR_CHANNEL_WIDTH] = { .type = NLA_U32 },
	[NL80211_ATTR_CENTER_FREQ1] = { .type = NLA_U32 },
};

static const struct nla_policy cqm_policy[NL80211_ATTR_CQM_MAX + 1] = {
	[NL80211_ATTR_CQM_BEACON_LOSS_EVENT] = { .type = NLA_FLAG },
	[NL80211_ATTR_CQM_PKT_LOSS_EVENT] = { .type = NLA_U32 },
};

static void parse_cqm(struct nl80211_event *ev, struct nlattr *nest)
{
	struct nlattr *cqm[NL80211_ATTR_CQM_MAX + 1];

	if (nla_parse_nested(cqm, NL80211_ATTR_CQM_MAX, nest, cqm_policy) < 0)
		return;
	ev->cqm_beacon_loss = cqm[NL80211_ATTR_CQM_BEACON_LOSS_EVENT] != NULL;
	ev->cqm_pkt_loss = cqm[NL80211_ATTR_CQM_PKT_LOSS_EVENT] != NULL;
}

static void parse_event_codes(struct nl80211_event *ev, struct nlattr **tb)
{
	if (tb[NL80211_ATTR_REASON_CODE]) {
		ev->reason_code = nla_get_u16(tb[NL80211_ATTR_REASON_CODE]);
		ev->has_reason = true;
	}
	if (tb[NL80211_ATTR_STATUS_CODE]) {
		ev->status_code = nla_get_u16(tb[NL80211_ATTR_STATUS_CODE]);
		ev->has_status = true;
	}
	ev->disconnected_by_ap = tb[NL80211_ATTR_DISCONNECTED_BY_AP] != NULL;
	if (tb[NL80211_ATTR_REQ_IE]) {
		ev->req_ie = nla_data(tb[NL80211_ATTR_REQ_IE]);
		ev->req_ie_len = (size_t)nla_len(tb[NL80211_ATTR_REQ_IE]);
	}
	if (tb[NL80211_ATTR_RESP_IE]) {
		ev->resp_ie = nla_data(tb[NL80211_ATTR_RESP_IE]);
		ev->resp_ie_len = (size_t)nla_len(tb[NL80211_ATTR_RESP_IE]);
	}
	if (tb[NL80211_ATTR_CQM])
		parse_cqm(ev, tb[NL80211_ATTR_CQM]);
	if (tb[NL80211_ATTR_KEY_TYPE]) {
		ev->key_type = nla_get_u32(tb[NL80211_ATTR_KEY_TYPE]);
		ev->has_key_type = true;
	}
	if (tb[NL80211_ATTR_REG_ALPHA2])
		ev->alpha2 = nla_get_string(tb[NL80211_ATTR_REG_ALPHA2]);
	if (tb[NL80211_ATTR_REG_INITIATOR]) {
		ev->reg_initiator = nla_get_u8(tb[NL80211_ATTR_REG_INITIATOR]);
		ev->has_reg = true;
	}
	if (tb[NL80211_ATTR_REG_TYPE]) {
		ev->reg_type = nla_get_u8(tb[NL80211_ATTR_REG_TYPE]);
		ev->has_reg = true;
	}
	if (tb[NL80211_ATTR_RADAR_EVENT]) {
		ev->radar_event = nla_get_u32(tb[NL80211_ATTR_RADAR_EVENT]);
		ev->has_radar_event = true;
	}
	if (tb[NL80211_ATTR_CHANNEL_WIDTH]) {
		ev->chan_width = nla_get_u32(tb[NL80211_ATTR_CHANNEL_WIDTH]);
		ev->has_chan_width = true;
	}
	if (tb[NL80211_ATTR_CENTER_FREQ1])
		ev->center_freq1 = nla_get_u32(tb[NL80211_ATTR_CENTER_FREQ1]);
}

int nl80211_parse_event(const struct nlmsghdr *nlh, struct nl80211_event *ev)
{
	struct nlattr *tb[NL80211_ATTR_MAX + 1];

	memset(ev, 0, sizeof(*ev));
	if (genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, NL80211_ATTR_MAX, event_policy) < 0)
		return -EINVAL;
	ev->cmd = ((const struct genlmsghdr *)nlmsg_data(nlh))->cmd;
	if (tb[NL80211_ATTR_WIPHY]) {
		ev->wiphy = nla_get_u32(tb[NL80211_ATTR_WIPHY]);
		ev->has_wiphy = true;
	}
	if (tb[NL80211_ATTR_IFINDEX]) {
		ev->ifindex = nla_get_u32(tb[NL80211_ATTR_IFINDEX]);
		ev->has_ifindex = true;
	}
	if (tb[NL80211_ATTR_FRAME]) {
		ev->frame = nla_data(tb[NL80211_ATTR_FRAME]);
		ev->frame_len = (size_t)nla_len(tb[NL80211_ATTR_FRAME]);
	}
	if (tb[NL80211_ATTR_MAC])
		ev->mac = nla_data(tb[NL80211_ATTR_MAC]);
	if (tb[NL80211_ATTR_WIPHY_FREQ])
		ev->freq = nla_get_u32(tb[NL80211_ATTR_WIPHY_FREQ]);
	if (tb[NL80211_ATTR_RX_SIGNAL_DBM]) {
		int32_t dbm = (int32_t)nla_get_u32(tb[NL80211_ATTR_RX_SIGNAL_DBM]);
		ev->signal_mbm = 100 * (dbm < -200 ? -200 : dbm > 100 ? 100 : dbm);
		ev->has_signal = true;
	}
	ev->timed_out = tb[NL80211_ATTR_TIMED_OUT] != NULL;
	if (tb[NL80211_ATTR_COOKIE]) {
		ev->cookie = nla_get_u64(tb[NL80211_ATTR_COOKIE]);
		ev->has_cookie = true;
	}
	ev->ack = tb[NL80211_ATTR_ACK] != NULL;
	if (tb[NL80211_ATTR_CONTROL_PORT_ETHERTYPE] &&
	    nla_len(tb[NL80211_ATTR_CONTROL_PORT_ETHERTYPE]) >= 2)
		ev->ethertype = nla_get_u16(tb[NL80211_ATTR_CONTROL_PORT_ETHERTYPE]);
	ev->no_encrypt = tb[NL80211_ATTR_CONTROL_PORT_NO_ENCRYPT] != NULL;
	parse_event_codes(ev, tb);
	return 0;
}

/* ---- station information ---- */

static const struct nla_policy sta_policy[NL80211_ATTR_MAX + 1] = {
	[NL80211_ATTR_MAC] = MAC_ATTR,
	[NL80211_ATTR_STA_INFO] = { .type = NLA_NESTED },
};

static const struct nla_policy sta_info_policy[NL80211_STA_INFO_MAX + 1] = {
	[NL80211_STA_INFO_INACTIVE_TIME] = { .type = NLA_U32 },
	[NL80211_STA_INFO_RX_BYTES] = { .type = NLA_U32 },
	[NL80211_STA_INFO_TX_BYTES] = { .type = NLA_U32 },
	[NL80211_STA_INFO_RX_BYTES64] = { .type = NLA_U64 },
	[NL80211_STA_INFO_TX_BYTES64] = { .type = NLA_U64 },
	[NL80211_STA_INFO_RX_PACKETS] = { .type = NLA_U32 },
	[NL80211_STA_INFO_TX_PACKETS] = { .type = NLA_U32 },
	[NL80211_STA_INFO_TX_RETRIES] = { .type = NLA_U32 },
	[NL80211_STA_INFO_TX_FAILED] = { .type = NLA_U32 },
	[NL80211_STA_INFO_SIGNAL] = { .type = NLA_U8 },
	[NL80211_STA_INFO_CONNECTED_TIME] = { .type = NLA_U32 },
	[NL80211_STA_INFO_RX_DROP_MISC] = { .type = NLA_U64 },
	[NL80211_STA_INFO_STA_FLAGS] = { .type = NLA_UNSPEC,
					 .minlen = sizeof(struct nl80211_sta_flag_update) },
};

static uint32_t sta_flags_from_nl(const struct nl80211_sta_flag_update *u)
{
	static const struct { uint32_t nl, drv; } map[] = {
		{ NL80211_STA_FLAG_AUTHENTICATED, DRIVER_STA_AUTHENTICATED },
		{ NL80211_STA_FLAG_ASSOCIATED, DRIVER_STA_ASSOCIATED },
		{ NL80211_STA_FLAG_AUTHORIZED, DRIVER_STA_AUTHORIZED },
		{ NL80211_STA_FLAG_WME, DRIVER_STA_WMM },
		{ NL80211_STA_FLAG_MFP, DRIVER_STA_MFP },
		{ NL80211_STA_FLAG_SHORT_PREAMBLE, DRIVER_STA_SHORT_PREAMBLE },
	};
	uint32_t flags = 0;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (u->mask & u->set & (1u << map[i].nl))
			flags |= map[i].drv;
	return flags;
}

static void parse_sta_counters(struct driver_sta_info *info, struct nlattr **si)
{
	if (si[NL80211_STA_INFO_INACTIVE_TIME])
		info->inactive_ms = nla_get_u32(si[NL80211_STA_INFO_INACTIVE_TIME]);
	if (si[NL80211_STA_INFO_RX_BYTES64])
		info->rx_bytes = nla_get_u64(si[NL80211_STA_INFO_RX_BYTES64]);
	else if (si[NL80211_STA_INFO_RX_BYTES])
		info->rx_bytes = nla_get_u32(si[NL80211_STA_INFO_RX_BYTES]);
	if (si[NL80211_STA_INFO_TX_BYTES64])
		info->tx_bytes = nla_get_u64(si[NL80211_STA_INFO_TX_BYTES64]);
	else if (si[NL80211_STA_INFO_TX_BYTES])
		info->tx_bytes = nla_get_u32(si[NL80211_STA_INFO_TX_BYTES]);
	if (si[NL80211_STA_INFO_RX_PACKETS])
		info->rx_packets = nla_get_u32(si[NL80211_STA_INFO_RX_PACKETS]);
	if (si[NL80211_STA_INFO_TX_PACKETS])
		info->tx_packets = nla_get_u32(si[NL80211_STA_INFO_TX_PACKETS]);
	if (si[NL80211_STA_INFO_TX_RETRIES])
		info->tx_retries = nla_get_u32(si[NL80211_STA_INFO_TX_RETRIES]);
	if (si[NL80211_STA_INFO_TX_FAILED])
		info->tx_failed = nla_get_u32(si[NL80211_STA_INFO_TX_FAILED]);
	if (si[NL80211_STA_INFO_SIGNAL])
		info->signal_mbm = 100 * (int8_t)nla_get_u8(si[NL80211_STA_INFO_SIGNAL]);
	if (si[NL80211_STA_INFO_CONNECTED_TIME])
		info->connected_s = nla_get_u32(si[NL80211_STA_INFO_CONNECTED_TIME]);
	if (si[NL80211_STA_INFO_RX_DROP_MISC]) {
		uint64_t d = nla_get_u64(si[NL80211_STA_INFO_RX_DROP_MISC]);
		info->rx_dropped_decrypt = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
	}
}

int nl80211_parse_sta_info(const struct nlmsghdr *nlh, struct driver_sta_info *info)
{
	struct nlattr *tb[NL80211_ATTR_MAX + 1], *si[NL80211_STA_INFO_MAX + 1];

	memset(info, 0, sizeof(*info));
	if (genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, NL80211_ATTR_MAX, sta_policy) < 0)
		return -EINVAL;
	if (!tb[NL80211_ATTR_MAC] || !tb[NL80211_ATTR_STA_INFO])
		return -EINVAL;
	if (nla_parse_nested(si, NL80211_STA_INFO_MAX, tb[NL80211_ATTR_STA_INFO],
			     sta_info_policy) < 0)
		return -EINVAL;
	memcpy(info->addr, nla_data(tb[NL80211_ATTR_MAC]), 6);
	parse_sta_counters(info, si);
	if (si[NL80211_STA_INFO_STA_FLAGS]) {
		struct nl80211_sta_flag_update u;
		memcpy(&u, nla_data(si[NL80211_STA_INFO_STA_FLAGS]), sizeof(u));
		info->flags = sta_flags_from_nl(&u);
	}
	return 0;
}

/* ---- regulatory ---- */

static const struct nla_policy reg_policy[NL80211_ATTR_MAX + 1] = {
	[NL80211_ATTR_REG_ALPHA2] = { .type = NLA_STRING },
	[NL80211_ATTR_DFS_REGION] = { .type = NLA_U8 },
	[NL80211_ATTR_REG_RULES] = { .type = NLA_NESTED },
};

static const struct nla_policy rule_policy[NL80211_REG_RULE_ATTR_MAX + 1] = {
	[NL80211_ATTR_REG_RULE_FLAGS] = { .type = NLA_U32 },
	[NL80211_ATTR_FREQ_RANGE_START] = { .type = NLA_U32 },
	[NL80211_ATTR_FREQ_RANGE_END] = { .type = NLA_U32 },
	[NL80211_ATTR_FREQ_RANGE_MAX_BW] = { .type = NLA_U32 },
	[NL80211_ATTR_POWER_RULE_MAX_EIRP] = { .type = NLA_U32 },
};

static int parse_rule(struct driver_reg_rule *r, struct nlattr *nest)
{
	struct nlattr *tb[NL80211_REG_RULE_ATTR_MAX + 1];

	if (nla_parse_nested(tb, NL80211_REG_RULE_ATTR_MAX, nest, rule_policy) < 0 ||
	    !tb[NL80211_ATTR_FREQ_RANGE_START] || !tb[NL80211_ATTR_FREQ_RANGE_END])
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->start_mhz = nla_get_u32(tb[NL80211_ATTR_FREQ_RANGE_START]) / 1000;
	r->end_mhz = nla_get_u32(tb[NL80211_ATTR_FREQ_RANGE_END]) / 1000;
	if (tb[NL80211_ATTR_FREQ_RANGE_MAX_BW])
		r->max_bw_mhz = nla_get_u32(tb[NL80211_ATTR_FREQ_RANGE_MAX_BW]) / 1000;
	if (tb[NL80211_ATTR_POWER_RULE_MAX_EIRP]) {
		uint32_t dbm = nla_get_u32(tb[NL80211_ATTR_POWER_RULE_MAX_EIRP]) / 100;
		r->max_eirp_dbm = (int8_t)(dbm > 127 ? 127 : dbm);
	}
	uint32_t f = tb[NL80211_ATTR_REG_RULE_FLAGS] ?
			     nla_get_u32(tb[NL80211_ATTR_REG_RULE_FLAGS]) : 0;
	if (f & NL80211_RRF_NO_IR)
		r->flags |= DRIVER_CHAN_NO_IR;
	if (f & NL80211_RRF_DFS)
		r->flags |= DRIVER_CHAN_RADAR;
	if (f & NL80211_RRF_NO_OUTDOOR)
		r->flags |= DRIVER_CHAN_INDOOR_ONLY;
	return 0;
}

int nl80211_parse_reg(const struct nlmsghdr *nlh, struct driver_regulatory *reg)
{
	struct nlattr *tb[NL80211_ATTR_MAX + 1], *rule;
	int rem;

	memset(reg, 0, sizeof(*reg));
	if (genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, NL80211_ATTR_MAX, reg_policy) < 0)
		return -EINVAL;
	if (!tb[NL80211_ATTR_REG_ALPHA2])
		return -EINVAL;
	const char *a = nla_get_string(tb[NL80211_ATTR_REG_ALPHA2]);
	if (strlen(a) < 2)
		return -EINVAL;
	memcpy(reg->alpha2, a, 2);
	reg->alpha2[2] = '\0';
	if (tb[NL80211_ATTR_DFS_REGION])
		reg->dfs_required = nla_get_u8(tb[NL80211_ATTR_DFS_REGION]) != NL80211_DFS_UNSET;
	if (!tb[NL80211_ATTR_REG_RULES])
		return 0;
	nla_for_each_nested(rule, tb[NL80211_ATTR_REG_RULES], rem) {
		if (reg->n_rules >= DRIVER_MAX_REG_RULES)
			break;
		if (parse_rule(&reg->rules[reg->n_rules], rule) == 0) {
			if (reg->rules[reg->n_rules].flags & DRIVER_CHAN_RADAR)
				reg->dfs_required = true;
			reg->n_rules++;
		}
	}
	return 0;
}

/* ---- keys ---- */

static const struct nla_policy key_policy[NL80211_ATTR_MAX + 1] = {
	[NL80211_ATTR_KEY_SEQ] = { .type = NLA_UNSPEC },
	[NL80211_ATTR_KEY] = { .type = NLA_NESTED },
};

static const struct nla_policy key_nest_policy[NL80211_KEY_MAX + 1] = {
	[NL80211_KEY_SEQ] = { .type = NLA_UNSPEC },
};

int nl80211_parse_key_seq(const struct nlmsghdr *nlh, uint8_t seq[6])
{
	struct nlattr *tb[NL80211_ATTR_MAX + 1], *kb[NL80211_KEY_MAX + 1];
	struct nlattr *s = NULL;

	memset(seq, 0, 6);
	if (genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, NL80211_ATTR_MAX, key_policy) < 0)
		return -EINVAL;
	if (tb[NL80211_ATTR_KEY] &&
	    nla_parse_nested(kb, NL80211_KEY_MAX, tb[NL80211_ATTR_KEY], key_nest_policy) == 0)
		s = kb[NL80211_KEY_SEQ];
	if (!s)
		s = tb[NL80211_ATTR_KEY_SEQ];
	if (!s)
		return -ENOENT;
	size_t len = (size_t)nla_len(s);
	memcpy(seq, nla_data(s), len < 6 ? len : 6);
	return 0;
}

/* ---- extended ACK ---- */

static const struct nla_policy ack_policy[NLMSGERR_ATTR_MAX + 1] = {
	[NLMSGERR_ATTR_MSG] = { .type = NLA_STRING },
	[NLMSGERR_ATTR_OFFS] = { .type = NLA_U32 },
};

int nl80211_parse_ext_ack(const struct nlmsghdr *nlh, char *text, size_t cap)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];

	if (cap)
		text[0] = '\0';
	if (nlh->nlmsg_type != NLMSG_ERROR || !(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return -ENOENT;
	size_t total = nlh->nlmsg_len;
	size_t off = NLMSG_HDRLEN + sizeof(struct nlmsgerr);
	if (total < off)
		return -EINVAL;
	const struct nlmsgerr *e = (const struct nlmsgerr *)((const char *)nlh + NLMSG_HDRLEN);
	/* Without NLM_F_CAPPED the request follows the error, then the TLVs. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		if (e->msg.nlmsg_len < NLMSG_HDRLEN)
			return -EINVAL;
		size_t extra = NLMSG_ALIGN(e->msg.nlmsg_len) - NLMSG_HDRLEN;
		if (extra > total - off)
			return -EINVAL;
		off += extra;
	}
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)((char *)nlh + off),
		      (int)(total - off), ack_policy) < 0)
		return -EINVAL;
	if (!tb[NLMSGERR_ATTR_MSG])
		return -ENOENT;
	if (cap) {
		strncpy(text, nla_get_string(tb[NLMSGERR_ATTR_MSG]), cap - 1);
		text[cap - 1] = '\0';
	}
	return 0;
}
