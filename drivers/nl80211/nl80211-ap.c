/* Access point: START_AP/SET_BEACON/STOP_AP and the kernel's station table
 * (NEW/SET/DEL/GET_STATION).
 *
 * Regulatory checks happen here, before the kernel is asked: cfg80211
 * refuses a channel it may not beacon on with -EINVAL, while driver.h wants
 * -EPERM for "forbidden" and -EINVAL for "no such channel".
 *
 * Inactivity: a device with NL80211_FEATURE_INACTIVITY_TIMER polls its
 * stations itself (INACTIVITY_TIMEOUT is passed on); for the others (all of
 * mac80211) the backend reads every station's inactive time once a second
 * and raises DRIVER_EV_STA_INACTIVE once per silent spell. */
#define LOG_TAG "nl80211"
#include "drivers/nl80211/nl80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <errno.h>
#include <linux/nl80211.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <string.h>

static struct nl80211_iface *ap_iface(struct nl80211 *nl, uint32_t ifindex, int *err)
{
	struct nl80211_iface *ifc = nl80211_iface_find(nl, ifindex);
	*err = !ifc ? -ENODEV : ifc->info.iftype != DRIVER_IFTYPE_AP ? -EOPNOTSUPP : 0;
	return *err ? NULL : ifc;
}

static int check_channel(struct nl80211 *nl, struct nl80211_radio *r, uint32_t freq,
			 bool *ht)
{
	if (r->capa_stale)
		nl80211_radio_refresh(nl, r);
	for (int b = 0; b < DRIVER_BAND_COUNT; b++) {
		const struct driver_band_info *band = &r->w.capa.bands[b];
		for (size_t i = 0; band->present && i < band->n_channels; i++) {
			const struct driver_channel *ch = &band->channels[i];
			if (ch->freq_mhz != freq)
				continue;
			*ht = band->ht;
			/* A radar channel may be used once a CAC passed (DFS
			 * available); the kernel checks the whole chandef. */
			uint32_t bad = DRIVER_CHAN_DISABLED | DRIVER_CHAN_NO_IR | DRIVER_CHAN_RADAR;
			if (ch->flags & DRIVER_CHAN_DFS_AVAILABLE)
				bad = DRIVER_CHAN_DISABLED;
			if (ch->flags & bad)
				return -EPERM;
			return 0;
		}
	}
	return -EINVAL;
}

static int ifindex_msg(struct nl80211 *nl, uint8_t cmd, uint32_t ifindex)
{
	struct nl_msg *msg = nl80211_cmd(nl, cmd, 0);
	if (msg && nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex) < 0) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return nl80211_request(nl, msg, NULL, NULL);
}

static int set_isolate(struct nl80211 *nl, uint32_t ifindex, bool isolate)
{
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_SET_BSS, 0);
	if (msg && (nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex) < 0 ||
		    nla_put_u8(msg, NL80211_ATTR_AP_ISOLATE, isolate) < 0)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return nl80211_request(nl, msg, NULL, NULL);
}

int nl80211_op_start_ap(void *priv, uint32_t ifindex, const struct driver_ap_params *p)
{
	struct nl80211 *nl = priv;
	int r;
	struct nl80211_iface *ifc = ap_iface(nl, ifindex, &r);

	if (!ifc)
		return r;
	struct nl80211_radio *rad = nl80211_radio_find(nl, ifc->info.radio_id);
	if (!p || !rad)
		return -EINVAL;
	struct nl80211_ap_opts o = {
		.control_port_nl80211 = nl->opt_control_port &&
			nl80211_wiphy_ext_feature(&rad->w, NL80211_EXT_FEATURE_CONTROL_PORT_OVER_NL80211),
		.inactivity_timer = (rad->w.features & NL80211_FEATURE_INACTIVITY_TIMER) != 0,
	};
	if ((r = check_channel(nl, rad, p->freq_mhz, &o.ht)) < 0)
		return r;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_START_AP, 0);
	int built = msg ? nl80211_build_start_ap(msg, ifindex, p, &o) : -ENOMEM;
	if ((r = nl80211_request_built(nl, msg, built, NULL, NULL)) < 0)
		return r;
	ifc->ap_started = true;
	ifc->control_port = o.control_port_nl80211;
	ifc->info.freq_mhz = p->freq_mhz;
	nl80211_data_bridge_eapol(nl, ifc);
	if (p->ap_isolate && set_isolate(nl, ifindex, true) < 0)
		log_warn("%s: the device cannot isolate stations", ifc->info.name);
	return 0;
}

int nl80211_op_set_beacon(void *priv, uint32_t ifindex, const struct driver_ap_params *p)
{
	struct nl80211 *nl = priv;
	int r;
	struct nl80211_iface *ifc = ap_iface(nl, ifindex, &r);

	if (!ifc)
		return r;
	if (!p)
		return -EINVAL;
	if (!ifc->ap_started)
		return -ENOTCONN;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_SET_BEACON, 0);
	int built = msg ? nl80211_build_beacon(msg, ifindex, p) : -ENOMEM;
	return nl80211_request_built(nl, msg, built, NULL, NULL);
}

void nl80211_ap_stopped(struct nl80211 *nl, struct nl80211_iface *ifc)
{
	ifc->ap_started = false;
	nl80211_data_bridge_eapol_stop(ifc);
	ifc->n_keyed = 0;
	ifc->group_key = false;
}

int nl80211_op_stop_ap(void *priv, uint32_t ifindex)
{
	struct nl80211 *nl = priv;
	int r;
	struct nl80211_iface *ifc = ap_iface(nl, ifindex, &r);

	if (!ifc)
		return r;
	r = ifindex_msg(nl, NL80211_CMD_STOP_AP, ifindex);
	if (r == -ENOENT) /* not beaconing: already stopped */
		r = 0;
	if (r == 0)
		nl80211_ap_stopped(nl, ifc);
	return r;
}

/* ---- stations ---- */

int nl80211_op_sta_add(void *priv, uint32_t ifindex, const struct driver_sta_params *p)
{
	struct nl80211 *nl = priv;
	int r;
	struct nl80211_iface *ifc = ap_iface(nl, ifindex, &r);

	if (!ifc)
		return r;
	if (!p || (p->addr[0] & 1))
		return -EINVAL;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_NEW_STATION, 0);
	int built = msg ? nl80211_build_station(msg, ifindex, p, false) : -ENOMEM;
	return nl80211_request_built(nl, msg, built, NULL, NULL);
}

int nl80211_op_sta_set_flags(void *priv, uint32_t ifindex, const uint8_t *addr, uint32_t set,
			     uint32_t clear)
{
	struct nl80211 *nl = priv;

	if (!nl80211_iface_find(nl, ifindex))
		return -ENODEV;
	if (!addr)
		return -EINVAL;
	/* cfg80211 moves a station one state at a time, in order. */
	if (set & DRIVER_STA_AUTHORIZED)
		set |= DRIVER_STA_ASSOCIATED | DRIVER_STA_AUTHENTICATED;
	if (set & DRIVER_STA_ASSOCIATED)
		set |= DRIVER_STA_AUTHENTICATED;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_SET_STATION, 0);
	int built = msg ? nl80211_build_sta_flags(msg, ifindex, addr, set, clear) : -ENOMEM;
	return nl80211_request_built(nl, msg, built, NULL, NULL);
}

int nl80211_op_sta_del(void *priv, uint32_t ifindex, const uint8_t *addr)
{
	struct nl80211 *nl = priv;
	struct nl80211_iface *ifc = nl80211_iface_find(nl, ifindex);

	if (!ifc)
		return -ENODEV;
	if (!addr)
		return -EINVAL;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_DEL_STATION, 0);
	if (msg && (nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex) < 0 ||
		    nla_put(msg, NL80211_ATTR_MAC, 6, addr) < 0)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	int r = nl80211_request(nl, msg, NULL, NULL);
	if (r == 0)
		nl80211_keys_forget(ifc, addr);
	return r;
}

struct sta_query {
	struct driver_sta_info *info;
	bool found;
};

static int sta_answer(struct nl_msg *msg, void *arg)
{
	struct sta_query *q = arg;
	if (nl80211_parse_sta_info(nlmsg_hdr(msg), q->info) == 0)
		q->found = true;
	return NL_OK;
}

int nl80211_op_sta_info(void *priv, uint32_t ifindex, const uint8_t *addr,
			struct driver_sta_info *info)
{
	struct nl80211 *nl = priv;
	struct sta_query q = { .info = info };

	if (!nl80211_iface_find(nl, ifindex))
		return -ENODEV;
	if (!addr || !info)
		return -EINVAL;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_GET_STATION, 0);
	if (msg && (nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex) < 0 ||
		    nla_put(msg, NL80211_ATTR_MAC, 6, addr) < 0)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	int r = nl80211_request(nl, msg, sta_answer, &q);
	if (r < 0)
		return r;
	return q.found ? 0 : -ENOENT;
}

int nl80211_op_start_radar_detection(void *priv, uint32_t ifindex,
				     const struct driver_chandef *cd)
{
	struct nl80211 *nl = priv;
	int r;
	struct nl80211_iface *ifc = ap_iface(nl, ifindex, &r);
	if (!ifc)
		return r;
	if (!cd)
		return -EINVAL;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_RADAR_DETECT, 0);
	int built = msg ? nl80211_build_radar_detect(msg, ifindex, cd) : -ENOMEM;
	if ((r = nl80211_request_built(nl, msg, built, NULL, NULL)) < 0)
		return r;
	ifc->info.freq_mhz = cd->control_mhz;
	return 0;
}

int nl80211_op_channel_switch(void *priv, uint32_t ifindex, const struct driver_csa_params *p)
{
	struct nl80211 *nl = priv;
	int r;
	struct nl80211_iface *ifc = ap_iface(nl, ifindex, &r);
	if (!ifc)
		return r;
	if (!p)
		return -EINVAL;
	if (!ifc->ap_started)
		return -ENOTCONN;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_CHANNEL_SWITCH, 0);
	int built = msg ? nl80211_build_channel_switch(msg, ifindex, p) : -ENOMEM;
	return nl80211_request_built(nl, msg, built, NULL, NULL);
}

/* mac80211 sends a (QoS) Null frame; the ACK comes back as a
 * PROBE_CLIENT event with this cookie (nl80211-event.c). */
int nl80211_op_probe_client(void *priv, uint32_t ifindex, const uint8_t *addr, uint64_t *cookie)
{
	struct nl80211 *nl = priv;
	int r;
	struct nl80211_iface *ifc = ap_iface(nl, ifindex, &r);
	if (!ifc)
		return r;
	if (!addr)
		return -EINVAL;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_PROBE_CLIENT, 0);
	if (msg && (nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex) < 0 ||
		    nla_put(msg, NL80211_ATTR_MAC, 6, addr) < 0)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return nl80211_request_cookie(nl, msg, cookie);
}
