/* Message builders: driver.h parameters -> nl80211 requests. Kept free of
 * sockets so unit tests can check what goes to the kernel. */
#include "drivers/nl80211/nl80211-parse.h"
#include "daemon/codec/ie.h"
#include "daemon/codec/ie_rsn.h"

#include <errno.h>
#include <linux/nl80211.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <string.h>

#define ETH_P_PAE_NUM 0x888e
#define NL80211_MSG_SIZE 16384 /* beacon head + tail + probe response fit */

/* libnl's nla_put* return a negative NLE_* code; every builder maps a
 * failure to -EMSGSIZE (the only way they fail on a valid message). */
#define PUT(expr)                                                                                 \
	do {                                                                                      \
		if ((expr) < 0)                                                                   \
			return -EMSGSIZE;                                                         \
	} while (0)

struct nl_msg *nl80211_msg_new(int family, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc_size(NL80211_MSG_SIZE);
	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, flags, cmd, 0)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static int put_ssid(struct nl_msg *msg, const struct driver_ssid *ssid)
{
	if (ssid->len > 32)
		return -EINVAL;
	PUT(nla_put(msg, NL80211_ATTR_SSID, ssid->len, ssid->ssid));
	return 0;
}

/* The Capability Information field of a beacon head (after the 24-octet
 * header, 8-octet timestamp and 2-octet interval), or 0. */
static uint16_t head_capability(const struct driver_ap_params *p)
{
	if (!p->beacon_head || p->beacon_head_len < 36)
		return 0;
	return (uint16_t)(p->beacon_head[34] | p->beacon_head[35] << 8);
}

static int put_templates(struct nl_msg *msg, const struct driver_ap_params *p)
{
	if (!p->beacon_head || p->beacon_head_len < 36)
		return -EINVAL;
	PUT(nla_put(msg, NL80211_ATTR_BEACON_HEAD, (int)p->beacon_head_len, p->beacon_head));
	if (p->beacon_tail_len)
		PUT(nla_put(msg, NL80211_ATTR_BEACON_TAIL, (int)p->beacon_tail_len, p->beacon_tail));
	if (p->probe_resp && p->probe_resp_len)
		PUT(nla_put(msg, NL80211_ATTR_PROBE_RESP, (int)p->probe_resp_len, p->probe_resp));
	return 0;
}

int nl80211_build_beacon(struct nl_msg *msg, uint32_t ifindex, const struct driver_ap_params *p)
{
	PUT(nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex));
	return put_templates(msg, p);
}

static int put_control_port(struct nl_msg *msg, bool over_nl80211)
{
	PUT(nla_put_u16(msg, NL80211_ATTR_CONTROL_PORT_ETHERTYPE, ETH_P_PAE_NUM));
	if (over_nl80211) {
		PUT(nla_put_flag(msg, NL80211_ATTR_CONTROL_PORT_OVER_NL80211));
		PUT(nla_put_flag(msg, NL80211_ATTR_SOCKET_OWNER));
	}
	return 0;
}

/* The channel definition: the legacy channel type at 20 MHz (as before),
 * CHANNEL_WIDTH and CENTER_FREQ1 for the wider ones. */
int nl80211_put_chandef(struct nl_msg *msg, const struct driver_chandef *cd, bool ht)
{
	uint32_t width;
	switch (cd->width_mhz) {
	case 0:
	case 20:
		PUT(nla_put_u32(msg, NL80211_ATTR_WIPHY_CHANNEL_TYPE,
				ht ? NL80211_CHAN_HT20 : NL80211_CHAN_NO_HT));
		return 0;
	case 40:
		width = NL80211_CHAN_WIDTH_40;
		break;
	case 80:
		width = cd->center2_mhz ? NL80211_CHAN_WIDTH_80P80 : NL80211_CHAN_WIDTH_80;
		break;
	case 160:
		width = NL80211_CHAN_WIDTH_160;
		break;
	default:
		return -EINVAL;
	}
	if (!ht || !cd->center1_mhz)
		return -EINVAL;
	PUT(nla_put_u32(msg, NL80211_ATTR_CHANNEL_WIDTH, width));
	PUT(nla_put_u32(msg, NL80211_ATTR_CENTER_FREQ1, cd->center1_mhz));
	if (cd->center2_mhz)
		PUT(nla_put_u32(msg, NL80211_ATTR_CENTER_FREQ2, cd->center2_mhz));
	return 0;
}

int nl80211_build_start_ap(struct nl_msg *msg, uint32_t ifindex,
			   const struct driver_ap_params *p, const struct nl80211_ap_opts *o)
{
	int r;

	if (!p->beacon_interval || !p->dtim_period || !p->freq_mhz)
		return -EINVAL;
	PUT(nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex));
	if ((r = put_templates(msg, p)) < 0)
		return r;
	PUT(nla_put_u32(msg, NL80211_ATTR_BEACON_INTERVAL, p->beacon_interval));
	PUT(nla_put_u32(msg, NL80211_ATTR_DTIM_PERIOD, p->dtim_period));
	if ((r = put_ssid(msg, &p->ssid)) < 0)
		return r;
	PUT(nla_put_u32(msg, NL80211_ATTR_HIDDEN_SSID, p->hidden_ssid ? NL80211_HIDDEN_SSID_ZERO_LEN
								   : NL80211_HIDDEN_SSID_NOT_IN_USE));
	PUT(nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, p->freq_mhz));
	if ((r = nl80211_put_chandef(msg, &p->chandef, o->ht)) < 0)
		return r;
	if (o->privacy || (head_capability(p) & 0x0010))
		PUT(nla_put_flag(msg, NL80211_ATTR_PRIVACY));
	PUT(nla_put_u32(msg, NL80211_ATTR_AUTH_TYPE, NL80211_AUTHTYPE_OPEN_SYSTEM));
	if (o->inactivity_timer && p->inactivity_timeout_s)
		PUT(nla_put_u16(msg, NL80211_ATTR_INACTIVITY_TIMEOUT, p->inactivity_timeout_s));
	return put_control_port(msg, o->control_port_nl80211);
}

static int put_scan_ssids(struct nl_msg *msg, const struct driver_scan_params *p)
{
	if (p->passive)
		return 0;
	if (p->n_ssids > DRIVER_MAX_SCAN_SSIDS)
		return -EINVAL;
	struct nlattr *nest = nla_nest_start(msg, NL80211_ATTR_SCAN_SSIDS);
	if (!nest)
		return -EMSGSIZE;
	if (!p->n_ssids) /* one wildcard probe */
		PUT(nla_put(msg, 1, 0, ""));
	for (size_t i = 0; i < p->n_ssids; i++) {
		if (p->ssids[i].len > 32)
			return -EINVAL;
		PUT(nla_put(msg, (int)i + 1, p->ssids[i].len, p->ssids[i].ssid));
	}
	nla_nest_end(msg, nest);
	return 0;
}

int nl80211_build_scan(struct nl_msg *msg, uint32_t ifindex, const struct driver_scan_params *p)
{
	int r;

	PUT(nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex));
	if ((r = put_scan_ssids(msg, p)) < 0)
		return r;
	if (p->n_freqs) {
		if (p->n_freqs > DRIVER_MAX_SCAN_FREQS)
			return -EINVAL;
		struct nlattr *nest = nla_nest_start(msg, NL80211_ATTR_SCAN_FREQUENCIES);
		if (!nest)
			return -EMSGSIZE;
		for (size_t i = 0; i < p->n_freqs; i++)
			PUT(nla_put_u32(msg, (int)i + 1, p->freqs[i]));
		nla_nest_end(msg, nest);
	}
	return 0;
}

static int auth_type(enum driver_auth_alg alg, uint32_t *t)
{
	switch (alg) {
	case DRIVER_AUTH_OPEN: *t = NL80211_AUTHTYPE_OPEN_SYSTEM; return 0;
	case DRIVER_AUTH_SHARED_KEY: *t = NL80211_AUTHTYPE_SHARED_KEY; return 0;
	case DRIVER_AUTH_FT: *t = NL80211_AUTHTYPE_FT; return 0;
	case DRIVER_AUTH_SAE: *t = NL80211_AUTHTYPE_SAE; return 0;
	case DRIVER_AUTH_FILS_SK: *t = NL80211_AUTHTYPE_FILS_SK; return 0;
	case DRIVER_AUTH_FILS_SK_PFS: *t = NL80211_AUTHTYPE_FILS_SK_PFS; return 0;
	case DRIVER_AUTH_FILS_PK: *t = NL80211_AUTHTYPE_FILS_PK; return 0;
	case DRIVER_AUTH_COUNT: break;
	}
	return -EINVAL;
}

int nl80211_build_auth(struct nl_msg *msg, uint32_t ifindex, const struct driver_auth_params *p)
{
	uint32_t t;
	int r;

	if (auth_type(p->alg, &t) < 0 || !p->freq_mhz)
		return -EINVAL;
	/* SAE data starts with the transaction number and status code. */
	if (p->alg == DRIVER_AUTH_SAE && (!p->auth_data || p->auth_data_len < 4))
		return -EINVAL;
	PUT(nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex));
	PUT(nla_put(msg, NL80211_ATTR_MAC, 6, p->bssid));
	PUT(nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, p->freq_mhz));
	if ((r = put_ssid(msg, &p->ssid)) < 0)
		return r;
	PUT(nla_put_u32(msg, NL80211_ATTR_AUTH_TYPE, t));
	if (p->alg == DRIVER_AUTH_SAE)
		PUT(nla_put(msg, NL80211_ATTR_AUTH_DATA, (int)p->auth_data_len, p->auth_data));
	/* FT: the FT elements travel as the frame's elements. */
	if (p->alg == DRIVER_AUTH_FT && p->auth_data_len && !p->ies_len)
		PUT(nla_put(msg, NL80211_ATTR_IE, (int)p->auth_data_len, p->auth_data));
	else if (p->ies_len)
		PUT(nla_put(msg, NL80211_ATTR_IE, (int)p->ies_len, p->ies));
	return 0;
}

static int put_assoc_common(struct nl_msg *msg, uint32_t ifindex,
			    const struct driver_assoc_params *p)
{
	int r;

	PUT(nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex));
	PUT(nla_put(msg, NL80211_ATTR_MAC, 6, p->bssid));
	if (p->freq_mhz)
		PUT(nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, p->freq_mhz));
	if ((r = put_ssid(msg, &p->ssid)) < 0)
		return r;
	if (p->ies_len)
		PUT(nla_put(msg, NL80211_ATTR_IE, (int)p->ies_len, p->ies));
	if (p->use_mfp)
		PUT(nla_put_u32(msg, NL80211_ATTR_USE_MFP, NL80211_MFP_REQUIRED));
	/* wpad opens the port itself (port_authorize), open networks too. */
	PUT(nla_put_flag(msg, NL80211_ATTR_CONTROL_PORT));
	return 0;
}

int nl80211_build_assoc(struct nl_msg *msg, uint32_t ifindex, const struct driver_assoc_params *p,
			bool control_port_nl80211)
{
	int r;

	if (!p->freq_mhz)
		return -EINVAL;
	if ((r = put_assoc_common(msg, ifindex, p)) < 0)
		return r;
	if (p->prev_bssid)
		PUT(nla_put(msg, NL80211_ATTR_PREV_BSSID, 6, p->prev_bssid));
	return put_control_port(msg, control_port_nl80211);
}

/* A full-MAC device runs the handshake's crypto negotiation itself: tell it
 * the suites of the RSN element the caller built. */
static int put_rsn_suites(struct nl_msg *msg, const struct driver_assoc_params *p)
{
	struct ie_elem e;
	struct ie_rsn rsn;

	if (!p->ies || !ie_find(p->ies, p->ies_len, 48, &e) || ie_parse_rsn(e.data, e.len, &rsn))
		return 0;
	PUT(nla_put_flag(msg, NL80211_ATTR_PRIVACY));
	PUT(nla_put_u32(msg, NL80211_ATTR_WPA_VERSIONS, NL80211_WPA_VERSION_2));
	PUT(nla_put_u32(msg, NL80211_ATTR_CIPHER_SUITE_GROUP, rsn.group_cipher));
	PUT(nla_put(msg, NL80211_ATTR_CIPHER_SUITES_PAIRWISE, (int)(4 * rsn.n_pairwise),
		    rsn.pairwise));
	PUT(nla_put(msg, NL80211_ATTR_AKM_SUITES, (int)(4 * rsn.n_akm), rsn.akm));
	return 0;
}

int nl80211_build_connect(struct nl_msg *msg, uint32_t ifindex,
			  const struct driver_assoc_params *p, bool control_port_nl80211)
{
	int r;

	if ((r = put_assoc_common(msg, ifindex, p)) < 0)
		return r;
	PUT(nla_put_u32(msg, NL80211_ATTR_AUTH_TYPE, NL80211_AUTHTYPE_OPEN_SYSTEM));
	if (p->prev_bssid)
		PUT(nla_put(msg, NL80211_ATTR_PREV_BSSID, 6, p->prev_bssid));
	if ((r = put_rsn_suites(msg, p)) < 0)
		return r;
	return put_control_port(msg, control_port_nl80211);
}

/* ---- stations ---- */

static uint32_t sta_flags_to_nl(uint32_t flags)
{
	uint32_t out = 0;
	if (flags & DRIVER_STA_AUTHENTICATED)
		out |= 1u << NL80211_STA_FLAG_AUTHENTICATED;
	if (flags & DRIVER_STA_ASSOCIATED)
		out |= 1u << NL80211_STA_FLAG_ASSOCIATED;
	if (flags & DRIVER_STA_AUTHORIZED)
		out |= 1u << NL80211_STA_FLAG_AUTHORIZED;
	if (flags & DRIVER_STA_WMM)
		out |= 1u << NL80211_STA_FLAG_WME;
	if (flags & DRIVER_STA_MFP)
		out |= 1u << NL80211_STA_FLAG_MFP;
	if (flags & DRIVER_STA_SHORT_PREAMBLE)
		out |= 1u << NL80211_STA_FLAG_SHORT_PREAMBLE;
	return out;
}

static int put_flags2(struct nl_msg *msg, uint32_t mask, uint32_t set)
{
	struct nl80211_sta_flag_update u;
	u.mask = sta_flags_to_nl(mask);
	u.set = sta_flags_to_nl(set & mask);
	PUT(nla_put(msg, NL80211_ATTR_STA_FLAGS2, sizeof(u), &u));
	return 0;
}

/* HT Capabilities element body (26 octets) from the Capabilities Info the
 * station announced; every HT station supports MCS 0-7. */
static int put_ht_cap(struct nl_msg *msg, uint16_t capab)
{
	uint8_t ht[26] = { 0 };
	ht[0] = (uint8_t)(capab & 0xff);
	ht[1] = (uint8_t)(capab >> 8);
	ht[3] = 0xff; /* Supported MCS Set, RX bitmask octet 0 */
	PUT(nla_put(msg, NL80211_ATTR_HT_CAPABILITY, sizeof(ht), ht));
	return 0;
}

int nl80211_build_station(struct nl_msg *msg, uint32_t ifindex, const struct driver_sta_params *p,
			  bool set)
{
	uint32_t flags = p->flags;
	int r;

	if (p->n_rates > DRIVER_MAX_RATES)
		return -EINVAL;
	if (flags & (DRIVER_STA_ASSOCIATED | DRIVER_STA_AUTHORIZED))
		flags |= DRIVER_STA_AUTHENTICATED;
	if (flags & DRIVER_STA_AUTHORIZED)
		flags |= DRIVER_STA_ASSOCIATED;
	PUT(nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex));
	PUT(nla_put(msg, NL80211_ATTR_MAC, 6, p->addr));
	PUT(nla_put(msg, NL80211_ATTR_STA_SUPPORTED_RATES, (int)p->n_rates, p->rates));
	/* cfg80211 wants an AID even before association; 1 stands in. */
	PUT(nla_put_u16(msg, NL80211_ATTR_STA_AID, p->aid ? p->aid : 1));
	PUT(nla_put_u16(msg, NL80211_ATTR_STA_LISTEN_INTERVAL, p->listen_interval));
	PUT(nla_put_u16(msg, NL80211_ATTR_STA_CAPABILITY, p->capability));
	if (p->ht_cap)
		PUT(nla_put(msg, NL80211_ATTR_HT_CAPABILITY, 26, p->ht_cap));
	else if (p->ht && (r = put_ht_cap(msg, p->ht_capab)) < 0)
		return r;
	if (p->vht_cap)
		PUT(nla_put(msg, NL80211_ATTR_VHT_CAPABILITY, 12, p->vht_cap));
	if (p->he_cap && p->he_cap_len)
		PUT(nla_put(msg, NL80211_ATTR_HE_CAPABILITY, (int)p->he_cap_len, p->he_cap));
	uint32_t mask = DRIVER_STA_AUTHENTICATED | DRIVER_STA_ASSOCIATED | DRIVER_STA_AUTHORIZED |
			DRIVER_STA_WMM | DRIVER_STA_MFP | DRIVER_STA_SHORT_PREAMBLE;
	if (set) /* an existing station: leave authorization as it is */
		mask &= ~DRIVER_STA_AUTHORIZED;
	return put_flags2(msg, mask, flags);
}

int nl80211_build_sta_flags(struct nl_msg *msg, uint32_t ifindex, const uint8_t addr[6],
			    uint32_t set, uint32_t clear)
{
	PUT(nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex));
	PUT(nla_put(msg, NL80211_ATTR_MAC, 6, addr));
	return put_flags2(msg, set | clear, set & ~clear);
}

/* ---- keys ---- */

static bool seq_is_zero(const uint8_t seq[6])
{
	for (int i = 0; i < 6; i++)
		if (seq[i])
			return false;
	return true;
}

int nl80211_build_new_key(struct nl_msg *msg, uint32_t ifindex, const struct driver_key *k)
{
	uint32_t suite = nl80211_cipher_to_suite(k->cipher);
	bool pairwise = k->type == DRIVER_KEY_PAIRWISE;

	if (!suite || k->key_len > sizeof(k->key) || !k->key_len)
		return -EINVAL;
	if ((k->type == DRIVER_KEY_IGTK && (k->key_idx < 4 || k->key_idx > 5)) ||
	    (k->type == DRIVER_KEY_BIGTK && k->key_idx < 6) || k->key_idx > 7 ||
	    (pairwise && k->key_idx > 1))
		return -EINVAL;
	PUT(nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex));
	if (pairwise)
		PUT(nla_put(msg, NL80211_ATTR_MAC, 6, k->addr));
	struct nlattr *nest = nla_nest_start(msg, NL80211_ATTR_KEY);
	if (!nest)
		return -EMSGSIZE;
	PUT(nla_put(msg, NL80211_KEY_DATA, (int)k->key_len, k->key));
	PUT(nla_put_u32(msg, NL80211_KEY_CIPHER, suite));
	PUT(nla_put_u8(msg, NL80211_KEY_IDX, k->key_idx));
	PUT(nla_put_u32(msg, NL80211_KEY_TYPE,
			pairwise ? NL80211_KEYTYPE_PAIRWISE : NL80211_KEYTYPE_GROUP));
	if (!seq_is_zero(k->seq))
		PUT(nla_put(msg, NL80211_KEY_SEQ, 6, k->seq));
	nla_nest_end(msg, nest);
	return 0;
}

int nl80211_build_key_ref(struct nl_msg *msg, uint32_t ifindex, enum driver_key_type type,
			  uint8_t key_idx, const uint8_t *addr)
{
	bool pairwise = type == DRIVER_KEY_PAIRWISE;

	if (key_idx > 7 || (pairwise && !addr))
		return -EINVAL;
	PUT(nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex));
	PUT(nla_put_u8(msg, NL80211_ATTR_KEY_IDX, key_idx));
	PUT(nla_put_u32(msg, NL80211_ATTR_KEY_TYPE,
			pairwise ? NL80211_KEYTYPE_PAIRWISE : NL80211_KEYTYPE_GROUP));
	if (pairwise)
		PUT(nla_put(msg, NL80211_ATTR_MAC, 6, addr));
	return 0;
}

int nl80211_build_default_key(struct nl_msg *msg, uint32_t ifindex, enum driver_key_type type,
			      uint8_t key_idx)
{
	PUT(nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex));
	struct nlattr *nest = nla_nest_start(msg, NL80211_ATTR_KEY);
	if (!nest)
		return -EMSGSIZE;
	PUT(nla_put_u8(msg, NL80211_KEY_IDX, key_idx));
	if (type == DRIVER_KEY_IGTK) {
		PUT(nla_put_flag(msg, NL80211_KEY_DEFAULT_MGMT));
	} else if (type == DRIVER_KEY_BIGTK) {
		PUT(nla_put_flag(msg, NL80211_KEY_DEFAULT_BEACON));
	} else {
		PUT(nla_put_flag(msg, NL80211_KEY_DEFAULT));
		struct nlattr *types = nla_nest_start(msg, NL80211_KEY_DEFAULT_TYPES);
		if (!types)
			return -EMSGSIZE;
		PUT(nla_put_flag(msg, NL80211_KEY_DEFAULT_TYPE_MULTICAST));
		nla_nest_end(msg, types);
	}
	nla_nest_end(msg, nest);
	return 0;
}

/* A channel definition with an explicit width (20 MHz as WIDTH_20, not a
 * channel type): what RADAR_DETECT and CHANNEL_SWITCH take. */
static int put_full_chandef(struct nl_msg *msg, const struct driver_chandef *cd)
{
	struct driver_chandef c = *cd;
	if (!c.control_mhz)
		return -EINVAL;
	if (!c.width_mhz)
		c.width_mhz = 20;
	if (!c.center1_mhz)
		c.center1_mhz = c.control_mhz;
	PUT(nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, c.control_mhz));
	if (c.width_mhz == 20) {
		PUT(nla_put_u32(msg, NL80211_ATTR_CHANNEL_WIDTH, NL80211_CHAN_WIDTH_20));
		PUT(nla_put_u32(msg, NL80211_ATTR_CENTER_FREQ1, c.center1_mhz));
		return 0;
	}
	return nl80211_put_chandef(msg, &c, true);
}

int nl80211_build_radar_detect(struct nl_msg *msg, uint32_t ifindex,
			       const struct driver_chandef *cd)
{
	PUT(nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex));
	return put_full_chandef(msg, cd);
}

/* CHANNEL_SWITCH: the new channel, the count and the templates after the
 * switch at the top level; nested in CSA_IES the templates with the CSA
 * element and where their count octets are (tail and probe response).
 * The offsets belong inside the nest: cfg80211 reads them from there
 * only, and answers EINVAL when they are missing. */
int nl80211_build_channel_switch(struct nl_msg *msg, uint32_t ifindex,
				 const struct driver_csa_params *p)
{
	int r;
	if (!p->n_offsets || p->n_offsets > DRIVER_CSA_MAX_OFFSETS || !p->chandef.control_mhz)
		return -EINVAL;
	PUT(nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex));
	if ((r = put_full_chandef(msg, &p->chandef)) < 0)
		return r;
	PUT(nla_put_u32(msg, NL80211_ATTR_CH_SWITCH_COUNT, p->count));
	if (p->block_tx)
		PUT(nla_put_flag(msg, NL80211_ATTR_CH_SWITCH_BLOCK_TX));
	if ((r = put_templates(msg, &p->beacon_after)) < 0)
		return r;
	struct nlattr *nest = nla_nest_start(msg, NL80211_ATTR_CSA_IES);
	if (!nest)
		return -EMSGSIZE;
	if ((r = put_templates(msg, &p->beacon_csa)) < 0)
		return r;
	PUT(nla_put(msg, NL80211_ATTR_CSA_C_OFF_BEACON, (int)(2 * p->n_offsets), p->offsets_tail));
	if (p->beacon_csa.probe_resp && p->beacon_csa.probe_resp_len)
		PUT(nla_put(msg, NL80211_ATTR_CSA_C_OFF_PRESP, (int)(2 * p->n_offsets),
			    p->offsets_presp));
	nla_nest_end(msg, nest);
	return 0;
}
