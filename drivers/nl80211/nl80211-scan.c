/* Scanning: TRIGGER_SCAN, ABORT_SCAN, and the GET_SCAN dump of cfg80211's
 * BSS table. The events (SCAN_STARTED/DONE/ABORTED) come from the kernel's
 * scan multicast group (nl80211-event.c).
 *
 * cfg80211 keeps every BSS heard in the last 30 s, so results include
 * entries from earlier scans, as the sim's table does. dwell_ms is not
 * passed on: few devices honour a per-scan dwell. */
#define LOG_TAG "nl80211"
#include "drivers/nl80211/nl80211.h"
#include "daemon/core/log.h"

#include <errno.h>
#include <linux/nl80211.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <stdlib.h>
#include <string.h>

static int check_freqs(struct nl80211 *nl, struct nl80211_iface *ifc,
		       const struct driver_scan_params *p)
{
	struct nl80211_radio *r = nl80211_radio_find(nl, ifc->info.radio_id);
	size_t usable = 0;

	if (!r)
		return -ENODEV;
	for (size_t i = 0; i < p->n_freqs; i++) {
		const struct driver_channel *ch = nl80211_wiphy_channel(&r->w.capa, p->freqs[i]);
		if (!ch)
			return -EINVAL;
		if (!(ch->flags & DRIVER_CHAN_DISABLED))
			usable++;
	}
	return p->n_freqs && !usable ? -EINVAL : 0;
}

int nl80211_op_scan_trigger(void *priv, uint32_t ifindex, const struct driver_scan_params *p)
{
	struct nl80211 *nl = priv;
	struct nl80211_iface *ifc = nl80211_iface_find(nl, ifindex);

	if (!ifc)
		return -ENODEV;
	if (!p)
		return -EINVAL;
	int r = check_freqs(nl, ifc, p);
	if (r < 0)
		return r;
	if (ifc->internal_scan)
		return -EBUSY;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_TRIGGER_SCAN, 0);
	int built = msg ? nl80211_build_scan(msg, ifindex, p) : -ENOMEM;
	return nl80211_request_built(nl, msg, built, NULL, NULL);
}

/* A scan of one channel to bring a BSS into cfg80211's table, which
 * AUTHENTICATE requires; its events stay inside the backend. Passive, or
 * active with a directed probe (ssid). */
int nl80211_scan_internal(struct nl80211 *nl, struct nl80211_iface *ifc, uint32_t freq,
			  const struct driver_ssid *ssid)
{
	struct driver_scan_params p = { .n_freqs = 1, .freqs = { freq }, .passive = !ssid };
	int r;

	if (ssid && ssid->len) {
		p.n_ssids = 1;
		p.ssids[0] = *ssid;
	}
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_TRIGGER_SCAN, 0);
	int built = msg ? nl80211_build_scan(msg, ifc->info.ifindex, &p) : -ENOMEM;
	r = nl80211_request_built(nl, msg, built, NULL, NULL);
	if (r == 0)
		ifc->internal_scan = true;
	return r;
}

int nl80211_op_scan_abort(void *priv, uint32_t ifindex)
{
	struct nl80211 *nl = priv;
	struct nl80211_iface *ifc = nl80211_iface_find(nl, ifindex);

	if (!ifc)
		return -ENODEV;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_ABORT_SCAN, 0);
	if (msg && nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex) < 0) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	int r = nl80211_request(nl, msg, NULL, NULL);
	return r == -ENOENT ? -EALREADY : r; /* no scan running */
}

struct scan_collect {
	struct driver_scan_results *res;
	size_t cap;
	uint32_t ifindex;
	int err;
};

static int scan_entry(struct nl_msg *msg, void *arg)
{
	struct scan_collect *c = arg;
	struct driver_scan_result r;
	uint32_t ifindex = 0;

	if (c->err || nl80211_parse_scan_result(nlmsg_hdr(msg), &ifindex, &r) < 0)
		return NL_SKIP;
	if (ifindex && ifindex != c->ifindex) {
		free(r.ies);
		return NL_SKIP;
	}
	if (c->res->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 32;
		struct driver_scan_result *grown = realloc(c->res->results, cap * sizeof(*grown));
		if (!grown) {
			free(r.ies);
			c->err = -ENOMEM;
			return NL_SKIP;
		}
		c->res->results = grown;
		c->cap = cap;
	}
	c->res->results[c->res->n++] = r;
	return NL_OK;
}

int nl80211_op_get_scan_results(void *priv, uint32_t ifindex, struct driver_scan_results *res)
{
	struct nl80211 *nl = priv;

	if (!nl80211_iface_find(nl, ifindex))
		return -ENODEV;
	res->n = 0;
	res->results = NULL;
	for (int attempt = 0; attempt < 3; attempt++) {
		struct scan_collect c = { .res = res, .ifindex = ifindex };
		struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_GET_SCAN, NLM_F_DUMP);
		if (msg && nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex) < 0) {
			nlmsg_free(msg);
			return -EMSGSIZE;
		}
		int r = nl80211_request(nl, msg, scan_entry, &c);
		if (r == 0 && c.err)
			r = c.err;
		if (r == 0)
			return 0;
		driver_scan_results_free(res);
		if (r != -EAGAIN) /* -EAGAIN: the table changed during the dump */
			return r;
	}
	return -EAGAIN;
}
