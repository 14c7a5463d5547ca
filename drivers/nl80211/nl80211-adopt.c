/* Interfaces wpad takes over instead of creating: the kernel's wlan0 that
 * NetworkManager manages (wpa_supplicant opens the existing netdev too, and
 * many devices allow a single station interface). An adopted interface is
 * the system's: it is retyped if needed, never deleted, and given back with
 * the type and up state it had.
 */
#define LOG_TAG "nl80211"
#include "drivers/nl80211/nl80211.h"
#include "daemon/core/log.h"

#include <errno.h>
#include <linux/nl80211.h>
#include <net/if.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <string.h>

struct adopt_query {
	struct driver_iface_info info;
	bool found;
};

static int adopt_answer(struct nl_msg *msg, void *arg)
{
	struct adopt_query *q = arg;
	if (nl80211_parse_iface(nlmsg_hdr(msg), &q->info) == 0)
		q->found = true;
	return NL_OK;
}

/* The interface called name, tracked (it may have appeared after the
 * dump at open without its event reaching us yet): -ENODEV when no netdev
 * has the name, -EMEDIUMTYPE when it is not a wireless interface of
 * radio_id (an Ethernet port, or another phy's). */
static int find_wireless(struct nl80211 *nl, uint32_t radio_id, const char *name,
			 struct nl80211_iface **out)
{
	unsigned idx = if_nametoindex(name);
	if (idx == 0)
		return -ENODEV;
	struct adopt_query q = { .found = false };
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_GET_INTERFACE, 0);
	if (msg && nla_put_u32(msg, NL80211_ATTR_IFINDEX, idx) < 0) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	int r = nl80211_request(nl, msg, adopt_answer, &q);
	if (r < 0 && r != -ENODEV && r != -EOPNOTSUPP && r != -EINVAL)
		return r;
	if (r < 0 || !q.found || q.info.radio_id != radio_id)
		return -EMEDIUMTYPE; /* nl80211 does not know it, or another phy has it */
	*out = nl80211_iface_track(nl, &q.info);
	return *out ? 0 : -ENOMEM;
}

int nl80211_op_iface_adopt(void *priv, uint32_t radio_id, const char *name,
			   enum driver_iftype type, uint32_t *ifindex)
{
	struct nl80211 *nl = priv;
	struct nl80211_iface *ifc = NULL;
	struct driver_iface_info info;

	if (!nl80211_radio_find(nl, radio_id))
		return -ENODEV;
	if (!name || !*name || strlen(name) >= IF_NAMESIZE)
		return -EINVAL;
	int r = find_wireless(nl, radio_id, name, &ifc);
	if (r < 0)
		return r;
	if (ifc->owned || ifc->adopted)
		return -EBUSY;
	if ((r = nl80211_op_iface_info(nl, ifc->info.ifindex, &info)) < 0)
		return r;
	/* On a channel and up: connected or beaconing for another program
	 * (a wpa_supplicant or hostapd still running); taking it would cut
	 * that program's link from under it. */
	if (info.up && info.freq_mhz &&
	    (info.iftype == DRIVER_IFTYPE_STATION || info.iftype == DRIVER_IFTYPE_AP))
		return -EBUSY;
	if (info.iftype != type && (r = nl80211_op_iface_set_type(nl, ifc->info.ifindex, type)) < 0) {
		log_warn("%s: cannot make it a %s interface: %s", name, driver_iftype_name(type),
			 strerror(-r));
		return r;
	}
	ifc->adopted = true;
	ifc->found_type = info.iftype;
	ifc->found_up = info.up;
	log_info("%s: adopted (was %s, %s)", info.name, driver_iftype_name(info.iftype),
		 info.up ? "up" : "down");
	if (ifindex)
		*ifindex = ifc->info.ifindex;
	return 0;
}

int nl80211_op_iface_release(void *priv, uint32_t ifindex)
{
	struct nl80211 *nl = priv;
	struct nl80211_iface *ifc = nl80211_iface_find(nl, ifindex);

	if (!ifc)
		return -ENODEV;
	if (!ifc->adopted)
		return -EINVAL;
	/* Down first: a type change needs it on most devices, and it ends
	 * whatever wpad left running (a connection, a BSS). */
	int r = nl80211_op_iface_set_up(nl, ifindex, false);
	if (r == 0 && ifc->found_type != DRIVER_IFTYPE_UNSPEC && ifc->info.iftype != ifc->found_type)
		r = nl80211_op_iface_set_type(nl, ifindex, ifc->found_type);
	int up = ifc->found_up ? nl80211_op_iface_set_up(nl, ifindex, true) : 0;
	ifc->adopted = false;
	if (r < 0 || up < 0)
		log_warn("%s: not given back as found: %s", ifc->info.name,
			 strerror(-(r < 0 ? r : up)));
	return r < 0 ? r : up;
}
