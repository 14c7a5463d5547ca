/* One connection to the medium: reading datagrams, the per-client send
 * queue (a slow reader backs up into it instead of blocking the medium), the
 * dispatch of radio messages, and detaching.
 *
 * Detaching happens in two steps so no callback ever holds a freed client:
 * medium_client_kill() closes the socket and drops queued messages at once,
 * and the reaper (an idle callback) unlinks and frees dead clients at the
 * start of the next iteration, cancelling their frames on the air. */
#define _GNU_SOURCE /* accept4, POLLRDHUP */
#define LOG_TAG "medium"
#include "daemon/core/log.h"
#include "daemon/core/loop.h"
#include "drivers/sim/medium-internal.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define READS_PER_WAKEUP 64 /* then let other clients and timers run */
#define CLIENT_SNDBUF (1 << 20)

/* ---- sending ---- */

static void outq_drop(struct medium_client *c)
{
	while (c->out_head) {
		struct medium_outmsg *om = c->out_head;
		c->out_head = om->next;
		free(om);
	}
	c->out_tail = NULL;
	c->out_count = 0;
}

static bool would_block(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK || err == EINTR || err == ENOBUFS;
}

/* Sends queued messages until the socket is full. */
static void flush(struct medium_client *c)
{
	while (c->out_head && !c->dead) {
		struct medium_outmsg *om = c->out_head;
		if (send(c->fd, om->data, om->len, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
			if (!would_block(errno))
				medium_client_kill(c, strerror(errno));
			return;
		}
		c->out_head = om->next;
		if (!c->out_head)
			c->out_tail = NULL;
		c->out_count--;
		free(om);
	}
	if (!c->dead)
		loop_io_set_events(c->io, EPOLLIN);
}

static bool enqueue_out(struct medium_client *c, const uint8_t *buf, size_t len)
{
	if (c->out_count >= MEDIUM_CLIENT_QUEUE_MAX) {
		c->m->stats.rx_overflow++;
		log_debug("client %u: send queue full, message dropped", c->id);
		return false;
	}
	struct medium_outmsg *om = malloc(sizeof(*om) + len);
	if (!om) {
		c->m->stats.rx_overflow++;
		return false;
	}
	om->next = NULL;
	om->len = len;
	memcpy(om->data, buf, len);
	if (c->out_tail)
		c->out_tail->next = om;
	else
		c->out_head = om;
	c->out_tail = om;
	if (c->out_count++ == 0)
		loop_io_set_events(c->io, EPOLLIN | EPOLLOUT);
	return true;
}

bool medium_client_send(struct medium_client *c, const uint8_t *buf, size_t len)
{
	if (c->dead)
		return false;
	/* Only go straight to the socket when nothing is queued: order holds. */
	if (!c->out_head) {
		if (send(c->fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL) >= 0)
			return true;
		if (!would_block(errno)) {
			medium_client_kill(c, strerror(errno));
			return false;
		}
	}
	return enqueue_out(c, buf, len);
}

bool medium_client_send_msg(struct medium_client *c, const struct medium_msg *msg)
{
	int n = medium_msg_encode(msg, c->m->out_buf, sizeof(c->m->out_buf));
	if (n < 0) {
		log_error("cannot encode %s: %s", medium_msg_type_name(msg->type), strerror(-n));
		return false;
	}
	return medium_client_send(c, c->m->out_buf, (size_t)n);
}

/* ---- radio addresses ---- */

bool medium_client_owns_addr(const struct medium_client *c, const uint8_t addr[6])
{
	if (memcmp(c->addr, addr, 6) == 0)
		return true;
	for (size_t i = 0; i < c->n_extra; i++)
		if (memcmp(c->extra[i], addr, 6) == 0)
			return true;
	return false;
}

int medium_client_addr_update(struct medium_client *c, const uint8_t addr[6], bool add)
{
	size_t i = 0;

	while (i < c->n_extra && memcmp(c->extra[i], addr, 6) != 0)
		i++;
	if (!add) {
		if (i == c->n_extra)
			return -ENOENT;
		memcpy(c->extra[i], c->extra[--c->n_extra], 6);
		return 0;
	}
	if (addr[0] & 0x01)
		return -EINVAL; /* a group address is never ACKed */
	if (i < c->n_extra)
		return 0;
	if (c->n_extra == MEDIUM_RADIO_EXTRA_ADDRS)
		return -ENOSPC;
	memcpy(c->extra[c->n_extra++], addr, 6);
	return 0;
}

/* ---- receiving ---- */

static void bad_message(struct medium_client *c, int err, size_t len)
{
	c->m->stats.bad_messages++;
	log_debug("client %u: refused a %zu-byte message: %s", c->id, len, strerror(-err));
}

static void handle_hello(struct medium_client *c, const struct medium_msg *msg)
{
	struct medium_msg reply = { .type = MEDIUM_MSG_WELCOME };

	memcpy(c->addr, msg->u.hello.addr, 6);
	memcpy(c->name, msg->u.hello.name, sizeof(c->name));
	c->kind = MEDIUM_CLIENT_RADIO;
	c->id = ++c->m->next_radio_id;
	c->m->stats.radios++;
	log_debug("radio %u '%s' %02x:%02x:%02x:%02x:%02x:%02x attached", c->id, c->name,
		  c->addr[0], c->addr[1], c->addr[2], c->addr[3], c->addr[4], c->addr[5]);
	reply.u.welcome.radio_id = c->id;
	medium_client_send_msg(c, &reply);
}

/* Returns 0, or -EPROTO when the message is not valid from this client. */
static int handle_radio_msg(struct medium_client *c, const struct medium_msg *msg)
{
	bool radio = c->kind == MEDIUM_CLIENT_RADIO;
	int r;

	switch (msg->type) {
	case MEDIUM_MSG_HELLO:
		if (c->kind != MEDIUM_CLIENT_NEW)
			return -EPROTO;
		handle_hello(c, msg);
		return 0;
	case MEDIUM_MSG_SET_CHANNEL:
		if (!radio)
			return -EPROTO;
		r = medium_channel_tune(c, msg->u.set_channel.freq_mhz);
		if (r < 0)
			log_warn("radio %u: cannot tune: %s", c->id, strerror(-r));
		return 0;
	case MEDIUM_MSG_TX:
		if (!radio)
			return -EPROTO;
		medium_air_submit(c, msg);
		return 0;
	case MEDIUM_MSG_RADIO_ADDR:
		if (!radio)
			return -EPROTO;
		r = medium_client_addr_update(c, msg->u.radio_addr.addr, msg->u.radio_addr.add);
		if (r < 0)
			log_debug("radio %u: RADIO_ADDR refused: %s", c->id, strerror(-r));
		return 0;
	default:
		return -EPROTO;
	}
}

static void handle_datagram(struct medium_client *c, const uint8_t *buf, size_t len)
{
	struct medium_msg msg;
	int r = medium_msg_decode(buf, len, &msg);

	if (r < 0) {
		bad_message(c, r, len);
		return;
	}
	log_verbose("client %u: %s, %zu bytes", c->id, medium_msg_type_name(msg.type), len);
	switch (msg.type) {
	case MEDIUM_MSG_CTRL_HELLO:
	case MEDIUM_MSG_SET_LINK:
	case MEDIUM_MSG_SET_POSITION:
	case MEDIUM_MSG_CAPTURE:
	case MEDIUM_MSG_FAULT:
	case MEDIUM_MSG_INJECT:
	case MEDIUM_MSG_CLEAR_FAULTS:
	case MEDIUM_MSG_GET_STATS:
		medium_ctrl_handle(c, &msg);
		return;
	default:
		/* Radio messages, or ones only the medium sends (RX, ...). */
		r = handle_radio_msg(c, &msg);
		if (r < 0)
			bad_message(c, r, len);
		return;
	}
}

/* recv() gave 0: the peer closed, or sent an empty datagram. */
static bool peer_closed(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLRDHUP };
	return poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR));
}

static void read_some(struct medium_client *c)
{
	struct medium *m = c->m;

	for (int i = 0; i < READS_PER_WAKEUP && !c->dead; i++) {
		struct iovec iov = { .iov_base = m->in_buf, .iov_len = sizeof(m->in_buf) };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
		ssize_t n = recvmsg(c->fd, &mh, MSG_DONTWAIT);
		if (n < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
				medium_client_kill(c, strerror(errno));
			return;
		}
		if (n == 0 && peer_closed(c->fd)) {
			medium_client_kill(c, "peer closed");
			return;
		}
		if (mh.msg_flags & MSG_TRUNC)
			bad_message(c, -EMSGSIZE, (size_t)n);
		else
			handle_datagram(c, m->in_buf, (size_t)n);
	}
}

static void on_client_io(struct loop_io *io, int fd, uint32_t events, void *data)
{
	struct medium_client *c = data;

	if (events & EPOLLOUT)
		flush(c);
	if (!c->dead && (events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
		read_some(c);
}

/* ---- lifecycle ---- */

int medium_client_attach(struct medium *m, int fd)
{
	int sndbuf = CLIENT_SNDBUF;
	struct medium_client *c = calloc(1, sizeof(*c));

	if (!c) {
		close(fd);
		return -ENOMEM;
	}
	/* A deeper socket buffer absorbs bursts (a beacon to 200 radios)
	 * before the send queue has to. The kernel caps it; that is fine. */
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	c->m = m;
	c->fd = fd;
	c->kind = MEDIUM_CLIENT_NEW;
	c->io = loop_io_new(m->loop, fd, EPOLLIN, on_client_io, c);
	if (!c->io) {
		close(fd);
		free(c);
		return -ENOMEM;
	}
	c->prev = m->clients.prev;
	c->next = &m->clients;
	m->clients.prev->next = c;
	m->clients.prev = c;
	return 0;
}

void medium_client_kill(struct medium_client *c, const char *why)
{
	if (c->dead)
		return;
	c->dead = true;
	log_debug("client %u detached: %s", c->id, why);
	loop_io_free(c->io);
	c->io = NULL;
	close(c->fd);
	c->fd = -1;
	outq_drop(c);
	if (c->kind == MEDIUM_CLIENT_RADIO)
		c->m->stats.radios--;
	loop_idle_schedule(c->m->reaper);
}

void medium_client_reap(struct medium *m)
{
	struct medium_client *next;

	for (struct medium_client *c = m->clients.next; c != &m->clients; c = next) {
		next = c->next;
		if (!c->dead)
			continue;
		medium_channel_tune(c, 0);
		medium_air_forget(m, c);
		c->prev->next = c->next;
		c->next->prev = c->prev;
		free(c);
	}
}
