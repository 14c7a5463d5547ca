/* The medium socket of one interface: HELLO with the interface's address,
 * SET_CHANNEL when it retunes, TX for each frame; RX and TX_STATUS come
 * back and are handed to the RX and TX paths. */
#define LOG_TAG "sim"
#include "drivers/sim/radio.h"
#include "drivers/sim/medium.h"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define SIM_UNICAST_RETRIES 7
/* Messages handled per wakeup, so one busy link cannot starve the loop. */
#define SIM_LINK_BATCH 64

static int link_send(struct sim_iface *ifc, const struct medium_msg *msg)
{
	uint8_t buf[MEDIUM_MAX_MSG];
	if (ifc->link.dead || ifc->link.fd < 0)
		return -ENOTCONN;
	int n = medium_msg_encode(msg, buf, sizeof(buf));
	if (n < 0)
		return n;
	if (send(ifc->link.fd, buf, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
		int err = -errno;
		log_debug("%s: medium send: %s", ifc->name, strerror(errno));
		return err;
	}
	return 0;
}

static void link_lost(struct sim_iface *ifc)
{
	if (ifc->link.dead)
		return;
	log_error("%s: lost the medium connection", ifc->name);
	ifc->link.dead = true;
	loop_io_free(ifc->link.io);
	ifc->link.io = NULL;
	struct driver_event ev = {
		.type = DRIVER_EV_RADIO_ERROR,
		.radio_id = ifc->radio->id,
		.ifindex = ifc->ifindex,
		.u.radio_error = { .kind = DRIVER_RADIO_ERR_FIRMWARE_CRASH,
				   .err = -ECONNRESET,
				   .detail = "the simulated medium went away" },
	};
	sim_emit(ifc->sim, &ev);
	if (ifc->tx.inflight)
		sim_tx_status(ifc, ifc->tx.inflight_cookie, false, 0);
}

static void handle_msg(struct sim_iface *ifc, const struct medium_msg *msg)
{
	switch (msg->type) {
	case MEDIUM_MSG_RX: {
		struct sim_rx rx = { .freq = msg->u.rx.freq_mhz, .signal_mbm = msg->u.rx.signal_mbm };
		sim_rx_frame(ifc, msg->frame, msg->frame_len, &rx);
		break;
	}
	case MEDIUM_MSG_TX_STATUS:
		sim_tx_status(ifc, msg->u.tx_status.cookie, msg->u.tx_status.acked,
			      msg->u.tx_status.attempts);
		break;
	case MEDIUM_MSG_WELCOME:
		log_debug("%s: attached to the medium as radio %u", ifc->name,
			  msg->u.welcome.radio_id);
		break;
	default:
		log_debug("%s: ignoring medium message %s", ifc->name,
			  medium_msg_type_name(msg->type));
		break;
	}
}

static void on_readable(struct loop_io *io, int fd, uint32_t events, void *data)
{
	struct sim_iface *ifc = data;
	uint8_t buf[MEDIUM_MAX_MSG];

	for (int i = 0; i < SIM_LINK_BATCH; i++) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		if (n <= 0) {
			link_lost(ifc);
			return;
		}
		struct medium_msg msg;
		int err = medium_msg_decode(buf, (size_t)n, &msg);
		if (err < 0) {
			log_warn("%s: undecodable medium message (%zd bytes): %s", ifc->name, n,
				 strerror(-err));
			continue;
		}
		handle_msg(ifc, &msg);
		if (ifc->link.dead)
			return;
	}
	if (events & (EPOLLHUP | EPOLLERR) && !(events & EPOLLIN))
		link_lost(ifc);
}

int sim_link_open(struct sim_iface *ifc)
{
	struct sim *sim = ifc->sim;
	int fd = sim->opts.medium == SIM_MEDIUM_PATH ? medium_connect_path(sim->opts.medium_dir)
						     : medium_connect_local(sim->medium);
	if (fd < 0)
		return fd;
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
		int err = -errno;
		close(fd);
		return err;
	}
	ifc->link.fd = fd;
	ifc->link.io = loop_io_new(sim->loop, fd, EPOLLIN, on_readable, ifc);
	if (!ifc->link.io) {
		close(fd);
		ifc->link.fd = -1;
		return -ENOMEM;
	}
	struct medium_msg hello = { .type = MEDIUM_MSG_HELLO };
	memcpy(hello.u.hello.addr, ifc->addr, SIM_ADDR_LEN);
	snprintf(hello.u.hello.name, sizeof(hello.u.hello.name), "%s", ifc->name);
	int err = link_send(ifc, &hello);
	if (err < 0) {
		sim_link_close(ifc);
		return err;
	}
	return 0;
}

void sim_link_close(struct sim_iface *ifc)
{
	loop_io_free(ifc->link.io);
	ifc->link.io = NULL;
	if (ifc->link.fd >= 0)
		close(ifc->link.fd);
	ifc->link.fd = -1;
}

void sim_link_tune(struct sim_iface *ifc, uint32_t freq)
{
	if (ifc->link.tuned_freq == freq)
		return;
	struct medium_msg msg = { .type = MEDIUM_MSG_SET_CHANNEL,
				  .u.set_channel.freq_mhz = freq };
	ifc->link.tuned_freq = freq;
	link_send(ifc, &msg);
	log_verbose("%s: tuned to %u MHz", ifc->name, freq);
}

uint64_t sim_link_tx(struct sim_iface *ifc, const uint8_t *frame, size_t len, bool no_ack,
		     uint16_t rate_100kbps)
{
	struct medium_msg msg = { .type = MEDIUM_MSG_TX, .frame = frame, .frame_len = len };
	msg.u.tx.cookie = ++ifc->link.next_cookie;
	msg.u.tx.rate_100kbps = rate_100kbps;
	msg.u.tx.flags = no_ack ? MEDIUM_TX_NO_ACK : 0;
	msg.u.tx.retry_limit = no_ack ? 0 : SIM_UNICAST_RETRIES;
	if (link_send(ifc, &msg) < 0)
		return 0;
	return msg.u.tx.cookie;
}
