/* The TAP data plane: bind_data_plane() opens a TAP device (IFF_TAP |
 * IFF_NO_PI) named by the caller, with the interface's MAC address.
 * Ethernet frames the host writes to it become QoS Data frames (the 802.1D
 * priority from the VLAN PCP or the IP DSCP picks the TID and AC); data
 * frames received on the air come out of it as Ethernet frames. EAPOL never
 * goes through the TAP: it stays on the control port (RX_EAPOL/tx_eapol).
 *
 * Backpressure: when the frame read from the TAP finds its AC's queue full,
 * it is held and reading stops until that AC wakes, so the kernel's TAP
 * queue (txqueuelen) absorbs the burst instead of frames being dropped here.
 */
#define LOG_TAG "sim"
#include "drivers/sim/radio.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define ETH_HDR_LEN 14
#define SIM_TAP_MTU_FRAME (ETH_HDR_LEN + 2304)
#define SIM_TAP_BATCH 64

struct sim_tap {
	int fd;
	struct loop_io *io;
	char name[IFNAMSIZ];
	int held_ac; /* -1: nothing held */
	size_t held_len;
	uint8_t held[SIM_TAP_MTU_FRAME];
};

/* Sends one Ethernet frame from the host. Returns -ENOBUFS when its AC is
 * full (the caller holds the frame), 0 otherwise (sent or counted). */
static int tap_send(struct sim_iface *ifc, const uint8_t *eth, size_t len, int *ac)
{
	if (len < ETH_HDR_LEN)
		return 0;
	uint16_t ethertype = get_be16(eth + 12);
	const uint8_t *payload = eth + ETH_HDR_LEN;
	size_t plen = len - ETH_HDR_LEN;
	uint8_t prio = sim_classify(ethertype, payload, plen);
	*ac = driver_ac_from_priority(prio);
	int err = sim_data_send(ifc, eth, eth + 6, ethertype, payload, plen, prio, SIM_TXF_DATA,
				false, 0);
	if (err == -ENOBUFS)
		return err;
	if (err)
		ifc->stats.tap_tx_dropped++;
	return 0;
}

static void hold(struct sim_iface *ifc, const uint8_t *eth, size_t len, int ac)
{
	struct sim_tap *t = ifc->tap;
	memcpy(t->held, eth, len);
	t->held_len = len;
	t->held_ac = ac;
	loop_io_set_events(t->io, 0);
}

static void on_tap_readable(struct loop_io *io, int fd, uint32_t events, void *data)
{
	struct sim_iface *ifc = data;
	uint8_t buf[SIM_TAP_MTU_FRAME];
	for (int i = 0; i < SIM_TAP_BATCH && ifc->tap->held_ac < 0; i++) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR)
				log_warn("%s: TAP read: %s", ifc->name, strerror(errno));
			return;
		}
		int ac = 0;
		if (tap_send(ifc, buf, (size_t)n, &ac) == -ENOBUFS)
			hold(ifc, buf, (size_t)n, ac);
	}
}

void sim_tap_queue_woken(struct sim_iface *ifc, enum driver_ac ac)
{
	struct sim_tap *t = ifc->tap;
	if (!t || t->held_ac != (int)ac)
		return;
	int held_ac = 0;
	if (tap_send(ifc, t->held, t->held_len, &held_ac) == -ENOBUFS)
		return; /* still full: keep waiting */
	t->held_ac = -1;
	loop_io_set_events(t->io, EPOLLIN);
}

void sim_tap_write(struct sim_iface *ifc, const uint8_t *da, const uint8_t *sa,
		   uint16_t ethertype, const uint8_t *payload, size_t len)
{
	uint8_t frame[SIM_TAP_MTU_FRAME];
	if (len > sizeof(frame) - ETH_HDR_LEN) {
		ifc->stats.tap_rx_dropped++;
		return;
	}
	memcpy(frame, da, SIM_ADDR_LEN);
	memcpy(frame + 6, sa, SIM_ADDR_LEN);
	put_be16(frame + 12, ethertype);
	memcpy(frame + ETH_HDR_LEN, payload, len);
	if (write(ifc->tap->fd, frame, ETH_HDR_LEN + len) < 0)
		ifc->stats.tap_rx_dropped++;
}

/* One SIOCxIF* call on the TAP's name through a throwaway socket. */
static int tap_ioctl(const char *name, unsigned long req, struct ifreq *ifr)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -errno;
	snprintf(ifr->ifr_name, IFNAMSIZ, "%s", name);
	int err = ioctl(s, req, ifr) < 0 ? -errno : 0;
	close(s);
	return err;
}

void sim_tap_set_up(struct sim_iface *ifc, bool up)
{
	struct ifreq ifr;
	if (!ifc->tap)
		return;
	memset(&ifr, 0, sizeof(ifr));
	if (tap_ioctl(ifc->tap->name, SIOCGIFFLAGS, &ifr) < 0)
		return;
	if (up)
		ifr.ifr_flags |= IFF_UP;
	else
		ifr.ifr_flags &= ~IFF_UP;
	int err = tap_ioctl(ifc->tap->name, SIOCSIFFLAGS, &ifr);
	if (err)
		log_warn("%s: cannot set %s %s: %s", ifc->name, ifc->tap->name,
			 up ? "up" : "down", strerror(-err));
}

static int tap_open(const char *name, const uint8_t addr[SIM_ADDR_LEN], int *out)
{
	int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", name);
	if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
		int err = -errno;
		close(fd);
		return err;
	}
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_hwaddr.sa_family = ARPHRD_ETHER;
	memcpy(ifr.ifr_hwaddr.sa_data, addr, SIM_ADDR_LEN);
	int err = tap_ioctl(name, SIOCSIFHWADDR, &ifr);
	if (err)
		log_warn("cannot set the address of %s: %s", name, strerror(-err));
	*out = fd;
	return 0;
}

int sim_bind_data_plane(void *priv, uint32_t ifindex, const char *os_ifname)
{
	struct sim *sim = priv;
	struct sim_iface *ifc = sim_iface_find(sim, ifindex);
	if (!ifc)
		return -ENODEV;
	if (ifc->type == DRIVER_IFTYPE_MONITOR)
		return -EOPNOTSUPP;
	if (!os_ifname || !*os_ifname || strlen(os_ifname) >= IFNAMSIZ)
		return -EINVAL;
	if (ifc->tap)
		return -EBUSY;
	struct sim_tap *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	int err = tap_open(os_ifname, ifc->addr, &t->fd);
	if (err) {
		log_error("%s: cannot create TAP %s: %s", ifc->name, os_ifname, strerror(-err));
		free(t);
		return err;
	}
	snprintf(t->name, sizeof(t->name), "%s", os_ifname);
	t->held_ac = -1;
	t->io = loop_io_new(sim->loop, t->fd, EPOLLIN, on_tap_readable, ifc);
	if (!t->io) {
		close(t->fd);
		free(t);
		return -ENOMEM;
	}
	ifc->tap = t;
	sim_tap_set_up(ifc, ifc->up);
	log_info("%s: data plane on TAP %s", ifc->name, os_ifname);
	return 0;
}

void sim_tap_close(struct sim_iface *ifc)
{
	struct sim_tap *t = ifc->tap;
	if (!t)
		return;
	loop_io_free(t->io);
	close(t->fd);
	free(t);
	ifc->tap = NULL;
}
