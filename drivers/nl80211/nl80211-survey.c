/* Channel survey: NL80211_CMD_GET_SURVEY, dumped, one SURVEY_INFO per
 * channel (frequency, noise, time on channel and time busy), for the AP's
 * automatic channel selection. */
#include "drivers/nl80211/nl80211.h"
#include "drivers/nl80211/nl80211-parse.h"

#include <errno.h>
#include <linux/nl80211.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <string.h>

static const struct nla_policy survey_policy[NL80211_SURVEY_INFO_MAX + 1] = {
	[NL80211_SURVEY_INFO_FREQUENCY] = { .type = NLA_U32 },
	[NL80211_SURVEY_INFO_NOISE] = { .type = NLA_U8 },
	[NL80211_SURVEY_INFO_IN_USE] = { .type = NLA_FLAG },
	[NL80211_SURVEY_INFO_TIME] = { .type = NLA_U64 },
	[NL80211_SURVEY_INFO_TIME_BUSY] = { .type = NLA_U64 },
};

int nl80211_parse_survey(const struct nlmsghdr *nlh, uint32_t *ifindex,
			 struct driver_survey *out)
{
	struct nlattr *tb[NL80211_ATTR_MAX + 1];
	struct nlattr *si[NL80211_SURVEY_INFO_MAX + 1];

	memset(out, 0, sizeof(*out));
	*ifindex = 0;
	if (genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, NL80211_ATTR_MAX, NULL) < 0)
		return -EINVAL;
	if (tb[NL80211_ATTR_IFINDEX]) {
		if (nla_len(tb[NL80211_ATTR_IFINDEX]) < 4)
			return -EINVAL;
		*ifindex = nla_get_u32(tb[NL80211_ATTR_IFINDEX]);
	}
	if (!tb[NL80211_ATTR_SURVEY_INFO])
		return -ENOENT;
	if (nla_parse_nested(si, NL80211_SURVEY_INFO_MAX, tb[NL80211_ATTR_SURVEY_INFO],
			     survey_policy) < 0)
		return -EINVAL;
	if (!si[NL80211_SURVEY_INFO_FREQUENCY])
		return -ENOENT;
	out->freq_mhz = nla_get_u32(si[NL80211_SURVEY_INFO_FREQUENCY]);
	if (!out->freq_mhz)
		return -ENOENT; /* no channel: nothing to score */
	out->in_use = si[NL80211_SURVEY_INFO_IN_USE] != NULL;
	if (si[NL80211_SURVEY_INFO_NOISE]) {
		out->has_noise = true;
		out->noise_dbm = (int8_t)nla_get_u8(si[NL80211_SURVEY_INFO_NOISE]);
	}
	if (si[NL80211_SURVEY_INFO_TIME] && si[NL80211_SURVEY_INFO_TIME_BUSY]) {
		out->has_time = true;
		out->active_ms = nla_get_u64(si[NL80211_SURVEY_INFO_TIME]);
		out->busy_ms = nla_get_u64(si[NL80211_SURVEY_INFO_TIME_BUSY]);
		if (out->busy_ms > out->active_ms) /* a driver's rounding: cap it */
			out->busy_ms = out->active_ms;
	}
	return 0;
}

struct survey_collect {
	struct driver_survey *out;
	size_t max, n;
	uint32_t ifindex;
};

static int survey_entry(struct nl_msg *msg, void *arg)
{
	struct survey_collect *c = arg;
	struct driver_survey s;
	uint32_t ifindex;
	if (nl80211_parse_survey(nlmsg_hdr(msg), &ifindex, &s) < 0 ||
	    (ifindex && ifindex != c->ifindex) || c->n >= c->max)
		return NL_SKIP;
	c->out[c->n++] = s;
	return NL_OK;
}

int nl80211_op_get_survey(void *priv, uint32_t ifindex, struct driver_survey *out, size_t max,
			  size_t *n)
{
	struct nl80211 *nl = priv;
	if (!nl80211_iface_find(nl, ifindex))
		return -ENODEV;
	struct survey_collect c = { .out = out, .max = max, .ifindex = ifindex };
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_GET_SURVEY, NLM_F_DUMP);
	if (msg && nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex) < 0) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	int r = nl80211_request(nl, msg, survey_entry, &c);
	*n = r == 0 ? c.n : 0;
	return r;
}
