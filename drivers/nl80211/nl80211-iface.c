/* Radios (wiphys) and interfaces (netdevs): discovery at open, hot-plug
 * bookkeeping, and the interface ops.
 *
 * Up/down uses a raw ioctl (SIOCGIFFLAGS/SIOCSIFFLAGS on an AF_INET
 * datagram socket), renames SIOCSIFNAME: no rtnetlink library needed.
 * Interfaces wpad creates carry SOCKET_OWNER, so the kernel removes them
 * when the backend's command socket closes, even if wpad crashes.
 */
#define LOG_TAG "nl80211"
#include "drivers/nl80211/nl80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <errno.h>
#include <linux/nl80211.h>
#include <net/if.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

/* ---- radios ---- */

struct wiphy_dump {
	struct nl80211 *nl;
	struct nl80211_wiphy *one;   /* refresh of one wiphy, or */
	struct nl80211_radio **list; /* every wiphy, collected here */
};

static struct nl80211_radio *radio_in(struct nl80211_radio **list, uint32_t id)
{
	for (struct nl80211_radio *r = *list; r; r = r->next)
		if (r->w.id == id)
			return r;
	struct nl80211_radio *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	nl80211_wiphy_init(&r->w);
	r->ps_support = -1;
	r->next = *list;
	*list = r;
	return r;
}

static int wiphy_part(struct nl_msg *msg, void *arg)
{
	struct wiphy_dump *d = arg;
	uint32_t id;

	if (nl80211_wiphy_index(nlmsg_hdr(msg), &id) < 0)
		return NL_SKIP;
	struct nl80211_wiphy *w = d->one;
	if (!w) {
		struct nl80211_radio *r = radio_in(d->list, id);
		if (!r)
			return NL_SKIP;
		w = &r->w;
	}
	if (nl80211_wiphy_parse(w, nlmsg_hdr(msg)) < 0)
		log_debug("wiphy %u: skipped a malformed part", id);
	return NL_OK;
}

static int dump_wiphys(struct nl80211 *nl, struct wiphy_dump *d, bool filter, uint32_t id)
{
	for (int attempt = 0; attempt < 3; attempt++) {
		struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_GET_WIPHY, NLM_F_DUMP);
		if (!msg)
			return -ENOMEM;
		if (nla_put_flag(msg, NL80211_ATTR_SPLIT_WIPHY_DUMP) < 0 ||
		    (filter && nla_put_u32(msg, NL80211_ATTR_WIPHY, id) < 0)) {
			nlmsg_free(msg);
			return -EMSGSIZE;
		}
		int r = nl80211_request(nl, msg, wiphy_part, d);
		if (r != -EAGAIN) /* -EAGAIN: the dump was interrupted, start over */
			return r;
		if (d->one)
			nl80211_wiphy_init(d->one);
	}
	return -EAGAIN;
}

static void read_perm_addr(struct nl80211_radio *r)
{
	char path[96], buf[32];
	unsigned int a[6];

	snprintf(path, sizeof(path), "/sys/class/ieee80211/%s/macaddress", r->w.name);
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f) &&
	    sscanf(buf, "%x:%x:%x:%x:%x:%x", &a[0], &a[1], &a[2], &a[3], &a[4], &a[5]) == 6)
		for (int i = 0; i < 6; i++)
			r->perm_addr[i] = (uint8_t)a[i];
	fclose(f);
}

int nl80211_radio_refresh(struct nl80211 *nl, struct nl80211_radio *r)
{
	struct nl80211_wiphy w;
	struct wiphy_dump d = { .nl = nl, .one = &w };

	nl80211_wiphy_init(&w);
	int ret = dump_wiphys(nl, &d, true, r->w.id);
	if (ret < 0)
		return ret;
	if (!w.have_id)
		return -ENODEV;
	nl80211_wiphy_finish(&w);
	r->w = w;
	r->capa_stale = false;
	return 0;
}

struct nl80211_radio *nl80211_radio_add(struct nl80211 *nl, uint32_t wiphy)
{
	struct nl80211_radio *r = nl80211_radio_find(nl, wiphy);
	if (r)
		return r;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	nl80211_wiphy_init(&r->w);
	r->w.id = wiphy;
	r->ps_support = -1;
	if (nl80211_radio_refresh(nl, r) < 0 || !nl80211_wants_radio(nl, r->w.name)) {
		free(r);
		return NULL;
	}
	read_perm_addr(r);
	r->next = nl->radios;
	nl->radios = r;
	return r;
}

void nl80211_radio_remove(struct nl80211 *nl, struct nl80211_radio *r, bool announce)
{
	uint32_t id = r->w.id;

	for (struct nl80211_iface *i = nl->ifaces, *next; i; i = next) {
		next = i->next;
		if (i->info.radio_id == id)
			nl80211_iface_forget(nl, i, announce);
	}
	for (struct nl80211_radio **pp = &nl->radios; *pp; pp = &(*pp)->next)
		if (*pp == r) {
			*pp = r->next;
			break;
		}
	free(r);
	if (announce) {
		struct driver_event ev = { .type = DRIVER_EV_RADIO_DEL, .radio_id = id };
		nl80211_emit(nl, &ev);
	}
}

/* ---- interfaces ---- */

int nl80211_netdev_flags(struct nl80211 *nl, const char *name, bool *up)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(nl->ioctl_fd, SIOCGIFFLAGS, &ifr) < 0)
		return -errno;
	*up = (ifr.ifr_flags & IFF_UP) != 0;
	return 0;
}

/* The kernel's name for ifindex now (it may have been renamed). */
static void refresh_name(struct nl80211_iface *ifc)
{
	char name[IF_NAMESIZE];
	if (if_indextoname(ifc->info.ifindex, name))
		snprintf(ifc->info.name, sizeof(ifc->info.name), "%s", name);
}

struct nl80211_iface *nl80211_iface_track(struct nl80211 *nl,
					  const struct driver_iface_info *info)
{
	struct nl80211_iface *ifc = nl80211_iface_find(nl, info->ifindex);
	if (ifc)
		return ifc;
	ifc = calloc(1, sizeof(*ifc));
	if (!ifc)
		return NULL;
	ifc->owner = nl;
	ifc->info = *info;
	ifc->eapol_fd = ifc->data_fd = ifc->bridge_eapol_fd = -1;
	nl80211_netdev_flags(nl, ifc->info.name, &ifc->info.up);
	ifc->next = nl->ifaces;
	nl->ifaces = ifc;
	if (nl80211_data_attach(nl, ifc) < 0)
		log_warn("%s: no packet sockets: EAPOL/data fallback unavailable", info->name);
	return ifc;
}

void nl80211_iface_forget(struct nl80211 *nl, struct nl80211_iface *ifc, bool announce)
{
	uint32_t ifindex = ifc->info.ifindex, radio = ifc->info.radio_id;

	for (struct nl80211_iface **pp = &nl->ifaces; *pp; pp = &(*pp)->next)
		if (*pp == ifc) {
			*pp = ifc->next;
			break;
		}
	nl80211_data_detach(ifc);
	nl80211_ap_stopped(nl, ifc);
	free(ifc);
	if (announce) {
		struct driver_event ev = { .type = DRIVER_EV_IFACE_DEL, .radio_id = radio,
					   .ifindex = ifindex };
		nl80211_emit(nl, &ev);
	}
}

static int iface_part(struct nl_msg *msg, void *arg)
{
	struct nl80211 *nl = arg;
	struct driver_iface_info info;

	if (nl80211_parse_iface(nlmsg_hdr(msg), &info) == 0 &&
	    nl80211_radio_find(nl, info.radio_id))
		nl80211_iface_track(nl, &info);
	return NL_OK;
}

int nl80211_discover(struct nl80211 *nl)
{
	struct nl80211_radio *list = NULL;
	struct wiphy_dump d = { .nl = nl, .list = &list };

	int r = dump_wiphys(nl, &d, false, 0);
	while (list) {
		struct nl80211_radio *rad = list;
		list = rad->next;
		if (r < 0 || !rad->w.have_id || !nl80211_wants_radio(nl, rad->w.name)) {
			free(rad);
			continue;
		}
		nl80211_wiphy_finish(&rad->w);
		read_perm_addr(rad);
		rad->next = nl->radios;
		nl->radios = rad;
	}
	if (r < 0)
		return r;
	if (nl->only_phy[0] && !nl->radios) {
		log_error("nl80211: no wiphy named %s", nl->only_phy);
		return -ENODEV;
	}
	return nl80211_request(nl, nl80211_cmd(nl, NL80211_CMD_GET_INTERFACE, NLM_F_DUMP),
			       iface_part, nl);
}

/* ---- radio ops ---- */

int nl80211_op_list_radios(void *priv, struct driver_radio_info *out, size_t max, size_t *n)
{
	struct nl80211 *nl = priv;
	size_t k = 0;

	for (struct nl80211_radio *r = nl->radios; r; r = r->next) {
		if (k < max) {
			memset(&out[k], 0, sizeof(out[k]));
			out[k].id = r->w.id;
			memcpy(out[k].name, r->w.name, sizeof(out[k].name));
			memcpy(out[k].perm_addr, r->perm_addr, DRIVER_ADDR_LEN);
		}
		k++;
	}
	/* Lowest wiphy index first, as the kernel numbered them. */
	size_t have = k < max ? k : max;
	for (size_t i = 1; i < have; i++)
		for (size_t j = i; j > 0 && out[j - 1].id > out[j].id; j--) {
			struct driver_radio_info t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	*n = have;
	return 0;
}

int nl80211_op_get_capa(void *priv, uint32_t radio_id, struct driver_capa *capa)
{
	struct nl80211 *nl = priv;
	struct nl80211_radio *r = nl80211_radio_find(nl, radio_id);

	if (!r)
		return -ENODEV;
	if (r->capa_stale && nl80211_radio_refresh(nl, r) < 0)
		log_warn("%s: could not re-read capabilities", r->w.name);
	if (r->ps_support < 0)
		nl80211_probe_power_save(nl, r);
	*capa = r->w.capa;
	if (r->ps_support > 0)
		capa->flags |= DRIVER_CAPA_POWER_SAVE;
	return 0;
}

/* ---- interface ops ---- */

struct iface_query {
	struct driver_iface_info info;
	bool found;
};

static int iface_answer(struct nl_msg *msg, void *arg)
{
	struct iface_query *q = arg;
	if (nl80211_parse_iface(nlmsg_hdr(msg), &q->info) == 0)
		q->found = true;
	return NL_OK;
}

/* Re-reads type, address and channel from the kernel, the flags from the
 * netdev. A station that is not on a channel keeps the one set_channel
 * gave it (the channel its off-channel frames go out on). */
static int iface_refresh(struct nl80211 *nl, struct nl80211_iface *ifc)
{
	struct iface_query q = { .found = false };
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_GET_INTERFACE, 0);

	if (msg && nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifc->info.ifindex) < 0) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	int r = nl80211_request(nl, msg, iface_answer, &q);
	if (r < 0)
		return r;
	if (!q.found)
		return -ENODEV;
	ifc->info.iftype = q.info.iftype;
	memcpy(ifc->info.addr, q.info.addr, DRIVER_ADDR_LEN);
	ifc->info.freq_mhz = q.info.freq_mhz ? q.info.freq_mhz : ifc->chan_hint;
	if (q.info.name[0])
		memcpy(ifc->info.name, q.info.name, sizeof(ifc->info.name));
	nl80211_netdev_flags(nl, ifc->info.name, &ifc->info.up);
	return 0;
}

int nl80211_op_list_ifaces(void *priv, struct driver_iface_info *out, size_t max, size_t *n)
{
	struct nl80211 *nl = priv;
	size_t k = 0;

	for (struct nl80211_iface *i = nl->ifaces; i && k < max; i = i->next) {
		refresh_name(i);
		nl80211_netdev_flags(nl, i->info.name, &i->info.up);
		out[k++] = i->info;
	}
	*n = k;
	return 0;
}

int nl80211_op_iface_info(void *priv, uint32_t ifindex, struct driver_iface_info *info)
{
	struct nl80211 *nl = priv;
	struct nl80211_iface *ifc = nl80211_iface_find(nl, ifindex);

	if (!ifc)
		return -ENODEV;
	int r = iface_refresh(nl, ifc);
	if (r < 0 && r != -ENODEV)
		log_debug("%s: GET_INTERFACE: %s", ifc->info.name, strerror(-r));
	*info = ifc->info;
	return 0;
}

static int pick_name(struct nl80211 *nl, char *name, size_t cap)
{
	for (int tries = 0; tries < 1000; tries++) {
		snprintf(name, cap, "%s%u", nl->ifname_prefix, nl->ifname_seq++);
		if (if_nametoindex(name) == 0)
			return 0;
	}
	return -EEXIST;
}

static struct nl_msg *new_iface_msg(struct nl80211 *nl, uint32_t radio_id, const char *name,
				    uint32_t nltype, const uint8_t *addr)
{
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_NEW_INTERFACE, 0);
	if (!msg)
		return NULL;
	if (nla_put_u32(msg, NL80211_ATTR_WIPHY, radio_id) < 0 ||
	    nla_put_string(msg, NL80211_ATTR_IFNAME, name) < 0 ||
	    nla_put_u32(msg, NL80211_ATTR_IFTYPE, nltype) < 0 ||
	    (addr && nla_put(msg, NL80211_ATTR_MAC, 6, addr) < 0) ||
	    nla_put_flag(msg, NL80211_ATTR_SOCKET_OWNER) < 0) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

int nl80211_op_iface_add(void *priv, uint32_t radio_id, const char *name,
			 enum driver_iftype type, const uint8_t *addr, uint32_t *ifindex)
{
	struct nl80211 *nl = priv;
	char buf[IF_NAMESIZE];
	uint32_t nltype;
	struct iface_query q = { .found = false };

	if (!nl80211_radio_find(nl, radio_id))
		return -ENODEV;
	if (nl80211_iftype_to_nl(type, &nltype) < 0)
		return -EINVAL;
	if (name && strlen(name) >= IF_NAMESIZE)
		return -EINVAL;
	if (!name) {
		if (pick_name(nl, buf, sizeof(buf)) < 0)
			return -EEXIST;
		name = buf;
	}
	int r = nl80211_request(nl, new_iface_msg(nl, radio_id, name, nltype, addr), iface_answer,
				&q);
	if (r < 0)
		return r;
	if (!q.found)
		return -EIO;
	struct nl80211_iface *ifc = nl80211_iface_track(nl, &q.info);
	if (!ifc)
		return -ENOMEM;
	ifc->owned = true;
	if (ifindex)
		*ifindex = ifc->info.ifindex;
	struct driver_event ev = { .type = DRIVER_EV_IFACE_NEW, .radio_id = radio_id,
				   .ifindex = ifc->info.ifindex };
	nl80211_defer(nl, &ev);
	return 0;
}

static int ifindex_request(struct nl80211 *nl, uint8_t cmd, uint32_t ifindex)
{
	struct nl_msg *msg = nl80211_cmd(nl, cmd, 0);
	if (msg && nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex) < 0) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return nl80211_request(nl, msg, NULL, NULL);
}

int nl80211_op_iface_del(void *priv, uint32_t ifindex)
{
	struct nl80211 *nl = priv;
	struct nl80211_iface *ifc = nl80211_iface_find(nl, ifindex);

	if (!ifc)
		return -ENODEV;
	if (ifc->adopted)
		return -EBUSY; /* the system's: iface_release gives it back */
	int r = ifindex_request(nl, NL80211_CMD_DEL_INTERFACE, ifindex);
	if (r < 0 && r != -ENODEV)
		return r;
	struct driver_event ev = { .type = DRIVER_EV_IFACE_DEL, .radio_id = ifc->info.radio_id,
				   .ifindex = ifindex };
	nl80211_iface_forget(nl, ifc, false);
	nl80211_defer(nl, &ev);
	return 0;
}

static int set_flags(struct nl80211 *nl, struct nl80211_iface *ifc, bool up)
{
	struct ifreq ifr;

	refresh_name(ifc);
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifc->info.name);
	if (ioctl(nl->ioctl_fd, SIOCGIFFLAGS, &ifr) < 0)
		return -errno;
	if (!!(ifr.ifr_flags & IFF_UP) == up)
		return 0;
	if (up)
		ifr.ifr_flags |= IFF_UP;
	else
		ifr.ifr_flags &= ~IFF_UP;
	if (ioctl(nl->ioctl_fd, SIOCSIFFLAGS, &ifr) < 0)
		return -errno;
	return 0;
}

/* A device that loads its firmware when brought up says -ENOENT when the
 * file is missing (request_firmware's error), some -ENOPKG; both become
 * -ENOPKG (FirmwareMissing) and a RADIO_ERROR. A kill switch: -ERFKILL and
 * RADIO_ERROR with kind RFKILL. */
static int up_failed(struct nl80211 *nl, struct nl80211_iface *ifc, int err)
{
	struct driver_event ev = { .type = DRIVER_EV_RADIO_ERROR, .radio_id = ifc->info.radio_id,
				   .ifindex = ifc->info.ifindex };
	if (err == -ENOENT || err == -ENOPKG) {
		err = -ENOPKG;
		ev.u.radio_error.kind = DRIVER_RADIO_ERR_FIRMWARE_MISSING;
		ev.u.radio_error.detail = "the device's firmware could not be loaded";
	} else if (err == -ERFKILL) {
		ev.u.radio_error.kind = DRIVER_RADIO_ERR_RFKILL;
		ev.u.radio_error.detail = "blocked by a kill switch";
	} else {
		return err;
	}
	ev.u.radio_error.err = err;
	nl80211_defer(nl, &ev);
	return err;
}

int nl80211_op_iface_set_up(void *priv, uint32_t ifindex, bool up)
{
	struct nl80211 *nl = priv;
	struct nl80211_iface *ifc = nl80211_iface_find(nl, ifindex);

	if (!ifc)
		return -ENODEV;
	int r = set_flags(nl, ifc, up);
	if (r < 0) {
		log_warn("%s: cannot bring %s: %s", ifc->info.name, up ? "up" : "down",
			 strerror(-r));
		return up ? up_failed(nl, ifc, r) : r;
	}
	ifc->info.up = up;
	if (!up) {
		ifc->associated = false;
		nl80211_ap_stopped(nl, ifc);
	}
	return 0;
}

static int set_type_msg(struct nl80211 *nl, uint32_t ifindex, uint32_t nltype)
{
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_SET_INTERFACE, 0);
	if (msg && (nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex) < 0 ||
		    nla_put_u32(msg, NL80211_ATTR_IFTYPE, nltype) < 0)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return nl80211_request(nl, msg, NULL, NULL);
}

int nl80211_op_iface_set_type(void *priv, uint32_t ifindex, enum driver_iftype type)
{
	struct nl80211 *nl = priv;
	struct nl80211_iface *ifc = nl80211_iface_find(nl, ifindex);
	uint32_t nltype;

	if (!ifc)
		return -ENODEV;
	if (nl80211_iftype_to_nl(type, &nltype) < 0)
		return -EINVAL;
	int r = set_type_msg(nl, ifindex, nltype);
	if (r == -EBUSY && ifc->info.up) {
		/* The device cannot change a running interface: down, change, up. */
		if ((r = set_flags(nl, ifc, false)) == 0) {
			r = set_type_msg(nl, ifindex, nltype);
			int up = set_flags(nl, ifc, true);
			if (r == 0)
				r = up;
		}
	}
	if (r < 0)
		return r;
	ifc->info.iftype = type;
	ifc->associated = false;
	nl80211_ap_stopped(nl, ifc);
	return 0;
}

int nl80211_op_set_channel(void *priv, uint32_t ifindex, uint32_t freq_mhz)
{
	struct nl80211 *nl = priv;
	struct nl80211_iface *ifc = nl80211_iface_find(nl, ifindex);

	if (!ifc)
		return -ENODEV;
	struct nl80211_radio *rad = nl80211_radio_find(nl, ifc->info.radio_id);
	const struct driver_channel *ch = rad ? nl80211_wiphy_channel(&rad->w.capa, freq_mhz) : NULL;
	if (!ch)
		return -EINVAL;
	if (ch->flags & DRIVER_CHAN_DISABLED)
		return -EPERM;
	/* nl80211 has no channel for a station outside a connection: it is
	 * where tx_mgmt sends off-channel frames by default. */
	if (ifc->info.iftype == DRIVER_IFTYPE_STATION) {
		ifc->chan_hint = freq_mhz;
		return 0;
	}
	if (ifc->info.iftype == DRIVER_IFTYPE_AP && (ch->flags & (DRIVER_CHAN_NO_IR |
								 DRIVER_CHAN_RADAR)))
		return -EPERM;
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_SET_WIPHY, 0);
	if (msg && (nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex) < 0 ||
		    nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, freq_mhz) < 0)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	int r = nl80211_request(nl, msg, NULL, NULL);
	if (r == 0)
		ifc->chan_hint = freq_mhz;
	return r;
}
