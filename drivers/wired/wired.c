/* The wired backend: ops table, options, the packet socket that carries
 * EAPOL and the rtnetlink socket that reports the link. See wired.h and
 * docs/wired.md. */
#define LOG_TAG "wired"
#include "drivers/wired/wired.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "drivers/driver.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if_arp.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define WIRED_RADIO_ID 0
/* Room for the largest Ethernet frame plus one octet, so an oversized
 * datagram shows as truncated (MSG_TRUNC) instead of passing as whole. */
#define WIRED_RX_BUF 2048

struct wired {
	struct driver *drv;
	struct loop *loop;
	char ifname[IFNAMSIZ];
	uint32_t ifindex;
	uint8_t addr[6];
	int pkt_fd, rtnl_fd;
	struct loop_io *pkt_io, *rtnl_io;
	bool claimed;    /* a role took the interface (iface_add) */
	bool up, carrier;
	bool authorized; /* the port state the role last set (for iface_info) */
	unsigned rx_dropped;
};

/* ---- options ---- */

static int parse_options(struct wired *w, const char *options)
{
	char buf[256];
	if (!options || snprintf(buf, sizeof(buf), "%s", options) >= (int)sizeof(buf))
		return -EINVAL;
	char *save = NULL;
	for (char *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		if (!eq) {
			log_error("option '%s' has no value", kv);
			return -EINVAL;
		}
		*eq = '\0';
		const char *v = eq + 1;
		if (strcmp(kv, "ifname") == 0) {
			if (!*v || strlen(v) >= sizeof(w->ifname)) {
				log_error("ifname '%s': not an interface name", v);
				return -EINVAL;
			}
			strcpy(w->ifname, v);
		} else {
			log_error("unknown option '%s' (known: ifname)", kv);
			return -EINVAL;
		}
	}
	if (!w->ifname[0]) {
		log_error("the wired driver needs Options=ifname=IFNAME");
		return -EINVAL;
	}
	return 0;
}

/* ---- the interface ---- */

static int read_iface(struct wired *w)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, w->ifname, sizeof(w->ifname));
	int e = 0;
	if (ioctl(fd, SIOCGIFINDEX, &ifr) < 0) {
		e = -errno;
	} else {
		w->ifindex = (uint32_t)ifr.ifr_ifindex;
		if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
			e = -errno;
		else if (ifr.ifr_hwaddr.sa_family != ARPHRD_ETHER)
			e = -EPROTONOSUPPORT;
		else
			memcpy(w->addr, ifr.ifr_hwaddr.sa_data, 6);
	}
	if (e == 0 && ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		w->up = ifr.ifr_flags & IFF_UP;
		w->carrier = w->up && (ifr.ifr_flags & IFF_RUNNING);
	}
	close(fd);
	return e;
}

static int set_iface_up(struct wired *w, bool up)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, w->ifname, sizeof(w->ifname));
	int e = 0;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0) {
		e = -errno;
	} else if (!!(ifr.ifr_flags & IFF_UP) != up) {
		ifr.ifr_flags = (short)(up ? ifr.ifr_flags | IFF_UP : ifr.ifr_flags & ~IFF_UP);
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
			e = -errno;
	}
	close(fd);
	return e;
}

/* ---- receive ---- */

static void on_pkt(struct loop_io *io, int fd, uint32_t events, void *data)
{
	struct wired *w = data;
	uint8_t buf[WIRED_RX_BUF];
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC);
		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR)
				log_warn("%s: receive: %s", w->ifname, strerror(errno));
			return;
		}
		if ((size_t)n > sizeof(buf)) {
			w->rx_dropped++;
			log_debug("%s: dropped a %zd-octet frame (larger than Ethernet)", w->ifname, n);
			continue;
		}
		struct wired_frame f;
		enum wired_rx_err e = wired_parse_frame(buf, (size_t)n, w->addr, &f);
		if (e != WIRED_RX_OK) {
			w->rx_dropped++;
			log_debug("%s: dropped a frame: %s", w->ifname, wired_rx_err_name(e));
			continue;
		}
		struct driver_event ev = {
			.type = DRIVER_EV_RX_EAPOL,
			.radio_id = WIRED_RADIO_ID,
			.ifindex = w->ifindex,
			.u.data = { .src = f.src, .dst = f.dst, .ethertype = WIRED_ETHERTYPE_PAE,
				    .body = f.body, .len = f.len },
		};
		driver_emit(w->drv, &ev);
	}
}

static void emit_link(struct wired *w)
{
	struct driver_event ev = {
		.type = DRIVER_EV_LINK_CHANGE,
		.radio_id = WIRED_RADIO_ID,
		.ifindex = w->ifindex,
		.u.link = { .up = w->up, .carrier = w->carrier },
	};
	driver_emit(w->drv, &ev);
}

static void on_rtnl(struct loop_io *io, int fd, uint32_t events, void *data)
{
	struct wired *w = data;
	uint8_t buf[8192];
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC);
		if (n < 0) {
			if (errno == ENOBUFS) /* overrun: ask the kernel's view again */
				(void)read_iface(w);
			else if (errno != EAGAIN && errno != EINTR)
				log_warn("rtnetlink: %s", strerror(errno));
			if (errno != ENOBUFS)
				return;
			continue;
		}
		if ((size_t)n > sizeof(buf)) {
			log_warn("rtnetlink: a %zd-octet message, larger than expected", n);
			continue;
		}
		struct wired_link_state st = { 0 };
		enum wired_link_err e = wired_parse_link(buf, (size_t)n, w->ifindex, &st);
		if (e != WIRED_LINK_OK) {
			log_debug("rtnetlink: malformed message (%d)", e);
			continue;
		}
		if (!st.seen || (st.up == w->up && st.carrier == w->carrier))
			continue;
		log_info("%s: link %s%s", w->ifname, st.up ? "up" : "down",
			 st.up ? (st.carrier ? ", carrier" : ", no carrier") : "");
		w->up = st.up;
		w->carrier = st.carrier;
		if (st.has_addr)
			memcpy(w->addr, st.addr, 6);
		emit_link(w);
	}
}

/* ---- sockets ---- */

static int open_packet_socket(struct wired *w)
{
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, htons(ETH_P_PAE));
	if (fd < 0)
		return -errno;
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_PAE),
		.sll_ifindex = (int)w->ifindex,
	};
	struct packet_mreq mr = {
		.mr_ifindex = (int)w->ifindex,
		.mr_type = PACKET_MR_MULTICAST,
		.mr_alen = 6,
	};
	memcpy(mr.mr_address, wired_pae_group_addr, 6);
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0 ||
	    setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr)) < 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	w->pkt_fd = fd;
	return 0;
}

static int open_rtnl_socket(struct wired *w)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	struct sockaddr_nl snl = { .nl_family = AF_NETLINK, .nl_groups = RTMGRP_LINK };
	if (bind(fd, (struct sockaddr *)&snl, sizeof(snl)) < 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	w->rtnl_fd = fd;
	return 0;
}

/* ---- ops ---- */

static void op_close(void *priv)
{
	struct wired *w = priv;
	if (!w)
		return;
	loop_io_free(w->pkt_io);
	loop_io_free(w->rtnl_io);
	if (w->pkt_fd >= 0)
		close(w->pkt_fd);
	if (w->rtnl_fd >= 0)
		close(w->rtnl_fd);
	free(w);
}

static void *op_open(struct driver *drv, struct loop *loop, const char *options, int *err)
{
	struct wired *w = calloc(1, sizeof(*w));
	if (!w) {
		*err = -ENOMEM;
		return NULL;
	}
	w->drv = drv;
	w->loop = loop;
	w->pkt_fd = w->rtnl_fd = -1;
	int e = parse_options(w, options);
	if (e == 0 && (e = read_iface(w)) < 0)
		log_error("%s: %s", w->ifname,
			  e == -EPROTONOSUPPORT ? "not an Ethernet interface" : strerror(-e));
	if (e == 0 && (e = open_rtnl_socket(w)) < 0)
		log_error("rtnetlink socket: %s", strerror(-e));
	if (e == 0 && (e = open_packet_socket(w)) < 0)
		log_error("%s: EAPOL packet socket: %s", w->ifname, strerror(-e));
	if (e == 0) {
		w->pkt_io = loop_io_new(loop, w->pkt_fd, EPOLLIN, on_pkt, w);
		w->rtnl_io = loop_io_new(loop, w->rtnl_fd, EPOLLIN, on_rtnl, w);
		if (!w->pkt_io || !w->rtnl_io)
			e = -ENOMEM;
	}
	if (e < 0) {
		op_close(w);
		*err = e;
		return NULL;
	}
	log_info("%s: ifindex %u, EAPOL to %02x:%02x:%02x:%02x:%02x:%02x, link %s", w->ifname,
		 w->ifindex, wired_pae_group_addr[0], wired_pae_group_addr[1],
		 wired_pae_group_addr[2], wired_pae_group_addr[3], wired_pae_group_addr[4],
		 wired_pae_group_addr[5], w->carrier ? "up" : "down");
	return w;
}

static int op_list_radios(void *priv, struct driver_radio_info *out, size_t max, size_t *n)
{
	struct wired *w = priv;
	*n = 0;
	if (max == 0)
		return 0;
	memset(&out[0], 0, sizeof(out[0]));
	out[0].id = WIRED_RADIO_ID;
	snprintf(out[0].name, sizeof(out[0].name), "%s", w->ifname);
	memcpy(out[0].perm_addr, w->addr, 6);
	*n = 1;
	return 0;
}

static int op_get_capa(void *priv, uint32_t radio_id, struct driver_capa *capa)
{
	if (radio_id != WIRED_RADIO_ID)
		return -ENODEV;
	memset(capa, 0, sizeof(*capa));
	capa->iftypes = DRIVER_IFTYPE_STATION; /* the supplicant side of a port */
	capa->flags = DRIVER_CAPA_WIRED;
	capa->max_interfaces = 1;
	return 0;
}

static void fill_info(const struct wired *w, struct driver_iface_info *info)
{
	memset(info, 0, sizeof(*info));
	info->ifindex = w->ifindex;
	info->radio_id = WIRED_RADIO_ID;
	snprintf(info->name, sizeof(info->name), "%s", w->ifname);
	memcpy(info->addr, w->addr, 6);
	info->iftype = DRIVER_IFTYPE_STATION;
	info->up = w->up;
}

static int op_list_ifaces(void *priv, struct driver_iface_info *out, size_t max, size_t *n)
{
	struct wired *w = priv;
	*n = 0;
	if (!w->claimed || max == 0)
		return 0;
	fill_info(w, &out[0]);
	*n = 1;
	return 0;
}

static int op_iface_info(void *priv, uint32_t ifindex, struct driver_iface_info *info)
{
	struct wired *w = priv;
	if (ifindex != w->ifindex)
		return -ENODEV;
	fill_info(w, info);
	return 0;
}

/* There is nothing to create on Ethernet: the one interface is handed to
 * the one role that asks for it. */
static int op_iface_add(void *priv, uint32_t radio_id, const char *name,
			enum driver_iftype type, const uint8_t *addr, uint32_t *ifindex)
{
	struct wired *w = priv;
	if (radio_id != WIRED_RADIO_ID)
		return -ENODEV;
	if (type != DRIVER_IFTYPE_STATION || addr)
		return -EOPNOTSUPP;
	if (w->claimed)
		return -EBUSY;
	w->claimed = true;
	*ifindex = w->ifindex;
	return 0;
}

static int op_iface_del(void *priv, uint32_t ifindex)
{
	struct wired *w = priv;
	if (ifindex != w->ifindex || !w->claimed)
		return -ENODEV;
	w->claimed = false;
	return 0;
}

static int op_iface_set_up(void *priv, uint32_t ifindex, bool up)
{
	struct wired *w = priv;
	if (ifindex != w->ifindex)
		return -ENODEV;
	return set_iface_up(w, up);
}

/* EAPOL goes to the PAE group address unless the role names a peer
 * (IEEE 802.1X-2010 11.1.1: a supplicant that knows its authenticator may
 * address it individually; the group address reaches it through bridges
 * that would forward a unicast frame to a port it is not on). */
static int op_tx_eapol(void *priv, uint32_t ifindex, const uint8_t *dst, const uint8_t *body,
		       size_t len, bool unencrypted, uint64_t *cookie)
{
	struct wired *w = priv;
	static const uint8_t zero[6];
	if (ifindex != w->ifindex)
		return -ENODEV;
	if (!body || len < WIRED_EAPOL_HDR_LEN || len > 1500)
		return -EINVAL;
	uint8_t frame[WIRED_ETH_HDR_LEN + 1500];
	const uint8_t *to = dst && memcmp(dst, zero, 6) != 0 ? dst : wired_pae_group_addr;
	memcpy(frame, to, 6);
	memcpy(frame + 6, w->addr, 6);
	frame[12] = WIRED_ETHERTYPE_PAE >> 8;
	frame[13] = WIRED_ETHERTYPE_PAE & 0xff;
	memcpy(frame + WIRED_ETH_HDR_LEN, body, len);
	size_t flen = WIRED_ETH_HDR_LEN + len;
	ssize_t n = send(w->pkt_fd, frame, flen, 0);
	if (n < 0)
		return -errno;
	if (cookie)
		*cookie = 0;
	return (size_t)n == flen ? 0 : -EIO;
}

/* A supplicant has nothing to open or close on Ethernet: the
 * authenticator's bridge port filters. The state is kept for iface_info. */
static int op_port_authorize(void *priv, uint32_t ifindex, const uint8_t *peer, bool authorized)
{
	struct wired *w = priv;
	if (ifindex != w->ifindex)
		return -ENODEV;
	w->authorized = authorized;
	return 0;
}

const struct wpad_driver_ops wired_driver_ops = {
	.name = "wired",
	.description = "IEEE 802.1X on an Ethernet interface (AF_PACKET, PAE group address)",
	.open = op_open,
	.close = op_close,
	.list_radios = op_list_radios,
	.get_capa = op_get_capa,
	.list_ifaces = op_list_ifaces,
	.iface_info = op_iface_info,
	.iface_add = op_iface_add,
	.iface_del = op_iface_del,
	.iface_set_up = op_iface_set_up,
	.tx_eapol = op_tx_eapol,
	.port_authorize = op_port_authorize,
};
