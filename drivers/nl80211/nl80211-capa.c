/* Capabilities: what a wiphy can do, merged from the parts of a split
 * NEW_WIPHY dump (or one unsplit notification) into struct driver_capa.
 *
 * In a split dump the kernel sends one channel per message, each nested
 * under its index within the band, and the band's rates and HT/VHT data
 * once; parts are merged by (band, index), so the order of arrival does not
 * matter. Every attribute goes through nla_parse() with a policy. */
#include "drivers/nl80211/nl80211-parse.h"

#include "daemon/codec/ie_ht.h"

#include <errno.h>
#include <linux/nl80211.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <string.h>

static const struct nla_policy wiphy_policy[NL80211_ATTR_MAX + 1] = {
	[NL80211_ATTR_WIPHY] = { .type = NLA_U32 },
	[NL80211_ATTR_WIPHY_NAME] = { .type = NLA_STRING },
	[NL80211_ATTR_WIPHY_BANDS] = { .type = NLA_NESTED },
	[NL80211_ATTR_SUPPORTED_IFTYPES] = { .type = NLA_NESTED },
	[NL80211_ATTR_SOFTWARE_IFTYPES] = { .type = NLA_NESTED },
	[NL80211_ATTR_INTERFACE_COMBINATIONS] = { .type = NLA_NESTED },
	[NL80211_ATTR_SUPPORTED_COMMANDS] = { .type = NLA_NESTED },
	[NL80211_ATTR_CIPHER_SUITES] = { .type = NLA_UNSPEC },
	[NL80211_ATTR_MAX_NUM_SCAN_SSIDS] = { .type = NLA_U8 },
	[NL80211_ATTR_FEATURE_FLAGS] = { .type = NLA_U32 },
	[NL80211_ATTR_EXT_FEATURES] = { .type = NLA_UNSPEC },
	[NL80211_ATTR_PROBE_RESP_OFFLOAD] = { .type = NLA_U32 },
	[NL80211_ATTR_MAX_AP_ASSOC_STA] = { .type = NLA_U32 },
	[NL80211_ATTR_AKM_SUITES] = { .type = NLA_UNSPEC },
};

static const struct nla_policy band_policy[NL80211_BAND_ATTR_MAX + 1] = {
	[NL80211_BAND_ATTR_FREQS] = { .type = NLA_NESTED },
	[NL80211_BAND_ATTR_RATES] = { .type = NLA_NESTED },
	[NL80211_BAND_ATTR_HT_CAPA] = { .type = NLA_U16 },
	[NL80211_BAND_ATTR_HT_MCS_SET] = { .type = NLA_UNSPEC, .minlen = 10 },
	[NL80211_BAND_ATTR_VHT_CAPA] = { .type = NLA_U32 },
	[NL80211_BAND_ATTR_VHT_MCS_SET] = { .type = NLA_UNSPEC, .minlen = 8 },
	[NL80211_BAND_ATTR_IFTYPE_DATA] = { .type = NLA_NESTED },
};

static const struct nla_policy iftype_data_policy[NL80211_BAND_IFTYPE_ATTR_MAX + 1] = {
	[NL80211_BAND_IFTYPE_ATTR_IFTYPES] = { .type = NLA_NESTED },
	[NL80211_BAND_IFTYPE_ATTR_HE_CAP_MAC] = { .type = NLA_UNSPEC, .minlen = 6 },
	[NL80211_BAND_IFTYPE_ATTR_HE_CAP_PHY] = { .type = NLA_UNSPEC, .minlen = 11 },
	[NL80211_BAND_IFTYPE_ATTR_HE_CAP_MCS_SET] = { .type = NLA_UNSPEC, .minlen = 4 },
	[NL80211_BAND_IFTYPE_ATTR_HE_CAP_PPE] = { .type = NLA_UNSPEC },
};

static const struct nla_policy freq_policy[NL80211_FREQUENCY_ATTR_MAX + 1] = {
	[NL80211_FREQUENCY_ATTR_FREQ] = { .type = NLA_U32 },
	[NL80211_FREQUENCY_ATTR_DISABLED] = { .type = NLA_FLAG },
	[NL80211_FREQUENCY_ATTR_NO_IR] = { .type = NLA_FLAG },
	[NL80211_FREQUENCY_ATTR_RADAR] = { .type = NLA_FLAG },
	[NL80211_FREQUENCY_ATTR_INDOOR_ONLY] = { .type = NLA_FLAG },
	[NL80211_FREQUENCY_ATTR_MAX_TX_POWER] = { .type = NLA_U32 },
	[NL80211_FREQUENCY_ATTR_NO_HT40_MINUS] = { .type = NLA_FLAG },
	[NL80211_FREQUENCY_ATTR_NO_HT40_PLUS] = { .type = NLA_FLAG },
	[NL80211_FREQUENCY_ATTR_NO_80MHZ] = { .type = NLA_FLAG },
	[NL80211_FREQUENCY_ATTR_NO_160MHZ] = { .type = NLA_FLAG },
	[NL80211_FREQUENCY_ATTR_DFS_STATE] = { .type = NLA_U32 },
	[NL80211_FREQUENCY_ATTR_DFS_CAC_TIME] = { .type = NLA_U32 },
};

static const struct {
	int attr;
	uint32_t flag;
} chan_flag_map[] = {
	{ NL80211_FREQUENCY_ATTR_DISABLED, DRIVER_CHAN_DISABLED },
	{ NL80211_FREQUENCY_ATTR_NO_IR, DRIVER_CHAN_NO_IR },
	{ NL80211_FREQUENCY_ATTR_RADAR, DRIVER_CHAN_RADAR },
	{ NL80211_FREQUENCY_ATTR_INDOOR_ONLY, DRIVER_CHAN_INDOOR_ONLY },
	{ NL80211_FREQUENCY_ATTR_NO_HT40_MINUS, DRIVER_CHAN_NO_HT40_MINUS },
	{ NL80211_FREQUENCY_ATTR_NO_HT40_PLUS, DRIVER_CHAN_NO_HT40_PLUS },
	{ NL80211_FREQUENCY_ATTR_NO_80MHZ, DRIVER_CHAN_NO_80MHZ },
	{ NL80211_FREQUENCY_ATTR_NO_160MHZ, DRIVER_CHAN_NO_160MHZ },
};

static const struct nla_policy rate_policy[NL80211_BITRATE_ATTR_MAX + 1] = {
	[NL80211_BITRATE_ATTR_RATE] = { .type = NLA_U32 },
};

static const struct nla_policy comb_policy[NUM_NL80211_IFACE_COMB + 1] = {
	[NL80211_IFACE_COMB_LIMITS] = { .type = NLA_NESTED },
	[NL80211_IFACE_COMB_MAXNUM] = { .type = NLA_U32 },
	[NL80211_IFACE_COMB_NUM_CHANNELS] = { .type = NLA_U32 },
	[NL80211_IFACE_COMB_RADAR_DETECT_WIDTHS] = { .type = NLA_U32 },
};

static const struct nla_policy limit_policy[NUM_NL80211_IFACE_LIMIT + 1] = {
	[NL80211_IFACE_LIMIT_MAX] = { .type = NLA_U32 },
	[NL80211_IFACE_LIMIT_TYPES] = { .type = NLA_NESTED },
};

static const struct nla_policy index_policy[NL80211_ATTR_MAX + 1] = {
	[NL80211_ATTR_WIPHY] = { .type = NLA_U32 },
};

int nl80211_wiphy_index(const struct nlmsghdr *nlh, uint32_t *id)
{
	struct nlattr *tb[NL80211_ATTR_MAX + 1];

	if (genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, NL80211_ATTR_MAX, index_policy) < 0 ||
	    !tb[NL80211_ATTR_WIPHY])
		return -EINVAL;
	*id = nla_get_u32(tb[NL80211_ATTR_WIPHY]);
	return 0;
}

void nl80211_wiphy_init(struct nl80211_wiphy *w)
{
	memset(w, 0, sizeof(*w));
}

bool nl80211_wiphy_ext_feature(const struct nl80211_wiphy *w, unsigned int feature)
{
	if (feature / 8 >= NL80211_EXT_FEATURE_BYTES)
		return false;
	return (w->ext_features[feature / 8] >> (feature % 8)) & 1;
}

uint16_t nl80211_freq_to_channel(uint32_t f)
{
	if (f == 2484)
		return 14;
	if (f >= 2412 && f <= 2472)
		return (uint16_t)((f - 2407) / 5);
	if (f >= 4910 && f <= 5925)
		return (uint16_t)((f - 5000) / 5);
	if (f == 5935)
		return 2;
	if (f > 5950 && f <= 7115)
		return (uint16_t)((f - 5950) / 5);
	return 0;
}

enum driver_iftype nl80211_iftype_from_nl(uint32_t t)
{
	switch (t) {
	case NL80211_IFTYPE_STATION: return DRIVER_IFTYPE_STATION;
	case NL80211_IFTYPE_AP: return DRIVER_IFTYPE_AP;
	case NL80211_IFTYPE_MONITOR: return DRIVER_IFTYPE_MONITOR;
	case NL80211_IFTYPE_MESH_POINT: return DRIVER_IFTYPE_MESH;
	default: return DRIVER_IFTYPE_UNSPEC;
	}
}

int nl80211_iftype_to_nl(enum driver_iftype type, uint32_t *t)
{
	switch (type) {
	case DRIVER_IFTYPE_STATION: *t = NL80211_IFTYPE_STATION; return 0;
	case DRIVER_IFTYPE_AP: *t = NL80211_IFTYPE_AP; return 0;
	case DRIVER_IFTYPE_MONITOR: *t = NL80211_IFTYPE_MONITOR; return 0;
	case DRIVER_IFTYPE_MESH: *t = NL80211_IFTYPE_MESH_POINT; return 0;
	case DRIVER_IFTYPE_UNSPEC: break;
	}
	return -EINVAL;
}

static const struct { uint32_t suite, bit; } cipher_map[] = {
	{ 0x000fac01, DRIVER_CIPHER_WEP40 },	    { 0x000fac02, DRIVER_CIPHER_TKIP },
	{ 0x000fac04, DRIVER_CIPHER_CCMP_128 },	    { 0x000fac05, DRIVER_CIPHER_WEP104 },
	{ 0x000fac06, DRIVER_CIPHER_BIP_CMAC_128 }, { 0x000fac08, DRIVER_CIPHER_GCMP_128 },
	{ 0x000fac09, DRIVER_CIPHER_GCMP_256 },	    { 0x000fac0a, DRIVER_CIPHER_CCMP_256 },
	{ 0x000fac0b, DRIVER_CIPHER_BIP_GMAC_128 }, { 0x000fac0c, DRIVER_CIPHER_BIP_GMAC_256 },
	{ 0x000fac0d, DRIVER_CIPHER_BIP_CMAC_256 },
};

uint32_t nl80211_cipher_from_suite(uint32_t suite)
{
	for (size_t i = 0; i < sizeof(cipher_map) / sizeof(cipher_map[0]); i++)
		if (cipher_map[i].suite == suite)
			return cipher_map[i].bit;
	return 0;
}

uint32_t nl80211_cipher_to_suite(uint32_t bit)
{
	for (size_t i = 0; i < sizeof(cipher_map) / sizeof(cipher_map[0]); i++)
		if (cipher_map[i].bit == bit)
			return cipher_map[i].suite;
	return 0;
}

static int band_of(int nlband)
{
	switch (nlband) {
	case NL80211_BAND_2GHZ: return DRIVER_BAND_2GHZ;
	case NL80211_BAND_5GHZ: return DRIVER_BAND_5GHZ;
	case NL80211_BAND_6GHZ: return DRIVER_BAND_6GHZ;
	default: return -1;
	}
}

static void parse_channel(struct driver_band_info *b, struct nlattr *nest)
{
	struct nlattr *tb[NL80211_FREQUENCY_ATTR_MAX + 1];
	int idx = nla_type(nest);

	if (idx < 0 || idx >= DRIVER_MAX_CHANNELS)
		return;
	if (nla_parse_nested(tb, NL80211_FREQUENCY_ATTR_MAX, nest, freq_policy) < 0 ||
	    !tb[NL80211_FREQUENCY_ATTR_FREQ])
		return;
	struct driver_channel *ch = &b->channels[idx];
	memset(ch, 0, sizeof(*ch));
	ch->freq_mhz = nla_get_u32(tb[NL80211_FREQUENCY_ATTR_FREQ]);
	ch->number = nl80211_freq_to_channel(ch->freq_mhz);
	for (size_t i = 0; i < sizeof(chan_flag_map) / sizeof(chan_flag_map[0]); i++)
		if (tb[chan_flag_map[i].attr])
			ch->flags |= chan_flag_map[i].flag;
	if (tb[NL80211_FREQUENCY_ATTR_DFS_STATE]) {
		uint32_t st = nla_get_u32(tb[NL80211_FREQUENCY_ATTR_DFS_STATE]);
		if (st == NL80211_DFS_AVAILABLE)
			ch->flags |= DRIVER_CHAN_DFS_AVAILABLE;
		else if (st == NL80211_DFS_UNAVAILABLE)
			ch->flags |= DRIVER_CHAN_DFS_UNAVAILABLE;
	}
	if (tb[NL80211_FREQUENCY_ATTR_DFS_CAC_TIME])
		ch->dfs_cac_ms = nla_get_u32(tb[NL80211_FREQUENCY_ATTR_DFS_CAC_TIME]);
	if (tb[NL80211_FREQUENCY_ATTR_MAX_TX_POWER]) {
		uint32_t mbm = nla_get_u32(tb[NL80211_FREQUENCY_ATTR_MAX_TX_POWER]);
		ch->max_power_dbm = (int8_t)(mbm / 100 > 127 ? 127 : mbm / 100);
	}
	if ((size_t)idx + 1 > b->n_channels)
		b->n_channels = (size_t)idx + 1;
}

static void parse_rates(struct driver_band_info *b, struct nlattr *rates)
{
	struct nlattr *r;
	int rem;

	b->n_rates = 0;
	nla_for_each_nested(r, rates, rem) {
		struct nlattr *tb[NL80211_BITRATE_ATTR_MAX + 1];
		if (b->n_rates >= DRIVER_MAX_RATES)
			break;
		if (nla_parse_nested(tb, NL80211_BITRATE_ATTR_MAX, r, rate_policy) < 0 ||
		    !tb[NL80211_BITRATE_ATTR_RATE])
			continue;
		uint32_t rate = nla_get_u32(tb[NL80211_BITRATE_ATTR_RATE]);
		b->rates_100kbps[b->n_rates++] = (uint16_t)(rate > 0xffff ? 0xffff : rate);
	}
}

/* HE capabilities of one set of interface types: kept when it covers AP
 * and the sizes agree with what the PHY capabilities announce. */
static void parse_iftype_data(struct driver_band_info *b, struct nlattr *nest)
{
	struct nlattr *tb[NL80211_BAND_IFTYPE_ATTR_MAX + 1];
	struct nlattr *types[NL80211_IFTYPE_MAX + 1];
	if (nla_parse_nested(tb, NL80211_BAND_IFTYPE_ATTR_MAX, nest, iftype_data_policy) < 0 ||
	    !tb[NL80211_BAND_IFTYPE_ATTR_IFTYPES] || !tb[NL80211_BAND_IFTYPE_ATTR_HE_CAP_MAC] ||
	    !tb[NL80211_BAND_IFTYPE_ATTR_HE_CAP_PHY] || !tb[NL80211_BAND_IFTYPE_ATTR_HE_CAP_MCS_SET])
		return;
	if (nla_parse_nested(types, NL80211_IFTYPE_MAX, tb[NL80211_BAND_IFTYPE_ATTR_IFTYPES],
			     NULL) < 0 || !types[NL80211_IFTYPE_AP])
		return;
	const uint8_t *phy = nla_data(tb[NL80211_BAND_IFTYPE_ATTR_HE_CAP_PHY]);
	size_t mcs_len = ie_he_mcs_nss_len(phy);
	struct nlattr *mcs = tb[NL80211_BAND_IFTYPE_ATTR_HE_CAP_MCS_SET];
	struct nlattr *ppe = tb[NL80211_BAND_IFTYPE_ATTR_HE_CAP_PPE];
	size_t ppe_len = 0;
	if ((size_t)nla_len(mcs) < mcs_len || mcs_len > sizeof(b->he_mcs))
		return;
	if (phy[6] & HE_PHY_CAP6_PPE_THRESHOLDS) {
		if (!ppe || nla_len(ppe) < 1)
			return;
		ppe_len = ie_he_ppe_len(*(const uint8_t *)nla_data(ppe));
		if ((size_t)nla_len(ppe) < ppe_len || ppe_len > sizeof(b->he_ppe))
			return;
		memcpy(b->he_ppe, nla_data(ppe), ppe_len);
	}
	b->he = true;
	memcpy(b->he_mac_cap, nla_data(tb[NL80211_BAND_IFTYPE_ATTR_HE_CAP_MAC]), 6);
	memcpy(b->he_phy_cap, phy, 11);
	memcpy(b->he_mcs, nla_data(mcs), mcs_len);
	b->he_ppe_len = (uint8_t)ppe_len;
}

static void parse_band(struct nl80211_wiphy *w, struct nlattr *nest)
{
	struct nlattr *tb[NL80211_BAND_ATTR_MAX + 1];
	int band = band_of(nla_type(nest));

	if (band < 0 || nla_parse_nested(tb, NL80211_BAND_ATTR_MAX, nest, band_policy) < 0)
		return;
	struct driver_band_info *b = &w->capa.bands[band];
	b->present = true;
	if (tb[NL80211_BAND_ATTR_FREQS]) {
		struct nlattr *ch;
		int rem;
		nla_for_each_nested(ch, tb[NL80211_BAND_ATTR_FREQS], rem)
			parse_channel(b, ch);
	}
	if (tb[NL80211_BAND_ATTR_RATES])
		parse_rates(b, tb[NL80211_BAND_ATTR_RATES]);
	if (tb[NL80211_BAND_ATTR_HT_CAPA]) {
		b->ht = true;
		b->ht_capab = nla_get_u16(tb[NL80211_BAND_ATTR_HT_CAPA]);
	}
	if (tb[NL80211_BAND_ATTR_HT_MCS_SET])
		memcpy(b->ht_mcs_rx, nla_data(tb[NL80211_BAND_ATTR_HT_MCS_SET]),
		       sizeof(b->ht_mcs_rx));
	if (tb[NL80211_BAND_ATTR_VHT_CAPA]) {
		b->vht = true;
		b->vht_capab = nla_get_u32(tb[NL80211_BAND_ATTR_VHT_CAPA]);
	}
	if (tb[NL80211_BAND_ATTR_VHT_MCS_SET])
		memcpy(b->vht_mcs, nla_data(tb[NL80211_BAND_ATTR_VHT_MCS_SET]), sizeof(b->vht_mcs));
	if (tb[NL80211_BAND_ATTR_IFTYPE_DATA]) {
		struct nlattr *d;
		int rem;
		nla_for_each_nested(d, tb[NL80211_BAND_ATTR_IFTYPE_DATA], rem)
			parse_iftype_data(b, d);
	}
}

static uint32_t parse_iftypes(struct nlattr *nest)
{
	struct nlattr *t;
	int rem;
	uint32_t types = 0;

	nla_for_each_nested(t, nest, rem)
		types |= (uint32_t)nl80211_iftype_from_nl((uint32_t)nla_type(t));
	return types;
}

/* One combination: how many interfaces, how many of them may be APs, and
 * whether an AP and a station may coexist. */
static void parse_combination(struct nl80211_wiphy *w, struct nlattr *nest)
{
	struct nlattr *tb[NUM_NL80211_IFACE_COMB + 1], *lim;
	int rem;
	uint32_t aps = 0, types_seen = 0;

	if (nla_parse_nested(tb, NUM_NL80211_IFACE_COMB, nest, comb_policy) < 0 ||
	    !tb[NL80211_IFACE_COMB_MAXNUM] || !tb[NL80211_IFACE_COMB_LIMITS])
		return;
	uint32_t total = nla_get_u32(tb[NL80211_IFACE_COMB_MAXNUM]);
	nla_for_each_nested(lim, tb[NL80211_IFACE_COMB_LIMITS], rem) {
		struct nlattr *lt[NUM_NL80211_IFACE_LIMIT + 1];
		if (nla_parse_nested(lt, NUM_NL80211_IFACE_LIMIT, lim, limit_policy) < 0 ||
		    !lt[NL80211_IFACE_LIMIT_MAX] || !lt[NL80211_IFACE_LIMIT_TYPES])
			continue;
		uint32_t max = nla_get_u32(lt[NL80211_IFACE_LIMIT_MAX]);
		uint32_t types = parse_iftypes(lt[NL80211_IFACE_LIMIT_TYPES]);
		types_seen |= types;
		if ((types & DRIVER_IFTYPE_AP) && aps < total)
			aps += max > total ? total : max;
	}
	w->n_combinations++;
	if (total > w->max_combo_interfaces)
		w->max_combo_interfaces = total;
	if (aps > total)
		aps = total;
	if (aps > w->max_combo_ap)
		w->max_combo_ap = aps;
	if (total >= 2 && (types_seen & DRIVER_IFTYPE_AP) && (types_seen & DRIVER_IFTYPE_STATION))
		w->combo_ap_sta = true;
	/* Radar detection is advertised here, not as a supported command
	 * (the kernel stopped extending that list before RADAR_DETECT). */
	if ((types_seen & DRIVER_IFTYPE_AP) && tb[NL80211_IFACE_COMB_RADAR_DETECT_WIDTHS] &&
	    nla_get_u32(tb[NL80211_IFACE_COMB_RADAR_DETECT_WIDTHS]))
		w->cmd_radar_detect = true;
}

static void parse_commands(struct nl80211_wiphy *w, struct nlattr *nest)
{
	struct nlattr *c;
	int rem;

	nla_for_each_nested(c, nest, rem) {
		if (nla_len(c) < 4)
			continue;
		switch (nla_get_u32(c)) {
		case NL80211_CMD_AUTHENTICATE: w->cmd_auth = true; break;
		case NL80211_CMD_ASSOCIATE: w->cmd_assoc = true; break;
		case NL80211_CMD_CONNECT: w->cmd_connect = true; break;
		case NL80211_CMD_START_AP: w->cmd_start_ap = true; break;
		case NL80211_CMD_CHANNEL_SWITCH: w->cmd_channel_switch = true; break;
		case NL80211_CMD_FRAME: w->cmd_frame = true; break;
		case NL80211_CMD_EXTERNAL_AUTH: w->cmd_external_auth = true; break;
		case NL80211_CMD_SET_PMKSA: w->cmd_set_pmksa = true; break;
		case NL80211_CMD_SET_PMK: w->cmd_set_pmk = true; break;
		default: break;
		}
	}
}

static void parse_ciphers(struct nl80211_wiphy *w, struct nlattr *a)
{
	const uint8_t *p = nla_data(a);
	int n = nla_len(a) / 4;

	for (int i = 0; i < n; i++) {
		uint32_t suite;
		memcpy(&suite, p + 4 * i, 4);
		w->capa.ciphers |= nl80211_cipher_from_suite(suite);
	}
}

static void parse_lists(struct nl80211_wiphy *w, struct nlattr **tb)
{
	struct nlattr *n;
	int rem;

	if (tb[NL80211_ATTR_WIPHY_BANDS])
		nla_for_each_nested(n, tb[NL80211_ATTR_WIPHY_BANDS], rem)
			parse_band(w, n);
	if (tb[NL80211_ATTR_SUPPORTED_IFTYPES])
		w->capa.iftypes |= parse_iftypes(tb[NL80211_ATTR_SUPPORTED_IFTYPES]);
	if (tb[NL80211_ATTR_INTERFACE_COMBINATIONS])
		nla_for_each_nested(n, tb[NL80211_ATTR_INTERFACE_COMBINATIONS], rem)
			parse_combination(w, n);
	if (tb[NL80211_ATTR_SUPPORTED_COMMANDS])
		parse_commands(w, tb[NL80211_ATTR_SUPPORTED_COMMANDS]);
	if (tb[NL80211_ATTR_CIPHER_SUITES])
		parse_ciphers(w, tb[NL80211_ATTR_CIPHER_SUITES]);
}

int nl80211_wiphy_parse(struct nl80211_wiphy *w, const struct nlmsghdr *nlh)
{
	struct nlattr *tb[NL80211_ATTR_MAX + 1];

	if (genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, NL80211_ATTR_MAX, wiphy_policy) < 0)
		return -EINVAL;
	if (!tb[NL80211_ATTR_WIPHY])
		return -EINVAL;
	uint32_t id = nla_get_u32(tb[NL80211_ATTR_WIPHY]);
	if (w->have_id && w->id != id)
		return -ESRCH;
	w->id = id;
	w->have_id = true;
	if (tb[NL80211_ATTR_WIPHY_NAME]) {
		/* The policy guarantees the terminating NUL. */
		strncpy(w->name, nla_get_string(tb[NL80211_ATTR_WIPHY_NAME]), sizeof(w->name) - 1);
		w->name[sizeof(w->name) - 1] = '\0';
	}
	parse_lists(w, tb);
	if (tb[NL80211_ATTR_MAX_NUM_SCAN_SSIDS])
		w->capa.max_scan_ssids = nla_get_u8(tb[NL80211_ATTR_MAX_NUM_SCAN_SSIDS]);
	if (tb[NL80211_ATTR_FEATURE_FLAGS])
		w->features = nla_get_u32(tb[NL80211_ATTR_FEATURE_FLAGS]);
	if (tb[NL80211_ATTR_EXT_FEATURES]) {
		size_t len = (size_t)nla_len(tb[NL80211_ATTR_EXT_FEATURES]);
		memset(w->ext_features, 0, sizeof(w->ext_features));
		memcpy(w->ext_features, nla_data(tb[NL80211_ATTR_EXT_FEATURES]),
		       len < sizeof(w->ext_features) ? len : sizeof(w->ext_features));
	}
	if (tb[NL80211_ATTR_PROBE_RESP_OFFLOAD])
		w->probe_resp_offload = true;
	if (tb[NL80211_ATTR_AKM_SUITES]) {
		const uint8_t *d = nla_data(tb[NL80211_ATTR_AKM_SUITES]);
		size_t n = (size_t)nla_len(tb[NL80211_ATTR_AKM_SUITES]) / 4;
		for (size_t i = 0; i < n; i++) {
			uint32_t suite;
			memcpy(&suite, d + 4 * i, 4); /* host order, as the kernel puts u32s */
			w->akm_bits |= nl80211_akm_from_suite(suite);
		}
	}
	if (tb[NL80211_ATTR_MAX_AP_ASSOC_STA])
		w->max_ap_assoc_sta = nla_get_u32(tb[NL80211_ATTR_MAX_AP_ASSOC_STA]);
	return 0;
}

/* Drops channel slots no message filled (a lost part of a split dump). */
static void compact_channels(struct driver_band_info *b)
{
	size_t n = 0;
	for (size_t i = 0; i < b->n_channels; i++)
		if (b->channels[i].freq_mhz)
			b->channels[n++] = b->channels[i];
	b->n_channels = n;
}

void nl80211_wiphy_finish(struct nl80211_wiphy *w)
{
	struct driver_capa *c = &w->capa;

	for (int b = 0; b < DRIVER_BAND_COUNT; b++)
		compact_channels(&c->bands[b]);
	c->flags = DRIVER_CAPA_HW_CRYPTO | DRIVER_CAPA_DATA_PLANE | DRIVER_CAPA_REGULATORY |
		   DRIVER_CAPA_HOTPLUG;
	if (w->cmd_auth && w->cmd_assoc)
		c->flags |= DRIVER_CAPA_USER_SME;
	else if (w->cmd_connect)
		c->flags |= DRIVER_CAPA_FULLMAC_CONNECT;
	if (w->probe_resp_offload)
		c->flags |= DRIVER_CAPA_AP_PROBE_RESP_OFFLOAD;
	if (w->cmd_radar_detect && w->cmd_channel_switch)
		c->flags |= DRIVER_CAPA_DFS;
	if (c->iftypes & DRIVER_IFTYPE_MONITOR)
		c->flags |= DRIVER_CAPA_MONITOR;
	if (nl80211_wiphy_ext_feature(w, NL80211_EXT_FEATURE_CONTROL_PORT_OVER_NL80211))
		c->flags |= DRIVER_CAPA_CONTROL_PORT;
	if (w->combo_ap_sta)
		c->flags |= DRIVER_CAPA_AP_STA_CONCURRENT;
	nl80211_wiphy_pmf_capa(w);
	if (!w->n_combinations) {
		c->max_interfaces = 1;
		c->max_ap_interfaces = (c->iftypes & DRIVER_IFTYPE_AP) ? 1 : 0;
	} else {
		c->max_interfaces = (uint8_t)(w->max_combo_interfaces > 255 ? 255
								 : w->max_combo_interfaces);
		c->max_ap_interfaces = (uint8_t)(w->max_combo_ap > 255 ? 255 : w->max_combo_ap);
	}
	if (!c->max_interfaces) /* a combination that allows none is nonsense */
		c->max_interfaces = 1;
	if (!c->max_scan_ssids)
		c->max_scan_ssids = 1;
	if (c->max_scan_ssids > DRIVER_MAX_SCAN_SSIDS)
		c->max_scan_ssids = DRIVER_MAX_SCAN_SSIDS;
	c->max_scan_freqs = DRIVER_MAX_SCAN_FREQS;
	c->max_ap_stations = (uint16_t)(w->max_ap_assoc_sta && w->max_ap_assoc_sta < 2007
						? w->max_ap_assoc_sta : 2007);
}

const struct driver_channel *nl80211_wiphy_channel(const struct driver_capa *capa,
						   uint32_t freq_mhz)
{
	for (int b = 0; b < DRIVER_BAND_COUNT; b++) {
		const struct driver_band_info *band = &capa->bands[b];
		for (size_t i = 0; band->present && i < band->n_channels; i++)
			if (band->channels[i].freq_mhz == freq_mhz)
				return &band->channels[i];
	}
	return NULL;
}
