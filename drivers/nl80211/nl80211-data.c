/* EAPOL and data.
 *
 * EAPOL goes over nl80211's control port (CONTROL_PORT_FRAME, with a TX
 * status when the wiphy has CONTROL_PORT_OVER_NL80211_TX_STATUS) on
 * interfaces that associated or started their AP with
 * CONTROL_PORT_OVER_NL80211. Elsewhere it takes an AF_PACKET socket bound
 * to ETH_P_PAE on the netdev; such frames get a TX status at once
 * (acked = true: the packet socket cannot tell).
 *
 * Data: tx_data writes an Ethernet frame to an AF_PACKET socket on the
 * netdev, with SO_PRIORITY 256 + UP so mac80211 uses that user priority.
 * While no data plane is bound, received frames (other than EAPOL) come up
 * as DRIVER_EV_RX_DATA from an ETH_P_ALL packet socket. bind_data_plane:
 * the netdev *is* the data plane; binding it to another name renames it
 * (down, rename, up again), after which the OS stack owns the data.
 */
#define LOG_TAG "nl80211"
#include "drivers/nl80211/nl80211.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/nl80211.h>
#include <net/if.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define FRAME_MAX 2400

static int packet_socket(uint32_t ifindex, uint16_t proto)
{
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(proto));
	if (fd < 0)
		return -errno;
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(proto),
				   .sll_ifindex = (int)ifindex };
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	return fd;
}

static void rx_packet(struct nl80211 *nl, struct nl80211_iface *ifc, int fd, bool eapol,
		      bool from_bridge)
{
	uint8_t buf[FRAME_MAX];
	struct sockaddr_ll from;
	socklen_t fl = sizeof(from);
	uint32_t ifindex = ifc->info.ifindex;

	for (int i = 0; i < 64 && !nl->closing; i++) {
		ssize_t n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
		if (n < 0)
			return;
		if (from.sll_pkttype == PACKET_OUTGOING || n < ETH_HLEN)
			continue;
		uint16_t type = (uint16_t)(buf[12] << 8 | buf[13]);
		if (!eapol && (type == ETH_P_PAE || ifc->data_bound))
			continue;
		if (eapol && ifc->control_port)
			continue;
		/* On the bridge: only what is addressed to this interface. */
		if (from_bridge && memcmp(buf, ifc->info.addr, 6) != 0)
			continue;
		struct driver_event ev = { .radio_id = ifc->info.radio_id, .ifindex = ifindex };
		ev.type = eapol ? DRIVER_EV_RX_EAPOL : DRIVER_EV_RX_DATA;
		ev.u.data.dst = buf;
		ev.u.data.src = buf + 6;
		ev.u.data.ethertype = type;
		ev.u.data.body = buf + ETH_HLEN;
		ev.u.data.len = (size_t)n - ETH_HLEN;
		ev.u.data.was_encrypted = nl80211_keyed(ifc, buf + 6, buf[0] & 1);
		nl80211_emit(nl, &ev);
		/* The callback may have removed the interface. */
		if (nl80211_iface_find(nl, ifindex) != ifc)
			return;
	}
}

static void eapol_readable(struct loop_io *io, int fd, uint32_t events, void *data)
{
	struct nl80211_iface *ifc = data;
	struct nl80211 *nl = ifc->owner;
	nl80211_enter(nl);
	rx_packet(nl, ifc, fd, true, false);
	nl80211_leave(nl);
}

static void data_readable(struct loop_io *io, int fd, uint32_t events, void *data)
{
	struct nl80211_iface *ifc = data;
	struct nl80211 *nl = ifc->owner;
	nl80211_enter(nl);
	rx_packet(nl, ifc, fd, false, false);
	nl80211_leave(nl);
}

int nl80211_data_attach(struct nl80211 *nl, struct nl80211_iface *ifc)
{
	ifc->eapol_fd = packet_socket(ifc->info.ifindex, ETH_P_PAE);
	if (ifc->eapol_fd < 0)
		return ifc->eapol_fd;
	ifc->eapol_io = loop_io_new(nl->loop, ifc->eapol_fd, EPOLLIN, eapol_readable, ifc);
	if (!nl->opt_rx_data)
		return 0;
	ifc->data_fd = packet_socket(ifc->info.ifindex, ETH_P_ALL);
	if (ifc->data_fd < 0)
		return ifc->data_fd;
	ifc->data_io = loop_io_new(nl->loop, ifc->data_fd, EPOLLIN, data_readable, ifc);
	return 0;
}

static void bridge_eapol_readable(struct loop_io *io, int fd, uint32_t events, void *data)
{
	struct nl80211_iface *ifc = data;
	struct nl80211 *nl = ifc->owner;
	nl80211_enter(nl);
	rx_packet(nl, ifc, fd, true, true);
	nl80211_leave(nl);
}

/* The bridge this interface is a port of (sysfs "master" link), 0 if none. */
static uint32_t master_of(const char *ifname)
{
	char path[64], target[256];
	snprintf(path, sizeof(path), "/sys/class/net/%s/master", ifname);
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = '\0';
	const char *base = strrchr(target, '/');
	return if_nametoindex(base ? base + 1 : target);
}

void nl80211_data_bridge_eapol(struct nl80211 *nl, struct nl80211_iface *ifc)
{
	nl80211_data_bridge_eapol_stop(ifc);
	uint32_t br = ifc->control_port ? 0 : master_of(ifc->info.name);
	if (!br)
		return;
	ifc->bridge_eapol_fd = packet_socket(br, ETH_P_PAE);
	if (ifc->bridge_eapol_fd < 0) {
		log_warn("%s: no EAPOL socket on its bridge: %s", ifc->info.name,
			 strerror(-ifc->bridge_eapol_fd));
		return;
	}
	ifc->bridge_eapol_io = loop_io_new(nl->loop, ifc->bridge_eapol_fd, EPOLLIN,
					   bridge_eapol_readable, ifc);
	log_info("%s: EAPOL also read from its bridge (ifindex %u)", ifc->info.name, br);
}

void nl80211_data_bridge_eapol_stop(struct nl80211_iface *ifc)
{
	loop_io_free(ifc->bridge_eapol_io);
	ifc->bridge_eapol_io = NULL;
	if (ifc->bridge_eapol_fd >= 0)
		close(ifc->bridge_eapol_fd);
	ifc->bridge_eapol_fd = -1;
}

void nl80211_data_detach(struct nl80211_iface *ifc)
{
	nl80211_data_bridge_eapol_stop(ifc);
	loop_io_free(ifc->eapol_io);
	loop_io_free(ifc->data_io);
	ifc->eapol_io = ifc->data_io = NULL;
	if (ifc->eapol_fd >= 0)
		close(ifc->eapol_fd);
	if (ifc->data_fd >= 0)
		close(ifc->data_fd);
	ifc->eapol_fd = ifc->data_fd = -1;
}

static int send_ether(int fd, const struct nl80211_iface *ifc, const uint8_t *dst,
		      uint16_t type, const uint8_t *payload, size_t len)
{
	uint8_t frame[ETH_HLEN + FRAME_MAX];

	if (len > FRAME_MAX)
		return -EMSGSIZE;
	memcpy(frame, dst, 6);
	memcpy(frame + 6, ifc->info.addr, 6);
	frame[12] = (uint8_t)(type >> 8);
	frame[13] = (uint8_t)type;
	if (len)
		memcpy(frame + ETH_HLEN, payload, len);
	struct sockaddr_ll to = { .sll_family = AF_PACKET, .sll_protocol = htons(type),
				  .sll_ifindex = (int)ifc->info.ifindex, .sll_halen = 6 };
	memcpy(to.sll_addr, dst, 6);
	if (sendto(fd, frame, ETH_HLEN + len, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		return -errno;
	return 0;
}

static int tx_control_port(struct nl80211 *nl, struct nl80211_iface *ifc, const uint8_t *dst,
			   const uint8_t *body, size_t len, bool unencrypted, uint64_t *cookie)
{
	struct nl_msg *msg = nl80211_cmd(nl, NL80211_CMD_CONTROL_PORT_FRAME, 0);
	if (msg && (nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifc->info.ifindex) < 0 ||
		    nla_put(msg, NL80211_ATTR_FRAME, (int)len, body) < 0 ||
		    nla_put(msg, NL80211_ATTR_MAC, 6, dst) < 0 ||
		    nla_put_u16(msg, NL80211_ATTR_CONTROL_PORT_ETHERTYPE, ETH_P_PAE) < 0 ||
		    (unencrypted && nla_put_flag(msg, NL80211_ATTR_CONTROL_PORT_NO_ENCRYPT) < 0))) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return nl80211_request_cookie(nl, msg, cookie);
}

int nl80211_op_tx_eapol(void *priv, uint32_t ifindex, const uint8_t *dst, const uint8_t *body,
			size_t len, bool unencrypted, uint64_t *cookie)
{
	struct nl80211 *nl = priv;
	struct nl80211_iface *ifc = nl80211_iface_find(nl, ifindex);
	uint64_t c = 0;
	int r;

	if (!ifc)
		return -ENODEV;
	if (!dst || !body)
		return -EINVAL;
	if (ifc->control_port)
		r = tx_control_port(nl, ifc, dst, body, len, unencrypted, &c);
	else if (ifc->eapol_fd >= 0)
		r = send_ether(ifc->eapol_fd, ifc, dst, ETH_P_PAE, body, len);
	else
		r = -ENOTCONN;
	if (r < 0)
		return r;
	if (!c) { /* no status will come from the kernel: report one now */
		c = nl80211_local_cookie(nl);
		struct driver_event ev = { .type = DRIVER_EV_EAPOL_TX_STATUS,
					   .radio_id = ifc->info.radio_id, .ifindex = ifindex };
		ev.u.tx_status.cookie = c;
		ev.u.tx_status.acked = true;
		nl80211_defer(nl, &ev);
	}
	if (cookie)
		*cookie = c;
	return 0;
}

int nl80211_op_tx_data(void *priv, uint32_t ifindex, const uint8_t *dst, uint16_t ethertype,
		       const uint8_t *payload, size_t len, uint8_t priority)
{
	struct nl80211 *nl = priv;
	struct nl80211_iface *ifc = nl80211_iface_find(nl, ifindex);

	if (!ifc)
		return -ENODEV;
	if (!dst || (!payload && len))
		return -EINVAL;
	int fd = ifc->data_fd >= 0 ? ifc->data_fd : packet_socket(ifindex, ETH_P_ALL);
	if (fd < 0)
		return fd;
	int prio = 256 + (priority & 7); /* mac80211: 256..263 is the user priority */
	setsockopt(fd, SOL_SOCKET, SO_PRIORITY, &prio, sizeof(prio));
	int r = send_ether(fd, ifc, dst, ethertype, payload, len);
	if (fd != ifc->data_fd)
		close(fd);
	/* A netdev drops what it cannot send, as a full queue would. */
	return r == -ENOBUFS || r == -EAGAIN ? 0 : r;
}

static int rename_netdev(struct nl80211 *nl, struct nl80211_iface *ifc, const char *name)
{
	struct ifreq ifr;
	bool was_up = ifc->info.up;

	if (was_up && (nl80211_op_iface_set_up(nl, ifc->info.ifindex, false)) < 0)
		return -EBUSY;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifc->info.name);
	snprintf(ifr.ifr_newname, sizeof(ifr.ifr_newname), "%s", name);
	int r = ioctl(nl->ioctl_fd, SIOCSIFNAME, &ifr) < 0 ? -errno : 0;
	if (r == 0)
		snprintf(ifc->info.name, sizeof(ifc->info.name), "%s", name);
	if (was_up)
		nl80211_op_iface_set_up(nl, ifc->info.ifindex, true);
	return r;
}

int nl80211_op_bind_data_plane(void *priv, uint32_t ifindex, const char *os_ifname)
{
	struct nl80211 *nl = priv;
	struct nl80211_iface *ifc = nl80211_iface_find(nl, ifindex);

	if (!ifc)
		return -ENODEV;
	if (!os_ifname || !*os_ifname || strlen(os_ifname) >= IFNAMSIZ)
		return -EINVAL;
	char now[IF_NAMESIZE];
	if (if_indextoname(ifindex, now))
		snprintf(ifc->info.name, sizeof(ifc->info.name), "%s", now);
	if (strcmp(os_ifname, ifc->info.name) != 0) {
		int r = rename_netdev(nl, ifc, os_ifname);
		if (r < 0) {
			log_warn("%s: cannot rename to %s: %s", ifc->info.name, os_ifname,
				 strerror(-r));
			return r;
		}
		log_info("%s: data plane bound (netdev renamed)", os_ifname);
	}
	ifc->data_bound = true;
	return 0;
}
