/* Regulatory domain (GET_REG, REQ_SET_REG; the kernel's REG_CHANGE events
 * are handled in nl80211-event.c) and station power save (SET_POWER_SAVE).
 *
 * nl80211 does not say whether a device supports power save: the backend
 * finds out by switching it off and on again on an idle station interface
 * of the radio (the first get_capa() after one exists), and reports
 * DRIVER_CAPA_POWER_SAVE only when that worked. */
#define LOG_TAG "nl80211"
#include "drivers/nl80211/nl80211.h"
#include "daemon/core/log.h"

#include <ctype.h>
#include <errno.h>
#include <linux/nl80211.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <string.h>

struct reg_query {
	struct driver_regulatory *reg;
	bool found;
};

static int reg_answer(struct nl_msg *msg, void *arg)
{
	struct reg_query *q = arg;
	if (nl80211_parse_reg(nlmsg_hdr(msg), q->reg) == 0)
		q->found = true;
	return NL_OK;
}

static int read_reg(struct nl80211 *nl, const uint32_t *wiphy, struct driver_regulatory *reg)
{
	struct reg_query q = { .reg = reg };
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_GET_REG, 0);

	if (msg && wiphy && nla_put_u32(msg, NL80211_ATTR_WIPHY, *wiphy) < 0) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	int r = nl80211_request(nl, msg, reg_answer, &q);
	if (r < 0)
		return r;
	return q.found ? 0 : -ENOENT;
}

int nl80211_op_get_regulatory(void *priv, uint32_t radio_id, struct driver_regulatory *reg)
{
	struct nl80211 *nl = priv;
	struct nl80211_radio *r = nl80211_radio_find(nl, radio_id);

	if (!r)
		return -ENODEV;
	if (!reg)
		return -EINVAL;
	if (r->reg_known) {
		*reg = r->reg;
		return 0;
	}
	int err = read_reg(nl, &radio_id, reg);
	if (err == 0 && nl->reg_events) {
		r->reg = *reg;
		r->reg_known = true;
	}
	return err;
}

static bool valid_alpha2(const char *a)
{
	if (!a || strlen(a) != 2)
		return false;
	if (strcmp(a, "00") == 0)
		return true;
	return isupper((unsigned char)a[0]) && isupper((unsigned char)a[1]);
}

int nl80211_op_set_regulatory(void *priv, const char *alpha2)
{
	struct nl80211 *nl = priv;
	struct driver_regulatory now;

	if (!valid_alpha2(alpha2))
		return -EINVAL;
	for (struct nl80211_radio *r = nl->radios; r; r = r->next)
		r->reg_known = false; /* read again: the change comes as an event */
	/* The kernel says nothing when asked for the domain it has: say it. */
	if (read_reg(nl, NULL, &now) == 0 && strcmp(now.alpha2, alpha2) == 0) {
		for (struct nl80211_radio *r = nl->radios; r; r = r->next) {
			struct driver_event ev = { .type = DRIVER_EV_REG_CHANGE, .radio_id = r->w.id };
			nl80211_defer(nl, &ev);
		}
		return 0;
	}
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_REQ_SET_REG, 0);
	if (msg && nla_put_string(msg, NL80211_ATTR_REG_ALPHA2, alpha2) < 0) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return nl80211_request(nl, msg, NULL, NULL);
}

static int set_ps(struct nl80211 *nl, uint32_t ifindex, bool enabled)
{
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_SET_POWER_SAVE, 0);
	if (msg && (nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex) < 0 ||
		    nla_put_u32(msg, NL80211_ATTR_PS_STATE,
				enabled ? NL80211_PS_ENABLED : NL80211_PS_DISABLED) < 0)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return nl80211_request(nl, msg, NULL, NULL);
}

int nl80211_op_set_power_save(void *priv, uint32_t ifindex, bool enabled)
{
	struct nl80211 *nl = priv;
	struct nl80211_iface *ifc = nl80211_iface_find(nl, ifindex);

	if (!ifc)
		return -ENODEV;
	if (ifc->info.iftype != DRIVER_IFTYPE_STATION)
		return -EOPNOTSUPP;
	int r = set_ps(nl, ifindex, enabled);
	struct nl80211_radio *rad = nl80211_radio_find(nl, ifc->info.radio_id);
	if (rad && (r == 0 || r == -EOPNOTSUPP))
		rad->ps_support = r == 0;
	return r;
}

void nl80211_probe_power_save(struct nl80211 *nl, struct nl80211_radio *r)
{
	for (struct nl80211_iface *i = nl->ifaces; i; i = i->next) {
		if (i->info.radio_id != r->w.id || i->info.iftype != DRIVER_IFTYPE_STATION ||
		    i->associated)
			continue;
		/* cfg80211 ignores a request for the state it has: flip twice. */
		int on = set_ps(nl, i->info.ifindex, true);
		int off = set_ps(nl, i->info.ifindex, false);
		if (on == -EOPNOTSUPP || off == -EOPNOTSUPP)
			r->ps_support = 0;
		else if (on == 0 && off == 0)
			r->ps_support = 1;
		return;
	}
}
